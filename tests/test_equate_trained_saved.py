"""Tests for a trained baseline's folder: it reloads to the model that was trained, its
log-probabilities, and what is not such a folder."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import reprobe.equate.trained.training as training
from reprobe.equate.labels import LABELS
from reprobe.equate.trained.architectures import RECIPES
from reprobe.equate.trained.batches import BatchMaker, encode_pairs
from reprobe.equate.trained.saved import (
    TrainedSettings,
    is_trained_folder,
    load_trained,
    predict_trained,
    train_baseline,
    trained_log_probs,
)
from reprobe.equate.trained.vocabulary import read_vocabulary
from reprobe.errors import InputFormatError
from reprobe.torch_runtime import reproducible_torch
from test_equate_trained_training import toy_rows, write_toy

# Test pairs: the toy set's own words, words it never saw, and a word past CH's 20 characters.
ROWS = [*toy_rows(9, 7),
        {"sentence1": "A zebra grazes beside the incomprehensibilities.",
         "sentence2": "maybe zebra"},
        {"sentence1": "A man runs.", "sentence2": "no"}]


@pytest.fixture(autouse=True)
def one_thread() -> Iterator[None]:
    """One torch thread in each test (the models are tiny; a busy machine's second core only
    slows them), and torch's settings restored after (training changes them)."""
    with reproducible_torch(torch):
        yield


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """A 96-pair toy set with its vocabulary folder ("park" without a vector)."""
    return write_toy(tmp_path_factory.mktemp("toy"), 96, without=("park",))


def train_keeping_model(toy: tuple[Path, Path, Path], output: Path, architecture: str
                        ) -> torch.nn.Module:
    """Train one epoch into `output`; the in-memory model, holding the best weights."""
    kept: list[Any] = []
    run_training = training.train

    def keeping(model: torch.nn.Module, *args: Any) -> Any:
        best, progress = run_training(model, *args)
        kept.append((model, best))
        return best, progress

    train, dev, vocab = toy
    settings = TrainedSettings(architecture, 0.05, 1, "paper", 0.5, "cpu", None)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(training, "train", keeping)
        train_baseline(train, dev, vocab, output, settings=settings, seed=0, threads=1)
    model, best = kept[0]
    model.load_state_dict(best)
    return model.eval()


@pytest.mark.parametrize("architecture", ["cbow", "infersent", "ch", "align"])
def test_saved_folder_predicts_like_the_trained_model(
        toy: tuple[Path, Path, Path], tmp_path: Path, architecture: str) -> None:
    """A folder reloaded without the vector file gives the in-memory model's log-probabilities
    and labels (fixed embeddings, vector flags and characters included)."""
    folder = tmp_path / architecture
    model = train_keeping_model(toy, folder, architecture)
    vocabulary, _, has = read_vocabulary(toy[2])
    maker = BatchMaker(encode_pairs(ROWS, vocabulary), vocabulary, has,
                       RECIPES[architecture].text, training=False)
    expected = torch.log_softmax(
        training.predict_logits(model, maker, np.arange(len(ROWS)), 4, "cpu"), dim=-1)
    scores = trained_log_probs(folder, ROWS, batch_size=3)
    got = torch.tensor([[row[label] for label in LABELS] for row in scores])
    assert torch.allclose(got, expected, atol=1e-5)
    assert predict_trained(folder, ROWS, batch_size=5) == [
        LABELS[i] for i in expected.argmax(dim=1).tolist()]


def test_log_probs_are_distributions_over_the_labels(toy: tuple[Path, Path, Path],
                                                     tmp_path: Path) -> None:
    """Each pair's scores: one per label, their probabilities summing to 1."""
    train_keeping_model(toy, tmp_path / "cbow", "cbow")
    scores = trained_log_probs(tmp_path / "cbow", ROWS, batch_size=4)
    assert len(scores) == len(ROWS)
    for row in scores:
        assert set(row) == set(LABELS) and all(value <= 0 for value in row.values())
        assert math.fsum(math.exp(value) for value in row.values()) == pytest.approx(1, abs=1e-5)


def test_trained_folder_is_recognised(toy: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """A trained folder is one (and reloads in eval mode); an empty folder is not."""
    train_keeping_model(toy, tmp_path / "align", "align")
    assert is_trained_folder(tmp_path / "align")
    model, recipe, vocabulary, has = load_trained(tmp_path / "align")
    assert not model.training and recipe == RECIPES["align"]
    assert len(vocabulary.words) == len(has)
    (tmp_path / "empty").mkdir()
    assert not is_trained_folder(tmp_path / "empty")


def test_empty_folder_does_not_load(tmp_path: Path) -> None:
    """load_trained on a folder without trained.json raises InputFormatError naming it."""
    with pytest.raises(InputFormatError, match="trained.json") as error:
        load_trained(tmp_path)
    assert error.value.path == str(tmp_path)


def test_a_cuda_device_without_one_names_the_setting(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Training asked of a GPU on a machine without one fails on the key, before any work."""
    import torch

    from reprobe.errors import ConfigError

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    settings = TrainedSettings("cbow", 0.05, 1, "paper", 0.5, "cuda", None)
    with pytest.raises(ConfigError, match="equate.training.device"):
        train_baseline(tmp_path / "train.jsonl", tmp_path / "dev.jsonl", tmp_path / "vocab",
                       tmp_path / "out", settings=settings, seed=0, threads=1)
