"""Tests for the Q-REAS global reasoner (reprobe.equate.qreas.reasoner): one per branch of
Algorithm 1."""

from __future__ import annotations

from functools import partial

from reprobe.equate.labels import CONTRADICTION, ENTAILMENT, NEUTRAL, NON_ENTAILMENT
from reprobe.equate.qreas.compose import Quantity, compose
from reprobe.equate.qreas.reasoner import reason

Q = Quantity.single


def same_unit(qp, qh):
    """Stub pruner: compatible iff the units are equal."""
    return qp.unit == qh.unit


def no_equations(jh, qh):
    """Stub composer that never finds an equation."""
    return []


def always_equation(jh, qh):
    """Stub composer that always finds one."""
    return ["eq"]


def test_no_compatible_pair_is_neutral():  # line 1
    label = reason([Q(3, "cats")], [Q(3, "dogs")], compatible=same_unit, compose=always_equation)
    assert label == NEUTRAL


def test_hypothesis_quantity_without_partner_is_neutral():  # line 9
    label = reason([Q(3, "cats")], [Q(3, "cats"), Q(2, "dogs")], compatible=same_unit,
                   compose=always_equation)
    assert label == NEUTRAL


def test_value_match_entails():  # lines 12-14, 25
    assert reason([Q(3, "cats")], [Q(3, "cats")], compatible=same_unit,
                  compose=no_equations) == ENTAILMENT


def test_value_mismatch_is_neutral_not_contradiction():  # lines 15-16, 26
    assert reason([Q(3, "cats")], [Q(4, "cats")], compatible=same_unit,
                  compose=no_equations) == NEUTRAL


def test_later_premise_quantity_overrides_earlier():  # lines 10-16 overwrite in order
    premise = [Q(3, "cats"), Q(5, "cats")]
    assert reason(premise, [Q(3, "cats")], compatible=same_unit, compose=no_equations) == NEUTRAL
    assert reason(premise[::-1], [Q(3, "cats")], compatible=same_unit,
                  compose=no_equations) == ENTAILMENT


def test_contradiction_class_with_value_match():  # lines 17-19, 24
    label = reason([Q(3, "cats")], [Q(3, "cats")], compatible=same_unit, compose=no_equations,
                   similarity_class=lambda qp, qh: CONTRADICTION)
    assert label == CONTRADICTION


def test_contradiction_class_without_value_match_is_neutral():  # line 18 false
    label = reason([Q(3, "cats")], [Q(4, "cats")], compatible=same_unit, compose=no_equations,
                   similarity_class=lambda qp, qh: CONTRADICTION)
    assert label == NEUTRAL


def test_composition_justifies():  # lines 20-23, 25
    ilp_compose = partial(compose, max_depth=3, max_solutions=50)  # §4.2.4's limits
    premise = [Q(6048, "lambs"), Q(193, "lambs")]
    assert reason(premise, [Q(5855, "lambs")], compatible=same_unit,
                  compose=ilp_compose) == ENTAILMENT
    assert reason(premise, [Q(5856, "lambs")], compatible=same_unit,
                  compose=ilp_compose) == NEUTRAL


def test_composer_receives_compatible_premise_quantities():  # line 21: E_q for q_h
    seen = []

    def spy(jh, qh):
        seen.append((list(jh), qh))
        return []

    premise = [Q(1, "cats"), Q(2, "dogs"), Q(3, "cats")]
    reason(premise, [Q(4, "cats")], compatible=same_unit, compose=spy)
    assert seen == [([Q(1, "cats"), Q(3, "cats")], Q(4, "cats"))]


def test_composition_overrides_contradiction():  # line 23 runs after line 19
    label = reason([Q(3, "cats")], [Q(3, "cats")], compatible=same_unit,
                   compose=always_equation, similarity_class=lambda qp, qh: CONTRADICTION)
    assert label == ENTAILMENT


def test_every_hypothesis_quantity_must_be_justified():  # line 25 fails -> 26
    premise = [Q(3, "cats"), Q(5, "dogs")]
    assert reason(premise, [Q(3, "cats"), Q(6, "dogs")], compatible=same_unit,
                  compose=no_equations) == NEUTRAL
    assert reason(premise, [Q(3, "cats"), Q(5, "dogs")], compatible=same_unit,
                  compose=no_equations) == ENTAILMENT


def test_two_class_folds_neutral_and_contradiction():
    kwargs = {"compatible": same_unit, "compose": no_equations, "two_class": True}
    assert reason([Q(3, "cats")], [Q(4, "cats")], **kwargs) == NON_ENTAILMENT
    assert reason([Q(3, "cats")], [Q(3, "cats")], **kwargs,
                  similarity_class=lambda qp, qh: CONTRADICTION) == NON_ENTAILMENT
    assert reason([Q(3, "cats")], [Q(3, "cats")], **kwargs) == ENTAILMENT


def test_value_match_handles_ranges():
    # "Between 20 and 30 people" entails "up to 30 people" ([-inf, 30]).
    label = reason([Quantity(20, 30, "people")], [Quantity(float("-inf"), 30, "people")],
                   compatible=same_unit, compose=no_equations)
    assert label == ENTAILMENT
