"""Structured skip-gram (reprobe.wikipse.embedding.sskip): the update, determinism, word
order, I/O."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from gensim.models import Word2Vec

from reprobe.errors import InputFormatError
from reprobe.step_settings import schema_section, setting_names
from reprobe.wikipse.embedding import sskip, wang2vec
from reprobe.wikipse.embedding.embedding_settings import EmbeddingSettings, SSkipConfig

# --- one update, by hand -------------------------------------------------------------------------
# Centre word 0 with W_in[0] = (0.1, -0.2); offset +1 of window 1 (position 1); targets: word 1,
# the context (label 1), C[1][1] = (0.3, 0.4); word 0 as a noise word (label 0),
# C[1][0] = (-0.5, 0.1); learning rate 0.5. With sigmoid(x) = 1 / (1 + exp(-x)):
#   f1 = 0.1*0.3 - 0.2*0.4 = -0.05, sigmoid(-0.05) = 0.48750260,
#   g1 = (1 - 0.48750260) * 0.5 = 0.25624870
#   f2 = 0.1*-0.5 - 0.2*0.1 = -0.07, sigmoid(-0.07) = 0.48250714,
#   g2 = (0 - 0.48250714) * 0.5 = -0.24125357
#   C[1][1] += g1 * W_in[0] = (0.3 + 0.025624870, 0.4 - 0.051249740)
#   C[1][0] += g2 * W_in[0] = (-0.5 - 0.024125357, 0.1 + 0.048250714)
#   W_in[0] += g1 * (0.3, 0.4) + g2 * (-0.5, 0.1) = (0.1 + 0.19750140, -0.2 + 0.07837412)
W_IN_0 = [0.1, -0.2]
C_CONTEXT, C_NOISE = [0.3, 0.4], [-0.5, 0.1]
EXPECTED_W_IN_0 = [0.29750140, -0.12162588]
EXPECTED_C_CONTEXT = [0.32562487, 0.34875026]
EXPECTED_C_NOISE = [-0.52412536, 0.14825071]


def config_of(**changes) -> SSkipConfig:
    """SSKIP's hyperparameters as the schema's defaults give them, with `changes`."""
    section = schema_section("wikipse.embeddings")["properties"]
    settings = EmbeddingSettings(**{name: section[name]["default"]
                                    for name in setting_names(EmbeddingSettings)})
    base = settings.trainer(dim=changes.pop("dim", 100), seed=changes.pop("seed", 0))
    return dataclasses.replace(base, **changes)


def small_model() -> tuple[np.ndarray, np.ndarray]:
    """W_in (2 words x 2) and C (window 1: 2 positions x 2 words x 2) of the hand-worked case."""
    w_in = np.array([W_IN_0, [0.7, 0.9]], dtype=np.float32)
    c_out = np.zeros((2, 2, 2), dtype=np.float32)
    c_out[0] = [[1.0, 2.0], [3.0, 4.0]]  # offset -1: must stay untouched
    c_out[1, 1], c_out[1, 0] = C_CONTEXT, C_NOISE
    return w_in, c_out


def test_numba_step_equals_the_hand_computed_update() -> None:
    w_in, c_out = small_model()
    before = c_out[0].copy()
    sskip.sskip_step(w_in, c_out, 0, 1, np.array([1, 0]), np.array([1.0, 0.0]), 0.5)
    np.testing.assert_allclose(w_in[0], EXPECTED_W_IN_0, atol=1e-6)
    np.testing.assert_allclose(c_out[1, 1], EXPECTED_C_CONTEXT, atol=1e-6)
    np.testing.assert_allclose(c_out[1, 0], EXPECTED_C_NOISE, atol=1e-6)
    np.testing.assert_array_equal(w_in[1], np.float32([0.7, 0.9]))
    np.testing.assert_array_equal(c_out[0], before)


def test_reference_step_equals_the_hand_computed_update() -> None:
    w_in, c_rows = sskip.sskip_pair_update(W_IN_0, [C_CONTEXT, C_NOISE], np.array([1, 0]), 0.5)
    np.testing.assert_allclose(w_in, EXPECTED_W_IN_0, atol=1e-8)
    np.testing.assert_allclose(c_rows, [EXPECTED_C_CONTEXT, EXPECTED_C_NOISE], atol=1e-8)


def test_kernel_on_a_sentence_takes_offsets_to_their_positions() -> None:
    # Sentence "0 1", window 1, no negatives, no subsampling: word 0 predicts word 1 through
    # C[1] (offset +1), then word 1 predicts word 0 through C[0] (offset -1), both at alpha.
    w_in, c_out = small_model()
    want_w, want_c = w_in.astype(np.float64), c_out.astype(np.float64)
    want_w[0], (want_c[1, 1],) = sskip.sskip_pair_update(want_w[0], [want_c[1, 1]], [1], 0.1)
    want_w[1], (want_c[0, 0],) = sskip.sskip_pair_update(want_w[1], [want_c[0, 0]], [1], 0.1)
    sskip.train_chunks(w_in, c_out, np.array([0, 1], dtype=np.int32), np.array([0, 2]),
                       np.array([0, 1]), np.array([7], dtype=np.uint64),
                       np.ones(2, dtype=np.float32), np.array([0, 1], dtype=np.int32),
                       1, 0, 0.1, 0, 2, 2)
    np.testing.assert_allclose(w_in, want_w, atol=1e-6)
    np.testing.assert_allclose(c_out, want_c, atol=1e-6)


# --- determinism ---------------------------------------------------------------------------------


def random_corpus(path: Path, seed: int = 0, sentences: int = 600) -> Path:
    """Sentences of 5-14 words over 40 word types with Zipf-like frequencies."""
    rng = np.random.default_rng(seed)
    words = np.array([f"w{i}" for i in range(40)])
    weights = 1 / np.arange(1, 41)
    lines = [" ".join(rng.choice(words, int(rng.integers(5, 15)), p=weights / weights.sum()))
             for _ in range(sentences)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_one_worker_is_bit_for_bit_reproducible(tmp_path: Path) -> None:
    corpus = random_corpus(tmp_path / "corpus.txt")
    config = config_of(dim=8, epochs=2, min_count=1, seed=3)
    first, again = sskip.train_sskip(corpus, config), sskip.train_sskip(corpus, config)
    assert first.index_to_key == again.index_to_key
    np.testing.assert_array_equal(first.vectors, again.vectors)
    other = sskip.train_sskip(corpus, config_of(dim=8, epochs=2, min_count=1, seed=4))
    assert not np.array_equal(first.vectors, other.vectors)


def test_chunks_and_their_streams_do_not_depend_on_workers() -> None:
    starts = np.array([0, 40, 90, 150, 160, 230])
    # A chunk opens at the first sentence starting at or after each multiple of 100 words.
    np.testing.assert_array_equal(sskip.chunk_bounds(starts, 100), [0, 3, 5])
    np.testing.assert_array_equal(sskip.chunk_bounds(starts, 1000), [0, 5])
    seeds = sskip.chunk_seeds(0, 1, range(3))
    np.testing.assert_array_equal(seeds, sskip.chunk_seeds(0, 1, range(3)))
    assert len(set(seeds.tolist()) | set(sskip.chunk_seeds(0, 2, range(3)).tolist())) == 6


# --- word order: SSKIP separates what skip-gram cannot ------------------------------------------


def order_corpus(path: Path, seed: int) -> tuple[list[str], list[str]]:
    """Class A words stand just left of a marker, class B just right; fillers all around.

    Every sentence is 14 random fillers with one "a m" or "m b" pair put at a random place, so
    an A word and a B word have the same bag of neighbours (a marker and fillers) and differ
    only in the side the marker is on.
    """
    rng = np.random.default_rng(seed)
    a_words, b_words = [f"a{i}" for i in range(30)], [f"b{i}" for i in range(30)]
    markers, fillers = [f"m{i}" for i in range(5)], [f"f{i}" for i in range(100)]
    lines = []
    for _ in range(4000):
        words = list(rng.choice(fillers, 14))
        at = int(rng.integers(0, 13))
        pair = ((rng.choice(a_words), rng.choice(markers)) if rng.random() < 0.5
                else (rng.choice(markers), rng.choice(b_words)))
        words[at:at + 2] = pair
        lines.append(" ".join(words))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return a_words, b_words


def nearest_centroid_accuracy(vectors: np.ndarray, labels: np.ndarray) -> float:
    """Leave-one-out accuracy of the nearest class centroid (unit vectors, Euclidean)."""
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    right = 0
    for i in range(len(labels)):
        others = np.arange(len(labels)) != i
        centroids = [unit[others & (labels == c)].mean(axis=0) for c in (0, 1)]
        guess = int(np.argmin([np.linalg.norm(unit[i] - c) for c in centroids]))
        right += guess == labels[i]
    return right / len(labels)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sskip_separates_classes_that_only_word_order_tells_apart(tmp_path: Path,
                                                                  seed: int) -> None:
    corpus = tmp_path / "order.txt"
    a_words, b_words = order_corpus(corpus, seed)
    config = config_of(dim=16, min_count=1, seed=seed)
    structured = sskip.train_sskip(corpus, config)
    skip = Word2Vec(corpus_file=str(corpus), vector_size=16, window=5, negative=10, epochs=5,
                    min_count=1, sg=1, hs=0, sample=config.sample, seed=seed, workers=1).wv
    labels = np.array([0] * len(a_words) + [1] * len(b_words))
    words = a_words + b_words
    sskip_accuracy = nearest_centroid_accuracy(np.array([structured[w] for w in words]), labels)
    skip_accuracy = nearest_centroid_accuracy(np.array([skip[w] for w in words]), labels)
    assert sskip_accuracy >= 0.9 and skip_accuracy <= 0.75, (sskip_accuracy, skip_accuracy)


# --- vocabulary, corpus, outputs -----------------------------------------------------------------


def test_vocabulary_by_count_then_token_above_min_count(tmp_path: Path) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text("b a b c\na b\n\n  c d\td\n e\n", encoding="utf-8")
    tokens, counts = sskip.build_vocabulary(corpus, 2)
    assert tokens == ["b", "a", "c", "d"] and counts.tolist() == [3, 2, 2, 2]
    ids, starts = sskip.read_corpus_ids(corpus, {t: i for i, t in enumerate(tokens)})
    assert ids.dtype == np.int32 and ids.tolist() == [0, 1, 0, 2, 1, 0, 2, 3, 3]
    assert starts.tolist() == [0, 4, 6, 9]  # the empty line and the line of "e" give nothing


def test_long_lines_are_split(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sskip, "MAX_SENTENCE", 2)
    corpus = tmp_path / "c.txt"
    corpus.write_text("a a a a a\n", encoding="utf-8")
    assert sskip.read_corpus_ids(corpus, {"a": 0})[1].tolist() == [0, 2, 4, 5]


def test_vectors_keep_vocabulary_order_and_counts(tmp_path: Path) -> None:
    corpus = random_corpus(tmp_path / "corpus.txt", sentences=200)
    tokens, counts = sskip.build_vocabulary(corpus, 3)
    vectors = sskip.train_sskip(corpus, config_of(dim=4, epochs=1, min_count=3))
    assert vectors.index_to_key == tokens and vectors.vectors.dtype == np.float32
    assert vectors.vectors.shape == (len(tokens), 4)
    assert [vectors.get_vecattr(t, "count") for t in tokens] == counts.tolist()


def test_ids_spilled_to_a_file_are_the_ids_read_into_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sskip, "SPILL_IDS", 3)  # spill every few ids, mid-line too
    monkeypatch.setattr(sskip, "MAX_SENTENCE", 4)
    corpus = random_corpus(tmp_path / "corpus.txt", sentences=50)
    tokens, _ = sskip.build_vocabulary(corpus, 2)
    index = {t: i for i, t in enumerate(tokens)}
    ids, starts = sskip.read_corpus_ids(corpus, index)
    mapped, mapped_starts = sskip.read_corpus_ids(corpus, index, tmp_path / "ids.int32")
    assert mapped.dtype == np.int32 and not mapped.flags.writeable
    np.testing.assert_array_equal(mapped, ids)
    np.testing.assert_array_equal(mapped_starts, starts)
    assert (tmp_path / "ids.int32").stat().st_size == 4 * len(ids)
    nothing = tmp_path / "none.txt"
    nothing.write_text("x y\n", encoding="utf-8")
    empty, offsets = sskip.read_corpus_ids(nothing, index, tmp_path / "none.int32")
    assert empty.size == 0 and offsets.tolist() == [0]


def test_training_on_mapped_ids_gives_the_vectors_of_ids_in_memory(tmp_path: Path) -> None:
    corpus = random_corpus(tmp_path / "corpus.txt")
    config = config_of(dim=8, epochs=2, min_count=2, seed=5)
    scratch = tmp_path / "not yet" / "scratch"  # made when missing
    vectors = sskip.train_sskip(corpus, config, scratch)
    tokens, counts = sskip.build_vocabulary(corpus, 2)
    ids, starts = sskip.read_corpus_ids(corpus, {t: i for i, t in enumerate(tokens)})
    np.testing.assert_array_equal(vectors.vectors, sskip.train_arrays(ids, starts, counts,
                                                                      config))
    assert list(scratch.iterdir()) == []  # the spilled ids go with their folder


@pytest.mark.parametrize("text", ["", "\n  \n"])
def test_empty_corpus_is_an_input_error(tmp_path: Path, text: str) -> None:
    corpus = tmp_path / "empty.txt"
    corpus.write_text(text, encoding="utf-8")
    with pytest.raises(InputFormatError, match="empty corpus") as error:
        sskip.train_sskip(corpus, config_of())
    assert error.value.where == "file" and error.value.path == str(corpus)


def test_no_word_over_min_count_is_an_input_error(tmp_path: Path) -> None:
    corpus = tmp_path / "rare.txt"
    corpus.write_text("a b c\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="min_count=20"):
        sskip.train_sskip(corpus, config_of())


def test_config_rejects_unusable_values() -> None:
    with pytest.raises(ValueError, match="window"):
        config_of(window=0)
    with pytest.raises(ValueError, match="negative"):
        config_of(negative=-1)


def test_noise_table_and_subsampling_follow_word2vec() -> None:
    table = sskip.noise_table(np.array([16, 1]))
    share = np.bincount(table) / len(table)
    np.testing.assert_allclose(share, [8 / 9, 1 / 9], atol=1e-6)  # 16^0.75 = 8, 1^0.75 = 1
    keep = sskip.keep_probabilities(np.array([1_000_000, 10]), 1e-3)
    threshold = 1e-3 * 1_000_010
    np.testing.assert_allclose(keep[0], (np.sqrt(1e6 / threshold) + 1) * threshold / 1e6,
                               rtol=1e-6)
    assert keep[1] == 1.0 and sskip.keep_probabilities(np.array([5]), 0).tolist() == [1.0]


def test_wang2vec_command_line() -> None:
    config = config_of(dim=300, workers=8, min_count=20, sample=1e-4)
    command = wang2vec.wang2vec_command(Path("bin/word2vec"), Path("c.txt"), Path("v.txt"),
                                        config, "sskip")
    assert command == ["bin/word2vec", "-train", "c.txt", "-output", "v.txt", "-type", "3",
                       "-size", "300", "-window", "5", "-negative", "10", "-hs", "0",
                       "-nce", "0", "-sample", "0.0001", "-alpha", "0.025", "-threads", "8",
                       "-iter", "5", "-min-count", "20", "-binary", "0"]
    # SKIP with the same binary is wang2vec's skip-gram, -type 1.
    skip = wang2vec.wang2vec_command(Path("w"), Path("c"), Path("v"), config, "skip")
    assert skip[skip.index("-type") + 1] == "1"
