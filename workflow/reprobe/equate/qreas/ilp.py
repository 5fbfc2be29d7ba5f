"""The ILP of EQUATE's Tables 3–5, as a feasibility check of one equation (Q-REAS §4.2.4).

`reprobe.equate.qreas.compose` finds candidate equations; each is checked here with its symbol
sequence fixed, by the open HiGHS solver through PuLP. A verdict depends only on the equation's
signature (`signature`), so verdicts are cached per run and shared by every pair.
"""

from __future__ import annotations

from collections.abc import Sequence

import pulp

from reprobe.equate.qreas.expressions import (
    ARITHMETIC,
    DIV,
    EQ,
    MUL,
    OPERATORS,
    RANGE_OPERATORS,
    SAME_TYPE,
    SUBSET,
    Expression,
    QuantityLike,
    is_range,
    unit_type,
)


def _symbol_list(premise: Sequence[QuantityLike], target: QuantityLike
                 ) -> tuple[list[int | str], int, int]:
    """Table 3's SL: single premises, range premises, H, operators; with K and M."""
    singles = [i for i, q in enumerate(premise) if not is_range(q)]
    ranges = [i for i, q in enumerate(premise) if is_range(q)]
    symbols: list[int | str] = [*singles, *ranges, "H", *OPERATORS]
    return symbols, len(singles), len(singles) + len(ranges) + 1


def signature(premise: Sequence[QuantityLike], expression: Expression) -> tuple:
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
             max_depth: int) -> bool:
    """`ilp_feasible`, solved once per equation signature and depth limit."""
    key = (signature(premise, expression), max_depth)
    if key not in _VERDICTS:
        _VERDICTS[key] = ilp_feasible(premise, expression, max_depth=max_depth)
    return _VERDICTS[key]


def ilp_feasible(premise: Sequence[QuantityLike], expression: Expression, *,
                 max_depth: int) -> bool:
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
                if op in SAME_TYPE and i >= 1:
                    prob += t[i, k] - t[i - 1, k] <= 1 - sel
                    prob += t[i - 1, k] - t[i, k] <= 1 - sel
                for left in range(i - 1):
                    off = 2 - sel - z[i, left]
                    if op in SAME_TYPE or op == DIV:  # same type as left operand
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
