"""GloVe's fit: lock-free per-entry AdaGrad over the co-occurrence entries, in numba threads.

Each entry (i, j, x) takes one step of the reference's AdaGrad on the word row i and the
context row j (see `glove` for the objective and its details). Rows are float32, the word's
vector and bias side by side as in the reference's layout, so one entry touches four rows.

Order: the entries (an entries file shuffled once, `glove_entries.shuffle_entries`) are cut
into blocks of BLOCK_ENTRIES; every epoch draws a new order of the blocks and a new order
within each block (splitmix64, seeded from (seed, epoch, block)), and `threads` numba threads
take every threads-th block of that order, updating the shared rows without locks (Hogwild),
as the reference's `glove -threads` does. One thread gives the same bytes run to run; with
more, each thread makes the same updates but their interleaving follows the scheduler, so the
vectors differ from run to run.

Memory: the rows and their accumulators (4 x 2 x vocabulary x (dim + 1) bytes each), and per
thread a block's order (4 bytes an entry). The entries are read through np.memmap: the page
cache holds the file's pages, which the kernel may drop at any time.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from reprobe.embeddings.numba_kernels import GOLDEN, numba_threads, prefetch, splitmix64

log = logging.getLogger(__name__)

GRADIENT_CLIP = 100.0  # the reference's grad_clip_value
BLOCK_ENTRIES = 1 << 16  # entries shuffled together, one thread at a time (1 MB of entries)
# Reassociation lets LLVM vectorise the loops over the dimension; no nnan/ninf, so that the
# check for a non-finite residual stays.
FASTMATH = {"reassoc", "contract", "nsz", "arcp"}


def weighting(x: np.ndarray, x_max: float, alpha: float) -> np.ndarray:
    """GloVe's weight f(x): (x / x_max)^alpha below x_max, else 1."""
    x = np.asarray(x, dtype=np.float64)
    return np.where(x < x_max, (x / x_max) ** alpha, 1.0)


@dataclass
class GloveParameters:
    """Word and context rows (vector, then bias) and their AdaGrad accumulators."""

    rows: np.ndarray  # (2, vocabulary, dim + 1) float32: [0] words, [1] contexts
    squares: np.ndarray  # the same shape: sums of squared steps, from 1

    @classmethod
    def initial(cls, size: int, dim: int, rng: np.random.Generator) -> GloveParameters:
        """Uniform in ±0.5/dim as in the reference; accumulators start at 1."""
        rows = ((rng.random((2, size, dim + 1)) - 0.5) / dim).astype(np.float32)
        return cls(rows, np.ones_like(rows))

    @property
    def words(self) -> np.ndarray:
        """The word vectors (a view)."""
        return self.rows[0, :, :-1]

    @property
    def contexts(self) -> np.ndarray:
        """The context vectors (a view)."""
        return self.rows[1, :, :-1]

    @property
    def word_bias(self) -> np.ndarray:
        """The word biases (a view)."""
        return self.rows[0, :, -1]

    @property
    def context_bias(self) -> np.ndarray:
        """The context biases (a view)."""
        return self.rows[1, :, -1]

    def vectors(self) -> np.ndarray:
        """The output vectors: word plus context vectors (the reference's default)."""
        return self.words + self.contexts


def glove_loss(params: GloveParameters, entries: np.ndarray, x_max: float, alpha: float,
               batch_size: int = 1 << 18) -> float:
    """The objective J over all entries (computed in batches to bound memory)."""
    total = 0.0
    for start in range(0, len(entries), batch_size):
        batch = entries[start:start + batch_size]
        i, j, x = batch["i"], batch["j"], batch["x"]
        dots = np.einsum("ij,ij->i", params.words[i], params.contexts[j], dtype=np.float64)
        diff = dots + params.word_bias[i] + params.context_bias[j] - np.log(x)
        total += float(np.sum(weighting(x, x_max, alpha) * diff * diff))
    return total


@njit(cache=True, inline="always")
def _prefetch_rows(rows: np.ndarray, squares: np.ndarray, i: int, j: int) -> None:
    """Ask for the cache lines of word row i and context row j and their accumulators."""
    width = rows.shape[2]
    word, context = i * width, (rows.shape[1] + j) * width
    for b in range(0, width, 16):
        prefetch(rows, word + b)
        prefetch(rows, context + b)
        prefetch(squares, word + b)
        prefetch(squares, context + b)
    prefetch(rows, word + width - 1)
    prefetch(rows, context + width - 1)
    prefetch(squares, word + width - 1)
    prefetch(squares, context + width - 1)


@njit(cache=True, nogil=True)
def block_order(order: np.ndarray, n: int, state: np.uint64) -> None:
    """Fill order[:n] with a permutation of 0..n-1 (Fisher-Yates) from a splitmix64 stream."""
    for k in range(n):
        order[k] = k
    for k in range(n - 1, 0, -1):
        state, bits = splitmix64(state)
        other = np.int64(bits % np.uint64(k + 1))
        order[k], order[other] = order[other], order[k]


@njit(cache=True, nogil=True)
def block_state(epoch_state: np.uint64, block: int) -> np.uint64:
    """The splitmix64 start state of a block's order within an epoch."""
    _, bits = splitmix64(epoch_state ^ (np.uint64(block) * GOLDEN))
    return bits


@njit(cache=True, inline="always", fastmath=FASTMATH)
def _step(rows: np.ndarray, squares: np.ndarray, i: int, j: int, x: float, x_max: float,
          alpha: float, learning_rate: float) -> float:
    """One AdaGrad step on word row i and context row j for the entry x; f(x) x residual^2
    before the step (0 for a non-finite residual, whose step is skipped, as the reference)."""
    dim = rows.shape[2] - 1
    dot = np.float32(0.0)
    for b in range(dim):
        dot += rows[0, i, b] * rows[1, j, b]
    diff = np.float64(dot) + rows[0, i, dim] + rows[1, j, dim] - math.log(x)
    if not abs(diff) < math.inf:  # not math.isfinite: reassoc with nsz folds it to True
        return 0.0
    weighted = diff if x >= x_max else (x / x_max) ** alpha * diff
    scale = np.float32(weighted)
    rate = np.float32(learning_rate)
    clip = np.float32(GRADIENT_CLIP)
    for b in range(dim):
        # Both steps from the rows before this entry, clipped as the reference does; the
        # accumulator before this step's square divides it.
        word_step = min(max(scale * rows[1, j, b], -clip), clip) * rate
        context_step = min(max(scale * rows[0, i, b], -clip), clip) * rate
        rows[0, i, b] -= word_step / math.sqrt(squares[0, i, b])
        rows[1, j, b] -= context_step / math.sqrt(squares[1, j, b])
        squares[0, i, b] += word_step * word_step
        squares[1, j, b] += context_step * context_step
    bias_step = np.float32(weighted * learning_rate)
    rows[0, i, dim] -= bias_step / math.sqrt(squares[0, i, dim])
    rows[1, j, dim] -= bias_step / math.sqrt(squares[1, j, dim])
    squares[0, i, dim] += bias_step * bias_step
    squares[1, j, dim] += bias_step * bias_step
    return weighted * diff


@njit(cache=True, nogil=True, parallel=True, fastmath=FASTMATH)
def adagrad_epoch(rows: np.ndarray, squares: np.ndarray, entries: np.ndarray,
                  blocks: np.ndarray, block_entries: int, epoch_state: np.uint64, threads: int,
                  x_max: float, alpha: float, learning_rate: float) -> np.ndarray:
    """One pass: thread t steps through blocks[t::threads], each block in its own shuffled
    order; J before each step, summed per thread."""
    losses = np.zeros(threads, dtype=np.float64)
    for t in prange(threads):
        order = np.empty(block_entries, dtype=np.int32)
        total = 0.0
        for b in range(t, blocks.shape[0], threads):
            start = blocks[b] * block_entries
            n = min(block_entries, entries.shape[0] - start)
            block_order(order, n, block_state(epoch_state, blocks[b]))
            for k in range(n):
                if k + 2 < n:  # rows two entries ahead load while this one steps (~2x)
                    ahead = entries[start + order[k + 2]]
                    _prefetch_rows(rows, squares, ahead.i, ahead.j)
                entry = entries[start + order[k]]
                total += _step(rows, squares, entry.i, entry.j, entry.x, x_max, alpha,
                               learning_rate)
        losses[t] = total
    return losses



def order_rng(seed: int) -> np.random.Generator:
    """The stream the epochs' orders are drawn from (the initial rows take `seed` itself)."""
    return np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])


def epoch_plan(blocks: int, rng: np.random.Generator) -> tuple[np.ndarray, np.uint64]:
    """An epoch's order of the blocks and the state its in-block orders derive from."""
    return rng.permutation(blocks), np.uint64(rng.integers(2**63))


def visiting_order(entries: int, block_entries: int, seed: int, epochs: int) -> np.ndarray:
    """The entries in the order a 1-thread fit steps through them, epoch after epoch (the
    fit's own order, spelt out: for tests against a plain per-entry loop)."""
    rng = order_rng(seed)
    blocks, order = math.ceil(entries / block_entries), np.empty(block_entries, np.int32)
    visits = []
    for _ in range(epochs):
        plan, state = epoch_plan(blocks, rng)
        for block in plan:
            n = min(block_entries, entries - block * block_entries)
            block_order(order, n, np.uint64(block_state(state, block)))
            visits.append(block * block_entries + order[:n])
    return np.concatenate(visits)


def fit_glove(entries: np.ndarray, size: int, *, dim: int, x_max: float, alpha: float,
              epochs: int, learning_rate: float, seed: int, threads: int,
              block_entries: int = BLOCK_ENTRIES) -> tuple[GloveParameters, list[float]]:
    """Fit GloVe to co-occurrence entries (ENTRY records, shuffled once; a memmap is fine)
    over a vocabulary of `size` words; the parameters and J per epoch."""
    if len(entries) == 0:
        raise ValueError("no co-occurrence entries: no pairs within the window")
    params = GloveParameters.initial(size, dim, np.random.default_rng(seed))
    rng = order_rng(seed)
    blocks = math.ceil(len(entries) / block_entries)
    losses = []
    with numba_threads(threads, "GloVe") as usable:
        for epoch in range(epochs):
            start = time.perf_counter()
            plan, state = epoch_plan(blocks, rng)
            loss = float(adagrad_epoch(params.rows, params.squares, entries, plan, block_entries,
                                       state, usable, x_max, alpha, learning_rate).sum())
            losses.append(loss)
            seconds = time.perf_counter() - start
            log.info("GloVe epoch %d/%d: J = %.6g (mean %.6g), %.1f s, %.0f entries/s on %d "
                     "thread(s)", epoch + 1, epochs, loss, loss / len(entries), seconds,
                     len(entries) / max(seconds, 1e-9), usable)
    return params, losses
