"""Tests for running one Table 6 row on one evaluation set (reprobe.equate.evaluate)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from conftest import REPO
from reprobe.equate.baselines import train_hyp
from reprobe.equate.evaluate import (
    Predictor,
    evaluate_set,
    gather_shards,
    predict_rows,
    predict_shard,
    score_rows,
)
from reprobe.equate.jsonl import Pair, read_pairs, write_pairs
from reprobe.equate.qreas.pipeline import Resources
from reprobe.equate.qreas.pruner import load_word_list
from reprobe.equate.qreas.wordnet import load_wordnet
from reprobe.equate.settings import ALGORITHM1, HypSettings, QreasSettings
from reprobe.scores import read_scores
from reprobe.step_settings import settings_from_schema

SAMPLES = REPO / "data/samples/equate"


def sample_resources() -> Resources:
    """Algorithm 1's resources from the samples, with the schema's limits."""
    return Resources.for_row(
        load_wordnet(SAMPLES / "wordnet"), load_word_list(SAMPLES / "jobs.txt"),
        load_word_list(SAMPLES / "nationalities.txt"),
        settings_from_schema(QreasSettings, "equate.qreas"), ALGORITHM1)
E, N, C = "entailment", "neutral", "contradiction"


def write_set(path: Path, pairs: list[tuple[str, str, str]]) -> Path:
    """A released-layout jsonl of (premise, hypothesis, label) triples."""
    source = path.with_suffix(".src")
    source.write_text("x")
    write_pairs([Pair(*p) for p in pairs], path, genre="test", sources={"s": source},
                parameters={})
    return path


def test_two_class_sets_fold_neutral_and_contradiction() -> None:
    """On NewsNLI a predicted contradiction is right for a neutral pair; on RedditNLI it is not."""
    gold, predicted = [N, E, N], [C, E, E]
    two = score_rows(gold, predicted, model="M", test_set="newsnli", variant="released")
    three = score_rows(gold, predicted, model="M", test_set="redditnli", variant="released")
    assert two[0].value == pytest.approx(200 / 3) and two[0].n == 3
    assert three[0].value == pytest.approx(100 / 3)
    assert (two[0].table, two[0].setting, two[0].metric) == (
        "table6", "released", "newsnli")


def test_perturbed_rows_count_the_neutral_share_of_errors() -> None:
    """§5.1: accuracy on perturbed pairs and the share of its errors that were `neutral`."""
    rows = score_rows([C] * 4, [C, E, N, N], model="M", test_set="perturbed",
                      variant="perturbation")
    assert [(r.table, r.metric) for r in rows] == [
        ("s5.1", "perturbed"), ("s5.1", "neutral share of perturbed errors")]
    # Two-class: a predicted neutral counts as non-entailment, so only E is an error.
    assert rows[0].value == 75.0
    assert rows[1].value == 0.0 and rows[1].n == 1
    unperturbed = score_rows([E, E], [E, N], model="M", test_set="unperturbed",
                             variant="perturbation")
    assert len(unperturbed) == 1 and unperturbed[0].value == 50.0


def test_released_code_scores_only_parsed_pairs_and_is_na_without_any() -> None:
    partly = score_rows([E, N, E], [E, "NA", N], model="Q-REAS", test_set="rte_quant",
                        variant="released")[0]
    assert (partly.value, partly.n) == (50.0, 2)
    none = score_rows([E, N], ["NA", "NA"], model="Q-REAS", test_set="rte_quant",
                      variant="rebuilt")[0]
    assert (none.value, none.n) == ("NA (no CoreNLP parse)", 0)


def test_empty_set_scores_nan() -> None:
    assert math.isnan(score_rows([], [], model="M", test_set="awpnli",
                                 variant="rebuilt")[0].value)


def test_majority_row_writes_predictions_and_scores(tmp_path: Path) -> None:
    pairs = write_set(tmp_path / "set.jsonl", [("A has 3 cats.", "A has 3 cats.", E),
                                               ("B has 2 dogs.", "B has 5 dogs.", C),
                                               ("C has 4 hens.", "C has 4 hens.", E)])
    row = evaluate_set(Predictor("majority"), pairs, model="MAJ", test_set="awpnli",
                       variant="rebuilt", scores_csv=tmp_path / "s.csv",
                       predictions_jsonl=tmp_path / "p.jsonl")
    assert row.value == pytest.approx(200 / 3)
    written = read_scores([tmp_path / "s.csv"])
    assert (written.at[0, "model"], written.at[0, "metric"], written.at[0, "n"]) == (
        "MAJ", "awpnli", 3)
    predictions = [json.loads(line) for line in (tmp_path / "p.jsonl").open()]
    assert [p["predicted"] for p in predictions] == [E, E, E]
    assert predictions[1]["gold_label"] == C


def test_majority_is_counted_in_the_sets_label_space(tmp_path: Path) -> None:
    """Three entailments against two neutrals and two contradictions: on a two-class set the
    majority is non-entailment (4 of 7), on a three-class set entailment (3 of 7)."""
    pairs = [("A has 3.", "A has 3.", E)] * 3 + [("B has 2.", "B has 9.", N)] * 2 + [
        ("C has 4.", "C has 1.", C)] * 2
    path = write_set(tmp_path / "set.jsonl", pairs)
    two = evaluate_set(Predictor("majority"), path, model="MAJ", test_set="newsnli",
                       variant="released", scores_csv=tmp_path / "a.csv",
                       predictions_jsonl=tmp_path / "a.jsonl")
    three = evaluate_set(Predictor("majority"), path, model="MAJ", test_set="redditnli",
                         variant="released", scores_csv=tmp_path / "b.csv",
                         predictions_jsonl=tmp_path / "b.jsonl")
    assert two.value == pytest.approx(400 / 7)
    assert three.value == pytest.approx(300 / 7)


def test_hyp_and_qreas_rows_label_every_pair(tmp_path: Path) -> None:
    rows = list(read_pairs(SAMPLES / "rte_quant.jsonl"))
    model = train_hyp(SAMPLES / "nli_train.jsonl", tmp_path / "hyp.bin", seed=0,
                      settings=settings_from_schema(HypSettings, "equate.hyp", epochs=5, dim=10))
    hyp = predict_rows(Predictor("hyp", hyp_model=model), rows)
    resources = sample_resources()
    qreas = predict_rows(Predictor("qreas", resources=resources), rows)
    assert len(hyp) == len(qreas) == len(rows)
    assert set(hyp) <= {E, N, C} and set(qreas) <= {E, N, C}
    # A number word matched to a numeral, and a composed difference (6 million − 4 million).
    for hypothesis in ("12 miners were rescued.", "Sales grew by 2 million units."):
        assert qreas[next(i for i, r in enumerate(rows) if r["sentence2"] == hypothesis)] == E


def test_unknown_kind_and_missing_model_are_errors() -> None:
    with pytest.raises(ValueError, match="unknown predictor kind"):
        predict_rows(Predictor("oracle"), [])
    with pytest.raises(ValueError, match="hypothesis-only model"):
        predict_rows(Predictor("hyp"), [])
    with pytest.raises(ValueError, match="unknown variant"):
        evaluate_set(Predictor("majority"), Path("x"), model="M", test_set="awpnli",
                     variant="other", scores_csv=Path("s"), predictions_jsonl=Path("p"))


def _shards_then_gather(tmp_path: Path, predictor: Predictor, pairs: Path, shards: int,
                        test_set: str = "stresstest") -> list[str]:
    """Label a set in `shards` jobs, gather them; the gathered predictions."""
    files = []
    for k in range(shards):
        files.append(tmp_path / f"{k}of{shards}.jsonl")
        predict_shard(predictor, pairs, test_set=test_set, variant="rebuilt", shard=k,
                      shards=shards, out_jsonl=files[-1])
    evaluate_set(Predictor(predictor.kind), pairs, model="M", test_set=test_set,
                 variant="rebuilt", scores_csv=tmp_path / "gathered.csv",
                 predictions_jsonl=tmp_path / "gathered.jsonl", shard_files=files)
    return [json.loads(line)["predicted"]
            for line in (tmp_path / "gathered.jsonl").read_text().splitlines()]


def test_shards_gathered_equal_one_job(tmp_path: Path) -> None:
    pairs = write_set(tmp_path / "set.jsonl", [
        ("He paid 20 dollars.", "He paid 20 dollars.", E),
        ("She ran 5 miles and 3 miles.", "She ran 8 miles.", E),
        ("They sold 7 cars.", "They sold more than 9 cars.", C),
        ("About 300 people came.", "300 people came.", N),
        ("The team scored 4 goals.", "The team scored 5 goals.", C)])
    resources = sample_resources()
    qreas = Predictor("qreas", resources=resources)
    evaluate_set(qreas, pairs, model="M", test_set="stresstest", variant="rebuilt",
                 scores_csv=tmp_path / "one.csv", predictions_jsonl=tmp_path / "one.jsonl")
    one = [json.loads(line)["predicted"]
           for line in (tmp_path / "one.jsonl").read_text().splitlines()]
    assert _shards_then_gather(tmp_path, qreas, pairs, 3) == one
    assert (tmp_path / "gathered.csv").read_text() == (tmp_path / "one.csv").read_text()
    # MAJ: every shard predicts the whole set's majority (contradiction), not its own.
    (tmp_path / "maj").mkdir()
    skewed = write_set(tmp_path / "maj/set.jsonl", [("a", "b", E), ("c", "d", C), ("e", "f", N),
                                                    ("g", "h", C), ("i", "j", E), ("k", "l", C)])
    assert set(_shards_then_gather(tmp_path / "maj", Predictor("majority"), skewed, 2)) == {C}


def test_a_missing_or_repeated_shard_row_is_an_error(tmp_path: Path) -> None:
    from reprobe.errors import InputFormatError

    shard = tmp_path / "0of2.jsonl"
    shard.write_text('{"index": 0, "predicted": "entailment"}\n')
    with pytest.raises(InputFormatError, match="no prediction"):
        gather_shards([shard], 2)
    shard.write_text('{"index": 0, "predicted": "e"}\n{"index": 0, "predicted": "e"}\n')
    with pytest.raises(InputFormatError, match=r"0of2.jsonl: line 2: row index 0"):
        gather_shards([shard], 2)
