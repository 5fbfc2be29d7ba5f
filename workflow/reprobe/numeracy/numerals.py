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


_DIGIT = re.compile(r"\d")


def has_arabic_numeral(tokens: list[str], text: str | None = None) -> bool:
    """Whether any token is an Arabic numeral; `text`, the tokens' sentence, allows a quick no."""
    if text is not None and _DIGIT.search(text) is None:
        return False
    # A numeral ends in a digit: a cheap test before the regular expression.
    return any(token[-1:].isdigit() and is_arabic_numeral(token) for token in tokens)
