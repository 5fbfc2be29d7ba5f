"""Tests for the generic local-checkpoint NLI row and the tiny offline model."""

from __future__ import annotations

import json
import os
import shutil
import socket
import time
from collections.abc import Iterator
from pathlib import Path

# Set before transformers or huggingface_hub is imported: they read it at import time.
os.environ["HF_HUB_OFFLINE"] = "1"

import pytest

from conftest import REPO
from reprobe.equate.jsonl import Pair, read_pairs
from reprobe.equate.labels import LABELS, NON_ENTAILMENT
from reprobe.equate.neural import (
    assemble_checkpoint,
    build_tiny_nli_model,
    canonical_label,
    predict_nli,
    resolve_labels,
)
from reprobe.equate.settings import TinyNliSettings
from reprobe.errors import InputFormatError, ReprobeError
from reprobe.step_settings import settings_from_schema

SAMPLE = REPO / "data/samples/equate/nli_train.jsonl"


def training(**changes: int) -> TinyNliSettings:
    """A tiny row's training settings: the schema's, but for `changes`."""
    return settings_from_schema(TinyNliSettings, "$defs.neural_model.tiny", **changes)


class NetworkAttempt(AssertionError):
    """Raised when code under test opens a network connection."""


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail any test that tries to connect anywhere (a hub download would)."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise NetworkAttempt(f"network access attempted: {args[1:] or kwargs}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    yield


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, float]:
    """The tiny checkpoint built from the sample, with its build time in seconds."""
    start = time.perf_counter()
    out = build_tiny_nli_model(tmp_path_factory.mktemp("nli") / "tiny", SAMPLE, seed=0,
                               settings=training())
    return out, time.perf_counter() - start


def test_tiny_model_builds_quickly_and_predicts_valid_labels(tiny: tuple[Path, float]) -> None:
    """Seconds to build; a saved checkpoint; one valid label per pair, learnt from the sample."""
    model_dir, seconds = tiny
    assert seconds < 30
    assert (model_dir / "config.json").exists() and (model_dir / "tokenizer.json").exists()
    rows = list(read_pairs(SAMPLE))
    predicted = predict_nli(model_dir, rows, batch_size=7)
    assert len(predicted) == len(rows)
    assert set(predicted) <= set(LABELS) and len(set(predicted)) >= 2
    # Batching must not change the answer: padding is masked.
    assert predict_nli(model_dir, rows, batch_size=64) == predicted
    assert predict_nli(model_dir, [], batch_size=4) == []


def test_tiny_model_is_deterministic(tiny: tuple[Path, float], tmp_path: Path) -> None:
    """The same seed rebuilds the same vocabulary and weights."""
    first = build_tiny_nli_model(tmp_path / "first", SAMPLE, seed=0, settings=training(steps=3))
    again = build_tiny_nli_model(tmp_path / "again", SAMPLE, seed=0, settings=training(steps=3))
    for name in ("tokenizer.json", "model.safetensors"):
        assert (first / name).read_bytes() == (again / name).read_bytes(), name
    pairs = [Pair("Sara has 5 apples.", "Sara has 9 zebras.", "contradiction")]
    assert predict_nli(again, pairs, batch_size=8) == predict_nli(first, pairs, batch_size=8)


def test_tiny_model_is_the_same_whatever_torch_threads_the_machine_has(tmp_path: Path) -> None:
    """Training runs on one thread whatever the process had, and gives that setting back."""
    import torch

    before = torch.get_num_threads()
    models = []
    try:
        for threads in (1, 4):
            torch.set_num_threads(threads)
            models.append(build_tiny_nli_model(tmp_path / str(threads), SAMPLE, seed=0,
                                               settings=training(steps=3)))
            assert torch.get_num_threads() == threads
            assert not torch.are_deterministic_algorithms_enabled()
    finally:
        torch.set_num_threads(before)
    one, four = ((model / "model.safetensors").read_bytes() for model in models)
    assert one == four


@pytest.mark.parametrize(("name", "label"), [
    ("ENTAILMENT", "entailment"), ("entailment", "entailment"), ("Neutral", "neutral"),
    ("CONTRADICTION", "contradiction"), ("not_entailment", NON_ENTAILMENT), ("LABEL_0", None)])
def test_canonical_label(name: str, label: str | None) -> None:
    """Checkpoint class names map case-insensitively; generic names do not map by themselves."""
    assert canonical_label(name) == label


def test_resolve_labels_with_and_without_a_label_map() -> None:
    """Named classes resolve alone; LABEL_k classes need a map, keyed by name or index."""
    assert resolve_labels({"0": "CONTRADICTION", "1": "NEUTRAL", "2": "ENTAILMENT"}) == {
        0: "contradiction", 1: "neutral", 2: "entailment"}
    generic = {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}
    with pytest.raises(ReprobeError, match="LABEL_0"):
        resolve_labels(generic)
    by_name = {"LABEL_0": "entailment", "LABEL_1": "neutral", "LABEL_2": "contradiction"}
    by_index = {"0": "entailment", "1": "neutral", "2": "contradiction"}
    assert resolve_labels(generic, by_name) == resolve_labels(generic, by_index) == {
        0: "entailment", 1: "neutral", 2: "contradiction"}


def test_checkpoint_with_generic_labels_runs_through_a_label_map(
        tiny: tuple[Path, float], tmp_path: Path) -> None:
    """A checkpoint whose config says LABEL_k predicts the same labels once mapped."""
    model_dir, _ = tiny
    generic = tmp_path / "generic"
    shutil.copytree(model_dir, generic)
    config_path = generic / "config.json"
    config = json.loads(config_path.read_text())
    config["id2label"] = {str(i): f"LABEL_{i}" for i in range(3)}
    config["label2id"] = {f"LABEL_{i}": i for i in range(3)}
    config_path.write_text(json.dumps(config))
    rows = list(read_pairs(SAMPLE))[:12]
    with pytest.raises(ReprobeError):
        predict_nli(generic, rows, batch_size=8)
    mapping = {f"LABEL_{i}": label for i, label in enumerate(LABELS)}
    mapped = predict_nli(generic, rows, label_map=mapping, batch_size=8)
    assert mapped == predict_nli(model_dir, rows, batch_size=8)


def test_missing_checkpoint_fails_without_download(tmp_path: Path) -> None:
    """A path that is not a checkpoint is an error, never a hub lookup."""
    with pytest.raises(Exception) as error:
        predict_nli(tmp_path / "absent", [Pair("a", "b", "neutral")], batch_size=8)
    assert not isinstance(error.value, NetworkAttempt)


def test_checkpoint_assembled_from_fetched_files_predicts_the_same(
        tiny: tuple[Path, float], tmp_path: Path) -> None:
    """The paper config's path: hub files fetched one by one, gathered under their names."""
    model_dir, _ = tiny
    fetched = {}
    for path in sorted(model_dir.iterdir()):
        # Fetched sources sit in their own folders, under the names config gives them.
        (tmp_path / "raw" / path.name).mkdir(parents=True)
        fetched[path.name] = shutil.copy(path, tmp_path / "raw" / path.name / path.name)
    assembled = assemble_checkpoint(fetched, tmp_path / "model")
    rows = list(read_pairs(SAMPLE))[:8]
    assert predict_nli(assembled, rows, batch_size=8) == predict_nli(model_dir, rows, batch_size=8)
    assert not list(tmp_path.glob(".model.tmp-*"))
    with pytest.raises(ValueError, match="plain file name"):
        assemble_checkpoint({"../x": next(iter(fetched.values()))}, tmp_path / "bad")


def test_an_empty_training_file_is_an_error_naming_it(tmp_path) -> None:
    empty = tmp_path / "nli_train.jsonl"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"nli_train\.jsonl: whole file: holds no"):
        build_tiny_nli_model(tmp_path / "model", empty, seed=0, settings=training())
    assert not (tmp_path / "model").exists()
