"""Tests for EQUATE's MAJ and hypothesis-only fastText (HYP) baselines."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conftest import REPO
from reprobe.equate.baselines import (
    _load,
    majority_baseline,
    predict_hyp,
    train_hyp,
)
from reprobe.equate.evaluate import accuracy
from reprobe.equate.jsonl import Pair, read_pairs
from reprobe.equate.labels import LABELS, NON_ENTAILMENT, fold, is_two_class
from reprobe.equate.settings import HypSettings
from reprobe.errors import InputFormatError
from reprobe.step_settings import settings_from_schema

# Enough epochs on the small sample for the classifier to learn the cue words.
TRAINING = settings_from_schema(HypSettings, "equate.hyp", epochs=50, dim=16)

SAMPLE = REPO / "data/samples/equate/nli_train.jsonl"


def pairs(*labels: str) -> list[Pair]:
    """Pairs with the given gold labels (text is irrelevant to MAJ)."""
    return [Pair("Tom had 3 apples.", f"Tom has {i} apples.", g) for i, g in enumerate(labels)]


def test_sample_is_balanced_three_way_with_quantities() -> None:
    """The committed sample holds about 60 pairs of all three labels, some with numbers."""
    rows = list(read_pairs(SAMPLE))
    assert 50 <= len(rows) <= 80
    assert {r["gold_label"] for r in rows} == set(LABELS)
    assert sum(any(ch.isdigit() for ch in r["sentence2"]) for r in rows) >= 10


def test_majority_is_the_test_sets_own_majority() -> None:
    """MAJ predicts the majority of the test gold labels (paper §4.1), not of training."""
    test = pairs("contradiction", "contradiction", "entailment")
    assert majority_baseline(test) == ["contradiction"] * 3
    gold = [p.gold_label for p in test]
    assert accuracy(gold, majority_baseline(test), two_class=False) == pytest.approx(200 / 3)


def test_majority_counts_in_the_two_class_space() -> None:
    """On 2-class sets neutral and contradiction pool before the majority is taken."""
    test = pairs("entailment", "entailment", "neutral", "contradiction", "contradiction")
    assert majority_baseline(test) == ["entailment"] * 5
    assert majority_baseline(test, two_class=True) == [NON_ENTAILMENT] * 5


def test_majority_on_balanced_three_way_set_scores_a_third() -> None:
    """A balanced 3-class set gives MAJ 33.3%, as for the Stress Test in Table 6."""
    test = pairs(*(LABELS * 4))
    predicted = majority_baseline(test)
    assert len(set(predicted)) == 1
    assert accuracy([p.gold_label for p in test], predicted, False) == pytest.approx(100 / 3)
    assert majority_baseline([]) == []


def test_fold_accuracy_and_label_spaces() -> None:
    """2-class scoring treats neutral and contradiction as the same answer."""
    assert fold("neutral", True) == fold("contradiction", True) == NON_ENTAILMENT
    assert fold("neutral", False) == "neutral"
    gold, pred = ["entailment", "contradiction"], ["entailment", "neutral"]
    assert accuracy(gold, pred, two_class=True) == 100.0
    assert accuracy(gold, pred, two_class=False) == 50.0
    with pytest.raises(ValueError):
        accuracy(gold, pred[:1], two_class=False)
    assert [is_two_class(n) for n in ("RTE-Quant", "NewsNLI", "RedditNLI", "Stress Test",
                                       "AwpNLI")] == [True, True, False, False, True]


@pytest.fixture(scope="module")
def hyp_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A HYP model trained on the sample's hypotheses."""
    path = tmp_path_factory.mktemp("hyp") / "hyp.bin"
    return train_hyp(SAMPLE, path, seed=1, settings=TRAINING)


def test_hyp_training_is_finite_and_not_degenerate(hyp_model: Path) -> None:
    """Fails on the fasttext 0.9.3 NaN bug: weights finite, predictions learn the labels."""
    model = _load(hyp_model)
    assert np.isfinite(model.get_input_matrix()).all()
    assert np.isfinite(model.get_output_matrix()).all()
    rows = list(read_pairs(SAMPLE))
    predicted = predict_hyp(hyp_model, rows)
    assert len(set(predicted)) >= 2
    # Hypotheses are seen in training, so HYP must beat the 1/3 chance rate on them.
    assert accuracy([r["gold_label"] for r in rows], predicted, False) > 45


def test_hyp_is_deterministic_and_accepts_pairs_and_rows(hyp_model: Path, tmp_path: Path) -> None:
    """Same seed, same predictions; Pair objects and jsonl rows give the same answer."""
    again = train_hyp(SAMPLE, tmp_path / "again.bin", seed=1, settings=TRAINING)
    rows = list(read_pairs(SAMPLE))
    as_pairs = [Pair(r["sentence1"], r["sentence2"], r["gold_label"]) for r in rows]
    assert predict_hyp(again, rows) == predict_hyp(hyp_model, as_pairs)
    unseen = predict_hyp(hyp_model, [Pair("x", "Qwzx vbnm.", "neutral"), Pair("x", "", "neutral")])
    assert all(label in LABELS for label in unseen)
    assert predict_hyp(hyp_model, []) == []


def test_an_empty_training_file_is_an_error_naming_it(tmp_path: Path) -> None:
    empty = tmp_path / "nli_train.jsonl"
    empty.write_text("\n", encoding="utf-8")
    # fastText itself would say only "Empty vocabulary".
    with pytest.raises(InputFormatError, match=r"nli_train\.jsonl: whole file: holds no "
                       r"training pairs"):
        train_hyp(empty, tmp_path / "hyp.bin", seed=1, settings=TRAINING)
    assert not (tmp_path / "hyp.bin").exists()
