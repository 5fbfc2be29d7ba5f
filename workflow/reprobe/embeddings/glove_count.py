"""GloVe's vocabulary and co-occurrence counting in bounded memory, as the reference's
`vocab_count` and `cooccur -memory` do.

A context word at distance d <= window on the same line adds 1/d to both (i, j) and (j, i);
out-of-vocabulary tokens are dropped before windowing. Each of `workers` processes counts one
line-interleaved shard in memory_bytes / workers (`glove_pairs.PairCounter`: a dense table for
frequent pairs, and a buffer that is sorted, summed and spilled as a run whenever it fills) into
sorted runs in a temporary folder beside the output; then the parent, which holds no counts,
merges every run into the entries file (`glove_entries.merge_runs`) and removes the folder.

Weights are summed as integers: 1/d is counted as L/d for L = lcm(1..window) (60 at window 5),
exact in float64, and divided by L once at the end. So the counts do not depend on the buffer
size or the number of workers, bit for bit (past window 22, L would pass 2^32 and the weights
are plain 1/d, summed in whatever order the runs give).
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import tempfile
from array import array
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from reprobe.embeddings.corpus import iter_token_lines
from reprobe.embeddings.glove_entries import merge_runs
from reprobe.embeddings.glove_pairs import (
    PairCounter,
    count_pairs,
    dense_entries,
    dense_rows,
    sum_codes,
)
from reprobe.embeddings.train import check_corpus
from reprobe.errors import InputFormatError

log = logging.getLogger(__name__)

MAX_SCALE = 2**32  # beyond it the integer weights L/d would lose exactness in float64 sums
MAX_CHUNK_TOKENS = 1 << 20  # tokens turned into ids at a time (16 bytes each while held)


def build_vocab(corpus: Path, min_count: int) -> tuple[list[str], np.ndarray]:
    """Words occurring at least `min_count` times, by descending count then alphabetically."""
    check_corpus(corpus)
    counter: Counter[str] = Counter()
    for tokens in iter_token_lines(corpus):
        counter.update(tokens)
    # The reference's vocab_count breaks ties alphabetically too: the order is reproducible.
    kept = sorted(((w, c) for w, c in counter.items() if c >= min_count),
                  key=lambda item: (-item[1], item[0]))
    if not kept:
        raise InputFormatError(corpus, "file", f"no token occurs at least min_count={min_count} "
                                               "times: nothing to train")
    words = [w for w, _ in kept]
    return words, np.array([c for _, c in kept], dtype=np.int64)


def distance_weights(window: int) -> tuple[np.ndarray, float]:
    """The weight of distances 1..window, scaled to integers where exact, and the scale."""
    scale = math.lcm(*range(1, window + 1))
    if scale > MAX_SCALE:
        scale = 1
    return scale / np.arange(1, window + 1, dtype=np.float64), float(scale)


def chunk_tokens(memory_bytes: int) -> int:
    """Tokens held as ids at a time: a quarter of the memory (16 bytes each), within limits."""
    return int(min(MAX_CHUNK_TOKENS, max(1024, memory_bytes // 64)))


def count_shard(corpus: Path, index: Mapping[str, int], window: int, folder: Path,
                shard: tuple[int, int], memory_bytes: int) -> list[Path]:
    """Count one line-interleaved shard of the corpus (words by `index`, ids 0..len - 1) into
    sorted runs in `folder`, holding about memory_bytes of buffers; the runs in order."""
    lookup = index.get
    chunk = chunk_tokens(memory_bytes)
    counter = PairCounter(folder, f"shard{shard[0]:04d}", memory_bytes - 16 * chunk, len(index),
                          window, distance_weights(window)[0])
    ids, lengths = array("i"), array("q")

    def flush() -> None:
        lines = np.repeat(np.arange(len(lengths), dtype=np.int32), lengths)
        counter.add(np.frombuffer(ids, dtype=np.int32), lines)
        del ids[:], lengths[:]

    for tokens in iter_token_lines(corpus, shard):
        # Out-of-vocabulary tokens are dropped before windowing, as in the reference.
        known = [i for i in map(lookup, tokens) if i is not None]
        ids.extend(known)
        lengths.append(len(known))
        if len(ids) >= chunk:
            flush()
    flush()
    return counter.finish()


# The parent's word index while its counting processes run: forked, they read it in place
# (a lookup writes nothing to it), where an index sent to each would cost every process some
# 150 bytes a word (its strings, dict and ids).
_FORKED: dict[str, dict[str, int]] = {}


class ShardError(Exception):
    """An InputFormatError of a counting process, in a form that pickles back to the parent."""


def count_forked_shard(corpus: Path, window: int, folder: Path, shard: tuple[int, int],
                       memory_bytes: int) -> list[Path]:
    """count_shard in a forked process, over the parent's index (InputFormatError does not
    unpickle: it goes back as a ShardError of its arguments)."""
    try:
        return count_shard(corpus, _FORKED["index"], window, folder, shard, memory_bytes)
    except InputFormatError as error:
        raise ShardError(error.path, error.where, error.problem) from None


def count_in_processes(corpus: Path, index: dict[str, int], window: int, folder: Path,
                       workers: int, memory_bytes: int) -> list[Path]:
    """Count `workers` line-interleaved shards in as many forked processes; every run."""
    warm_up_kernels(window)
    _FORKED["index"] = index
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(count_forked_shard, corpus, window, folder, (k, workers),
                                   memory_bytes) for k in range(workers)]
            return [run for future in futures for run in future.result()]
    except ShardError as error:
        raise InputFormatError(*error.args) from None
    finally:
        _FORKED.clear()


def warm_up_kernels(window: int) -> None:
    """Compile (or load) the counting kernels here, with the types counting gives them, so
    that forked workers need not (numba's loaded kernels take some 40 MB a process)."""
    weights, rows = distance_weights(window)[0], dense_rows(2, 1)
    dense, codes, values = np.zeros(rows[-1]), np.zeros(4 * window, np.int64), np.zeros(1)
    count_pairs(np.zeros(2, np.int32), np.zeros(2, np.int32), 0, window, 2, weights, rows,
                dense, codes, 0)
    sum_codes(codes, 0, window, weights, values)
    dense_entries(rows, dense, 2, 0, codes, values)


def check_code_range(size: int, window: int) -> None:
    """Refuse a vocabulary whose pair codes would not fit in an int64."""
    if size * size * window >= 2**63:
        raise ValueError(f"vocabulary of {size} words at window {window}: pair codes overflow")


def count_cooccurrences(corpus: Path, words: Sequence[str], window: int, out: Path, *,
                        workers: int, memory_bytes: int) -> int:
    """Count weighted co-occurrences (1/distance, symmetric, within lines) into the entries
    file `out`, sorted by (i, j); its entry count. Runs are spilled to a temporary folder
    beside `out`, removed at the end, also on error; buffers hold about memory_bytes in all."""
    corpus, out = Path(corpus), Path(out)
    check_code_range(len(words), window)
    out.parent.mkdir(parents=True, exist_ok=True)
    index = {word: i for i, word in enumerate(words)}
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=f".{out.name}.runs-") as tmp:
        if workers <= 1:
            runs = count_shard(corpus, index, window, Path(tmp), (0, 1), memory_bytes)
        else:
            runs = count_in_processes(corpus, index, window, Path(tmp), workers,
                                      memory_bytes // workers)
        del index
        return merge_runs(runs, out, len(words), distance_weights(window)[1], memory_bytes)
