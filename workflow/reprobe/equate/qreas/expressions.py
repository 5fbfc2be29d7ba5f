"""Q-REAS equations (EQUATE §4.2.4): quantities, expression trees, their values and types.

The operators are the paper's set O (Table 3); values are closed intervals (a single value is an
interval of width 0); types are normalised unit strings, combined as Table 5 says (`types_after`).
`reprobe.equate.qreas.compose` searches for equations, `reprobe.equate.qreas.ilp` checks them
against the ILP.

Interpretations where the paper's tables are ambiguous:
- Table 5 lists × and ÷ under both "two type match" and "one type match"; read as alternatives:
  × yields the type of either operand, ÷ yields the type of its left operand.
- Range operators take ranges, arithmetic operators single values (Table 5's operator
  consistency, applied to the value kind of every stack entry).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

ADD, SUB, MUL, DIV = "+", "-", "*", "/"
INTERSECT, UNION, DIFF = "&", "|", "\\"
EQ, SUBSET = "=", "<="
ARITHMETIC = (ADD, SUB, MUL, DIV)
RANGE_OPERATORS = (INTERSECT, UNION, DIFF)
COMPARATORS = (EQ, SUBSET)
# The paper's operator set O, in the order that fixes the symbol list and the tie-break.
OPERATORS = ARITHMETIC + RANGE_OPERATORS + COMPARATORS
COMMUTATIVE = frozenset({ADD, MUL, INTERSECT, UNION})
SYMBOLS = {ADD: "+", SUB: "−", MUL: "×", DIV: "÷", INTERSECT: "∩", UNION: "∪", DIFF: "\\",
           EQ: "=", SUBSET: "⊆"}
# Operators whose result has the same type as both operands (Table 5, "two type match").
SAME_TYPE = frozenset({ADD, SUB, INTERSECT, UNION, DIFF, EQ, SUBSET})
_REL_TOL = 1e-9

Interval = tuple[float, float]


@runtime_checkable
class QuantityLike(Protocol):
    """What composition needs from a quantity: a value range and a unit."""

    @property
    def low(self) -> float: ...

    @property
    def high(self) -> float: ...

    @property
    def unit(self) -> str: ...


@dataclass(frozen=True)
class Quantity:
    """Minimal quantity: closed value range [low, high], unit noun, optional entity noun."""

    low: float
    high: float
    unit: str
    entity: str | None = None

    @classmethod
    def single(cls, value: float, unit: str, entity: str | None = None) -> Quantity:
        """A single-valued quantity."""
        return cls(value, value, unit, entity)


def unit_type(quantity: QuantityLike) -> str:
    """The type Table 5 compares: the normalised unit string."""
    return quantity.unit.strip().lower()


def is_range(quantity: QuantityLike) -> bool:
    """Whether a quantity is range-valued rather than a single value."""
    return quantity.low != quantity.high


def _format_number(value: float) -> str:
    """Render a number without float noise: 6048 not 6048.0, 2.5 stays 2.5."""
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if float(value).is_integer():
        return str(int(value))
    return format(value, ".12g")


def _format_interval(low: float, high: float) -> str:
    """A single value as a number, a range as [low, high]."""
    if low == high:
        return _format_number(low)
    return f"[{_format_number(low)}, {_format_number(high)}]"


@dataclass(frozen=True)
class Leaf:
    """A premise quantity used as an operand (index into the premise list)."""

    index: int
    quantity: QuantityLike

    def render(self) -> str:
        """The quantity's value."""
        return _format_interval(self.quantity.low, self.quantity.high)

    def postfix(self) -> tuple[int | str, ...]:
        """Postfix symbols: the premise index."""
        return (self.index,)

    def height(self) -> int:
        """Operator levels below this node."""
        return 0


@dataclass(frozen=True)
class Node:
    """A binary operation over two subtrees."""

    op: str
    left: Term
    right: Term

    def render(self) -> str:
        """Infix text; operands that are operations are parenthesised."""
        parts = [t.render() if isinstance(t, Leaf) else f"({t.render()})"
                 for t in (self.left, self.right)]
        return f"{parts[0]} {SYMBOLS[self.op]} {parts[1]}"

    def postfix(self) -> tuple[int | str, ...]:
        """Postfix symbols of the subtree."""
        return (*self.left.postfix(), *self.right.postfix(), self.op)

    def height(self) -> int:
        """Operator levels of the subtree."""
        return 1 + max(self.left.height(), self.right.height())


Term = Leaf | Node


@dataclass(frozen=True)
class Expression:
    """A justification: an expression over premise quantities compared with the hypothesis."""

    tree: Term
    target: QuantityLike
    comparator: str

    def render(self) -> str:
        """The premise side in infix, e.g. `6048 − 193`."""
        return self.tree.render()

    def equation(self) -> str:
        """The whole equation, e.g. `6048 − 193 = 5855`."""
        target = _format_interval(self.target.low, self.target.high)
        return f"{self.render()} {SYMBOLS[self.comparator]} {target}"

    def evaluate(self) -> Interval:
        """Value of the premise side as an interval (low == high for single values)."""
        value = evaluate(self.tree)
        if value is None:  # cannot happen for expressions built by compose()
            raise ValueError(f"expression {self.render()} is undefined")
        return value

    def postfix(self) -> tuple[int | str, ...]:
        """The paper's postfix form: premise indices, operators, then `H` and the comparator."""
        return (*self.tree.postfix(), "H", self.comparator)

    def leaves(self) -> tuple[int, ...]:
        """Premise indices used, in order of appearance."""
        return tuple(s for s in self.tree.postfix() if isinstance(s, int))

    def __str__(self) -> str:
        return self.render()


def apply(op: str, a: Interval, b: Interval) -> Interval | None:
    """Apply one operator; None when undefined, trivial or not a single interval."""
    a_single, b_single = a[0] == a[1], b[0] == b[1]
    if op in ARITHMETIC:
        if not (a_single and b_single):  # arithmetic takes single values (Table 5)
            return None
        x, y = a[0], b[0]
        if op == ADD:
            value = None if 0 in (x, y) else x + y
        elif op == SUB:
            value = None if y == 0 else x - y
        elif op == MUL:
            value = None if 1 in (x, y) else x * y
        else:
            value = None if y in (0, 1) else x / y
        return None if value is None or not math.isfinite(value) else (value, value)
    if a_single or b_single:  # range operators take ranges (Table 5)
        return None
    if op == INTERSECT:
        low, high = max(a[0], b[0]), min(a[1], b[1])
        return (low, high) if low <= high else None
    if op == UNION:  # only when the union is itself one interval
        overlap = a[0] <= b[1] and b[0] <= a[1]
        return (min(a[0], b[0]), max(a[1], b[1])) if overlap else None
    # Difference: endpoints stay closed; a hole in the middle or no change is not allowed.
    if b[1] < a[0] or b[0] > a[1] or (b[0] <= a[0] and b[1] >= a[1]):
        return None
    if b[0] <= a[0]:
        return (b[1], a[1])
    if b[1] >= a[1]:
        return (a[0], b[0])
    return None


def evaluate(tree: Term) -> Interval | None:
    """Evaluate a tree as an interval; None when some step is undefined or trivial."""
    if isinstance(tree, Leaf):
        return (float(tree.quantity.low), float(tree.quantity.high))
    left, right = evaluate(tree.left), evaluate(tree.right)
    if left is None or right is None:
        return None
    return apply(tree.op, left, right)


def _close(x: float, y: float) -> bool:
    """Float equality up to rounding of the arithmetic."""
    return x == y or math.isclose(x, y, rel_tol=_REL_TOL, abs_tol=_REL_TOL)


def matches(value: Interval, target: QuantityLike) -> bool:
    """Whether a value justifies the target: equal to a single value, inside a range."""
    low, high = float(target.low), float(target.high)
    if low == high:
        return value[0] == value[1] and _close(value[0], low)
    inside_low = value[0] >= low or _close(value[0], low)
    return inside_low and (value[1] <= high or _close(value[1], high))


def types_after(op: str, left: frozenset[str], right: frozenset[str]) -> frozenset[str]:
    """Possible types of an operation's result under Table 5, given its operands' types."""
    if left == right:  # one unit throughout (the common case): no new set to build
        return left
    if op in SAME_TYPE:
        return left & right
    if op == MUL:
        return left | right
    return left  # DIV: the result keeps the left operand's type
