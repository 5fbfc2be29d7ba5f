"""GloVe from corpus to vectors: recovery, reproducibility, threads, errors, no leftovers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from reprobe.embeddings.glove import train_glove
from reprobe.embeddings.load import load_vectors
from reprobe.embeddings.train import vocab_path
from reprobe.errors import InputFormatError
from reprobe.numeracy.retrain_settings import RetrainSettings
from reprobe.step_settings import settings_from_schema

# The schema's GloVe settings (`numeracy.retrain`); each test changes what it says.
SCHEMA = settings_from_schema(RetrainSettings, "numeracy.retrain")
SCHEMA_GLOVE = {**SCHEMA.family_settings("glove"), "memory_mb": SCHEMA.glove["memory_mb"]}


def train_glove_with(corpus: Path, out: Path, **changes: object) -> Path:
    """train_glove with the schema's settings, one worker and seed 0, but for `changes`."""
    return train_glove(corpus, out, **{**SCHEMA_GLOVE, "seed": 0, "workers": 1, **changes})


def write(path: Path, text: str) -> Path:
    """Write a corpus file and return its path."""
    path.write_text(text, encoding="utf-8")
    return path


def two_topic_corpus(path: Path, seed: int = 0, sentences: int = 600) -> list[list[str]]:
    """Sentences each drawn from one of two disjoint vocabularies of 8 words."""
    rng = np.random.default_rng(seed)
    topics = [[f"red{i}" for i in range(8)], [f"blue{i}" for i in range(8)]]
    lines = [" ".join(rng.choice(topics[rng.integers(2)], 8)) for _ in range(sentences)]
    write(path, "\n".join(lines) + "\n")
    return topics


def assert_topics_recovered(out: Path, topics: list[list[str]]) -> None:
    """Every word's nearest neighbour is of its own topic."""
    kv = load_vectors(out)
    assert sorted(kv.index_to_key) == sorted(topics[0] + topics[1])
    for topic in topics:
        for word in topic:
            assert kv.most_similar(word, topn=1)[0][0] in topic, word


@pytest.mark.parametrize("workers", [1, 2])
def test_training_recovers_the_topics(tmp_path, workers):
    corpus = tmp_path / "c.txt"
    topics = two_topic_corpus(corpus)
    out = train_glove_with(corpus, tmp_path / "out" / "glove.txt", dim=10, min_count=1,
                           epochs=30, seed=2, workers=workers)
    assert_topics_recovered(out, topics)
    # The counting and shuffling files were temporary: only the outputs are left.
    assert sorted(p.name for p in out.parent.iterdir()) == ["glove.txt", "glove.vocab.tsv"]


def test_fixed_pairs_are_each_others_nearest_neighbours(tmp_path):
    # Words that always occur together in fixed pairs, pairs in random order on each line.
    rng = np.random.default_rng(1)
    pairs = [(f"left{i}", f"right{i}") for i in range(6)]
    lines = []
    for _ in range(400):
        chosen = rng.choice(len(pairs), 3, replace=False)
        lines.append(" ".join(f"{pairs[k][0]} {pairs[k][1]}" for k in chosen))
    corpus = write(tmp_path / "c.txt", "\n".join(lines) + "\n")
    kv = load_vectors(train_glove_with(corpus, tmp_path / "g.txt", dim=8, window=1, min_count=1,
                                       epochs=40, seed=0))
    for left, right in pairs:
        assert kv.most_similar(left, topn=1)[0][0] == right


def test_one_worker_gives_the_same_bytes_whatever_the_memory(tmp_path):
    corpus = tmp_path / "c.txt"
    two_topic_corpus(corpus, sentences=50)
    first = train_glove_with(corpus, tmp_path / "a.txt", dim=5, min_count=1, epochs=2, seed=9)
    second = train_glove_with(corpus, tmp_path / "b.txt", dim=5, min_count=1, epochs=2, seed=9,
                              memory_mb=1)
    assert first.read_bytes() == second.read_bytes()
    header, *lines = first.read_text("utf-8").splitlines()
    assert header == "16 5" and len(lines) == 16
    counts = [int(line.split("\t")[1]) for line in vocab_path(first).read_text().splitlines()]
    assert counts == sorted(counts, reverse=True) and sum(counts) == 50 * 8


def test_bad_corpora_are_refused_with_their_line_and_leave_nothing(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(b"a b\nc \xff d\n")
    out = tmp_path / "out" / "g.txt"
    with pytest.raises(InputFormatError) as info:
        train_glove_with(corpus, out, min_count=1)
    assert info.value.where == "line 2"
    with pytest.raises(InputFormatError, match="min_count=5"):
        train_glove_with(write(tmp_path / "small.txt", "a b\n"), out)
    with pytest.raises(InputFormatError, match="no two vocabulary words"):
        train_glove_with(write(tmp_path / "one.txt", "a\n" * 5), out)
    assert list(out.parent.iterdir()) == []
