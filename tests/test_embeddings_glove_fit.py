"""GloVe's fit: the weighting, per-entry AdaGrad against a plain loop, the loss, threads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from reprobe.embeddings.glove_count import build_vocab, count_cooccurrences
from reprobe.embeddings.glove_entries import ENTRY
from reprobe.embeddings.glove_fit import (
    GloveParameters,
    fit_glove,
    glove_loss,
    visiting_order,
    weighting,
)
from reprobe.numeracy.retrain_settings import RetrainSettings
from reprobe.step_settings import settings_from_schema
from test_embeddings_glove import two_topic_corpus

# The schema's GloVe settings (`numeracy.retrain`); each test changes what it says.
SCHEMA_GLOVE = settings_from_schema(RetrainSettings, "numeracy.retrain").family_settings("glove")
WEIGHTS = {"x_max": SCHEMA_GLOVE["x_max"], "alpha": SCHEMA_GLOVE["alpha"]}
FIT = {**WEIGHTS, "learning_rate": SCHEMA_GLOVE["learning_rate"]}


def topic_entries(tmp_path: Path, sentences: int = 600, window: int = 5,
                  seed: int = 0) -> tuple[np.ndarray, int]:
    """The co-occurrence entries of a two-topic corpus, shuffled, and its vocabulary size."""
    corpus = tmp_path / "c.txt"
    two_topic_corpus(corpus, sentences=sentences)
    words, _ = build_vocab(corpus, min_count=1)
    count_cooccurrences(corpus, words, window, tmp_path / "e.bin", workers=1,
                        memory_bytes=1 << 20)
    entries = np.fromfile(tmp_path / "e.bin", dtype=ENTRY)
    return entries[np.random.default_rng(seed).permutation(len(entries))], len(words)


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


def sequential_adagrad(entries: np.ndarray, size: int, dim: int, epochs: int, seed: int,
                       block_entries: int, eta: float = 0.05) -> np.ndarray:
    """The reference C trainer's per-entry loop, written plainly: the oracle for fit_glove."""
    p = GloveParameters.initial(size, dim, np.random.default_rng(seed))
    for k in visiting_order(len(entries), block_entries, seed, epochs):
        i, j, x = entries[k]["i"], entries[k]["j"], entries[k]["x"]
        diff = p.words[i] @ p.contexts[j] + p.word_bias[i] + p.context_bias[j] - np.log(x)
        fdiff = eta * (min(x / 100.0, 1.0) ** 0.75) * diff
        grad_w, grad_c = fdiff * p.contexts[j], fdiff * p.words[i]
        p.words[i] -= grad_w / np.sqrt(p.squares[0, i, :-1])
        p.contexts[j] -= grad_c / np.sqrt(p.squares[1, j, :-1])
        p.squares[0, i, :-1] += grad_w ** 2
        p.squares[1, j, :-1] += grad_c ** 2
        p.word_bias[i] -= fdiff / np.sqrt(p.squares[0, i, -1])
        p.context_bias[j] -= fdiff / np.sqrt(p.squares[1, j, -1])
        p.squares[0, i, -1] += fdiff ** 2
        p.squares[1, j, -1] += fdiff ** 2
    return p.vectors()


def test_one_thread_is_the_references_per_entry_adagrad_in_shuffled_blocks(tmp_path):
    entries, size = topic_entries(tmp_path, sentences=30, window=2)
    # Blocks of 16: the entries fill several, so the order of blocks matters too.
    params, _ = fit_glove(entries, size, **FIT, dim=4, epochs=2, seed=5, threads=1,
                          block_entries=16)
    np.testing.assert_allclose(params.vectors(),
                               sequential_adagrad(entries, size, 4, 2, 5, 16), atol=1e-5)
    order = visiting_order(len(entries), 16, 5, 2)
    for epoch in np.split(order, 2):
        assert sorted(epoch.tolist()) == list(range(len(entries)))
    assert not np.array_equal(*np.split(order, 2))


def test_the_loss_decreases(tmp_path):
    entries, size = topic_entries(tmp_path)
    initial = glove_loss(GloveParameters.initial(size, 10, np.random.default_rng(0)), entries,
                         **WEIGHTS)
    params, losses = fit_glove(entries, size, **FIT, dim=10, epochs=15, seed=0, threads=1,
                               block_entries=16)
    # Steadily at first; near the optimum stochastic steps make it wobble by a few percent.
    assert all(later < earlier for earlier, later in zip(losses[:6], losses[1:6], strict=False))
    assert glove_loss(params, entries, **WEIGHTS) < losses[-1] * 1.1 < initial / 100


def test_one_thread_gives_the_same_bytes_and_two_threads_fit_as_well(tmp_path):
    entries, size = topic_entries(tmp_path)
    runs = [fit_glove(entries, size, **FIT, dim=10, epochs=10, seed=3, threads=threads,
                      block_entries=8) for threads in (1, 1, 2)]
    (first, first_losses), (second, _), (threaded, threaded_losses) = runs
    assert first.rows.tobytes() == second.rows.tobytes()
    assert first.squares.tobytes() == second.squares.tobytes()
    assert np.isfinite(threaded.rows).all()
    assert threaded_losses[-1] < threaded_losses[0] / 100
    assert threaded_losses[-1] == pytest.approx(first_losses[-1], rel=0.5)


def test_steps_are_clipped_and_non_finite_residuals_skipped():
    entries = np.zeros(2, dtype=ENTRY)
    entries[0] = (0, 1, 1e30)  # log x = 69: a residual of about -69, weight 1
    entries[1] = (1, 0, np.inf)  # log x = inf: no step
    params, losses = fit_glove(entries, 2, **FIT, dim=3, epochs=1, seed=0, threads=1)
    start = GloveParameters.initial(2, 3, np.random.default_rng(0))
    assert np.isfinite(params.rows).all() and np.isfinite(losses).all()
    # One step each way, at most learning rate x clip / sqrt(1) per component.
    assert np.abs(params.rows - start.rows).max() <= 0.05 * 100 + 1e-6
    assert np.array_equal(params.rows[0, 1], start.rows[0, 1])  # the skipped entry's row
