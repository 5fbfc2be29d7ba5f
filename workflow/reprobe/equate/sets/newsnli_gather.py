"""NewsNLI's gather over the shards' Parquet files, streamed: memory stays flat whatever the input.

It writes what `newsnli.gather_newsnli` writes from the same shards (same pairs, order and card):
the ceil(n/2) most Jaccard-similar candidates, ties by input order (story, then rank), written
in input order. In passes, none holding more than a batch of rows:

1. Each shard, one at a time, is copied into a run file of small row groups beside the output
   (a shard is one row group of any size: reading 64 of them at once held a page of each); the
   copy notes whether the shard is in input order and starts the score histogram.
2. The cut, exactly as `top_fraction` makes it: the score of the ceil(n/2)-th best candidate
   and how many scoring exactly that are kept (the first in input order), from every score
   (8 bytes a candidate: ~1 MB at the paper's ~160k, where the rows were ~5 KB each).
3. The rows in input order, cut as they come: a k-way merge of the runs, one row group of each
   held (`write_newsnli_shard` writes each shard in input order), or, when a shard is not in
   order, DuckDB's sort within SORT_MEMORY_MB, spilling beside the output. Equal keys keep the
   order of the shards as listed, then of the rows within a shard, as the stable sort did.
"""

from __future__ import annotations

import heapq
import json
import logging
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
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
from reprobe.wikipedia.spilled import (
    duckdb_within,
    parquet_with_columns,
    spill_folder,
    sql_string,
)

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
    scores: np.ndarray  # every candidate's score, in shard order


def cut_of(scores: np.ndarray, fraction: float) -> Cut:
    """The cut keeping the ceil(fraction * n) best scores, ties by input order."""
    keep = math.ceil(fraction * len(scores))
    if not keep:
        return Cut(None, 0, 0)
    threshold = float(np.partition(scores, len(scores) - keep)[len(scores) - keep])
    return Cut(threshold, keep - int((scores > threshold).sum()), keep)


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


def copy_shard(path: Path, run: Path, scores: list[np.ndarray]) -> tuple[int, bool]:
    """Copy a shard into a run of small row groups, appending its scores to `scores`; (rows,
    whether in input order)."""
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
            scores.append(table["score"].to_numpy())
            story, rank = table["story"].to_numpy(), table["rank"].to_numpy()
            if last is not None:  # the batch's first row against the previous batch's last
                story, rank = np.append(last[0], story), np.append(last[1], rank)
            ordered = ordered and in_order(story, rank)
            last, rows = (story[-1], rank[-1]), rows + batch.num_rows
    return rows, ordered


def copy_shards(paths: Sequence[Path], folder: Path) -> Runs:
    """Copy every shard with rows into a run in folder."""
    runs, rows, ordered = [], [], True
    scores: list[np.ndarray] = []
    for n, path in enumerate(paths):
        run = folder / f"{n}.parquet"
        count, in_input_order = copy_shard(path, run, scores)
        if count:
            runs.append(run)
        rows.append(count)
        ordered = ordered and in_input_order
    return Runs(runs, rows, ordered,
                np.concatenate(scores) if scores else np.zeros(0, dtype=np.float64))


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
    selects = [f"SELECT *, {n} AS run FROM read_parquet({sql_string(run)}, file_row_number=true)"
               for n, run in enumerate(runs)]
    query = (f"SELECT score, sentence1, sentence2 FROM ({' UNION ALL '.join(selects)}) "
             "ORDER BY story, rank, run, file_row_number")
    with duckdb_within(SORT_MEMORY_MB, near) as connection:
        for batch in connection.sql(query).to_arrow_reader(RUN_GROUP_ROWS):
            columns = [batch.column(n).to_pylist() for n in range(3)]
            yield from zip(*columns, strict=True)


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
    with spill_folder(near, Path(out_jsonl).name) as folder:
        runs = copy_shards(paths, folder)
        cut = cut_of(runs.scores, KEEP_FRACTION)
        rows = merged_rows(runs.paths) if runs.ordered else sorted_rows(runs.paths, folder)
        shard_counts = (json.loads(stats_path(p).read_text(encoding="utf-8")) for p in paths)
        return write_kept(rows, cut, sum(runs.rows), shard_counts, len(paths), out_jsonl,
                          sources={"stories": Path(stories)})
