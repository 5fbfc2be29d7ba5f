"""Does an equation over premise quantities justify a hypothesis quantity? The released ILP's
constraints, solved by search.

The released code (`ilp.py`, ILPEquationGenerator) asks Gurobi for postfix sequences of length
3, 5, 7 and 9 (`global_reasoner.py` generate_equations: while (length − 1) / 2 premise
quantities exist), then keeps those `solve_postfix` finds true; only whether one exists decides
the label. The constraints (add_ilp_constraints ≈ lines 62-290), as they act on a sequence
`premise tree, hypothesis, = or <=`:
- leaves: premise single values ("constants") and ranges, each used at most once;
- types: a leaf's type is its unit's (a leaf without a unit may take any type; with no unit at
  all the type variables have no value, so nothing is found); +, −, u, i, d, =, <= need both
  operands of one type; × and ÷ need two different types (× takes either, ÷ the left's);
- with no single-valued premise quantity, the `nocon` constraint adds the constant index of ×
  and cannot hold: nothing is found;
- with single values and ranges both present, +, −, ×, ÷ and = need two single-valued leaves as
  operands and u, i, d two range leaves (an operator's result is neither), so trees stay flat;
  with no premise range, u, i, d are not used.
Two readings of the solver step, as `pool`: `None` (the default) checks every sequence the
constraints allow, smallest first, stopping at the first that holds. `pool=50` follows the solve
loop as written: it reads `Xn` for solution numbers 0-49, and Gurobi's documentation wants the
number below the solutions it found; read as an error there (caught by the loop, which then
returns []), a length whose model has fewer than 50 solutions (sequences times the type choices
of unit-less quantities) returns no tree at all; where there are 50 or more, Gurobi keeps
50 in an order of its own, and this reading checks them all.
`solve_postfix` (≈ lines 380-470) and its range helpers (≈ 300-378) are followed with Python 2's
arithmetic and comparisons.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from reprobe.equate.authors.numset import (
    Numset,
    Value,
    is_number,
    le,
    lt,
    py2_cmp,
    py2_divide,
    py2_max,
    py2_min,
)

INVALID = object()  # solve_postfix returned False inside the tree
ARITHMETIC = ("+", "-", "*", "/")
SET_OPERATORS = ("u", "i", "d")
SAME_TYPE = ("+", "-", "u", "i", "d")
MAX_LENGTH = 10  # generate_equations: range(3, max_equation_length, 2)
POOL_SOLUTIONS = 50  # ILPEquationGenerator.num_solutions


def is_subset(a: Value, b: Value) -> bool:
    """ILPEquationGenerator.is_subset: a number inside a range, or a range inside a range."""
    if not a or not b:
        return False
    if not isinstance(a, list):
        return isinstance(b, list) and le(b[0], a) and le(a, b[1])
    if not isinstance(b, list):
        return False
    return le(b[0], a[0]) and le(a[1], b[1])


def ranges_equal(a: Value, b: Value) -> bool:
    """ILPEquationGenerator.is_equal: two ranges with the same ends."""
    if not a or not b or not isinstance(a, list) or not isinstance(b, list):
        return False
    return py2_cmp(a[0], b[0]) == 0 and py2_cmp(a[1], b[1]) == 0


def union(a: Value, b: Value) -> Value:
    """ILPEquationGenerator.get_union (its `range1[2]` kept: an IndexError as released)."""
    if not isinstance(a, list):
        if not isinstance(b, list):
            if a == b:
                return a
            return [py2_min(a, b), py2_max(a, b)] if abs(b - a) == 1 else []
        if le(b[0] - 1, a) and le(a, b[1] + 1):
            return [py2_min(a, b[0]), py2_max(a, b[1])]
        return []
    if not isinstance(b, list):
        if le(a[0] - 1, b) and le(b, a[2] + 1):
            return [py2_min(b, a[0]), py2_max(b, a[1])]
        return []
    (start1, end1), (start2, end2) = (a, b) if lt(a[0], b[0]) else (b, a)
    return [] if lt(end1, start2) else [start1, end2]


def intersection(a: Value, b: Value) -> Value:
    """ILPEquationGenerator.get_intersection."""
    if not isinstance(a, list):
        if not isinstance(b, list):
            return a if a == b else []
        return a if le(b[0], a) and le(a, b[1]) else []
    if not isinstance(b, list):
        return b if le(a[0], b) and le(b, a[1]) else []
    (start1, end1), (start2, end2) = (a, b) if lt(a[0], b[0]) else (b, a)
    if lt(end1, start2):
        return []
    if py2_cmp(end1, start2) == 0:
        return end1
    return [start2, end1]


def difference(a: Value, b: Value) -> Value:
    """ILPEquationGenerator.get_difference (its right range is always `range2`, as released)."""
    if not isinstance(a, list):
        if not isinstance(b, list):
            return a if a != b else []
        return [] if le(b[0], a) and le(a, b[1]) else a
    if not isinstance(b, list):
        return a if le(a[0], b) and le(b, a[1]) else []
    start1, end1 = a if lt(a[0], b[0]) else b
    start2, _ = b
    if lt(end1, start2):
        return a
    if py2_cmp(end1, start2) == 0:
        return [a[0], a[1] - 1] if py2_cmp(end1, a[1]) == 0 else [a[0] + 1, a[1]]
    return [a[0], start2 - 1] if py2_cmp(end1, a[1]) == 0 else [end1 + 1, b[1]]


def operands(left: Value, right: Value) -> bool:
    """solve_postfix's check before each operator: both operands are numbers or lists."""
    return all(is_number(v) or isinstance(v, list) for v in (left, right))


def apply(operator: str, left: Value, right: Value) -> Value:
    """One operator step of solve_postfix: the value pushed, or INVALID where it returns False."""
    if not operands(left, right):
        return INVALID
    if operator == "+":
        return INVALID if left == 0 or right == 0 else left + right
    if operator == "-":
        return INVALID if right == 0 else left - right
    if operator == "*":
        return INVALID if left == 1 or right == 1 else left * right
    if operator == "/":
        return INVALID if right in (0, 1) else py2_divide(left, right)
    if ranges_equal(left, right):
        return [] if operator == "d" else left
    if operator == "u":
        return right if is_subset(left, right) else left if is_subset(right, left) else union(
            left, right)
    if operator == "i":
        return left if is_subset(left, right) else right if is_subset(right, left) else (
            intersection(left, right))
    if is_subset(left, right):
        return []
    if is_subset(right, left):
        if py2_cmp(right[0], left[0]) == 0:
            return [right[1], left[1]]
        return [left[0], right[0]] if py2_cmp(right[1], left[1]) == 0 else []
    return difference(left, right)


def holds(comparator: str, left: Value, right: Value) -> bool:
    """The last step of solve_postfix: `=` is equality, `<=` containment."""
    if not operands(left, right):
        return False
    if comparator == "=":
        return bool(left == right)
    if not isinstance(right, list):
        return not isinstance(left, list) and bool(left == right)
    if not isinstance(left, list):
        return le(right[0], left) and le(left, right[1])
    return ranges_equal(left, right) or is_subset(left, right)


@dataclass(frozen=True)
class Subtree:
    """A premise subtree: its value, the types its root may take, whether it is a leaf of
    single value ("c"), a range leaf ("r") or an operator ("o"), and the leaves it used."""

    value: Value
    types: frozenset[int]
    kind: str
    used: tuple[int, ...]  # how many leaves of each distinct premise quantity

    def key(self) -> tuple[tuple[int, ...], str, str, frozenset[int], str]:
        """What makes two subtrees interchangeable: leaves used, value, its type, root types
        and kind (a repeated mention's copies are interchangeable leaves)."""
        return self.used, repr(self.value), type(self.value).__name__, self.types, self.kind


def leaf_types(numset: Numset, type_list: Sequence[str]) -> frozenset[int]:
    """A leaf's type: its unit's index (typeassign), any type where it has no unit."""
    if numset.unit:
        return frozenset({type_list.index(numset.unit[0])})
    return frozenset(range(len(type_list)))


def type_counts(operator: str, left: dict[int, int], right: dict[int, int]) -> dict[int, int]:
    """Type assignments per root type of an operator node, from its operands' (tsem): one type
    for +, −, u, i, d; two different ones for × (either is the root's) and ÷ (the left's)."""
    counts: dict[int, int] = {}
    for a, m in left.items():
        for b, n in right.items():
            if operator in SAME_TYPE:
                roots = [a] if a == b else []
            elif a == b:
                roots = []
            else:
                roots = [a] if operator == "/" else [a, b]
            for root in roots:
                counts[root] = counts.get(root, 0) + m * n
    return counts


class EquationSearch:
    """Sequences the released ILP admits for one hypothesis quantity, and whether one holds."""

    def __init__(self, premise: Sequence[Numset], hypothesis: Numset,
                 pool: int | None = None) -> None:
        self.premise = list(premise)
        self.hypothesis = hypothesis
        self.pool = pool
        units = [u for q in [*self.premise, hypothesis] for u in q.unit]
        self.type_list = sorted(set(units))
        # add_ilp_vars: the first range's index splits single values from ranges.
        self.separator = next((i for i, q in enumerate(self.premise) if len(q.value[1]) == 2),
                              len(self.premise))
        self.mixed = 0 < self.separator < len(self.premise)
        # Identical leaves (a mention the segmenter repeats) are searched once, with a count.
        distinct: dict[tuple[object, ...], int] = {}
        for index in range(len(self.premise)):
            key = self.leaf(index).key()
            distinct[key] = distinct.get(key, 0) + 1
        self.available = tuple(distinct.values())
        self.distinct = list(distinct)

    def leaf(self, index: int) -> Subtree:
        """create_valued_postfix: a premise leaf's value (a number or a [low, high] list)."""
        numset = self.premise[index]
        values = numset.value[1]
        kind = "c" if index < self.separator else "r"
        value = values[0] if len(values) == 1 else list(values)
        return Subtree(value, leaf_types(numset, self.type_list), kind, ())

    def distinct_leaves(self) -> list[Subtree]:
        """One leaf per distinct premise quantity, its `used` counting one of its copies."""
        leaves = []
        for index in range(len(self.premise)):
            leaf = self.leaf(index)
            group = self.distinct.index(leaf.key())
            used = tuple(int(g == group) for g in range(len(self.distinct)))
            if all(other.used != used for other in leaves):
                leaves.append(Subtree(leaf.value, leaf.types, leaf.kind, used))
        return leaves

    def fits(self, left: Subtree, right: Subtree) -> bool:
        """Whether two subtrees use no more copies of a quantity than the premise has."""
        return all(a + b <= n for a, b, n in zip(left.used, right.used, self.available,
                                                 strict=True))

    def combine(self, left: Subtree, right: Subtree) -> Iterator[Subtree]:
        """Operator nodes over two disjoint subtrees whose value solve_postfix accepts."""
        for operator in self._kind_operators(left.kind, right.kind):
            types = frozenset(type_counts(operator, dict.fromkeys(left.types, 1),
                                          dict.fromkeys(right.types, 1)))
            if not types:
                continue
            value = apply(operator, left.value, right.value)
            if value is not INVALID:
                used = tuple(a + b for a, b in zip(left.used, right.used, strict=True))
                yield Subtree(value, types, "o", used)

    def comparators(self, kind: str) -> tuple[str, ...]:
        """The last operators admitted after a tree whose root is of `kind` (opcon9/10)."""
        single = len(self.hypothesis.value[1]) == 1
        return ("=", "<=") if not self.mixed or (kind == "c" and single) else ("<=",)

    def completes(self, tree: Subtree) -> bool:
        """Whether `tree hypothesis =` or `tree hypothesis <=` is admitted and true."""
        h = self.hypothesis
        if not tree.types & leaf_types(h, self.type_list):
            return False
        h_value = h.value[1][0] if len(h.value[1]) == 1 else list(h.value[1])
        return any(holds(c, tree.value, h_value) for c in self.comparators(tree.kind))

    def solutions(self, size: int, cap: int) -> int:
        """How many solutions the model of trees with `size` leaves has (sequence and type
        choices), counted up to `cap`."""
        h_types = leaf_types(self.hypothesis, self.type_list)
        total = 0
        for kind, type_counts in self.sequences(size):
            matching = sum(n for t, n in type_counts.items() if t in h_types)
            total += matching * len(self.comparators(kind))
            if total >= cap:
                break
        return total

    def sequences(self, size: int) -> Iterator[tuple[str, dict[int, int]]]:
        """Every admitted subtree of `size` leaves (not deduplicated): its root kind and how
        many type assignments give each root type."""
        for kind, counts, _ in self._with_used(size, 0):
            yield kind, counts

    def _with_used(self, size: int, used: int) -> Iterator[tuple[str, dict[int, int], int]]:
        """Subtrees of `size` leaves avoiding `used`, with the leaves they add to it."""
        if size == 1:
            for i in range(len(self.premise)):
                if not used & (1 << i):
                    leaf = self.leaf(i)
                    yield leaf.kind, dict.fromkeys(leaf.types, 1), used | (1 << i)
            return
        for left_size in range(1, size):
            for left_kind, left_types, left_used in self._with_used(left_size, used):
                for right_kind, right_types, right_used in self._with_used(size - left_size,
                                                                            left_used):
                    for operator in self._kind_operators(left_kind, right_kind):
                        counts = type_counts(operator, left_types, right_types)
                        if counts:
                            yield "o", counts, right_used

    def _kind_operators(self, left: str, right: str) -> tuple[str, ...]:
        """Operators admitted over operands of these kinds."""
        if not self.mixed:
            return ARITHMETIC
        return (ARITHMETIC if left == right == "c" else ()) + (
            SET_OPERATORS if left == right == "r" else ())

    def justified(self) -> bool:
        """Whether some admitted sequence of length 3 to 9 is a true equation."""
        n = len(self.premise)
        if n == 0 or not self.type_list or self.separator == 0:
            return False
        by_size: dict[int, list[Subtree]] = {1: self.distinct_leaves()}
        for size in range(1, (MAX_LENGTH - 1) // 2 + 1):
            if size > n:
                break
            if size > 1:
                by_size[size] = list(self.grow(by_size, size))
            if self.pool is not None and self.solutions(size, self.pool) < self.pool:
                continue
            if any(self.completes(tree) for tree in by_size[size]):
                return True
        return False

    def grow(self, by_size: dict[int, list[Subtree]], size: int) -> Iterator[Subtree]:
        """Every admitted subtree of `size` leaves, deduplicated (`Subtree.key`)."""
        seen: set[tuple[object, ...]] = set()
        for left_size in range(1, size):
            for left, right in itertools.product(by_size[left_size], by_size[size - left_size]):
                if not self.fits(left, right):
                    continue
                for tree in self.combine(left, right):
                    if tree.key() not in seen:
                        seen.add(tree.key())
                        yield tree
