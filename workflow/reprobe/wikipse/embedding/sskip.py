"""Structured skip-gram (SSKIP; Ling et al. 2015) with negative sampling, compiled with numba.

Yaghoobzadeh et al. (2019, §5) train SKIP and SSKIP with wang2vec's negative sampling
(negatives 10, iterations 5, window 5). SSKIP is skip-gram with one output matrix per relative
position: the context word at offset o of a centre word is scored with the output matrix of o,
so the vectors learn where a word's neighbours stand, not only which they are.

Roles. `W_in` (V x d) holds the input vectors; `C` (2*window x V x d) one output matrix per
offset, index p = o + window for o = -window..-1 and p = o + window - 1 for o = 1..window. For a
centre word w and a context word c at offset o, w's INPUT vector predicts c through C[p(o)]:
the model's own definition, p(c | w, o). word2vec's and wang2vec's C code loop the other way
round (the context word's input vector scores the centre word); summed over a corpus with a
full window that is the same objective with the offsets mirrored, since every ordered pair of
words within the window is visited either way. The learned word vectors are `W_in`.

Training follows word2vec: W_in uniform in [-0.5/d, 0.5/d], C zeros; per pair one positive
(label 1) and `negative` noise words from the unigram^0.75 table (label 0; a draw equal to the
context word is skipped); C's rows are updated after each target, W_in[w] once after the
negatives with the accumulated gradient; the learning rate decays linearly from alpha to
alpha * 1e-4 over epochs x corpus words; frequent words are dropped before windowing with
word2vec's probability (`sample`, 0 disables). Unlike word2vec, and as wang2vec's structured
skip-gram, the window is never shrunk at random: about 1.7 times skip-gram's pairs at window 5.
The sigmoid is exact (no table).

Threads: sentences are cut into chunks of about CHUNK_WORDS words, the same cut for every
worker count; `workers` chunks run at a time under numba's prange, updating shared weights
without locks (Hogwild, as word2vec). Each chunk draws from its own splitmix64 stream seeded
from (seed, epoch, chunk), so one worker gives bit-for-bit the same vectors run to run; with
more, the streams are the same but the order of updates between threads is not.

Memory: C is 2 * window times W_in, so window 5 needs 11 x V x d x 4 bytes (1 M words at d=400:
17.6 GB), and the corpus 4 bytes a token, in a file memory-mapped (the page cache's, not the
process's) and 8 bytes a sentence for the offsets.
"""

from __future__ import annotations

import contextlib
import logging
import math
import tempfile
import time
from array import array
from collections import Counter
from pathlib import Path
from typing import BinaryIO

import numpy as np
from gensim.models import KeyedVectors
from numba import njit, prange
from tqdm import tqdm

from reprobe.embeddings.numba_kernels import numba_threads, prefetch, splitmix64
from reprobe.embeddings.train import check_finite
from reprobe.errors import InputFormatError
from reprobe.wikipse.embedding.embedding_settings import SSkipConfig

log = logging.getLogger("reprobe.wikipse")

MAX_SENTENCE = 10_000  # longer lines are split, as gensim's corpus readers do
CHUNK_WORDS = 100_000  # words per chunk: one RNG stream, one thread at a time
SPILL_IDS = 1 << 22  # ids buffered before they are written to the ids file (16 MB)
MIN_LR = 1e-4  # the learning rate never falls below alpha * MIN_LR (word2vec's floor)
TABLE_PER_WORD, TABLE_MIN, TABLE_MAX = 100, 1_000_000, 100_000_000  # noise table slots
# Reassociation lets LLVM vectorise the dot products; no nnan/ninf: exp(-f) may overflow to inf.
FASTMATH = {"reassoc", "contract", "nsz", "arcp"}



# --- the corpus -------------------------------------------------------------------------------


def _token_counts(corpus: Path) -> Counter[str]:
    """Every token of the corpus (one sentence a line, whitespace-separated) with its count."""
    counts: Counter[str] = Counter()
    with Path(corpus).open(encoding="utf-8") as handle:
        for line in handle:
            counts.update(line.split())
    return counts


def _vocabulary(counts: Counter[str], min_count: int) -> tuple[list[str], np.ndarray]:
    """Tokens of at least min_count by descending count, then token; and their counts."""
    kept = sorted(((-n, token) for token, n in counts.items() if n >= min_count))
    return [token for _, token in kept], np.array([-n for n, _ in kept], dtype=np.int64)


def build_vocabulary(corpus: Path, min_count: int) -> tuple[list[str], np.ndarray]:
    """The corpus's tokens of count >= min_count, by descending count then token, and counts."""
    return _vocabulary(_token_counts(corpus), min_count)


def read_corpus_ids(corpus: Path, index: dict[str, int],
                    ids_file: Path | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Token ids (int32, tokens outside `index` dropped) and sentence offsets (int64).

    Sentence s is ids[starts[s]:starts[s + 1]] (the last offset is the number of ids). Lines
    left empty are skipped; lines over MAX_SENTENCE ids are split. With `ids_file`, the ids are
    written there as they are read and come back memory-mapped, read-only: the corpus is 4 bytes
    a token (~21 GB at paper scale), which the page cache then holds instead of the process."""
    ids, starts = array("i"), array("q", [0])
    written = 0
    lookup = index.get
    with Path(corpus).open(encoding="utf-8") as handle, \
            (open(ids_file, "wb") if ids_file is not None else contextlib.nullcontext()) as sink:
        for line in handle:
            sentence = [i for i in map(lookup, line.split()) if i is not None]
            for begin in range(0, len(sentence), MAX_SENTENCE):
                ids.extend(sentence[begin:begin + MAX_SENTENCE])
                starts.append(written + len(ids))
            if sink is not None and len(ids) >= SPILL_IDS:
                written += _spill(ids, sink)
        if sink is not None:
            written += _spill(ids, sink)
    # frombuffer shares the arrays' memory: no second copy of the offsets (or of the ids).
    offsets = np.frombuffer(starts, dtype=np.int64)
    if ids_file is None:
        return np.frombuffer(ids, dtype=np.int32), offsets
    if written == 0:
        return np.empty(0, dtype=np.int32), offsets
    return np.asarray(np.memmap(ids_file, dtype=np.int32, mode="r", shape=(written,))), offsets


def _spill(ids: array, sink: BinaryIO) -> int:
    """Write the buffered ids to the file and empty the buffer; how many were written."""
    count = len(ids)
    ids.tofile(sink)
    del ids[:]
    return count


def noise_table(counts: np.ndarray) -> np.ndarray:
    """word2vec's negative-sampling table: word i fills slots in proportion to count_i^0.75."""
    size = int(min(TABLE_MAX, max(TABLE_MIN, TABLE_PER_WORD * len(counts))))
    weights = np.asarray(counts, dtype=np.float64) ** 0.75
    edges = np.rint(np.cumsum(weights) / weights.sum() * size).astype(np.int64)
    edges[-1] = size
    slots = np.diff(edges, prepend=0)
    return np.repeat(np.arange(len(counts), dtype=np.int32), slots)


def keep_probabilities(counts: np.ndarray, sample: float) -> np.ndarray:
    """word2vec's probability of keeping each occurrence of a word (1 when sample is 0)."""
    counts = np.asarray(counts, dtype=np.float64)
    if sample <= 0:
        return np.ones(len(counts), dtype=np.float32)
    threshold = sample * counts.sum()
    keep = (np.sqrt(counts / threshold) + 1) * threshold / counts
    return np.minimum(keep, 1.0).astype(np.float32)


# --- the kernels ------------------------------------------------------------------------------
# The helpers are inlined into the kernel (inline="always"): a call between numba functions
# passes every array with reference counting, atomic updates of counters that the threads share
# (inlining gave about 1.3x the words/s at dim 100 on one thread).


@njit(cache=True, inline="always", fastmath=FASTMATH)
def _pair(w_in: np.ndarray, c_out: np.ndarray, word: int, position: int, target: int,
          label: float, lr: float, neu1e: np.ndarray) -> None:
    """One logistic update of C[position][target] against W_in[word]; W_in's share to neu1e."""
    dim = w_in.shape[1]
    f = np.float32(0.0)
    for j in range(dim):
        f += w_in[word, j] * c_out[position, target, j]
    g = np.float32((label - 1.0 / (1.0 + math.exp(-f))) * lr)
    for j in range(dim):
        neu1e[j] += g * c_out[position, target, j]
        c_out[position, target, j] += g * w_in[word, j]


@njit(cache=True, fastmath=FASTMATH)
def sskip_step(w_in: np.ndarray, c_out: np.ndarray, word: int, position: int,
               targets: np.ndarray, labels: np.ndarray, lr: float) -> None:
    """One centre word and offset: update C[position][targets] in order, then W_in[word]."""
    neu1e = np.zeros(w_in.shape[1], dtype=np.float32)
    for k in range(targets.shape[0]):
        _pair(w_in, c_out, word, position, targets[k], labels[k], lr, neu1e)
    for j in range(w_in.shape[1]):
        w_in[word, j] += neu1e[j]


@njit(cache=True, inline="always")
def _draw_targets(c_out: np.ndarray, table: np.ndarray, negative: int, position: int,
                  context: int, state: np.uint64, targets: np.ndarray) -> tuple[np.uint64, int]:
    """The context word, then its noise words, into targets (C rows prefetched); state, count."""
    n_table = np.uint64(table.shape[0])
    targets[0] = context
    m = 1
    for _ in range(negative):
        state, bits = splitmix64(state)
        target = table[np.int64(bits % n_table)]
        if target != context:  # word2vec skips a noise word equal to the context word
            targets[m] = target
            m += 1
    # The rows lie scattered over C: asking for all their cache lines (16 float32 each) first
    # overlaps the misses, which otherwise come one after another (about 1.6x the words/s at
    # dim 100); a row not aligned to a line ends in one more.
    dim = c_out.shape[2]
    for k in range(m):
        first = (position * c_out.shape[1] + targets[k]) * dim
        for j in range(0, dim, 16):
            prefetch(c_out, first + j)
        prefetch(c_out, first + dim - 1)
    return state, m


@njit(cache=True, inline="always", fastmath=FASTMATH)
def _train_sentence(w_in: np.ndarray, c_out: np.ndarray, kept: np.ndarray, n: int, window: int,
                    negative: int, table: np.ndarray, lr: float, state: np.uint64,
                    neu1e: np.ndarray, targets: np.ndarray) -> np.uint64:
    """Every centre word and full-window offset of one (subsampled) sentence; the new state."""
    dim = w_in.shape[1]
    for t in range(n):
        word = kept[t]
        for u in range(max(0, t - window), min(n, t + window + 1)):
            if u == t:
                continue
            position = u - t + window if u < t else u - t + window - 1
            state, m = _draw_targets(c_out, table, negative, position, kept[u], state, targets)
            for j in range(dim):
                neu1e[j] = 0.0
            for k in range(m):
                _pair(w_in, c_out, word, position, targets[k], 1.0 if k == 0 else 0.0, lr,
                      neu1e)
            for j in range(dim):
                w_in[word, j] += neu1e[j]
    return state


@njit(cache=True, parallel=True, fastmath=FASTMATH)
def train_chunks(w_in: np.ndarray, c_out: np.ndarray, ids: np.ndarray, starts: np.ndarray,
                 bounds: np.ndarray, seeds: np.ndarray, keep: np.ndarray, table: np.ndarray,
                 window: int, negative: int, alpha: float, done: int, total: int,
                 max_len: int) -> None:
    """Train chunk k (sentences bounds[k]..bounds[k+1]) with RNG seeds[k], chunks in parallel.

    Learning rate at sentence s: alpha * max(1 - (done + starts[s]) / total, MIN_LR), where
    done = epoch x corpus words and total = epochs x corpus words."""
    for k in prange(bounds.shape[0] - 1):
        state = seeds[k]
        kept = np.empty(max_len, dtype=np.int32)
        neu1e = np.empty(w_in.shape[1], dtype=np.float32)
        targets = np.empty(negative + 1, dtype=np.int32)
        for s in range(bounds[k], bounds[k + 1]):
            lr = alpha * max(1.0 - (done + starts[s]) / total, MIN_LR)
            n = 0
            for i in range(starts[s], starts[s + 1]):
                word = ids[i]
                if keep[word] < 1.0:
                    state, bits = splitmix64(state)
                    if np.float64(bits >> np.uint64(40)) * (1.0 / 16777216.0) >= keep[word]:
                        continue
                kept[n] = word
                n += 1
            state = _train_sentence(w_in, c_out, kept, n, window, negative, table, lr, state,
                                    neu1e, targets)


def sskip_pair_update(w_in_row: np.ndarray, c_rows: np.ndarray, labels: np.ndarray,
                      lr: float) -> tuple[np.ndarray, np.ndarray]:
    """Reference in NumPy of one step: rows of C (one per target) in order, then W_in's row."""
    w_in_row = np.asarray(w_in_row, dtype=np.float64)
    c_rows = np.array(c_rows, dtype=np.float64)
    neu1e = np.zeros_like(w_in_row)
    for k, label in enumerate(labels):
        g = (label - 1.0 / (1.0 + math.exp(-float(w_in_row @ c_rows[k])))) * lr
        neu1e += g * c_rows[k]
        c_rows[k] += g * w_in_row
    return w_in_row + neu1e, c_rows


# --- training ---------------------------------------------------------------------------------


def chunk_bounds(starts: np.ndarray, chunk_words: int = CHUNK_WORDS) -> np.ndarray:
    """The first sentence of each chunk of about chunk_words words, then the sentence count."""
    sentences = len(starts) - 1
    marks = np.arange(0, starts[-1], chunk_words)
    first = np.searchsorted(starts[:-1], marks, side="left")
    return np.unique(np.append(first, sentences))  # a sentence wider than a chunk: no empty chunk


def chunk_seeds(seed: int, epoch: int, chunks: range) -> np.ndarray:
    """The splitmix64 start state of every chunk, from (seed, epoch, chunk)."""
    return np.array([np.random.SeedSequence([seed, epoch, chunk]).generate_state(1, np.uint64)[0]
                     for chunk in chunks], dtype=np.uint64)



def train_arrays(ids: np.ndarray, starts: np.ndarray, counts: np.ndarray,
                 config: SSkipConfig) -> np.ndarray:
    """W_in (vocabulary x dim, float32) trained on a corpus of ids with the counts given."""
    vocabulary, dim, window = len(counts), config.dim, config.window
    rng = np.random.default_rng(config.seed)
    w_in = (rng.random((vocabulary, dim), dtype=np.float32) - np.float32(0.5)) / np.float32(dim)
    c_out = np.zeros((2 * window, vocabulary, dim), dtype=np.float32)
    table, keep = noise_table(counts), keep_probabilities(counts, config.sample)
    bounds = chunk_bounds(starts)
    words, chunks = int(starts[-1]), len(bounds) - 1
    max_len = max(1, int(np.diff(starts).max(initial=0)))
    log.info("SSKIP: %d words, vocabulary %d, dim %d, window %d, %d negatives, %d epochs; "
             "%d chunks; W_in + C %.2f GB", words, vocabulary, dim, window, config.negative,
             config.epochs, chunks, (w_in.nbytes + c_out.nbytes) / 1e9)
    with numba_threads(config.workers, "SSKIP") as threads:
        for epoch in range(config.epochs):
            start = time.perf_counter()
            with tqdm(total=words, desc=f"SSKIP epoch {epoch + 1}/{config.epochs}",
                      unit=" words", unit_scale=True, mininterval=10) as bar:
                for first in range(0, chunks, threads):
                    block = bounds[first:first + threads + 1]
                    seeds = chunk_seeds(config.seed, epoch, range(first, first + len(block) - 1))
                    train_chunks(w_in, c_out, ids, starts, block, seeds, keep, table, window,
                                 config.negative, config.alpha, epoch * words,
                                 config.epochs * words, max_len)
                    bar.update(int(starts[block[-1]] - starts[block[0]]))
            seconds = time.perf_counter() - start
            log.info("SSKIP epoch %d/%d: %d words in %.1f s (%.0f words/s, %d thread(s))",
                     epoch + 1, config.epochs, words, seconds, words / max(seconds, 1e-9),
                     threads)
    return w_in


def train_sskip(corpus: Path, config: SSkipConfig, scratch: Path | None = None) -> KeyedVectors:
    """Train SSKIP on a corpus file (one sentence a line); the vectors W_in by vocabulary order.

    The corpus's ids are spilled to a file in a temporary folder under `scratch` (default: the
    system's temporary folder), removed after training, and memory-mapped from there."""
    every = _token_counts(corpus)  # FileNotFoundError names a missing corpus
    if not every:
        raise InputFormatError(corpus, "file", "empty corpus: no tokens")
    tokens, counts = _vocabulary(every, config.min_count)
    if not tokens:
        raise InputFormatError(corpus, "file", f"no token occurs at least "
                               f"min_count={config.min_count} times: nothing to train")
    del every
    if scratch is not None:
        Path(scratch).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".sskip-ids-", dir=scratch) as folder:
        ids, starts = read_corpus_ids(corpus, {token: i for i, token in enumerate(tokens)},
                                      Path(folder) / "ids.int32")
        trained = train_arrays(ids, starts, counts, config)
        del ids  # the memory map, closed before its folder goes
    vectors = KeyedVectors(config.dim, dtype=np.float32)
    vectors.add_vectors(tokens, trained)
    for token, count in zip(tokens, counts.tolist(), strict=True):
        vectors.set_vecattr(token, "count", count)
    check_finite(vectors, corpus)
    return vectors
