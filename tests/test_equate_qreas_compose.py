"""Tests for the Q-REAS ILP composer (reprobe.equate.qreas.compose)."""

from __future__ import annotations

from reprobe.equate.qreas.compose import (
    EQ,
    OPERATORS,
    SUBSET,
    Expression,
    Leaf,
    Node,
    Quantity,
    QuantityLike,
    compose,
    ilp_feasible,
)

Q = Quantity.single
# §4.2.4: "We limit tree depth to 3 and retrieve a maximum of 50 solutions per hypothesis
# NUMSET" (the config schema's defaults of equate.qreas).
DEPTH = {"max_depth": 3}
PAPER = {**DEPTH, "max_solutions": 50}


def _equations(solutions: list[Expression]) -> list[str]:
    """Rendered equations, for readable assertions."""
    return [s.equation() for s in solutions]


def test_finds_subtraction_from_awp_example():
    premise = [Q(6048, "lambs"), Q(193, "lambs")]
    solutions = compose(premise, Q(5855, "lambs"), **PAPER)
    assert [s.render() for s in solutions] == ["6048 − 193"]
    assert solutions[0].evaluate() == (5855.0, 5855.0)
    assert solutions[0].postfix() == (0, 1, "-", "H", EQ)


def test_finds_product_of_different_units():
    # Table 5's one-type match: boxes × eggs may yield eggs.
    solutions = compose([Q(3, "boxes"), Q(12, "eggs")], Q(36, "eggs"), **PAPER)
    assert _equations(solutions) == ["3 × 12 = 36"]


def test_division_keeps_the_left_operand_type():
    found = compose([Q(36, "eggs"), Q(3, "boxes")], Q(12, "eggs"), **PAPER)
    assert _equations(found) == ["36 ÷ 3 = 12"]
    assert compose([Q(36, "eggs"), Q(3, "boxes")], Q(12, "boxes"), **PAPER) == []


def test_rejects_unit_inconsistent_sum():
    premise = [Q(5, "apples"), Q(3, "miles")]
    for unit in ("apples", "miles", "things"):
        assert compose(premise, Q(8, unit), **PAPER) == []


def test_rejects_trivial_operations():
    # 7 × 1, 7 ÷ 1 and 7 + 0 are not justifications; only the direct comparison 7 = 7 remains.
    assert _equations(compose([Q(7, "cats"), Q(1, "cats")], Q(7, "cats"), **PAPER)) == ["7 = 7"]
    assert _equations(compose([Q(7, "cats"), Q(0, "cats")], Q(7, "cats"), **PAPER)) == ["7 = 7"]
    assert compose([Q(1, "cats"), Q(7, "cats")], Q(7, "dogs"), **PAPER) == []


def test_each_premise_quantity_used_once():
    assert compose([Q(4, "pens")], Q(8, "pens"), **PAPER) == []
    found = compose([Q(4, "pens"), Q(4, "pens")], Q(8, "pens"), **PAPER)
    assert _equations(found) == ["4 + 4 = 8"]


def test_depth_limit():
    premise = [Q(2, "m"), Q(3, "m"), Q(4, "m")]
    assert compose(premise, Q(9, "m"), max_depth=1, max_solutions=50) == []
    deeper = compose(premise, Q(9, "m"), max_depth=2, max_solutions=50)
    assert "(2 + 3) + 4" in [s.render() for s in deeper]


def test_at_most_max_solutions_and_deterministic():
    premise = [Q(v, "apples") for v in (5, 3, 2, 1, 4)]
    first = compose(premise, Q(10, "apples"), **PAPER)
    second = compose(list(premise), Q(10, "apples"), **PAPER)
    assert len(first) == 50
    assert _equations(first) == _equations(second)
    assert len(compose(premise, Q(10, "apples"), max_depth=3, max_solutions=3)) == 3
    # Fewer leaves come first.
    assert first[0].render() == "5 × 2"


def test_no_solution_gives_empty_list():
    assert compose([Q(2, "cats"), Q(3, "cats")], Q(100, "cats"), **PAPER) == []
    assert compose([], Q(1, "cats"), **PAPER) == []


def test_range_hypothesis_uses_subset():
    solutions = compose([Q(1917, "soldiers")], Quantity(1862, 1938, "soldiers"), **PAPER)
    assert [(s.comparator, s.render()) for s in solutions] == [(SUBSET, "1917")]


def test_range_operators_take_ranges_only():
    premise = [Quantity(20, 30, "people"), Quantity(25, 40, "people"), Q(5, "people")]
    ops = [op for op in OPERATORS if op not in (EQ, SUBSET)]
    solutions = compose(premise, Quantity(20, 30, "people"), operators=ops, **PAPER)
    assert "[20, 30] ∩ [25, 40]" in [s.render() for s in solutions]
    # Arithmetic on a range is not allowed.
    assert compose(premise, Q(30, "people"), operators=ops, **PAPER) == []


def test_ilp_rejects_what_the_tables_forbid():
    premise = [Q(5, "apples"), Q(3, "miles")]
    bad = Expression(Node("+", Leaf(0, premise[0]), Leaf(1, premise[1])), Q(8, "apples"), EQ)
    good = Expression(Node("*", Leaf(0, premise[0]), Leaf(1, premise[1])), Q(15, "apples"), EQ)
    assert not ilp_feasible(premise, bad, **DEPTH)
    assert ilp_feasible(premise, good, **DEPTH)
    deep = Expression(Node("+", Node("+", Leaf(0, premise[0]), Leaf(0, premise[0])),
                           Leaf(0, premise[0])), Q(15, "apples"), EQ)
    assert not ilp_feasible(premise, deep, **DEPTH)  # premise 0 used three times


def test_quantity_protocol():
    assert isinstance(Q(1, "x"), QuantityLike)


def test_ilp_verdicts_depend_only_on_the_signature(monkeypatch):
    """The shared verdict cache is sound: renamed units and extra premise quantities give the
    same signature and the same ILP verdict; a different type pattern does not."""
    from reprobe.equate.qreas import ilp as module

    a = [Q(5, "apples"), Q(3, "miles")]
    b = [Q(9, "tons"), Q(2, "boxes"), Q(4, "cars"), Q(1, "days")]
    sum_a = Expression(Node("+", Leaf(0, a[0]), Leaf(1, a[1])), Q(8, "apples"), EQ)
    sum_b = Expression(Node("+", Leaf(0, b[0]), Leaf(1, b[1])), Q(11, "tons"), EQ)
    product_b = Expression(Node("*", Leaf(0, b[0]), Leaf(1, b[1])), Q(18, "tons"), EQ)
    assert module.signature(a, sum_a) == module.signature(b, sum_b)
    assert module.signature(b, sum_b) != module.signature(b, product_b)
    assert ilp_feasible(a, sum_a, **DEPTH) == ilp_feasible(b, sum_b, **DEPTH) is False
    assert ilp_feasible(b, product_b, **DEPTH) is True
    # Once a signature is solved, the cache answers for every pair that shares it.
    module._VERDICTS.clear()
    calls = []
    solve = module.ilp_feasible
    monkeypatch.setattr(module, "ilp_feasible", lambda *p, **k: calls.append(1) or solve(*p, **k))
    assert module.feasible(a, sum_a, **DEPTH) is False
    assert module.feasible(b, sum_b, **DEPTH) is False
    assert len(calls) == 1
