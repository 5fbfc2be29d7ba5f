"""One counting process's pair buffers: a dense table for frequent pairs, spilled runs for the
rest (the reference's `cooccur` splits its memory the same way).

Words are ids by descending frequency, so a pair's frequency falls roughly with the product of
its ranks: the pairs with (i + 1)(j + 1) <= P for the largest P whose rows fit the dense share
(row i holds columns j < P / (i + 1)) take most occurrences of a Zipfian corpus, add their weight
in place, and are written once at the end. Every other occurrence goes to a buffer as one int64
code ((i x vocabulary + j) x window + d - 1: the distance rides in the code, so the buffer sorts
in place with nothing beside it); a full buffer is sorted, its equal pairs summed, and written as
a run. Weights are the scaled integers of `glove_count.distance_weights`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from reprobe.embeddings.glove_entries import write_run

CODE_BYTES = 16  # a buffered occurrence: its code (int64) and, once summed, its value (float64)
DENSE_BYTES = 8  # a dense slot: a float64 sum


def dense_rows(size: int, slots: int) -> np.ndarray:
    """Row starts (size + 1 offsets) of the dense table: row i holds columns j with
    (i + 1)(j + 1) <= P, for the largest P whose rows fit in `slots`."""
    ranks = np.arange(1, size + 1, dtype=np.int64)

    def lengths(product: int) -> np.ndarray:
        return np.minimum(size, product // ranks)

    low, high = 0, size * size
    while low < high:  # the largest product whose rows fit
        middle = (low + high + 1) // 2
        if lengths(middle).sum() <= slots:
            low = middle
        else:
            high = middle - 1
    return np.concatenate(([0], np.cumsum(lengths(low))))


@njit(cache=True, nogil=True)
def count_pairs(ids: np.ndarray, lines: np.ndarray, first: int, window: int, size: int,
                weights: np.ndarray, rows: np.ndarray, dense: np.ndarray, codes: np.ndarray,
                fill: int) -> tuple[int, int]:
    """Count the pairs of tokens first.. (same line, both orders): into the dense table, or as
    codes into codes[fill:] while 2 x window slots are free; the first token not done, the fill."""
    n = ids.shape[0]
    for t in range(first, n):
        if fill + 2 * window > codes.shape[0]:
            return t, fill
        left = np.int64(ids[t])
        for d in range(1, window + 1):
            u = t + d
            if u >= n or lines[u] != lines[t]:
                break
            right = np.int64(ids[u])
            if right < rows[left + 1] - rows[left]:  # (left+1)(right+1) <= P: both are dense
                dense[rows[left] + right] += weights[d - 1]
                dense[rows[right] + left] += weights[d - 1]
            else:
                codes[fill] = (left * size + right) * window + d - 1
                codes[fill + 1] = (right * size + left) * window + d - 1
                fill += 2
    return n, fill


@njit(cache=True, nogil=True)
def sum_codes(codes: np.ndarray, n: int, window: int, weights: np.ndarray,
              values: np.ndarray) -> int:
    """Fold sorted codes[:n] into unique keys (in codes' front) with summed weights (in
    values); how many."""
    m = 0
    previous = np.int64(-1)
    for k in range(n):
        key = codes[k] // window
        weight = weights[codes[k] - key * window]
        if key == previous:
            values[m - 1] += weight
        else:  # m <= k: codes[k] was read before codes[m] is written
            codes[m] = key
            values[m] = weight
            m += 1
            previous = key
    return m


@njit(cache=True, nogil=True)
def dense_entries(rows: np.ndarray, dense: np.ndarray, size: int, first: int,
                  keys: np.ndarray, values: np.ndarray) -> tuple[int, int]:
    """The nonzero dense slots from slot `first` on, in key order, into keys and values until
    they are full; the next slot and how many were written."""
    m = 0
    i = np.searchsorted(rows, first, side="right") - 1
    slot = first
    while slot < dense.shape[0] and m < keys.shape[0]:
        while slot >= rows[i + 1]:
            i += 1
        if dense[slot] != 0.0:
            keys[m] = i * size + (slot - rows[i])
            values[m] = dense[slot]
            m += 1
        slot += 1
    return slot, m


class PairCounter:
    """One process's dense table and code buffer; `runs` lists what it has written."""

    def __init__(self, folder: Path, name: str, memory_bytes: int, size: int, window: int,
                 weights: np.ndarray) -> None:
        self.folder, self.name, self.size, self.window = folder, name, size, window
        self.weights = weights
        # Half the memory each, the buffer at least a few windows long.
        self.rows = dense_rows(size, memory_bytes // 2 // DENSE_BYTES)
        self.dense = np.zeros(self.rows[-1], dtype=np.float64)
        capacity = max(4 * window, (memory_bytes - self.dense.nbytes) // CODE_BYTES)
        self.codes = np.empty(capacity, dtype=np.int64)
        self.values = np.empty(capacity, dtype=np.float64)
        self.fill = 0
        self.runs: list[Path] = []

    def add(self, ids: np.ndarray, lines: np.ndarray) -> None:
        """Count the windows of a chunk of whole lines (ids, and each id's line)."""
        done = 0
        while done < len(ids):
            done, self.fill = count_pairs(ids, lines, done, self.window, self.size,
                                          self.weights, self.rows, self.dense, self.codes,
                                          self.fill)
            if done < len(ids):
                self.spill()

    def write(self, keys: np.ndarray, values: np.ndarray) -> None:
        """Write sorted unique keys and their values as the next run."""
        path = self.folder / f"{self.name}-{len(self.runs):06d}.run"
        write_run(path, keys, values)
        self.runs.append(path)

    def spill(self) -> None:
        """Sort and sum the code buffer and write it as a run."""
        if self.fill == 0:
            return
        codes = self.codes[:self.fill]
        codes.sort()  # in place: the buffer is the sort's only memory
        m = sum_codes(codes, self.fill, self.window, self.weights, self.values)
        self.write(codes[:m], self.values[:m])
        self.fill = 0

    def finish(self) -> list[Path]:
        """Spill the buffer, then write the dense table's pairs (through the buffer, as runs
        of at most its size); every run written."""
        self.spill()
        slot = 0
        while slot < len(self.dense):
            slot, m = dense_entries(self.rows, self.dense, self.size, slot, self.codes,
                                    self.values)
            if m:
                self.write(self.codes[:m], self.values[:m])
        return self.runs
