"""Q-REAS quantity composition (EQUATE §4.2.4): arithmetic equations that justify a hypothesis.

A hypothesis quantity H is justified by an equation `<expression over premise quantities> = H`
(or `… ⊆ H` when H is a range). The paper formulates the space of valid postfix equations as an
integer linear program (its Tables 3–5) and reads off at most 50 solutions; this module keeps that
formulation (`reprobe.equate.qreas.ilp`) and runs it with the open HiGHS solver, but drives it
deterministically:

1. Candidate expression trees are those over the premise quantities, each used at most once, up
   to `max_depth` operator levels, whose unit types satisfy Table 5 (propagated while building,
   so subtrees that no typing can accept are never grown), whose every step is defined and not
   trivial (÷0, ×1, ÷1, +0, −0 are dropped, as the paper does after solving) and whose value
   matches H.
2. They are ordered by a fixed key (fewer leaves, shallower, then the postfix symbols) and each
   is checked against the full ILP with its symbol sequence fixed; the first `max_solutions`
   feasible ones are returned.

Because the order is ours, not the solver's, the result never depends on which optimum a solver
happens to return first.

The search grows with the quantities that can combine into H, not with every tree. Subtrees one
level short of the depth limit are enumerated once (`_enumerate`); a tree of full depth is an
operator over two of them, and for + − × ÷ the right operand's value is fixed by the left one
and H, so it is looked up in the sorted values of that leaf set rather than paired with every
subtree. Leaf counts are visited in increasing order and the search stops as soon as enough
solutions are found. `exhaustive_matches` is the plain enumeration of every tree, kept as the
reference the tests and the benchmark compare with.

Quantities need only the small `QuantityLike` protocol (`low`, `high`, `unit`, optional
`entity`). Units are compared after `strip()` and `lower()`; singular/plural normalisation is the
parser's job. Further interpretations:
- Tree depth counts operator levels of the premise-side expression (a bare quantity has depth 0,
  `a − b` depth 1); the final comparison operator is not counted.
- The hypothesis takes the kind of its value: single → final operator `=`, range → `⊆`.
- Commutative mirror images (`a + b`, `b + a`) are generated once, with the earlier premise first.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import numpy as np

from reprobe.equate.qreas.expressions import (
    ADD,
    ARITHMETIC,
    COMMUTATIVE,
    COMPARATORS,
    DIV,
    EQ,
    INTERSECT,
    MUL,
    OPERATORS,
    RANGE_OPERATORS,
    SUB,
    SUBSET,
    SYMBOLS,
    UNION,
    Expression,
    Interval,
    Leaf,
    Node,
    Quantity,
    QuantityLike,
    Term,
    apply,
    evaluate,
    is_range,
    matches,
    types_after,
    unit_type,
)
from reprobe.equate.qreas.ilp import feasible, ilp_feasible

__all__ = [
    "ADD", "ARITHMETIC", "COMMUTATIVE", "COMPARATORS", "DIV", "EQ", "INTERSECT", "MUL",
    "OPERATORS", "RANGE_OPERATORS", "SUB", "SUBSET", "SYMBOLS", "UNION", "Expression", "Leaf",
    "Node", "Quantity", "QuantityLike", "Term", "compose", "evaluate", "exhaustive_matches",
    "feasible", "ilp_feasible", "justified",
]

# Enumeration budget: number of subtrees kept before growing stops (deterministic cut-off).
DEFAULT_MAX_TERMS = 200_000
# The looked-up window is wider than `matches`' tolerance; every hit is then checked exactly.
_WINDOW = 1e-6


class _Entry:
    """An enumerated subtree: its value, the types Table 5 allows for it, its height and leaf
    set, and how it was built (its tree object is made only for the few that match)."""

    __slots__ = ("value", "types", "height", "mask", "op", "left", "right", "leaf")

    def __init__(self, value: Interval, types: frozenset[str], height: int, mask: int,
                 op: str | None = None, left: _Entry | None = None,
                 right: _Entry | None = None, leaf: Leaf | None = None) -> None:
        self.value, self.types, self.height, self.mask = value, types, height, mask
        self.op, self.left, self.right, self.leaf = op, left, right, leaf

    @property
    def tree(self) -> Term:
        """The expression tree of this subtree."""
        if self.leaf is not None:
            return self.leaf
        assert self.op is not None and self.left is not None and self.right is not None
        return Node(self.op, self.left.tree, self.right.tree)


def _enumerate(premise: Sequence[QuantityLike], operators: Sequence[str], max_depth: int,
               max_terms: int) -> Iterator[_Entry]:
    """Yield every valid subtree in a fixed order: by leaf set (size, then bits), then split."""
    n = len(premise)
    max_leaves = min(n, 2 ** max_depth)
    by_mask: dict[int, list[_Entry]] = {}
    kept = 0
    masks = (sum(1 << i for i in combo) for size in range(1, max_leaves + 1)
             for combo in itertools.combinations(range(n), size))
    for mask in masks:
        entries: list[_Entry] = []
        if mask.bit_count() == 1:
            i = mask.bit_length() - 1
            q = premise[i]
            entries.append(_Entry((float(q.low), float(q.high)), frozenset({unit_type(q)}), 0,
                                  mask, leaf=Leaf(i, q)))
        else:
            entries.extend(_combine(mask, by_mask, operators, max_depth))
        kept += len(entries)
        if kept > max_terms:  # budget exhausted: stop growing, deterministically
            return
        by_mask[mask] = entries
        yield from entries


def _node(op: str, left: _Entry, right: _Entry) -> _Entry | None:
    """The subtree `left op right`, or None when Table 5 or the arithmetic rejects it."""
    types = types_after(op, left.types, right.types)
    if not types:
        return None
    value = apply(op, left.value, right.value)
    if value is None:
        return None
    return _Entry(value, types, 1 + max(left.height, right.height), left.mask | right.mask, op,
                  left, right)


def _splits(mask: int) -> list[int]:
    """The non-empty proper subsets of a leaf set, as left operands, in increasing order."""
    subsets = []
    sub = (mask - 1) & mask
    while sub:
        subsets.append(sub)
        sub = (sub - 1) & mask
    return sorted(subsets)


def _mirrored(op: str, left_mask: int, mask: int) -> bool:
    """Whether `op` is commutative and this split puts the later premise first (skipped)."""
    return op in COMMUTATIVE and not left_mask & (mask & -mask)


def _combine(mask: int, by_mask: dict[int, list[_Entry]], operators: Sequence[str],
             max_depth: int) -> Iterator[_Entry]:
    """All valid trees whose leaves are exactly `mask`, split into two non-empty parts."""
    for left_mask in _splits(mask):
        right_mask = mask ^ left_mask
        for left in by_mask.get(left_mask, ()):
            for right in by_mask.get(right_mask, ()):
                if 1 + max(left.height, right.height) > max_depth:
                    continue
                for op in operators:
                    if _mirrored(op, left_mask, mask):
                        continue
                    entry = _node(op, left, right)
                    if entry is not None:
                        yield entry


def _sort_key(expression: Expression, operators: Sequence[str]) -> tuple:
    """Fixed order of solutions: fewer leaves, shallower, then the postfix symbol sequence."""
    order = {op: i for i, op in enumerate(operators)}
    symbols = tuple((0, s) if isinstance(s, int) else (1, order[s])
                    for s in expression.tree.postfix())
    return (len(expression.leaves()), expression.tree.height(), symbols)


def _accepts(entry: _Entry | None, target: QuantityLike, target_type: str) -> bool:
    """Whether a subtree justifies the target: its type may be H's and its value matches."""
    return entry is not None and target_type in entry.types and matches(entry.value, target)


class _ValueIndex:
    """Subtrees of one leaf set: the single-valued ones sorted by value, and the ranges."""

    def __init__(self, entries: list[_Entry]) -> None:
        singles = sorted((e for e in entries if e.value[0] == e.value[1]),
                         key=lambda e: e.value[0])
        self.entries = singles
        self.values = np.array([e.value[0] for e in singles], dtype=float)
        self.ranges = [e for e in entries if e.value[0] != e.value[1]]


def _windows(op: str, left: np.ndarray, goal: Interval
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per left value, the right values r with `left op r` in the goal (a little wider, exact
    checks follow), and which lefts need every right checked (×0, ÷ into a range or into 0)."""
    low, high = goal
    scan = np.zeros(left.shape, dtype=bool)
    scale = np.zeros(left.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        if op == ADD:
            lo, hi = low - left, high - left
        elif op == SUB:
            lo, hi = left - high, left - low
        elif op == MUL:
            a, b = low / left, high / left
            lo, hi, scan, scale = np.fmin(a, b), np.fmax(a, b), left == 0, 1 / np.abs(left)
        elif low == high and low != 0:  # ÷: r = left / H, one value
            lo = hi = left / low
            scale = np.abs(lo) / abs(low) + 1
        else:
            lo, hi, scan = np.full(left.shape, -np.inf), np.full(left.shape, np.inf), ~scan
        pad_lo = _WINDOW * (np.abs(lo) + 1 + scale)
        pad_hi = _WINDOW * (np.abs(hi) + 1 + scale)
        lo = np.where(np.isfinite(lo), lo - pad_lo, lo)
        hi = np.where(np.isfinite(hi), hi + pad_hi, hi)
    return lo, hi, scan


def _pairs(op: str, lefts: _ValueIndex, rights: _ValueIndex, goal: Interval
           ) -> Iterator[tuple[_Entry, _Entry]]:
    """(left, right) operands worth checking for `left op right` against the goal."""
    if op in RANGE_OPERATORS:  # ranges only (Table 5), few: checked pair by pair
        yield from itertools.product(lefts.ranges, rights.ranges)
        return
    if not lefts.entries or not rights.entries:
        return
    lo, hi, scan = _windows(op, lefts.values, goal)
    starts = np.searchsorted(rights.values, lo, side="left")
    stops = np.searchsorted(rights.values, hi, side="right")
    for i in np.flatnonzero((stops > starts) | scan):
        candidates = rights.entries if scan[i] else rights.entries[starts[i]:stops[i]]
        for right in candidates:
            yield lefts.entries[i], right


def _operand_types(op: str) -> tuple[bool | None, bool | None]:
    """Whether each operand must (True) or may (None) have H's type for the result to have
    it (Table 5): both for + − ∩ ∪ \\, the left one for ÷; × is checked per pair."""
    if op == DIV:
        return True, None
    if op == MUL:
        return None, None
    return True, True


def _full_depth_matches(size: int, n: int, subtrees: _Subtrees, operators: Sequence[str],
                        max_depth: int, target: QuantityLike) -> list[_Entry]:
    """Trees of exactly `max_depth` levels over `size` leaves that justify the target."""
    target_type = unit_type(target)
    goal = (float(target.low), float(target.high))
    found = []
    for combo in itertools.combinations(range(n), size):
        mask = sum(1 << i for i in combo)
        for left_mask in _splits(mask):
            right_mask = mask ^ left_mask
            if left_mask not in subtrees.by_mask or right_mask not in subtrees.by_mask:
                continue
            for op in operators:
                if _mirrored(op, left_mask, mask):
                    continue
                left_typed, right_typed = _operand_types(op)
                lefts = subtrees.index(left_mask, left_typed)
                rights = subtrees.index(right_mask, right_typed)
                for left, right in _pairs(op, lefts, rights, goal):
                    if max(left.height, right.height) != max_depth - 1:
                        continue  # shallower trees are among the subtrees already
                    entry = _node(op, left, right)
                    if _accepts(entry, target, target_type):
                        found.append(entry)
    return found


class _Subtrees:
    """Subtrees one level short of the depth limit, pulled from `_enumerate` as sizes are needed."""

    def __init__(self, stream: Iterator[_Entry], target_type: str) -> None:
        self._stream = stream
        self._next = next(stream, None)
        self._target_type = target_type
        self.by_mask: dict[int, list[_Entry]] = {}
        self.by_size: dict[int, list[_Entry]] = {}
        self._indexes: dict[tuple[int, bool | None], _ValueIndex] = {}

    def pull(self, size: int) -> None:
        """Enumerate every subtree with at most `size` leaves (the stream goes by size)."""
        while self._next is not None and self._next.mask.bit_count() <= size:
            entry = self._next
            self.by_mask.setdefault(entry.mask, []).append(entry)
            self.by_size.setdefault(entry.mask.bit_count(), []).append(entry)
            self._next = next(self._stream, None)

    def index(self, mask: int, typed: bool | None) -> _ValueIndex:
        """The value index of a leaf set whose subtrees are all enumerated; with `typed`, only
        the subtrees that may have the target's type."""
        key = (mask, typed)
        if key not in self._indexes:
            entries = self.by_mask[mask]
            if typed:
                entries = [e for e in entries if self._target_type in e.types]
            self._indexes[key] = _ValueIndex(entries)
        return self._indexes[key]


def _matches_by_size(premise: Sequence[QuantityLike], target: QuantityLike,
                     operators: Sequence[str], max_depth: int, max_terms: int
                     ) -> Iterator[list[Expression]]:
    """Justifying expressions grouped by number of leaves, fewest first (built lazily)."""
    comparator = SUBSET if is_range(target) else EQ
    target_type = unit_type(target)
    subtrees = _Subtrees(_enumerate(premise, operators, max(max_depth - 1, 0), max_terms),
                         target_type)
    for size in range(1, min(len(premise), 2 ** max_depth) + 1):
        subtrees.pull(size)
        group = [e for e in subtrees.by_size.get(size, ()) if _accepts(e, target, target_type)]
        if size > max_depth >= 1:  # a tree of height h has at least h + 1 leaves
            group += _full_depth_matches(size, len(premise), subtrees, operators, max_depth,
                                         target)
        yield [Expression(e.tree, target, comparator) for e in group]


def _operators(operators: Sequence[str]) -> tuple[str, ...]:
    """The requested operators in the paper's order, comparators left out."""
    return tuple(op for op in OPERATORS if op in operators and op not in COMPARATORS)


def compose(premise: list[QuantityLike], target: QuantityLike, *, max_depth: int,
            max_solutions: int, operators: Sequence[str] = ARITHMETIC,
            max_terms: int = DEFAULT_MAX_TERMS, check_ilp: bool = True) -> list[Expression]:
    """Equations over premise quantities that justify `target`, at most `max_solutions`.

    `operators` defaults to the arithmetic ones; pass `OPERATORS[:-2]` to add the paper's range
    operators. Equations with a single premise quantity (`p = H`) are included: the paper's
    syntactic constraints allow them, which is how it handles direct comparisons.
    """
    operators = _operators(operators)
    solutions: list[Expression] = []
    for group in _matches_by_size(premise, target, operators, max_depth, max_terms):
        # The sort key starts with the leaf count, so sorting each group sorts them all.
        for expression in sorted(group, key=lambda e: _sort_key(e, operators)):
            if len(solutions) >= max_solutions:
                return solutions
            if not check_ilp or feasible(premise, expression, max_depth=max_depth):
                solutions.append(expression)
    return solutions


def justified(premise: list[QuantityLike], target: QuantityLike, *, max_depth: int,
              operators: Sequence[str] = ARITHMETIC) -> bool:
    """Whether some feasible equation justifies `target` (Algorithm 1 asks only this).

    The same answer as `bool(compose(...))` for any `max_solutions` ≥ 1, found at the first
    feasible equation in the fixed order.
    """
    return bool(compose(premise, target, max_depth=max_depth, max_solutions=1,
                        operators=operators))


def exhaustive_matches(premise: list[QuantityLike], target: QuantityLike, *,
                       max_depth: int, operators: Sequence[str] = ARITHMETIC
                       ) -> list[Expression]:
    """Every justifying expression by plain enumeration of all trees, in the fixed order.

    The reference for the look-up search (no ILP check, no budget): slow on premises with many
    quantities, used by the tests and the benchmark.
    """
    operators = _operators(operators)
    comparator = SUBSET if is_range(target) else EQ
    target_type = unit_type(target)
    found = [Expression(e.tree, target, comparator)
             for e in _enumerate(premise, operators, max_depth, max_terms=10**12)
             if _accepts(e, target, target_type)]
    return sorted(found, key=lambda e: _sort_key(e, operators))
