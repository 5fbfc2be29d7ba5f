"""The released code's NUMSET record and the Python 2 semantics its comparisons rely on.

`Numset` follows `numset.py` (fields, is_equal, is_unequal). The released code ran on Python 2,
where a number compares below a string or a list instead of raising, and `/` on two integers
floors; values the parser leaves as strings ("163k", "1,000" inside a range) meet numbers in the
reasoner's and the equation checker's comparisons, so those comparisons go through `py2_cmp`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Value = Any  # a parsed value: int, float, str, or a list of them (a range)


@dataclass(eq=False)
class Numset:
    """A quantity's fields as numset.py holds them (identity equality, as the class has no
    __eq__: two numsets parsed from the same words are two quantities)."""

    value: list[Any]
    unit: list[str] = field(default_factory=list)
    entity: list[str] = field(default_factory=list)
    approximate: bool = False
    frequency: str = ""
    change: list[bool] = field(default_factory=lambda: [False, False])
    adjective: list[str] = field(default_factory=list)
    verb: list[str] = field(default_factory=list)
    location: str = ""
    mention: list[str] = field(default_factory=list)
    position: int = -1

    def attributes(self) -> tuple[Any, ...]:
        """The nine fields is_equal compares, in its order (numset.py ≈ lines 22-26)."""
        return (self.value, self.unit, self.entity, self.approximate, self.frequency,
                self.change, self.adjective, self.verb, self.location)

    def equal_count(self, other: Numset) -> int:
        """Numset.is_equal (≈ lines 22-26): how many of the nine fields are equal."""
        return sum(a == b for a, b in zip(self.attributes(), other.attributes(), strict=True))

    def unequal_count(self, other: Numset) -> int:
        """Numset.is_unequal (≈ lines 28-32): how many of the nine fields differ."""
        return sum(a != b for a, b in zip(self.attributes(), other.attributes(), strict=True))


def is_number(value: Value) -> bool:
    """Python 2's `isinstance(v, int) or isinstance(v, float)` (bools are ints there too)."""
    return isinstance(value, (int, float))


def _rank(value: Value) -> tuple[int, str]:
    """Python 2's order of unrelated types: numbers first, then by type name."""
    return (0, "") if is_number(value) else (1, type(value).__name__)


def py2_cmp(a: Value, b: Value) -> int:
    """Python 2's cmp(a, b) for the values the parser produces (numbers, strings, lists)."""
    if _rank(a) != _rank(b):
        return -1 if _rank(a) < _rank(b) else 1
    if isinstance(a, list):
        for x, y in zip(a, b, strict=False):
            c = py2_cmp(x, y)
            if c:
                return c
        return (len(a) > len(b)) - (len(a) < len(b))
    return (a > b) - (a < b)


def lt(a: Value, b: Value) -> bool:
    """a < b under Python 2."""
    return py2_cmp(a, b) < 0


def le(a: Value, b: Value) -> bool:
    """a <= b under Python 2."""
    return py2_cmp(a, b) <= 0


def py2_min(a: Value, b: Value) -> Value:
    """min(a, b) under Python 2 (the first of two equals)."""
    return b if lt(b, a) else a


def py2_max(a: Value, b: Value) -> Value:
    """max(a, b) under Python 2 (the first of two equals)."""
    return b if lt(a, b) else a


def py2_divide(a: Value, b: Value) -> Value:
    """a / b under Python 2: floor division when both are integers."""
    if isinstance(a, int) and isinstance(b, int):
        return a // b
    return a / b
