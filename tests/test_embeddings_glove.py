"""GloVe: vocabulary, co-occurrence counting, the weighting, AdaGrad fitting and recovery."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from reprobe.embeddings.glove import (
    GloveParameters,
    build_vocab,
    count_cooccurrences,
    count_cooccurrences_parallel,
    fit_glove,
    glove_loss,
    train_glove,
    weighting,
)
from reprobe.embeddings.load import load_vectors
from reprobe.embeddings.train import vocab_path
from reprobe.errors import InputFormatError
from reprobe.numeracy.retrain_settings import RetrainSettings
from reprobe.step_settings import settings_from_schema

# The schema's GloVe settings (`numeracy.retrain`); each test changes what it says.
SCHEMA_GLOVE = settings_from_schema(RetrainSettings, "numeracy.retrain").family_settings("glove")
WEIGHTS = {"x_max": SCHEMA_GLOVE["x_max"], "alpha": SCHEMA_GLOVE["alpha"]}
FIT = {**WEIGHTS, "learning_rate": SCHEMA_GLOVE["learning_rate"]}


def train_glove_with(corpus: Path, out: Path, **changes: object) -> Path:
    """train_glove with the schema's settings, one process and seed 0, but for `changes`."""
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


def dense(words: list[str], matrix) -> dict[tuple[str, str], float]:
    """The nonzero entries of a co-occurrence matrix by word pair."""
    coo = matrix.tocoo()
    return {(words[i], words[j]): v for i, j, v in zip(coo.row, coo.col, coo.data, strict=True)}


@pytest.mark.parametrize(("x", "x_max", "alpha"), [
    (0.5, 100.0, 0.75), (1.0, 100.0, 0.75), (42.0, 100.0, 0.75), (99.99, 100.0, 0.75),
    (100.0, 100.0, 0.75), (1e6, 100.0, 0.75), (3.0, 10.0, 0.5), (0.2, 1.0, 1.0),
])
def test_weighting_is_the_papers_f(x, x_max, alpha):
    expected = (x / x_max) ** alpha if x < x_max else 1.0
    assert weighting(np.array([x]), x_max, alpha)[0] == pytest.approx(expected, rel=1e-12)


def test_the_schemas_weighting_is_the_references():
    assert (SCHEMA_GLOVE["x_max"], SCHEMA_GLOVE["alpha"]) == (100, 0.75)
    weight = weighting(np.array([10.0]), SCHEMA_GLOVE["x_max"], SCHEMA_GLOVE["alpha"])[0]
    assert weight == pytest.approx(0.1 ** 0.75)


def test_vocabulary_keeps_frequent_words_by_count_then_alphabet(tmp_path):
    corpus = write(tmp_path / "c.txt", "b a c a\nb d a c\n")
    words, counts = build_vocab(corpus, min_count=2)
    assert words == ["a", "b", "c"] and counts.tolist() == [3, 2, 2]


def test_counts_weigh_by_inverse_distance_symmetrically_within_lines(tmp_path):
    corpus = write(tmp_path / "c.txt", "a b c\nc a\n")
    words = ["a", "b", "c"]
    counts = dense(words, count_cooccurrences(corpus, words, window=2))
    assert counts == {
        ("a", "b"): 1.0, ("b", "a"): 1.0, ("b", "c"): 1.0, ("c", "b"): 1.0,
        # a-c: distance 2 on line 1, distance 1 on line 2; never across the line break.
        ("a", "c"): 1.5, ("c", "a"): 1.5,
    }


def test_out_of_vocabulary_tokens_are_dropped_before_windowing(tmp_path):
    corpus = write(tmp_path / "c.txt", "a zz zz b\n")
    counts = dense(["a", "b"], count_cooccurrences(corpus, ["a", "b"], window=1))
    assert counts == {("a", "b"): 1.0, ("b", "a"): 1.0}


def test_a_word_next_to_itself_counts_twice_as_in_the_reference(tmp_path):
    corpus = write(tmp_path / "c.txt", "a a\n")
    assert dense(["a"], count_cooccurrences(corpus, ["a"], window=5)) == {("a", "a"): 2.0}


def test_chunks_and_shards_sum_to_the_whole(tmp_path):
    corpus = tmp_path / "c.txt"
    two_topic_corpus(corpus, sentences=101)
    words, _ = build_vocab(corpus, min_count=1)
    whole = count_cooccurrences(corpus, words, window=3).toarray()
    chunked = count_cooccurrences(corpus, words, window=3, chunk_tokens=50).toarray()
    halves = sum(count_cooccurrences(corpus, words, window=3, shard=(i, 2)).toarray()
                 for i in range(2))
    np.testing.assert_allclose(chunked, whole)
    np.testing.assert_allclose(halves, whole)
    np.testing.assert_allclose(whole, whole.T)
    parallel = count_cooccurrences_parallel(corpus, words, window=3, workers=2).toarray()
    np.testing.assert_allclose(parallel, whole)


def sequential_adagrad(cooc, dim: int, epochs: int, seed: int, eta: float = 0.05) -> np.ndarray:
    """The reference C trainer's per-entry loop, written plainly: the oracle for fit_glove."""
    rng = np.random.default_rng(seed)
    p = GloveParameters.initial(cooc.shape[0], dim, rng)
    for _ in range(epochs):
        for k in rng.permutation(cooc.nnz):
            i, j, x = cooc.row[k], cooc.col[k], cooc.data[k]
            diff = p.words[i] @ p.contexts[j] + p.word_bias[i] + p.context_bias[j] - np.log(x)
            fdiff = eta * (min(x / 100.0, 1.0) ** 0.75) * diff
            grad_w, grad_c = fdiff * p.contexts[j], fdiff * p.words[i]
            p.words[i] -= grad_w / np.sqrt(p.words_sq[i])
            p.contexts[j] -= grad_c / np.sqrt(p.contexts_sq[j])
            p.words_sq[i] += grad_w ** 2
            p.contexts_sq[j] += grad_c ** 2
            p.word_bias[i] -= fdiff / np.sqrt(p.word_bias_sq[i])
            p.context_bias[j] -= fdiff / np.sqrt(p.context_bias_sq[j])
            p.word_bias_sq[i] += fdiff ** 2
            p.context_bias_sq[j] += fdiff ** 2
    return p.vectors()


def test_batches_of_one_are_the_reference_per_entry_adagrad(tmp_path):
    corpus = tmp_path / "c.txt"
    two_topic_corpus(corpus, sentences=30)
    words, _ = build_vocab(corpus, min_count=1)
    cooc = count_cooccurrences(corpus, words, window=2)
    params, _ = fit_glove(cooc, **FIT, dim=4, epochs=2, seed=5, batch_size=1)
    np.testing.assert_allclose(params.vectors(), sequential_adagrad(cooc, 4, 2, 5), atol=1e-5)


def test_the_loss_decreases(tmp_path):
    corpus = tmp_path / "c.txt"
    two_topic_corpus(corpus)
    words, _ = build_vocab(corpus, min_count=1)
    cooc = count_cooccurrences(corpus, words, window=5)
    initial = glove_loss(GloveParameters.initial(len(words), 10, np.random.default_rng(0)), cooc,
                         **WEIGHTS)
    params, losses = fit_glove(cooc, **FIT, dim=10, epochs=15, seed=0, batch_size=16)
    # Steadily at first; near the optimum stochastic steps make it wobble by a few percent.
    assert all(later < earlier for earlier, later in zip(losses[:6], losses[1:6], strict=False))
    assert glove_loss(params, cooc, **WEIGHTS) < losses[-1] * 1.1 < initial / 100


def test_training_recovers_the_topics(tmp_path):
    corpus = tmp_path / "c.txt"
    topics = two_topic_corpus(corpus)
    out = train_glove_with(corpus, tmp_path / "glove.txt", dim=10, min_count=1, epochs=30, seed=2,
                      batch_size=16)
    kv = load_vectors(out)
    assert sorted(kv.index_to_key) == sorted(topics[0] + topics[1])
    for topic in topics:
        for word in topic:
            assert kv.most_similar(word, topn=1)[0][0] in topic, word


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
                                  epochs=40, seed=0, batch_size=8))
    for left, right in pairs:
        assert kv.most_similar(left, topn=1)[0][0] == right


def test_output_is_deterministic_with_a_vocabulary_file(tmp_path):
    corpus = tmp_path / "c.txt"
    two_topic_corpus(corpus, sentences=50)
    first = train_glove_with(corpus, tmp_path / "a.txt", dim=5, min_count=1, epochs=2, seed=9)
    second = train_glove_with(corpus, tmp_path / "b.txt", dim=5, min_count=1, epochs=2, seed=9)
    assert first.read_bytes() == second.read_bytes()
    # Counting in two processes sums the same numbers in another order: equal up to rounding.
    sharded = train_glove_with(corpus, tmp_path / "c.txt", dim=5, min_count=1, epochs=2, seed=9,
                          workers=2)
    np.testing.assert_allclose(load_vectors(sharded).vectors, load_vectors(first).vectors,
                               atol=1e-5)
    header, *lines = first.read_text("utf-8").splitlines()
    assert header == "16 5" and len(lines) == 16
    counts = [int(line.split("\t")[1]) for line in vocab_path(first).read_text().splitlines()]
    assert counts == sorted(counts, reverse=True) and sum(counts) == 50 * 8


def test_bad_corpora_are_refused_with_their_line(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(b"a b\nc \xff d\n")
    with pytest.raises(InputFormatError) as info:
        build_vocab(corpus, min_count=1)
    assert info.value.where == "line 2"
    with pytest.raises(InputFormatError, match="min_count=5"):
        train_glove_with(write(tmp_path / "small.txt", "a b\n"), tmp_path / "g.txt", seed=0)
    with pytest.raises(InputFormatError, match="no two vocabulary words"):
        train_glove_with(write(tmp_path / "one.txt", "a\n" * 5), tmp_path / "g.txt", seed=0)
