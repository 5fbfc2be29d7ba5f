"""Tests for Table 5's sentence tasks: SentEval's file readers, footnote 7's averaging, the
stratified seeded folds, and the MR/CR/SUBJ and MRPC protocols on synthetic vectors."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest
from gensim.models import KeyedVectors

from conftest import REPO
from reprobe.errors import InputFormatError
from reprobe.wikipse.tasks.senteval import (
    BINARY_FILES,
    MRPC_FILES,
    binary_task,
    encode,
    fold_indices,
    mrpc_task,
    pair_features,
    read_binary,
    read_binary_task,
    read_mrpc,
    sentence_vector,
    tokenize,
)

SAMPLES = REPO / "data/samples/wikipse/senteval"
HEADER = "Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n"


def keyed(vectors: dict[str, list[float]]) -> KeyedVectors:
    """KeyedVectors holding the given keys in the given order."""
    size = len(next(iter(vectors.values())))
    kv = KeyedVectors(vector_size=size)
    kv.add_vectors(list(vectors), np.asarray(list(vectors.values()), dtype=np.float32))
    return kv


def hashed(words: set[str], size: int = 8) -> KeyedVectors:
    """Random vectors for the words, each seeded by the word itself."""
    rows = {w: np.random.default_rng(zlib.crc32(w.encode())).normal(size=size).tolist()
            for w in sorted(words)}
    return keyed(rows)


@pytest.mark.parametrize("task", sorted(BINARY_FILES))
def test_binary_samples_read_as_senteval_lays_them_out(task: str) -> None:
    sentences, labels = read_binary_task(SAMPLES, task)
    assert len(sentences) == 60 and labels.tolist() == [1] * 30 + [0] * 30
    pos, _ = BINARY_FILES[task]
    assert sentences[0] == (SAMPLES / pos).read_text(encoding="latin-1").splitlines()[0]


def test_read_binary_keeps_blank_lines_and_refuses_empty_files(tmp_path: Path) -> None:
    (tmp_path / "p").write_text("good film .\n\nfine\n", encoding="latin-1")
    (tmp_path / "n").write_bytes("bad caf\xe9 .\n".encode("latin-1"))
    sentences, labels = read_binary(tmp_path / "p", tmp_path / "n")
    assert sentences == ["good film .", "", "fine", "bad café ."]
    assert labels.tolist() == [1, 1, 1, 0]
    (tmp_path / "e").write_text("\n \n", encoding="latin-1")
    with pytest.raises(InputFormatError, match="e: line 1: no sentences"):
        read_binary(tmp_path / "p", tmp_path / "e")


def test_mrpc_samples_read_in_the_real_layout() -> None:
    train, test = (read_mrpc(SAMPLES / name) for name in MRPC_FILES)
    assert (len(train[0]), int(train[1].sum()), len(test[0]), int(test[1].sum())) == \
        (40, 26, 20, 13)
    assert train[0][1] == ("Aristotle was a student of Plato in Athens.",
                           "In Athens, Aristotle studied under Plato.")


def test_read_mrpc_skips_header_bom_crlf_and_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "m.txt"
    path.write_bytes(("\ufeff" + HEADER + "1\t1\t2\tA cat.\tThe cat.\r\n\n"
                      "0\t3\t4\tA dog.\tA ship.\r\n").encode("utf-8"))
    pairs, labels = read_mrpc(path)
    assert pairs == [("A cat.", "The cat."), ("A dog.", "A ship.")]
    assert labels.tolist() == [1, 0]


@pytest.mark.parametrize(("body", "where", "problem"), [
    (HEADER + "1\t1\t2\tA cat.\tThe cat.\n0\t3\t4\tonly four fields\n", "line 3", "5 tab"),
    (HEADER + "\n1\t1\t2\tA.\tB.\nyes\t3\t4\tA.\tB.\n", "line 4", "not 0 or 1"),
    ("1\t1\t2\tA cat.\tThe cat.\n", "line 1", "header"),
    (HEADER, "line 2", "no sentence pairs"),
])
def test_malformed_mrpc_names_file_and_line(tmp_path: Path, body: str, where: str,
                                            problem: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(InputFormatError, match=problem) as caught:
        read_mrpc(path)
    assert caught.value.path == str(path) and caught.value.where == where


def test_tokenize_lowercases_and_splits_like_the_corpus() -> None:
    assert tokenize("Don't panic, it's the U.S. way!") == \
        ["do", "n't", "panic", ",", "it", "'s", "the", "u.s.", "way", "!"]
    assert tokenize("it 's 3.5 times  better , is n't it ?") == \
        ["it", "'s", "3.5", "times", "better", ",", "is", "n't", "it", "?"]


def test_sentence_vector_averages_with_footnote_7_and_zeros() -> None:
    kv = keyed({"apple": [1.0, 0.0], "@apple@": [0.0, 1.0], "pear": [2.0, 2.0],
                "@plum@": [3.0, -1.0]})
    # apple → mean(apple, @apple@) = (0.5, 0.5); each token counts; unknown tokens are skipped.
    assert sentence_vector(["apple", "pear", "fig", "plum"], kv).tolist() == [11 / 6, 0.5]
    assert sentence_vector(["apple", "apple", "pear"], kv).tolist() == [1.0, 1.0]
    assert sentence_vector(["fig", "kiwi"], kv).tolist() == [0.0, 0.0]
    assert sentence_vector([], kv).tolist() == [0.0, 0.0]
    rows, coverage = encode(["Apple, pear!", "fig", ""], kv)
    assert rows.tolist() == [[1.25, 1.25], [0.0, 0.0], [0.0, 0.0]]
    assert coverage == {"sentences": 3, "no_vector": 2, "tokens": 5, "tokens_found": 2,
                        "token_coverage": 0.4}


def test_folds_are_stratified_partitions() -> None:
    labels = np.array([1] * 37 + [0] * 23)
    folds = fold_indices(labels, 10, seed=3)
    assert len(folds) == 10
    assert sorted(np.concatenate(folds).tolist()) == list(range(60))
    for test in folds:
        assert abs(labels[test].sum() - len(test) * labels.mean()) <= 1


def test_folds_are_seed_stable() -> None:
    labels = np.random.default_rng(0).integers(0, 2, 100)
    same = [f.tolist() for f in fold_indices(labels, 10, seed=7)]
    assert same == [f.tolist() for f in fold_indices(labels, 10, seed=7)]
    assert same != [f.tolist() for f in fold_indices(labels, 10, seed=8)]


def polar_sentences(rng: np.random.Generator, n: int) -> tuple[list[str], np.ndarray,
                                                                KeyedVectors]:
    """n sentences of 4 words drawn from a positive or a negative vocabulary, whose vectors
    lie around +mean and −mean, with their labels."""
    mean = np.ones(6)
    words = {f"{side}{i}": (sign * mean + 0.3 * rng.normal(size=6)).tolist()
             for side, sign in (("good", 1), ("bad", -1)) for i in range(30)}
    labels = rng.integers(0, 2, n)
    sentences = [" ".join(f"{'good' if y else 'bad'}{i}" for i in rng.integers(0, 30, 4))
                 for y in labels]
    return sentences, labels, keyed(words)


def test_binary_task_separates_separable_sentences() -> None:
    sentences, labels, kv = polar_sentences(np.random.default_rng(1), 200)
    result = binary_task(sentences, labels, kv, folds=10, inner_folds=3, seed=5)
    assert result["accuracy"] == 100.0
    assert (result["n"], result["folds"], len(result["fold_accuracy"])) == (200, 10, 10)
    assert result["token_coverage"] == 1.0 and result["no_vector"] == 0
    assert set(result["fold_c"]) <= {0.25, 1.0, 4.0}


def test_binary_task_on_random_labels_is_near_chance() -> None:
    rng = np.random.default_rng(2)
    sentences, _, kv = polar_sentences(rng, 400)
    labels = rng.integers(0, 2, 400)
    result = binary_task(sentences, labels, kv, folds=10, inner_folds=3, seed=5)
    assert 38 <= result["accuracy"] <= 62


def test_binary_task_refuses_one_class() -> None:
    kv = keyed({"a": [1.0, 0.0]})
    with pytest.raises(ValueError, match="both classes"):
        binary_task(["a"] * 20, [1] * 20, kv, folds=10)


def test_pair_features_are_abs_difference_then_product() -> None:
    u, v = np.array([[1.0, 2.0], [0.0, -1.0]]), np.array([[3.0, -1.0], [2.0, -1.0]])
    assert pair_features(u, v).tolist() == [[2.0, 3.0, 3.0, -2.0], [2.0, 0.0, 0.0, 1.0]]


def paraphrases(rng: np.random.Generator, n: int) -> tuple[list[tuple[str, str]], np.ndarray]:
    """Pairs that are the same words reordered (1) or two unrelated word draws (0)."""
    pairs, labels = [], rng.integers(0, 2, n)
    for y in labels:
        first = [f"w{i}" for i in rng.choice(40, 3, replace=False)]
        second = first[::-1] if y else [f"w{i}" for i in rng.choice(40, 3, replace=False)]
        pairs.append((" ".join(first), " ".join(second)))
    return pairs, labels


def test_mrpc_task_on_a_separable_case() -> None:
    rng = np.random.default_rng(4)
    kv = hashed({f"w{i}" for i in range(40)})
    train, test = paraphrases(rng, 160), paraphrases(rng, 80)
    result = mrpc_task(*train, *test, kv, seed=5, folds=5)
    assert result["accuracy"] >= 90 and result["f1"] >= 90
    assert (result["n_train"], result["n_test"], result["sentences"]) == (160, 80, 480)
    assert result["c"] in (0.25, 1.0, 4.0)


def test_samples_run_end_to_end() -> None:
    sentences, labels = read_binary_task(SAMPLES, "SUBJ")
    (train, train_y), (test, test_y) = (read_mrpc(SAMPLES / name) for name in MRPC_FILES)
    words = {t for s in sentences + [s for p in train + test for s in p] for t in tokenize(s)}
    kv = hashed(words)
    binary = binary_task(sentences, labels, kv, folds=5, seed=1)
    assert binary["n"] == 60 and binary["token_coverage"] == 1.0
    assert 0 <= binary["accuracy"] <= 100
    assert binary == binary_task(sentences, labels, kv, folds=5, seed=1)
    pairs = mrpc_task(train, train_y, test, test_y, kv, folds=3)
    assert pairs["n_test"] == 20 and 0 <= pairs["f1"] <= 100
