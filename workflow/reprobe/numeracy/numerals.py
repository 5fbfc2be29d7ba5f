"""What counts as a numeral, and its value."""

from __future__ import annotations

import re

# Integers and decimals, optionally signed, with or without thousands separators:
# "7", "-2", "+3", "1,000", "1,000,000.25", "3.5", ".5".
_ARABIC = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?")


def is_arabic_numeral(token: str) -> bool:
    """Whether a token is an Arabic numeral (integer or decimal, signs and separators)."""
    return bool(token) and any(c.isdigit() for c in token) and _ARABIC.fullmatch(token) is not None


def arabic_value(token: str) -> float | None:
    """The value of an Arabic numeral token, or None when it is not one."""
    if not is_arabic_numeral(token):
        return None
    return float(token.replace(",", ""))


def has_arabic_numeral(tokens: list[str]) -> bool:
    """Whether any token is an Arabic numeral (cheap test first: a numeral ends in a digit)."""
    return any(token[-1:].isdigit() and is_arabic_numeral(token) for token in tokens)
