"""Tests for the attentive mention typer and the MC task (Table 5)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch
from gensim.models import KeyedVectors

from reprobe.cli import main
from reprobe.wikipse.embedding.vectors import save_vectors
from reprobe.wikipse.tasks.attentive import (
    TyperSettings,
    _batch_order,
    build_typer,
    predict_probabilities,
    train_typer,
)
from reprobe.wikipse.tasks.mention_task import classify_mentions, read_typing_data

SETTINGS = TyperSettings(lstm_dim=4, attention_dim=4, dropout=0.5, batch_size=8, epochs=4,
                         steps_per_epoch=30, learning_rate=0.05, device="cpu")


def test_batches_wrap_over_one_permutation_per_epoch() -> None:
    batches = _batch_order(10, 4, 5, np.random.default_rng(0))
    assert [len(b) for b in batches] == [4] * 5
    # 10 // 4 = 2 whole batches a pass, then around again (NFGEC's batcher).
    assert batches[0].tolist() == batches[2].tolist() == batches[4].tolist()
    assert not set(batches[0]) & set(batches[1])
    assert len(_batch_order(3, 8, 2, np.random.default_rng(0))[0]) == 3


def test_the_embeddings_stay_fixed_and_padding_is_zero() -> None:
    embeddings = np.random.default_rng(0).normal(size=(6, 3)).astype(np.float32)
    embeddings[0] = 0
    model = build_typer(torch, embeddings, 2, SETTINGS)
    assert not model.embed.weight.requires_grad
    assert model.out.weight.abs().max() <= 0.01
    ids = torch.zeros((2, 3), dtype=torch.long)
    assert model(ids, ids, torch.zeros((2, 3))).shape == (2, 2)


def separable(count: int, seed: int) -> tuple[np.ndarray, ...]:
    """Mentions whose left word decides the type: word 1 → type 0, word 2 → type 1."""
    rng = np.random.default_rng(seed)
    kind = rng.integers(0, 2, count)
    left = np.zeros((count, 2), dtype=np.int64)
    left[:, 1] = kind + 1
    right = rng.integers(3, 5, (count, 2))
    targets = np.eye(2, dtype=np.float32)[kind]
    return left, right, np.zeros((count, 3), dtype=np.float32), targets


def test_the_typer_learns_a_context_cue_and_is_seeded() -> None:
    embeddings = np.eye(5, 3, k=-1, dtype=np.float32) + np.eye(5, 3, dtype=np.float32) * 0.1
    embeddings[0] = 0
    train, test = separable(64, 0), separable(32, 1)
    model = train_typer(torch, embeddings, train, 2, SETTINGS, seed=3)
    probabilities = predict_probabilities(torch, model, *test[:3], "cpu")
    assert (probabilities.argmax(axis=1) == test[3].argmax(axis=1)).mean() == 1.0
    again = train_typer(torch, embeddings, train, 2, SETTINGS, seed=3)
    assert np.array_equal(probabilities, predict_probabilities(torch, again, *test[:3], "cpu"))


def figer_files(folder: Path) -> dict[str, Path]:
    """train/dev/test where the word before the mention names its type."""
    lines = {"person": "0\t1\t{name} said hello\t/person\tF",
             "location": "1\t2\tin {name} it rains\t/location\tF"}
    names = ["anna", "bob", "carl", "dora", "emil", "fred"]
    files = {}
    for split, count in (("train", 6), ("dev", 2), ("test", 4)):
        rows = [lines[kind].format(name=names[i % len(names)])
                for i in range(count) for kind in lines]
        files[split] = folder / f"{split}.txt"
        files[split].write_text("\n".join(rows) + "\n", encoding="utf-8")
    return files


def word_vectors(folder: Path) -> Path:
    """A tiny vectors folder in the stage's own format."""
    words = ["said", "hello", "in", "it", "rains", "anna", "bob", "@carl@"]
    vectors = KeyedVectors(vector_size=4)
    vectors.add_vectors(words, np.random.default_rng(0).normal(size=(len(words), 4))
                        .astype(np.float32))
    save_vectors(vectors, folder / "vectors")
    return folder / "vectors"


def test_classify_mentions_scores_the_test_split(tmp_path: Path) -> None:
    from reprobe.wikipse.embedding.vectors import load_vectors

    data = read_typing_data(figer_files(tmp_path), context=3, lowercase=True)
    found = classify_mentions(data, load_vectors(word_vectors(tmp_path)), SETTINGS, seed=0)
    assert found["n_test"] == 8 and found["strict"] == pytest.approx(100.0)
    assert found["coverage"] == pytest.approx(8 / 11)


def test_mc_through_the_cli(tmp_path: Path) -> None:
    files = figer_files(tmp_path)
    scores = tmp_path / "mc.csv"
    typer = {"lstm_dim": 4, "attention_dim": 4, "dropout": 0.5, "learning_rate": 0.001,
             "batch_size": 8, "epochs": 1, "steps_per_epoch": 2, "device": "cpu"}
    settings = {"context": 3, "lowercase": True, "typer": typer}
    assert main(["wikipse", "mc", *(f"--{s}={p}" for s, p in files.items()),
                 "--settings", json.dumps(settings), "--seed", "0",
                 "--ours", f"word={word_vectors(tmp_path)}", "--scores", str(scores)]) == 0
    rows = pd.read_csv(scores)
    assert rows[["table", "model", "metric", "n"]].values.tolist() == [
        ["table5", "word", "MC", 8]]
    assert 0 <= rows["value"].iloc[0] <= 100
