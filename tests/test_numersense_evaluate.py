"""hit@k under the no/zero conventions on hand-made predictions (reprobe.numersense.evaluate)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprobe.errors import InputFormatError
from reprobe.numersense.evaluate import (
    PredictionLine,
    hits_at_k,
    probe_key,
    ranked_words,
    read_prediction_lines,
    read_predictions,
    score_lines,
    write_predictions,
)
from reprobe.numersense.probes import LabelledProbe

BIRDS = "birds have <mask> legs."
EMPTY = "an empty box holds <mask> apples."
# "no" ranked above "zero": the authors' evaluator rewrites it to "zero" in place.
RANKED = {
    BIRDS: [("four", 0.5), ("two", 0.3), ("six", 0.1), ("no", 0.05)],
    EMPTY: [("one", 0.4), ("no", 0.3), ("zero", 0.2), ("two", 0.1)],
}


def test_official_rewrites_no_to_zero_without_merging():
    assert ranked_words(RANKED[EMPTY], "official") == ["one", "zero", "zero", "two"]
    assert ranked_words(RANKED[EMPTY], "merge") == ["zero", "one", "two"]
    assert ranked_words(RANKED[EMPTY], "none") == ["one", "no", "zero", "two"]
    with pytest.raises(ValueError, match="convention"):
        ranked_words(RANKED[EMPTY], "sum")


def test_hit_at_k_under_each_convention():
    gold = [LabelledProbe(BIRDS, "two"), LabelledProbe(EMPTY, "zero"),
            LabelledProbe(EMPTY, "no")]  # the same probe twice: each gold line counts
    official = hits_at_k(gold, RANKED, convention="official")
    assert official == {1: 0.0, 2: pytest.approx(100.0), 3: pytest.approx(100.0)}
    merged = hits_at_k(gold, RANKED, convention="merge")
    assert merged[1] == pytest.approx(200 / 3)  # merged "zero" (0.5) outranks "one" (0.4)
    none = hits_at_k(gold, RANKED, convention="none")
    assert none == {1: 0.0, 2: pytest.approx(200 / 3), 3: pytest.approx(100.0)}


def test_predictions_round_trip_and_match_lowercased(tmp_path: Path):
    path = tmp_path / "predictions.jsonl"
    write_predictions(path, [BIRDS.upper(), EMPTY], [RANKED[BIRDS], RANKED[EMPTY]])
    read = read_predictions(path)
    assert read[probe_key("  " + BIRDS.upper() + " ")] == RANKED[BIRDS]
    assert hits_at_k([LabelledProbe(BIRDS, "four")], read, convention="none")[1] == 100.0
    with pytest.raises(KeyError, match="no prediction"):
        hits_at_k([LabelledProbe("cats have <mask> tails.", "one")], read, convention="none")


def test_a_malformed_prediction_names_its_line(tmp_path: Path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"probe": "a <mask> b", "result_list": [{"word": "one", "score": 1}]}\n'
                    '{"probe": "x"}\n')
    with pytest.raises(InputFormatError, match="line 2"):
        read_predictions(path)
    # The authors' evaluator asserts at least one ranked word a line.
    path.write_text('{"probe": "a <mask> b", "result_list": []}\n')
    with pytest.raises(InputFormatError, match="line 1: an empty result_list"):
        read_predictions(path)


def lines(*probes: str) -> list[PredictionLine]:
    """Prediction lines for the probes, in order (repeats kept)."""
    return [PredictionLine(p, RANKED[p]) for p in probes]


def test_released_counts_every_prediction_line_and_the_last_gold_label():
    # EMPTY is predicted twice (two lines) and labelled twice: "one" then "zero". The authors'
    # dict keeps "zero", read against "one", "zero", "zero" (no rewritten): hit@1 misses.
    gold = [LabelledProbe(BIRDS, "four"), LabelledProbe(EMPTY, "one"),
            LabelledProbe(EMPTY, "zero")]
    hits, n = score_lines(gold, lines(BIRDS, EMPTY, EMPTY), convention="released")
    assert n == 3
    assert hits == {1: pytest.approx(100 / 3), 2: pytest.approx(100.0),
                    3: pytest.approx(100.0)}
    # Gold line by gold line, each with its own label, the first EMPTY line hits at 1.
    hits, n = score_lines(gold, lines(BIRDS, EMPTY), convention="none")
    assert (hits[1], n) == (pytest.approx(200 / 3), 3)


def test_released_leaves_out_predictions_without_a_label():
    hits, n = score_lines([LabelledProbe(BIRDS, "four")], lines(BIRDS, EMPTY),
                          convention="released")
    assert (hits[1], n) == (100.0, 1)


def test_released_needs_the_prediction_lines():
    with pytest.raises(ValueError, match="score_lines"):
        hits_at_k([LabelledProbe(BIRDS, "four")], RANKED, convention="released")


def test_prediction_lines_keep_repeats_in_file_order(tmp_path: Path):
    path = tmp_path / "predictions.jsonl"
    write_predictions(path, [BIRDS, EMPTY, BIRDS], [RANKED[BIRDS], RANKED[EMPTY], RANKED[BIRDS]])
    assert [line.probe for line in read_prediction_lines(path)] == [BIRDS, EMPTY, BIRDS]
