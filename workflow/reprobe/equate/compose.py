"""Q-REAS quantity composition (EQUATE §4.2.4): arithmetic equations that justify a hypothesis.

A hypothesis quantity H is justified by an equation `<expression over premise quantities> = H`
(or `… ⊆ H` when H is a range). The paper formulates the space of valid postfix equations as an
integer linear program (its Tables 3–5) and reads off at most 50 solutions; this module keeps that
formulation and runs it with the open HiGHS solver (through PuLP), but drives it deterministically:

1. Candidate expression trees are enumerated exhaustively in a fixed order (premise order,
   operator order, number of leaves), up to `max_depth` operator levels, each premise quantity
   used at most once. Unit types are propagated while enumerating, so subtrees that no typing of
   Table 5 can accept are never grown (this mirrors the ILP's type constraints exactly).
2. Each tree is evaluated; trees that are mathematically invalid (division by 0), trivial
   (×1, ÷1, +0, −0) or whose value does not match H are dropped, as the paper does after solving.
3. Every surviving equation is checked against the full ILP of Tables 4–5 with its symbol
   sequence fixed; only feasible ones are returned, sorted by a fixed key, at most
   `max_solutions` of them.

Because the candidate order and the final sort are ours, not the solver's, the result never
depends on which optimum a solver happens to return first.

Quantities. Another module parses quantities into NumSets; to stay independent of it, this module
only needs the small `QuantityLike` protocol below (`low`, `high`, `unit`, optional `entity`).
A NumSet with those attribute names satisfies it as is; otherwise a thin adapter that builds
`Quantity(low=…, high=…, unit=…, entity=…)` joins the two. Units are compared after `strip()` and
`lower()`; singular/plural normalisation is the parser's job.

Interpretations where the paper's tables are ambiguous (see also `ilp_feasible`):
- Tree depth counts operator levels of the premise-side expression (a bare quantity has depth 0,
  `a − b` depth 1); the final comparison operator is not counted.
- Table 5 lists × and ÷ under both "two type match" and "one type match"; read as alternatives:
  × yields the type of either operand, ÷ yields the type of its left operand.
- Table 5's operator consistency is stated on the symbol-class indicators; it is applied to the
  value kind of every stack entry (arithmetic results are single values, ∩ ∪ \\ results ranges),
  so that nested expressions such as `(a + b) − c` are expressible.
- The hypothesis takes the kind of its value: single → final operator `=`, range → `⊆`.
- Commutative mirror images (`a + b`, `b + a`) are generated once, with the earlier premise first.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import pulp

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
_SAME_TYPE = frozenset({ADD, SUB, INTERSECT, UNION, DIFF, EQ, SUBSET})
_REL_TOL = 1e-9
# Enumeration budget: number of subtrees kept before growing stops (deterministic cut-off).
DEFAULT_MAX_TERMS = 200_000

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


def _apply(op: str, a: Interval, b: Interval) -> Interval | None:
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
    return _apply(tree.op, left, right)


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


def _types_after(op: str, left: frozenset[str], right: frozenset[str]) -> frozenset[str]:
    """Possible types of an operation's result under Table 5, given its operands' types."""
    if op in _SAME_TYPE:
        return left & right
    if op == MUL:
        return left | right
    return left  # DIV: the result keeps the left operand's type


@dataclass(frozen=True)
class _Entry:
    """An enumerated subtree with its value and the types Table 5 allows for it."""

    tree: Term
    value: Interval
    types: frozenset[str]
    height: int


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
        size = mask.bit_count()
        entries: list[_Entry] = []
        if size == 1:
            i = mask.bit_length() - 1
            q = premise[i]
            entries.append(_Entry(Leaf(i, q), (float(q.low), float(q.high)),
                                  frozenset({unit_type(q)}), 0))
        else:
            entries.extend(_combine(mask, by_mask, operators, max_depth))
        kept += len(entries)
        if kept > max_terms:  # budget exhausted: stop growing, deterministically
            return
        by_mask[mask] = entries
        yield from entries


def _combine(mask: int, by_mask: dict[int, list[_Entry]], operators: Sequence[str],
             max_depth: int) -> Iterator[_Entry]:
    """All valid trees whose leaves are exactly `mask`, split into two non-empty parts."""
    lowest = mask & -mask
    sub = (mask - 1) & mask
    splits = []
    while sub:
        splits.append(sub)
        sub = (sub - 1) & mask
    for left_mask in sorted(splits):
        right_mask = mask ^ left_mask
        for left in by_mask.get(left_mask, ()):
            for right in by_mask.get(right_mask, ()):
                height = 1 + max(left.height, right.height)
                if height > max_depth:
                    continue
                for op in operators:
                    # Mirror images of commutative operations: keep the earlier premise first.
                    if op in COMMUTATIVE and not left_mask & lowest:
                        continue
                    types = _types_after(op, left.types, right.types)
                    if not types:
                        continue
                    value = _apply(op, left.value, right.value)
                    if value is not None:
                        yield _Entry(Node(op, left.tree, right.tree), value, types, height)


def _sort_key(expression: Expression, operators: Sequence[str]) -> tuple:
    """Fixed order of solutions: fewer leaves, shallower, then the postfix symbol sequence."""
    order = {op: i for i, op in enumerate(operators)}
    symbols = tuple((0, s) if isinstance(s, int) else (1, order[s])
                    for s in expression.tree.postfix())
    return (len(expression.leaves()), expression.tree.height(), symbols)


def compose(premise: list[QuantityLike], target: QuantityLike, *, max_depth: int = 3,
            max_solutions: int = 50, operators: Sequence[str] = ARITHMETIC,
            max_terms: int = DEFAULT_MAX_TERMS, check_ilp: bool = True) -> list[Expression]:
    """Equations over premise quantities that justify `target`, at most `max_solutions`.

    `operators` defaults to the arithmetic ones; pass `OPERATORS[:-2]` to add the paper's range
    operators. Equations with a single premise quantity (`p = H`) are included: the paper's
    syntactic constraints allow them, which is how it handles direct comparisons.
    """
    operators = tuple(op for op in OPERATORS if op in operators and op not in COMPARATORS)
    comparator = SUBSET if is_range(target) else EQ
    target_type = unit_type(target)
    found: list[Expression] = []
    for entry in _enumerate(premise, operators, max_depth, max_terms):
        if target_type in entry.types and matches(entry.value, target):
            found.append(Expression(entry.tree, target, comparator))
    found.sort(key=lambda e: _sort_key(e, operators))
    solutions: list[Expression] = []
    for expression in found:
        if len(solutions) >= max_solutions:
            break
        if not check_ilp or feasible(premise, expression, max_depth=max_depth):
            solutions.append(expression)
    return solutions


# --- The ILP of Tables 3-5 -------------------------------------------------------------------


def _symbol_list(premise: Sequence[QuantityLike], target: QuantityLike
                 ) -> tuple[list[int | str], int, int]:
    """Table 3's SL: single premises, range premises, H, operators; with K and M."""
    singles = [i for i, q in enumerate(premise) if not is_range(q)]
    ranges = [i for i, q in enumerate(premise) if is_range(q)]
    symbols: list[int | str] = [*singles, *ranges, "H", *OPERATORS]
    return symbols, len(singles), len(singles) + len(ranges) + 1


def _signature(premise: Sequence[QuantityLike], expression: Expression) -> tuple:
    """What the ILP can see of an equation: operators, and per operand its kind, which other
    operands are the same premise quantity and which share its type (types numbered by first
    appearance: the constraints only compare types). Equal signatures, equal feasibility —
    whatever the units are called and whatever else the premise holds (unused symbols are
    fixed to zero and constrain nothing)."""
    first_use: dict[int, int] = {}
    type_ids: dict[str, int] = {}
    out: list[tuple] = []
    for s in expression.tree.postfix():
        if isinstance(s, int):
            q = premise[s]
            out.append((type_ids.setdefault(unit_type(q), len(type_ids)), is_range(q),
                        first_use.setdefault(s, len(first_use))))
        else:
            out.append((s,))
    target = expression.target
    return (*out, (type_ids.setdefault(unit_type(target), len(type_ids)), is_range(target)),
            expression.comparator)


# ILP verdicts by (signature, max_depth), shared by every pair of a run: a verdict depends on
# nothing else, so the cache changes speed, never results.
_VERDICTS: dict[tuple, bool] = {}


def feasible(premise: Sequence[QuantityLike], expression: Expression, *,
             max_depth: int = 3) -> bool:
    """`ilp_feasible`, solved once per equation signature and depth limit."""
    key = (_signature(premise, expression), max_depth)
    if key not in _VERDICTS:
        _VERDICTS[key] = ilp_feasible(premise, expression, max_depth=max_depth)
    return _VERDICTS[key]


def ilp_feasible(premise: Sequence[QuantityLike], expression: Expression, *,
                 max_depth: int = 3) -> bool:
    """Whether the equation satisfies the ILP of Tables 4–5 (its symbol sequence fixed).

    Variables follow Table 3: one-hot symbol choice per postfix position (x), class indicators
    (c, r, o), stack depth (d) and one-hot type (t); added are the left-operand choice (z), which
    linearises op1(), the value kind of each stack entry (v) and the subtree height (h) for the
    depth limit. Disjunctions are linearised with big-M terms.
    """
    target = expression.target
    symbols, k_index, m_index = _symbol_list(premise, target)
    sequence = expression.postfix()
    length = len(sequence)
    positions = range(length)
    n_symbols = len(symbols)
    quantity_of = {s: premise[s] for s in symbols if isinstance(s, int)}
    quantity_of["H"] = target
    types = sorted({unit_type(q) for q in [*premise, target]})
    operator_ids = [j for j in range(n_symbols) if j >= m_index]
    op_name = {j: symbols[j] for j in operator_ids}
    # A single-valued hypothesis is a single value (class c), a range hypothesis a range (r).
    single_ids = [j for j in range(k_index)] + ([m_index - 1] if not is_range(target) else [])
    range_ids = [j for j in range(k_index, m_index - 1)] + ([m_index - 1] if is_range(target)
                                                           else [])
    big = length + max_depth + 2

    prob = pulp.LpProblem("qreas_composition", pulp.LpMinimize)
    x = {(i, j): prob.add_variable(f"x_{i}_{j}", cat="Binary") for i in positions
         for j in range(n_symbols)}
    c = {i: prob.add_variable(f"c_{i}", cat="Binary") for i in positions}
    r = {i: prob.add_variable(f"r_{i}", cat="Binary") for i in positions}
    o = {i: prob.add_variable(f"o_{i}", cat="Binary") for i in positions}
    d = {i: prob.add_variable(f"d_{i}", 0, length, cat="Integer")
         for i in positions}
    t = {(i, k): prob.add_variable(f"t_{i}_{k}", cat="Binary") for i in positions
         for k in range(len(types))}
    v = {i: prob.add_variable(f"v_{i}", cat="Binary") for i in positions}
    h = {i: prob.add_variable(f"h_{i}", 0, big) for i in positions}
    z = {(i, left): prob.add_variable(f"z_{i}_{left}", cat="Binary") for i in positions
         for left in range(i - 1)}
    prob += pulp.lpSum([])  # feasibility problem

    # The candidate: fix x to its symbol sequence.
    index_of = {s: j for j, s in enumerate(symbols)}
    for i, s in enumerate(sequence):
        for j in range(n_symbols):
            prob += x[i, j] == (1 if j == index_of[s] else 0)

    # Definitional: range restriction + uniqueness (one symbol, one class per position).
    for i in positions:
        prob += pulp.lpSum(x[i, j] for j in range(n_symbols)) == 1
        prob += c[i] == pulp.lpSum(x[i, j] for j in single_ids)
        prob += r[i] == pulp.lpSum(x[i, j] for j in range_ids)
        prob += o[i] == pulp.lpSum(x[i, j] for j in operator_ids)
        prob += c[i] + r[i] + o[i] == 1
        prob += pulp.lpSum(t[i, k] for k in range(len(types))) == 1
    # Definitional: stack depth (d counts stack entries minus one).
    prob += d[0] == 0
    for i in positions[1:]:
        prob += d[i] == d[i - 1] - 2 * o[i] + 1
    # Syntactic: two leading operands, H then a comparator at the end, empty stack.
    prob += o[0] == 0
    prob += o[1] == 0
    prob += x[length - 1, index_of[EQ]] + x[length - 1, index_of[SUBSET]] == 1
    prob += x[length - 2, m_index - 1] == 1
    for i in range(length - 2):
        prob += x[i, index_of[EQ]] + x[i, index_of[SUBSET]] + x[i, m_index - 1] == 0
    prob += d[length - 1] == 0
    # Syntactic: each premise quantity at most once.
    for j in range(m_index - 1):
        prob += pulp.lpSum(x[i, j] for i in positions) <= 1

    # Operand access: the right operand is i-1, the left one the latest l <= i-2 with d_l = d_i.
    for i in positions:
        lefts = [z[i, left] for left in range(i - 1)]
        prob += pulp.lpSum(lefts) == o[i]
        for left in range(i - 1):
            off = 1 - z[i, left]
            prob += d[left] - d[i] <= big * off
            prob += d[i] - d[left] <= big * off
            for k in range(left + 1, i - 1):
                prob += d[k] >= d[i] + 1 - big * off

    # Type assignment: operands carry their quantity's type.
    for i in positions:
        for j in range(m_index):
            k = types.index(unit_type(quantity_of[symbols[j]]))
            prob += t[i, k] >= x[i, j]
    for i in positions:
        for j in operator_ids:
            op, sel = op_name[j], x[i, j]
            for k in range(len(types)):
                # Right operand (i-1).
                if op in _SAME_TYPE and i >= 1:
                    prob += t[i, k] - t[i - 1, k] <= 1 - sel
                    prob += t[i - 1, k] - t[i, k] <= 1 - sel
                for left in range(i - 1):
                    off = 2 - sel - z[i, left]
                    if op in _SAME_TYPE or op == DIV:  # same type as left operand
                        prob += t[i, k] - t[left, k] <= off
                        prob += t[left, k] - t[i, k] <= off
                    if op == MUL:  # the type of one of the operands
                        prob += t[i, k] <= t[left, k] + t[i - 1, k] + off

    # Operator consistency on value kinds: v = 1 for ranges, 0 for single values.
    arith_ids = [index_of[op] for op in (*ARITHMETIC, EQ)]
    rangeop_ids = [index_of[op] for op in RANGE_OPERATORS]
    for i in positions:
        prob += v[i] >= r[i]
        prob += v[i] <= r[i] + o[i]
        prob += v[i] >= pulp.lpSum(x[i, j] for j in rangeop_ids)
        prob += v[i] <= 1 - pulp.lpSum(x[i, j] for j in arith_ids if symbols[j] != EQ)
        if i < 1:
            continue
        arith = pulp.lpSum(x[i, j] for j in arith_ids)
        ranged = pulp.lpSum(x[i, j] for j in rangeop_ids) + x[i, index_of[SUBSET]]
        prob += v[i - 1] <= 1 - arith
        prob += v[i - 1] >= ranged
        for left in range(i - 1):
            prob += v[left] <= 2 - arith - z[i, left]
            prob += v[left] >= pulp.lpSum(x[i, j] for j in rangeop_ids) + z[i, left] - 1

    # Depth limit on the premise-side expression: operands 0, operators 1 + max(children).
    for i in positions:
        prob += h[i] <= big * o[i]
        if i >= 1:
            prob += h[i] >= h[i - 1] + 1 - big * (1 - o[i])
        for left in range(i - 1):
            prob += h[i] >= h[left] + 1 - big * (1 - z[i, left])
    for i in range(length - 2):
        prob += h[i] <= max_depth

    status = prob.solve(_solver())
    return pulp.LpStatus[status] == "Optimal"


def _solver() -> pulp.LpSolver:
    """HiGHS in-process (no subprocess per check); single-threaded so runs are reproducible."""
    return pulp.HiGHS(msg=False, threads=1)
