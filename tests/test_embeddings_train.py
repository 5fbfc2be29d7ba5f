"""Training word2vec and fastText with gensim on a synthetic corpus of two disjoint topics."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from gensim.models import KeyedVectors

from reprobe.embeddings.load import load_vectors
from reprobe.embeddings.train import (
    NonFiniteVectorsError,
    check_finite,
    train_fasttext,
    train_word2vec,
    vocab_path,
)
from reprobe.errors import InputFormatError


def random_words(rng: np.random.Generator, count: int) -> list[str]:
    """Distinct random lowercase words, so shared character n-grams carry no topic."""
    words: set[str] = set()
    while len(words) < count:
        words.add("".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz"), 6)))
    return sorted(words)


def two_topic_corpus(path: Path, seed: int = 0, sentences: int = 1500) -> tuple[list, list]:
    """Write sentences each drawn from one of two disjoint vocabularies; return both."""
    rng = np.random.default_rng(seed)
    words = random_words(rng, 24)
    topics = [words[:12], words[12:]]
    with path.open("w", encoding="utf-8") as f:
        for _ in range(sentences):
            topic = topics[rng.integers(2)]
            f.write(" ".join(rng.choice(topic, 10)) + "\n")
    return topics[0], topics[1]


def assert_topics_recovered(kv: KeyedVectors, topics: tuple[list, list]) -> None:
    """Every word's nearest neighbour belongs to its own topic."""
    for topic in topics:
        for word in topic:
            neighbour = kv.most_similar(word, topn=1)[0][0]
            assert neighbour in topic, (word, neighbour)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, tuple[list, list]]:
    path = tmp_path_factory.mktemp("corpus") / "corpus.txt"
    return path, two_topic_corpus(path)


# A five-word window and a count of five: the reference tools' (and the schema's) values.
CONTEXT = {"window": 5, "min_count": 5}


@pytest.mark.parametrize("train", [train_word2vec, train_fasttext])
def test_training_gives_finite_vectors_and_topic_neighbours(tmp_path, corpus, train):
    path, topics = corpus
    # Every word here is frequent: fastText's default downsampling (1e-4) would drop 95% of it.
    out = train(path, tmp_path / "vectors.txt", dim=20, **CONTEXT, epochs=5, sample=1e-3, seed=1,
                workers=2)
    assert out == tmp_path / "vectors.txt"
    kv = load_vectors(out)
    assert (len(kv), kv.vector_size) == (24, 20)
    assert np.isfinite(kv.vectors).all()
    assert_topics_recovered(kv, topics)


@pytest.mark.parametrize("train", [train_word2vec, train_fasttext])
def test_vocabulary_file_has_the_corpus_counts_by_descending_count(tmp_path, corpus, train):
    path, _ = corpus
    out = train(path, tmp_path / "vectors.txt", dim=10, **CONTEXT, epochs=1, seed=1, workers=1)
    rows = [line.split("\t") for line in vocab_path(out).read_text("utf-8").splitlines()]
    counts = Counter(path.read_text("utf-8").split())
    assert {w: int(c) for w, c in rows} == dict(counts)
    assert [int(c) for _, c in rows] == sorted(counts.values(), reverse=True)
    # The vector file lists the words in the same order.
    assert [w for w, _ in rows] == load_vectors(out).index_to_key


@pytest.mark.parametrize("train", [train_word2vec, train_fasttext])
def test_one_worker_is_byte_deterministic(tmp_path, corpus, train):
    path, _ = corpus
    first = train(path, tmp_path / "a.txt", dim=10, **CONTEXT, epochs=1, seed=3, workers=1)
    second = train(path, tmp_path / "b.txt", dim=10, **CONTEXT, epochs=1, seed=3, workers=1)
    other = train(path, tmp_path / "c.txt", dim=10, **CONTEXT, epochs=1, seed=4, workers=1)
    assert first.read_bytes() == second.read_bytes() != other.read_bytes()


def test_min_count_is_applied(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text("a b c a b a\n" * 2, encoding="utf-8")
    out = train_word2vec(path, tmp_path / "v.txt", dim=5, window=5, min_count=4, epochs=1,
                         seed=0, workers=1)
    assert load_vectors(out).index_to_key == ["a", "b"]


def test_a_corpus_without_frequent_tokens_is_refused(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text("a b c\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="min_count=5"):
        train_fasttext(path, tmp_path / "v.txt", dim=5, **CONTEXT, epochs=1,
                       seed=0, workers=1)
    assert not (tmp_path / "v.txt").exists()


def test_an_empty_corpus_is_refused(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text("", encoding="utf-8")
    with pytest.raises(InputFormatError, match="empty corpus"):
        train_word2vec(path, tmp_path / "v.txt", dim=5, window=5, min_count=1, epochs=1,
                       seed=0, workers=1)


def test_check_finite_names_the_first_bad_word():
    kv = KeyedVectors(2)
    kv.add_vectors(["ok", "bad", "worse"], np.array([[1, 2], [np.nan, 0], [np.inf, 1]], "f4"))
    with pytest.raises(NonFiniteVectorsError, match=r"2 of 3 vectors .* 'bad'"):
        check_finite(kv, "out.txt")
    check_finite(load_vectors_from(np.ones((2, 3))), "fine.txt")


def load_vectors_from(matrix: np.ndarray) -> KeyedVectors:
    """KeyedVectors holding `matrix` under the words w0, w1, …"""
    kv = KeyedVectors(matrix.shape[1])
    kv.add_vectors([f"w{i}" for i in range(len(matrix))], matrix.astype("f4"))
    return kv
