"""GloVe's co-occurrence entries on disk: spilled runs, their streaming merge, and the shuffle.

Two flat formats, little-endian, no header:

- a run (one spilled buffer of `glove_pairs`): m keys (int64, i x vocabulary + j, ascending and
  unique) followed by their m values (float64, scaled counts: see
  `glove_count.distance_weights`);
- an entries file: `ENTRY` records (word i, context j, count x), one per nonzero co-occurrence.

`merge_runs` streams any number of runs into one entries file sorted by (i, j) with equal keys
summed, holding a bounded buffer per run; `shuffle_entries` writes an entries file in a random
order in bounded memory (each entry to a random bucket file, then each bucket permuted), as the
reference's `shuffle` tool does before `glove` reads the file.
"""

from __future__ import annotations

import logging
import math
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

import numpy as np

from reprobe.io import atomic_path

log = logging.getLogger(__name__)

ENTRY = np.dtype([("i", "<i4"), ("j", "<i4"), ("x", "<f8")], align=True)
RUN_RECORD_BYTES = 16  # a key and a value
# Bytes a merge holds per buffered record: the buffer (16), and a round's concatenation (16),
# sort order (8), sorted copy (16), group starts and sums (16) and output records (16).
MERGE_BYTES_PER_RECORD = 88
# Bytes the shuffle holds per entry: a piece (16), its buckets (8), their order (8), the copy
# in bucket order (16).
SHUFFLE_BYTES_PER_ENTRY = 48
MIN_BUFFER = 1024  # records a run's buffer or a shuffle piece holds at least


def write_run(path: Path, keys: np.ndarray, values: np.ndarray) -> None:
    """Write one run: its sorted unique keys (int64), then their values (float64)."""
    with path.open("wb") as handle:
        np.ascontiguousarray(keys, dtype="<i8").tofile(handle)
        np.ascontiguousarray(values, dtype="<f8").tofile(handle)


def read_run(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """A whole run's keys and values (for tests and small runs)."""
    data = np.fromfile(path, dtype="<i8")
    half = len(data) // 2
    return data[:half], data[half:].view("<f8")


class RunReader:
    """A run read `capacity` records at a time: the buffered keys and values from `start`."""

    def __init__(self, path: Path, capacity: int) -> None:
        self.path = path
        self.length = path.stat().st_size // RUN_RECORD_BYTES
        self.keys = np.empty(max(1, min(capacity, self.length)), dtype="<i8")
        self.values = np.empty(len(self.keys), dtype="<f8")
        self.loaded = 0  # records of the run read so far
        self.start = self.stop = 0
        self.refill()

    @property
    def exhausted(self) -> bool:
        """Whether every record has been taken."""
        return self.start == self.stop and self.loaded == self.length

    def refill(self) -> None:
        """Move the untaken records to the front and read as many more as fit."""
        left = self.stop - self.start
        self.keys[:left] = self.keys[self.start:self.stop]
        self.values[:left] = self.values[self.start:self.stop]
        count = min(len(self.keys) - left, self.length - self.loaded)
        with self.path.open("rb") as handle:  # not kept open: a merge may read thousands of runs
            handle.seek(self.loaded * 8)
            handle.readinto(memoryview(self.keys[left:left + count]).cast("B"))
            handle.seek((self.length + self.loaded) * 8)
            handle.readinto(memoryview(self.values[left:left + count]).cast("B"))
        self.loaded += count
        self.start, self.stop = 0, left + count

    def end_through(self, bound: int) -> int:
        """The buffer position after the last buffered key <= bound."""
        return self.start + int(np.searchsorted(self.keys[self.start:self.stop], bound, "right"))

    def advance(self, end: int) -> None:
        """Mark the records before `end` taken; refill when the buffer is used up."""
        self.start = end
        if self.start == self.stop and self.loaded < self.length:
            self.refill()


def sum_sorted(keys: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sort by key (stable) and sum the values of equal keys."""
    order = np.argsort(keys, kind="stable")  # timsort: linear-ish over concatenated sorted runs
    keys, values = keys[order], values[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[starts], np.add.reduceat(values, starts)


def write_entries(handle: BinaryIO, keys: np.ndarray, values: np.ndarray, size: int,
                  scale: float) -> int:
    """Append (i, j, value / scale) records for keys i x size + j; how many."""
    records = np.empty(len(keys), dtype=ENTRY)
    records["i"], records["j"] = np.divmod(keys, size)
    records["x"] = values / scale
    records.tofile(handle)
    return len(records)


def merge_runs(runs: Sequence[Path], out: Path, size: int, scale: float,
               memory_bytes: int) -> int:
    """Merge sorted runs into the entries file `out`, summing equal keys; its entry count.

    Each round takes, from every run's buffer, the keys up to the smallest last buffered key:
    a run's later keys are larger (runs are unique), so each round's keys are final and come
    after the previous round's."""
    capacity = max(MIN_BUFFER, memory_bytes // (max(len(runs), 1) * MERGE_BYTES_PER_RECORD))
    readers = [reader for reader in (RunReader(path, capacity) for path in runs)
               if not reader.exhausted]
    log.info("GloVe: merging %d runs, %d records buffered each", len(runs), capacity)
    written = 0
    with atomic_path(out) as temporary, temporary.open("wb") as handle:
        while readers:
            bound = min(int(reader.keys[reader.stop - 1]) for reader in readers)
            ends = [reader.end_through(bound) for reader in readers]
            keys = np.concatenate([r.keys[r.start:end] for r, end in zip(readers, ends,
                                                                          strict=True)])
            values = np.concatenate([r.values[r.start:end] for r, end in zip(readers, ends,
                                                                              strict=True)])
            for reader, end in zip(readers, ends, strict=True):
                reader.advance(end)
            readers = [reader for reader in readers if not reader.exhausted]
            written += write_entries(handle, *sum_sorted(keys, values), size, scale)
    return written


def entry_count(path: Path) -> int:
    """The number of entries in an entries file."""
    return path.stat().st_size // ENTRY.itemsize


def read_entries(path: Path) -> np.ndarray:
    """An entries file mapped read-only (np.memmap; an empty file gives an empty array)."""
    if entry_count(path) == 0:
        return np.empty(0, dtype=ENTRY)
    return np.memmap(path, dtype=ENTRY, mode="r")


def _scatter_to_buckets(source: Path, folder: Path, buckets: int, piece: int,
                        rng: np.random.Generator) -> list[Path]:
    """Append every entry of `source` to one of `buckets` files, drawn uniformly; the files."""
    paths = [folder / f"bucket-{k:05d}.bin" for k in range(buckets)]
    for path in paths:
        path.touch()
    with source.open("rb") as handle:
        while len(entries := np.fromfile(handle, dtype=ENTRY, count=piece)):
            chosen = rng.integers(buckets, size=len(entries))
            order = np.argsort(chosen, kind="stable")
            ends = np.cumsum(np.bincount(chosen, minlength=buckets))
            for path, part in zip(paths, np.split(entries[order], ends[:-1]), strict=True):
                with path.open("ab") as bucket:
                    part.tofile(bucket)
    return paths


def shuffle_entries(source: Path, out: Path, seed: int, memory_bytes: int) -> None:
    """Write the entries of `source` to `out` in a uniformly random order drawn from `seed`,
    holding about memory_bytes (buckets go to a temporary folder beside `out`)."""
    rng = np.random.default_rng(seed)
    piece = max(MIN_BUFFER, memory_bytes // SHUFFLE_BYTES_PER_ENTRY)
    buckets = math.ceil(entry_count(source) / piece)
    with atomic_path(out) as temporary, temporary.open("wb") as handle:
        if buckets <= 1:
            entries = np.fromfile(source, dtype=ENTRY)
            entries[rng.permutation(len(entries))].tofile(handle)
            return
        with tempfile.TemporaryDirectory(dir=out.parent, prefix=f".{out.name}.buckets-") as tmp:
            # A uniform bucket for each entry, then a uniform order within each bucket: every
            # order of the whole is equally likely.
            for path in _scatter_to_buckets(source, Path(tmp), buckets, piece, rng):
                entries = np.fromfile(path, dtype=ENTRY)
                path.unlink()
                entries[rng.permutation(len(entries))].tofile(handle)
