"""Tests for the released-code Q-REAS (reprobe.equate.authors): each rule where the released code
differs from Algorithm 1, on hand-written pairs with parses in the released layout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reprobe.equate.authors.equations import EquationSearch, apply, holds
from reprobe.equate.authors.layout import released_row, sentence_fields
from reprobe.equate.authors.numset import Numset, lt, py2_divide
from reprobe.equate.authors.parser import extract_units, extract_value, get_numsets
from reprobe.equate.authors.pruner import (
    Lexicon,
    compatible_groups,
    similarity,
    similarity_class,
)
from reprobe.equate.authors.reasoner import Reading, has_corenlp, label_pair, parse_pair
from reprobe.equate.authors.trees import segment, strip_parse
from reprobe.equate.qreas.wordnet import load_wordnet

SAMPLES = Path(__file__).resolve().parents[1] / "data/samples/equate"
NO_WORDNET = Lexicon(None)
# The released code as it runs: every ILP solution, a value mismatch is a contradiction.
RELEASED_RULES = Reading(pool=None, contradiction_on_mismatch=True)

# "greek debt stands at 175 % of gdp" and the same at 120 %: one unit, another value.
DEBT = ("(ROOT (S (NP (JJ greek) (NN debt)) (VP (VBZ stands) (PP (IN at) (NP (NP (CD {v}) "
        "(NN %)) (PP (IN of) (NP (NN gdp))))))))",
        "amod 2 1; nsubj 3 2; ROOT 0 3; case 6 4; nummod 6 5; nmod 3 6; case 8 7; nmod 6 8")


def side(value: str) -> tuple[str, str]:
    """The debt sentence with a value."""
    return DEBT[0].format(v=value), DEBT[1]


def mention(*tokens: str) -> list[str]:
    """A quantity mention: an NP of (tag, word) leaves, as the segmenter writes it."""
    out = ["(", "NP"]
    for tag_word in tokens:
        tag, word = tag_word.split("/")
        out += ["(", tag, word, ")"]
    return [*out, ")"]


def numset(value: list, unit: list[str] | None = None) -> Numset:
    """A NUMSET with a value and a unit."""
    return Numset(value=value, unit=list(unit or []))


def test_a_value_mismatch_is_a_contradiction_and_algorithm_1_leaves_it_neutral():
    row = released_row(side("175"), side("120"), "contradiction")
    assert label_pair(row, NO_WORDNET, RELEASED_RULES) == "contradiction"
    algorithm1 = Reading(pool=None, contradiction_on_mismatch=False)
    assert label_pair(row, NO_WORDNET, algorithm1) == "neutral"
    same = released_row(side("175"), side("175"), "entailment")
    assert label_pair(same, NO_WORDNET, RELEASED_RULES) == "entailment"


def test_the_similarity_class_is_entailment_unless_no_field_agrees():
    premise = Numset(value=[0, [1.0]], unit=["a"], entity=["b"], approximate=True,
                     frequency="per day", change=[True, False], adjective=["big"],
                     verb=["ran"], location="park")
    other = Numset(value=[1, [2.0]], unit=["x"], entity=["y"], approximate=False,
                   frequency="", change=[False, False], adjective=[], verb=[], location="")
    assert similarity_class(similarity(premise, other, NO_WORDNET)) == 2
    other.location = "park"  # one field of nine in common is enough
    assert similarity_class(similarity(premise, other, NO_WORDNET)) == 0


def test_units_are_the_governing_word_of_the_dependency_parse():
    # "the board approves $ 15 million": nummod(approves, 15) makes the verb the unit.
    fields = sentence_fields("(ROOT (S (NP (DT the) (NN board)) (VP (VBZ approves) (NP (QP "
                             "($ $) (CD 15) (CD million))))))",
                             "det 2 1; nsubj 3 2; ROOT 0 3; dep 4 3; nummod 3 5; compound 5 6")
    units = extract_units(mention("$/$", "CD/15", "CD/million"), fields["dep_parse"])
    assert units == ["approves"]
    # With no nummod/nmod arc the "$" of the mention is the unit; "percent" becomes "%".
    assert extract_units(mention("$/$", "CD/15"), [[]]) == ["$"]
    arcs = [[{"dep": "nummod", "governorGloss": "percent", "dependentGloss": "8"}]]
    assert extract_units(mention("CD/8", "NN/percent"), arcs) == ["%"]


@pytest.mark.parametrize(("tokens", "expected"), [
    (("CD/190m",), 1000000.0),            # "$190M": the first digit only
    (("CD/13.7b",), 13000000000.0),       # the first run of digits times a billion
    (("CD/163k",), "163k"),               # no "k" scale: stays a string
    (("CD/twelve",), 12.0),
    (("CD/2.3", "CD/million"), 2300000.0),
    (("CD/1.2", "CD/trillion"), None),    # no "trillion": nothing is read
])
def test_values_as_the_released_parser_reads_them(tokens, expected):
    value = extract_value(mention(*tokens))
    assert (value[1][0] if value else None) == expected


def test_range_words_inside_the_noun_phrase_only():
    assert extract_value(mention("JJR/more", "IN/than", "CD/1,000", "NNS/homes"))[1] == [
        1000.0, float("inf")]
    # "Revised Up to 4.2 %": "up to" is an upper bound here.
    assert extract_value(mention("IN/up", "TO/to", "CD/4.2", "NN/%"))[1] == [float("-inf"), 4.2]
    # "fell below 8 %": "below" is outside the NP the segmenter takes.
    assert extract_value(mention("CD/8", "NN/%"))[1] == [8.0]
    # Phrase labels stay, POS tags and commas go, in Python 2's order: JJ before JJR leaves "R".
    assert strip_parse(mention("JJR/more", "IN/than", "CD/1,000")) == "NP R more than 1000"


def test_at_least_is_never_a_range_as_python_2_strips_tags():
    # JJ goes before JJS in the released code's tag loop: "at S least three", no "at least".
    assert strip_parse(mention("IN/at", "JJS/least", "CD/three")) == "NP at S least three"
    assert extract_value(mention("IN/at", "JJS/least", "CD/three", "NNS/states"))[1] == [3.0]
    # RTE-Quant pair 67's shape: "at least three member states" vs "3 member states" is the
    # same value, an entailment (a Python 2.7 run of the released files says so too).
    premise = ("(ROOT (S (NP (QP (IN at) (JJS least) (CD three)) (NN member) (NNS states)) "
               "(VP (VBD agreed))))",
               "case 2 1; advmod 3 2; nummod 5 3; compound 5 4; nsubj 6 5; ROOT 0 6")
    hypothesis = ("(ROOT (S (NP (CD 3) (NN member) (NNS states)) (VP (VBD agreed))))",
                  "nummod 3 1; compound 3 2; nsubj 4 3; ROOT 0 4")
    row = released_row(premise, hypothesis, "entailment")
    assert [q.value for q in parse_pair(row, NO_WORDNET).premise] == [[14, [3.0]]]
    assert label_pair(row, NO_WORDNET, RELEASED_RULES) == "entailment"


def test_approximators_never_fire():
    # CoreNLP's advmod(12, about): the code asks for the number as the dependent instead.
    row = released_row(("(ROOT (NP (QP (RB about) (CD 12)) (NNS boats)))",
                        "advmod 2 1; nummod 3 2; ROOT 0 3"), side("1"))
    (boats,) = get_numsets(row, "sentence1", "about 12 boats")
    assert boats.approximate is False and boats.value[1] == [12.0]


def test_segmenter_repeats_earlier_sentences_noun_phrases():
    first = "(ROOT (S (NP (CD 3) (NNS cats)) (VP (VBD sat))))"
    second = "(ROOT (S (NP (CD 4) (NNS dogs)) (VP (VBD ran))))"
    words = [[m[4] for m in [mention]] for mention in segment([first, second])]
    assert words == [["3"], ["3"], ["4"]]


def test_a_quantity_without_a_unit_is_compatible_and_units_are_overwritten():
    premise = [numset([0, [5.0]], ["apples"]), numset([0, [7.0]], [])]
    hypothesis = [numset([0, [5.0]], ["fruit"])]
    groups = compatible_groups(premise, hypothesis, NO_WORDNET)
    pairs = [g for g in groups if len(g) == 2]
    assert [g[0] for g in pairs] == [premise[1]]  # apples vs fruit: no WordNet, no match
    assert premise[1].unit is hypothesis[0].unit


def test_wordnet_hypernyms_and_jobs_make_units_compatible():
    wordnet = load_wordnet(SAMPLES / "wordnet")
    lexicon = Lexicon(wordnet, jobs=("soldier",))
    apples, fruit = [numset([0, [2.0]], ["apples"])], [numset([0, [2.0]], ["fruit"])]
    assert compatible_groups(apples, fruit, NO_WORDNET) == []     # no shared word
    assert len(compatible_groups(apples, fruit, lexicon)) == 1   # apple's hypernym
    assert apples[0].unit == ["fruit"]  # the premise takes the hypothesis's unit
    soldiers, workers = [numset([0, [3.0]], ["soldier"])], [numset([0, [3.0]], ["worker"])]
    assert len(compatible_groups(soldiers, workers, lexicon)) == 1
    euros, days = [numset([0, [3.0]], ["euro"])], [numset([0, [3.0]], ["day"])]
    assert compatible_groups(euros, days, lexicon) == []


def test_python_2_arithmetic_and_comparisons():
    assert py2_divide(7, 2) == 3 and py2_divide(7.0, 2) == 3.5
    assert lt(5.0, "163k") and not lt("163k", 5.0)
    assert apply("+", 0.0, 3.0) is not apply("+", 2.0, 3.0)  # + with a zero operand fails
    assert holds("<=", 5.0, [1.0, 10.0]) and not holds("=", 5.0, [1.0, 10.0])


def test_equations_follow_the_ilp_constraints():
    hypothesis = numset([0, [8.0]], ["apples"])
    # 3 + 5 = 8 with one unit: found at length 5.
    search = EquationSearch([numset([0, [3.0]], ["apples"]), numset([0, [5.0]], ["apples"])],
                            hypothesis)
    assert search.justified()
    # No unit anywhere: the type variables have no value, nothing is found.
    bare = EquationSearch([numset([0, [8.0]])], numset([0, [8.0]]))
    assert not bare.justified()
    # Only ranges in the premise: the `nocon` constraint cannot hold.
    ranges = EquationSearch([numset([0, [1.0, 10.0]], ["apples"])], hypothesis)
    assert not ranges.justified()
    # The 50-solution pool: two sequences (=, <=) are fewer than 50, so none is returned.
    pooled = EquationSearch([numset([0, [8.0]], ["apples"])], hypothesis, pool=50)
    assert not pooled.justified()
    assert EquationSearch([numset([0, [8.0]], ["apples"])], hypothesis).justified()


def test_released_rows_need_every_corenlp_field():
    row = released_row(side("175"), side("120"))
    assert has_corenlp(row)
    del row["sentence2_dep_parse"]
    assert not has_corenlp(row)


def test_the_sample_pairs_with_parses_get_labels():
    lexicon = Lexicon(load_wordnet(SAMPLES / "wordnet"))
    rows = [json.loads(line) for line in (SAMPLES / "redditnli.jsonl").read_text().splitlines()]
    parsed = [row for row in rows if has_corenlp(row)]
    assert len(parsed) == 3
    assert [label_pair(row, lexicon, RELEASED_RULES) for row in parsed] == [
        row["gold_label"] for row in parsed]
    assert parse_pair(parsed[1], lexicon).premise[0].unit == ["%"]
