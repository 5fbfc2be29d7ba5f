"""Tests for the trained baselines' schedules and training loop: each paper's rule, learning a
separable toy set, byte-identical reruns, and resuming a killed run."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import reprobe.equate.trained.training as training
from reprobe.equate.trained.saved import TrainedSettings, resume_folder, train_baseline
from reprobe.equate.trained.schedules import (
    CHEN_PATIENCE,
    Progress,
    after_epoch,
    epoch_lr,
    williams_progress,
)
from reprobe.equate.trained.text import words
from reprobe.equate.trained.vocabulary import make_vocabulary
from reprobe.torch_runtime import reproducible_torch

# The hypothesis's first word decides the label; the rest is noise.
MARKERS = {"yes": "entailment", "maybe": "neutral", "no": "contradiction"}
SUBJECTS = ("man", "woman", "dog", "child", "cat", "boy")
VERBS = ("runs", "sleeps", "eats", "sings", "walks")


def toy_rows(n: int, seed: int) -> list[dict[str, Any]]:
    """n pairs, the three labels in turn, labelled by the hypothesis's marker word."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        marker = list(MARKERS)[i % 3]
        rows.append({"sentence1": f"A {rng.choice(SUBJECTS)} {rng.choice(VERBS)} in the park.",
                     "sentence2": f"{marker} {rng.choice(SUBJECTS)}",
                     "gold_label": MARKERS[marker]})
    return rows


def write_toy(folder: Path, n_train: int, dim: int = 50, without: tuple[str, ...] = ()
              ) -> tuple[Path, Path, Path]:
    """(train jsonl, dev jsonl, vocabulary folder) of a toy set, with random vectors (fixed
    seed) for every word it uses but `without`."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, rows in (("train", toy_rows(n_train, 1)), ("dev", toy_rows(30, 2))):
        path = folder / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        paths.append(path)
    used = sorted({w for path in paths for row in map(json.loads, path.read_text().splitlines())
                   for s in (row["sentence1"], row["sentence2"]) for w in words(s)})
    rng = np.random.default_rng(0)
    vectors = folder / "vectors.txt"
    vectors.write_text("".join(f"{w} " + " ".join(f"{x:.5f}" for x in rng.normal(size=dim))
                               + "\n" for w in used if w not in without), encoding="utf-8")
    make_vocabulary(paths[0], vectors, folder / "vocab")
    return paths[0], paths[1], folder / "vocab"


def train_toy(toy: tuple[Path, Path, Path], output: Path, architecture: str = "cbow",
              width: float = 0.05, max_epochs: int = 3, seed: int = 0) -> dict[str, Any]:
    """Train a baseline on a toy set on the CPU, one thread; its summary, with the last
    epoch's weights (not only the best epoch's, which model.pt holds) under "final"."""
    train, dev, vocab = toy
    settings = TrainedSettings(architecture, width, max_epochs, "paper", 0.5, "cpu", None)
    final: dict[str, torch.Tensor] = {}
    run_training = training.train

    def keeping_final(model: torch.nn.Module, *args: Any) -> Any:
        result = run_training(model, *args)
        final.update({k: v.detach().clone() for k, v in model.state_dict().items()})
        return result

    # reproducible_torch puts back the thread count and determinism switch training sets.
    with pytest.MonkeyPatch.context() as patch, reproducible_torch(torch):
        patch.setattr(training, "train", keeping_final)
        summary = train_baseline(train, dev, vocab, output, settings=settings, seed=seed,
                                 threads=1)
    return {**summary, "final": final}


def state_of(folder: Path) -> dict[str, torch.Tensor]:
    """A trained folder's saved weights."""
    return torch.load(folder / "model.pt", weights_only=True)


@pytest.fixture(scope="module")
def small_toy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """A 96-pair toy set (fast, for reruns)."""
    return write_toy(tmp_path_factory.mktemp("small"), 96)


@pytest.fixture(scope="module")
def uninterrupted(small_toy: tuple[Path, Path, Path],
                  tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A CBOW run on the small toy set that nothing stopped: its folder and summary."""
    output = tmp_path_factory.mktemp("runs") / "cbow"
    return output, train_toy(small_toy, output)


def test_williams_progress() -> None:
    """1000 x (sum / (5 x min) - 1) over the last five epochs; inf before five."""
    assert williams_progress([50.0, 60.0, 70.0, 80.0]) == float("inf")
    assert williams_progress([70.0] * 5) == 0.0
    assert williams_progress([10.0, 60.0, 61.0, 62.0, 63.0, 64.0]) == pytest.approx(
        1000 * (310 / 300 - 1))


def test_williams_stops_when_train_accuracy_stalls() -> None:
    """Five epochs of near-equal train accuracy stop the run; progress does not."""
    moving = Progress(lr=4e-4, train_accuracy=[50.0, 55.0, 60.0, 65.0, 70.0])
    assert after_epoch("williams", moving, 60.0).stop == ""
    stalled = Progress(lr=4e-4, train_accuracy=[70.0, 70.0, 70.0, 70.0, 70.01])
    assert after_epoch("williams", stalled, 60.0).stop != ""
    assert stalled.lr == 4e-4


def test_williams_stops_30000_steps_past_the_best() -> None:
    """More than 30,000 steps since the best dev epoch stop the run."""
    for step, stops in ((30_000, False), (30_001, True)):
        progress = Progress(lr=4e-4, step=step, best_dev=90.0,
                            train_accuracy=[50.0, 55.0, 60.0, 65.0, 70.0])
        assert bool(after_epoch("williams", progress, 80.0).stop) is stops


def test_chen_halves_and_reloads_then_stops() -> None:
    """A worse dev epoch halves the rate and asks for the best weights back; more than seven
    halvings stop."""
    progress = Progress(lr=4e-4)
    assert after_epoch("chen", progress, 60.0).improved and progress.best_dev == 60.0
    for halving in range(1, CHEN_PATIENCE + 1):
        decision = after_epoch("chen", progress, 50.0)
        assert (decision.improved, decision.reload_best, decision.stop) == (False, True, "")
        assert progress.lr == pytest.approx(4e-4 / 2 ** halving)
    decision = after_epoch("chen", progress, 50.0)
    assert decision.stop and progress.halvings == CHEN_PATIENCE + 1
    assert progress.best_dev == 60.0


def test_chen_improvement_keeps_the_rate() -> None:
    """A better dev epoch is a new best: no halving, no reload."""
    progress = Progress(lr=4e-4, epoch=3, best_dev=60.0)
    decision = after_epoch("chen", progress, 61.0)
    assert decision.improved and not decision.reload_best and not decision.stop
    assert (progress.lr, progress.best_dev, progress.best_epoch) == (4e-4, 61.0, 3)


def test_chen_tie_counts_as_the_best() -> None:
    """A dev epoch that equals the best is no halving: the released code's test is
    `valid_err <= numpy.array(history_errs).min()` (lukecq1231/nli and enc_nli main.py)."""
    progress = Progress(lr=4e-4, epoch=2, best_dev=60.0, best_epoch=1)
    decision = after_epoch("chen", progress, 60.0)
    assert decision.improved and not decision.reload_best and not decision.stop
    assert (progress.halvings, progress.lr, progress.best_epoch) == (0, 4e-4, 2)


def test_infersent_shrinks_by_five_and_stops_under_min_lr() -> None:
    """No dev improvement divides the rate by 5; under 1e-5 the run stops."""
    progress = Progress(lr=0.1, best_dev=70.0)
    assert after_epoch("infersent", progress, 71.0).improved and progress.lr == 0.1
    for shrink in range(1, 6):  # 0.1 / 5**5 = 3.2e-5
        assert after_epoch("infersent", progress, 50.0).stop == ""
        assert progress.lr == pytest.approx(0.1 / 5 ** shrink)
    assert after_epoch("infersent", progress, 50.0).stop != ""
    assert progress.lr < 1e-5


def test_epoch_lr_nie_halves_every_second_epoch() -> None:
    """SSEN's rate: the start rate halved every two epochs."""
    rates = [epoch_lr("nie", Progress(lr=1.0, epoch=e), 2e-4) for e in range(6)]
    assert rates == pytest.approx([2e-4, 2e-4, 1e-4, 1e-4, 5e-5, 5e-5])


def test_epoch_lr_infersent_decays_after_the_first_epoch() -> None:
    """InferSent's rate is kept for the first epoch, then times 0.99 each epoch; the others
    keep the progress's rate."""
    assert epoch_lr("infersent", Progress(lr=0.1, epoch=0), 0.1) == 0.1
    assert epoch_lr("infersent", Progress(lr=0.02, epoch=1), 0.1) == pytest.approx(0.0198)
    assert epoch_lr("chen", Progress(lr=1e-4, epoch=5), 4e-4) == 1e-4
    assert epoch_lr("williams", Progress(lr=4e-4, epoch=5), 4e-4) == 4e-4


@pytest.mark.parametrize(("architecture", "pairs", "max_epochs"),
                         [("cbow", 300, 6), ("esim", 600, 4)])
def test_learns_a_separable_toy_set(tmp_path: Path, architecture: str, pairs: int,
                                    max_epochs: int) -> None:
    """A label decided by one hypothesis word is learnt: best dev accuracy >= 90% (the
    recipes' rates are small, so a few hundred pairs give the steps)."""
    toy = write_toy(tmp_path / "toy", pairs)
    summary = train_toy(toy, tmp_path / "out", architecture, width=0.2, max_epochs=max_epochs)
    assert summary["progress"]["best_dev"] >= 90.0, summary["progress"]["dev_accuracy"]
    assert (tmp_path / "out" / "trained.json").is_file()


def same_tensors(got: dict[str, torch.Tensor], expected: dict[str, torch.Tensor]) -> bool:
    """Whether two state dicts hold the same names and bitwise-equal tensors."""
    return got.keys() == expected.keys() and all(torch.equal(got[k], expected[k])
                                                 for k in expected)


def test_cpu_reruns_are_byte_identical(small_toy: tuple[Path, Path, Path],
                                       uninterrupted: tuple[Path, dict[str, Any]],
                                       tmp_path: Path) -> None:
    """Training again with the same seed writes the same model.pt, byte for byte (and ends
    on the same weights); another seed does not."""
    folder, summary = uninterrupted
    again = train_toy(small_toy, tmp_path / "again")
    assert (tmp_path / "again" / "model.pt").read_bytes() == (folder / "model.pt").read_bytes()
    assert same_tensors(again["final"], summary["final"])
    other = train_toy(small_toy, tmp_path / "other_seed", seed=1)
    assert (tmp_path / "other_seed" / "model.pt").read_bytes() != \
        (folder / "model.pt").read_bytes()
    assert not same_tensors(other["final"], summary["final"])


class Killed(Exception):
    """Stands for the process being killed."""


def test_resumed_run_ends_like_an_uninterrupted_one(
        small_toy: tuple[Path, Path, Path], uninterrupted: tuple[Path, dict[str, Any]],
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed after the first epoch's checkpoint, then started again: it trains only the
    remaining epochs, ends with the uninterrupted run's weights (last and best), and removes
    its checkpoint."""
    folder, expected = uninterrupted
    output = tmp_path / "cbow"
    save, train_epoch = training._save, training._train_epoch

    def save_then_die(*args: Any) -> None:
        save(*args)
        raise Killed

    monkeypatch.setattr(training, "_save", save_then_die)
    with pytest.raises(Killed):
        train_toy(small_toy, output)
    assert (resume_folder(output) / training.CHECKPOINT).is_file() and not output.exists()
    monkeypatch.setattr(training, "_save", save)
    epochs: list[int] = []

    def counted(*args: Any) -> float:
        epochs.append(args[-1].epoch)
        return train_epoch(*args)

    monkeypatch.setattr(training, "_train_epoch", counted)
    resumed = train_toy(small_toy, output)
    assert epochs == [1, 2] and resumed["progress"] == expected["progress"]
    assert same_tensors(resumed["final"], expected["final"])
    assert same_tensors(state_of(output), state_of(folder))
    assert not resume_folder(output).exists()


def test_a_checkpoint_of_other_settings_is_not_resumed(
        small_toy: tuple[Path, Path, Path], uninterrupted: tuple[Path, dict[str, Any]],
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A killed run's checkpoint left behind, then the row's width changed: the new run starts
    afresh (from epoch 0) instead of loading weights of another shape."""
    output = tmp_path / "cbow"
    save = training._save

    def save_then_die(*args: Any) -> None:
        save(*args)
        raise Killed

    monkeypatch.setattr(training, "_save", save_then_die)
    with pytest.raises(Killed):
        train_toy(small_toy, output, width=0.1)
    monkeypatch.setattr(training, "_save", save)
    assert train_toy(small_toy, output)["progress"] == uninterrupted[1]["progress"]
    assert same_tensors(state_of(output), state_of(uninterrupted[0]))
