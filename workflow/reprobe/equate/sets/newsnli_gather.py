"""NewsNLI's gather over the shards' Parquet files, streamed: memory stays flat whatever the input.

It writes what `newsnli.gather_newsnli` writes from the same shards (same pairs, order and card):
the ceil(n/2) most Jaccard-similar candidates, ties by input order (story, then rank), written
in input order. In passes, none holding more than a batch of rows:

1. Each shard, one at a time, is copied into a run file of small row groups beside the output
   (a shard is one row group of any size: reading 64 of them at once held a page of each); the
   copy notes whether the shard is in input order and starts the score histogram.
2. The cut, exactly as `top_fraction` makes it: the score of the ceil(n/2)-th best candidate
   and how many scoring exactly that are kept (the first in input order), found by a radix
   select over the scores' bits, 16 bits a pass (`cut_of_keys`): a fixed histogram, not a list
   of every score.
3. The rows in input order, cut as they come: a k-way merge of the runs, one row group of each
   held (`write_newsnli_shard` writes each shard in input order), or, when a shard is not in
   order, DuckDB's sort within SORT_MEMORY_MB, spilling beside the output. Equal keys keep the
   order of the shards as listed, then of the rows within a shard, as the stable sort did.
"""

from __future__ import annotations

import contextlib
import heapq
import json
import logging
import math
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from reprobe.equate.jsonl import UNLABELLED, Pair, write_pairs
from reprobe.equate.sets.newsnli import (
    COUNTS,
    FLIP_PRONOUNS,
    GENRE,
    KEEP_FRACTION,
    PREMISES_PER_POINT,
    SHARD_COLUMNS,
)
from reprobe.io import stats_path
from reprobe.wikipedia.spilled import SPILL_PREFIX, duckdb_within, parquet_with_columns

log = logging.getLogger(__name__)

# Rows of a run's row group: the merge holds one of each run (64 at paper scale) at a time, so
# ~2 MB at 128 rows.
RUN_GROUP_ROWS = 1 << 7
# Rows of a batch read from a shard while copying it (one shard at a time).
COPY_BATCH_ROWS = 1 << 10
# Bytes read from a file at a time: pages are read as needed, never a whole column chunk.
READ_BUFFER = 1 << 16
# DuckDB's budget when a shard is not in input order (never so when written by the shard step).
SORT_MEMORY_MB = 256
DIGIT_BITS = 16  # bits of a score's key a radix-select pass decides: a 65,536-count histogram
DIGITS = 64 // DIGIT_BITS
SIGN = np.uint64(1 << 63)
RUN_SCHEMA = pa.schema([("score", pa.float64()), ("story", pa.int64()), ("rank", pa.int64()),
                        ("sentence1", pa.string()), ("sentence2", pa.string())])

Row = tuple[float, str, str]  # score, sentence1, sentence2


@dataclass(frozen=True)
class Cut:
    """Where `top_fraction` cuts: every candidate above `threshold` is kept, and the first `ties`
    (in input order) scoring exactly `threshold`; None when there is no candidate."""

    threshold: float | None
    ties: int
    kept: int


@dataclass(frozen=True)
class Runs:
    """The shards copied: run files (empty shards have none), rows per shard, all in order?"""

    paths: list[Path]
    rows: list[int]
    ordered: bool
    histogram: np.ndarray  # of the scores' first key digits


def score_keys(scores: np.ndarray) -> np.ndarray:
    """Unsigned keys ordered as the float64 scores are (-0.0 as 0.0)."""
    bits = (np.asarray(scores, dtype=np.float64) + 0.0).view(np.uint64)
    return np.where(bits & SIGN, ~bits, bits | SIGN)


def key_score(key: int) -> float:
    """The score of a key (`score_keys` inverted)."""
    bits = key ^ int(SIGN) if key & int(SIGN) else ~key & (2**64 - 1)
    return float(np.array([bits], dtype=np.uint64).view(np.float64)[0])


def digit_histogram(keys: np.ndarray, digit: int, prefix: int) -> np.ndarray:
    """Counts of a digit's values among keys whose earlier digits are `prefix`."""
    shift = 64 - DIGIT_BITS * (digit + 1)
    if digit:
        keys = keys[(keys >> np.uint64(shift + DIGIT_BITS)) == np.uint64(prefix)]
    values = (keys >> np.uint64(shift)) & np.uint64((1 << DIGIT_BITS) - 1)
    return np.bincount(values.astype(np.int64), minlength=1 << DIGIT_BITS)


def cut_of_keys(first: np.ndarray, keys: Callable[[], Iterable[np.ndarray]], fraction: float
                ) -> Cut:
    """The cut keeping ceil(fraction * n) best scores: a radix select from the first digit's
    histogram, reading the keys again (`keys()`) for each later digit."""
    keep = math.ceil(fraction * int(first.sum()))
    if not keep:
        return Cut(None, 0, 0)
    rank, prefix, histogram = keep, 0, first  # rank: place among keys sharing prefix, from top
    for digit in range(DIGITS):
        if digit:
            histogram = sum((digit_histogram(k, digit, prefix) for k in keys()),
                            np.zeros(1 << DIGIT_BITS, dtype=np.int64))
        from_top = np.cumsum(histogram[::-1])
        step = int(np.searchsorted(from_top, rank))  # the first bucket reaching the rank
        bucket = (1 << DIGIT_BITS) - 1 - step
        rank -= int(from_top[step] - histogram[bucket])
        prefix = (prefix << DIGIT_BITS) | bucket
    return Cut(key_score(prefix), rank, keep)


def kept_pairs(rows: Iterable[Row], cut: Cut) -> Iterator[Pair]:
    """The pairs of rows (in input order) that the cut keeps, in that order."""
    ties = cut.ties
    for score, sentence1, sentence2 in rows:
        if cut.threshold is None or score < cut.threshold:
            continue
        if score == cut.threshold:
            if not ties:
                continue
            ties -= 1
        yield Pair(sentence1, sentence2, UNLABELLED)


def in_order(story: np.ndarray, rank: np.ndarray) -> bool:
    """Whether (story, rank) never decreases along the arrays."""
    later = (story[1:] > story[:-1]) | ((story[1:] == story[:-1]) & (rank[1:] >= rank[:-1]))
    return bool(later.all())


def copy_shard(path: Path, run: Path, histogram: np.ndarray) -> tuple[int, bool]:
    """Copy a shard into a run of small row groups, adding its scores' first digits to
    histogram; (rows, whether in input order)."""
    parquet_with_columns(path, SHARD_COLUMNS)
    shard = pq.ParquetFile(path, pre_buffer=False, buffer_size=READ_BUFFER)
    # One thread, as the job has: decoding threads each kept their own allocator cache.
    batches = shard.iter_batches(COPY_BATCH_ROWS, columns=list(SHARD_COLUMNS), use_threads=False)
    rows, ordered, last = 0, True, None
    # Snappy, no dictionary: a temporary file, read once; zstd and dictionaries held more.
    with pq.ParquetWriter(run, RUN_SCHEMA, compression="snappy", use_dictionary=False) as writer:
        for batch in batches:
            table = pa.Table.from_batches([batch]).select(list(SHARD_COLUMNS)).cast(RUN_SCHEMA)
            writer.write_table(table, row_group_size=RUN_GROUP_ROWS)
            histogram += digit_histogram(score_keys(table["score"].to_numpy()), 0, 0)
            story, rank = table["story"].to_numpy(), table["rank"].to_numpy()
            if last is not None:  # the batch's first row against the previous batch's last
                story, rank = np.append(last[0], story), np.append(last[1], rank)
            ordered = ordered and in_order(story, rank)
            last, rows = (story[-1], rank[-1]), rows + batch.num_rows
    return rows, ordered


def copy_shards(paths: Sequence[Path], folder: Path) -> Runs:
    """Copy every shard with rows into a run in folder."""
    runs, rows, ordered = [], [], True
    histogram = np.zeros(1 << DIGIT_BITS, dtype=np.int64)
    for n, path in enumerate(paths):
        run = folder / f"{n}.parquet"
        count, in_input_order = copy_shard(path, run, histogram)
        if count:
            runs.append(run)
        rows.append(count)
        ordered = ordered and in_input_order
    return Runs(runs, rows, ordered, histogram)


def run_scores(runs: Sequence[Path]) -> Iterator[np.ndarray]:
    """The score keys of every run, a row group at a time."""
    for run in runs:
        parquet = pq.ParquetFile(run, pre_buffer=False)
        for group in range(parquet.num_row_groups):
            scores = parquet.read_row_group(group, columns=["score"], use_threads=False)
            yield score_keys(scores["score"].to_numpy())


def run_rows(run: Path) -> Iterator[tuple[int, int, Row]]:
    """A run's rows as (story, rank, (score, sentence1, sentence2)), a row group at a time."""
    parquet = pq.ParquetFile(run, pre_buffer=False)
    for group in range(parquet.num_row_groups):
        table = parquet.read_row_group(group, use_threads=False)
        columns = [table[name].to_pylist() for name in SHARD_COLUMNS]
        for score, story, rank, sentence1, sentence2 in zip(*columns, strict=True):
            yield story, rank, (score, sentence1, sentence2)


def merged_rows(runs: Sequence[Path]) -> Iterator[Row]:
    """Rows of runs each in input order, merged in input order (ties: earlier run first)."""
    # heapq.merge is stable: equal keys come from the earlier iterable first, as in a stable sort.
    for _, _, row in heapq.merge(*map(run_rows, runs), key=lambda item: item[:2]):
        yield row


def sorted_rows(runs: Sequence[Path], near: Path) -> Iterator[Row]:
    """Rows of runs in any order, sorted into input order by DuckDB within SORT_MEMORY_MB (ties:
    runs as listed, then rows within a run)."""
    if not runs:
        return
    selects = [f"SELECT *, {n} AS run FROM read_parquet({_quoted(run)}, file_row_number=true)"
               for n, run in enumerate(runs)]
    query = (f"SELECT score, sentence1, sentence2 FROM ({' UNION ALL '.join(selects)}) "
             "ORDER BY story, rank, run, file_row_number")
    with duckdb_within(SORT_MEMORY_MB, near) as connection:
        for batch in connection.sql(query).to_arrow_reader(RUN_GROUP_ROWS):
            columns = [batch.column(n).to_pylist() for n in range(3)]
            yield from zip(*columns, strict=True)


def _quoted(path: Path) -> str:
    """A path as a SQL string literal."""
    return "'" + str(path).replace("'", "''") + "'"


@contextlib.contextmanager
def spill_folder(near: Path) -> Iterator[Path]:
    """A temporary folder beside `near`'s files, removed at the end; one a killed run of the same
    job left there is removed first."""
    Path(near).mkdir(parents=True, exist_ok=True)
    for stale in Path(near).glob(SPILL_PREFIX + "*"):
        shutil.rmtree(stale, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix=SPILL_PREFIX, dir=near) as folder:
        yield Path(folder)


def write_kept(rows: Iterable[Row], cut: Cut, candidates: int,
               shard_counts: Iterable[Mapping[str, int]], shards: int, out_jsonl: Path, *,
               sources: dict[str, Path]) -> dict[str, Any]:
    """Write the pairs the cut keeps of rows (in input order) and the card; return its counts."""
    totals: Counter[str] = Counter()
    for counts in shard_counts:
        totals.update({key: counts.get(key, 0) for key in COUNTS})
    counts = {**{key: totals[key] for key in COUNTS}, "candidates": candidates,
              "kept": cut.kept, "jaccard_threshold": cut.threshold}
    card = write_pairs(
        kept_pairs(rows, cut), out_jsonl, genre=GENRE, sources=sources,
        parameters={"premises_per_point": PREMISES_PER_POINT, "keep_fraction": KEEP_FRACTION,
                    "flip_pronouns": sorted(FLIP_PRONOUNS), "shards": shards},
        extra={"counts": counts})
    log.info("NewsNLI: %d of %d candidate pairs kept from %d stories", cut.kept, candidates,
             counts["stories"])
    return {**counts, "card": card}


def stream_newsnli_shards(stories: Path, shard_parquets: Sequence[Path], out_jsonl: Path
                          ) -> dict[str, Any]:
    """The streamed `gather_newsnli` over the files of `write_newsnli_shard`."""
    paths, near = [Path(p) for p in shard_parquets], Path(out_jsonl).parent
    with spill_folder(near) as folder:
        runs = copy_shards(paths, folder)
        cut = cut_of_keys(runs.histogram, lambda: run_scores(runs.paths), KEEP_FRACTION)
        rows = merged_rows(runs.paths) if runs.ordered else sorted_rows(runs.paths, folder)
        shard_counts = (json.loads(stats_path(p).read_text(encoding="utf-8")) for p in paths)
        return write_kept(rows, cut, sum(runs.rows), shard_counts, len(paths), out_jsonl,
                          sources={"stories": Path(stories)})
