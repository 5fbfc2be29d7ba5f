"""Tests for Q-REAS end to end (reprobe.equate.qreas.pipeline) on hand-written pairs."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprobe.equate.evaluate import accuracy
from reprobe.equate.labels import CONTRADICTION, ENTAILMENT, NEUTRAL, NON_ENTAILMENT
from reprobe.equate.qreas.compose import Quantity
from reprobe.equate.qreas.pipeline import (
    Resources,
    align,
    predict,
    side_quantities,
    to_quantity,
)
from reprobe.equate.qreas.pruner import load_word_list
from reprobe.equate.qreas.wordnet import load_wordnet
from reprobe.equate.quantities import NumSet
from reprobe.equate.settings import ALGORITHM1, QreasSettings
from reprobe.step_settings import settings_from_schema

SAMPLES = Path(__file__).resolve().parents[1] / "data/samples/equate"


@pytest.fixture(scope="module")
def res():
    """Q-REAS resources from the samples."""
    return Resources.for_row(
        load_wordnet(SAMPLES / "wordnet"), load_word_list(SAMPLES / "jobs.txt"),
        load_word_list(SAMPLES / "nationalities.txt"),
        settings_from_schema(QreasSettings, "equate.qreas", variants={}), ALGORITHM1)


def row(premise: str, hypothesis: str, label: str = ENTAILMENT) -> dict:
    """A jsonl row without parses."""
    return {"sentence1": premise, "sentence2": hypothesis, "gold_label": label}


def test_adapter_and_alignment():
    q = to_quantity(NumSet(value=(3.0, 5.0), unit="Apples", verb="buy"))
    assert (q.low, q.high, q.unit, q.verb) == (3.0, 5.0, "apple", "buy")
    assert to_quantity(NumSet(value=(1.0, 1.0), unit=None)).unit == ""
    half = align(to_quantity(NumSet(value=(0.5, 0.5), unit="fraction")),
                 Quantity.single(50, "percent"))
    assert (half.low, half.unit) == (50.0, "percent")


def test_direct_match_entails(res):
    assert predict(row("He paid 20 dollars for the book.", "He paid 20 dollars."),
                   resources=res) == ENTAILMENT


def test_composition_entails(res):
    pair = row("The army had 6048 soldiers and lost 193 soldiers in battle.",
               "The army has 5855 soldiers.")
    assert predict(pair, resources=res) == ENTAILMENT


def test_composition_through_hypernym(res):
    pair = row("The army had 6048 soldiers and lost 193 soldiers in battle.",
               "The army has 5855 people.")
    assert predict(pair, resources=res) == ENTAILMENT


def test_job_to_person(res):
    pair = row("Insurgents killed 7 U.S. soldiers.", "7 people were killed.")
    assert predict(pair, resources=res) == ENTAILMENT


def test_opposite_directions_contradict(res):
    pair = row("Sales rose by 5 percent.", "Sales fell by 5 percent.")
    assert predict(pair, resources=res) == CONTRADICTION
    assert predict(pair, resources=res, two_class=True) == NON_ENTAILMENT


def test_unjustified_or_incompatible_is_neutral(res):
    assert predict(row("He paid 20 dollars for the book.", "He paid 30 dollars."),
                   resources=res) == NEUTRAL
    assert predict(row("She bought 3 apples.", "He paid 20 dollars."), resources=res) == NEUTRAL
    assert predict(row("Four Iraqi policemen died.", "Four soldiers died."),
                   resources=res) == NEUTRAL


def test_released_parses_are_used(res):
    pair = row("x", "y")  # the text is ignored when tokens and tags are present
    pair.update({"sentence1_tokens": [["he", "paid", "20", "dollars", "."]],
                 "sentence1_pos": [["PRP", "VBD", "CD", "NNS", "."]],
                 "sentence2_tokens": [["he", "paid", "20", "dollars", "."]],
                 "sentence2_pos": [["PRP", "VBD", "CD", "NNS", "."]]})
    assert [(q.low, q.unit) for q in side_quantities(pair, "sentence1")] == [(20.0, "dollar")]
    assert predict(pair, resources=res) == ENTAILMENT


def test_labels_scored_in_the_sets_label_space(res):
    """Q-REAS labels, scored as the workflow scores them (reprobe.equate.evaluate.accuracy)."""
    rows = [row("He paid 20 dollars.", "He paid 20 dollars."),
            row("He paid 20 dollars.", "He paid 30 dollars.", NEUTRAL),
            row("He paid 20 dollars.", "He paid 30 dollars.")]
    gold = [r["gold_label"] for r in rows]
    two = [predict(r, resources=res, two_class=True) for r in rows]
    assert two == [ENTAILMENT, NON_ENTAILMENT, NON_ENTAILMENT]
    assert accuracy(gold, two, two_class=True) == pytest.approx(200 / 3)
    three = [predict(r, resources=res) for r in rows[:2]]
    assert three == [ENTAILMENT, NEUTRAL]
    assert accuracy(gold[:2], three, two_class=False) == 100.0


@pytest.fixture(scope="module")
def strict(res):
    """The `Q-REAS (strict)` readings on the sample resources."""
    from dataclasses import replace

    return replace(res, strict_bounds=True, cross_units=True)


def test_nearest_noun_unit_lets_the_difference_form(res):
    # §4.2.2's last unit rule: "3.0 of her quarters" takes "quarters" as its unit.
    pair = row("Sara had 8.0 quarters in her bank. Her dad borrowed 3.0 of her quarters.",
               "Sara has 5.0 quarters now.")
    assert predict(pair, resources=res) == ENTAILMENT


@pytest.mark.parametrize(("phrase", "excludes_endpoint"), [
    ("more than", True), ("fewer than", True), ("less than", True), ("over", True),
    ("under", True), ("at least", False), ("at most", False), ("no more than", False),
])
def test_bound_phrases_faithful_closed_and_strict_open(res, strict, phrase, excludes_endpoint):
    pair = row("The crew worked 9 hours on the bridge.", f"The crew worked {phrase} 9 hours.")
    # The paper's closed ranges: the endpoint itself is inside every bound.
    assert predict(pair, resources=res, two_class=True) == ENTAILMENT
    expected = NON_ENTAILMENT if excludes_endpoint else ENTAILMENT
    assert predict(pair, resources=strict, two_class=True) == expected


def test_strict_reading_moves_only_the_finite_endpoint(strict):
    [q] = side_quantities(row("x", "They counted more than 9 birds."), "sentence2", strict)
    assert 9 < q.low < 9.0001 and q.high == float("inf")
    [q] = side_quantities(row("x", "They counted at least 9 birds."), "sentence2", strict)
    assert q.low == 9


def test_rate_times_count_needs_cross_unit_products(res, strict):
    pair = row("5 boats crossed the lake, each carrying 3 people.",
               "15 people crossed the lake.")
    assert predict(pair, resources=res, two_class=True) == NON_ENTAILMENT
    assert predict(pair, resources=strict, two_class=True) == ENTAILMENT
    rate = row("A bus made 3 trips carrying 40 people on each trip.", "The bus carried 120 people.")
    assert predict(rate, resources=strict, two_class=True) == ENTAILMENT


@pytest.mark.parametrize(("years", "label"), [
    ("date", ENTAILMENT), ("drop", NON_ENTAILMENT), ("quantity", NON_ENTAILMENT)])
def test_years_reading(res, years, label):
    from dataclasses import replace

    pair = row("Profits rose 10 percent in fiscal year 2005.", "Profits rose in fiscal 2005.")
    assert predict(pair, resources=replace(res, years=years), two_class=True) == label


def test_an_approximate_premise_matches_the_exact_value_inside_its_range(res):
    pair = row("The donors pledged about $12 billion in aid.",
               "The donors pledged $12 billion in aid.")
    assert predict(pair, resources=res) == ENTAILMENT
