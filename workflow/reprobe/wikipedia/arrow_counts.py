"""Counting over a whole dump with Arrow, in memory that follows the distinct keys, not the rows.

Link targets, redirects and corpus vocabularies run to hundreds of millions of rows at paper
scale; as Python dicts and sets they cost about 70 bytes a row. Here rows come in batches,
each batch is reduced at once (`pc.value_counts`, `pc.unique`), and the reduced parts are
merged again (compacted) whenever they outgrow what was merged before, so at most about twice
the distinct keys are held, as Arrow buffers. Merging with a single-threaded group-by makes
the order of the keys depend on the input alone (about the order they were first seen, not
exactly), not on the thread count; callers that write keys sort them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from reprobe.errors import InputFormatError

MIN_COMPACT_ROWS = 1 << 20  # pending rows below this are never worth a merge
# Rows a Parquet batch is read in: bigger batches measured more memory, not less time.
BATCH_ROWS = 1 << 16


def parquet_with_columns(path: Path, columns: Sequence[str]) -> pq.ParquetFile:
    """A Parquet file opened for batches, checked to have the columns named."""
    try:
        # No pre-buffering: it reads ahead whole column chunks, so memory grew with the file.
        parquet = pq.ParquetFile(path, pre_buffer=False)
    except (pa.ArrowException, OSError) as exc:
        raise InputFormatError(path, "file", f"not a readable Parquet file ({exc})") from exc
    for name in columns:
        if name not in parquet.schema_arrow.names:
            raise InputFormatError(path, f"column {name!r}", "missing from the table")
    return parquet


class SummedCounts:
    """Count tables added one by one, summed by their key columns."""

    def __init__(self, keys: Sequence[str], value: str,
                 min_compact_rows: int | None = None) -> None:
        self.keys = list(keys)
        self.value = value
        self.min_compact_rows = MIN_COMPACT_ROWS if min_compact_rows is None else min_compact_rows
        self.merged: pa.Table | None = None
        self.pending: list[pa.Table] = []
        self.pending_rows = 0

    def add(self, table: pa.Table) -> None:
        """Add a table with the key columns and the value column (other columns are ignored)."""
        self.pending.append(table.select([*self.keys, self.value]))
        self.pending_rows += table.num_rows
        merged_rows = 0 if self.merged is None else self.merged.num_rows
        # Merging when the pending rows outgrow the merged ones keeps the total work linear.
        if self.pending_rows >= max(self.min_compact_rows, merged_rows):
            self._compact()

    def _compact(self) -> None:
        """Merge the merged table and the pending ones into one, summed by key."""
        parts = ([] if self.merged is None else [self.merged]) + self.pending
        if not parts:
            return
        grouped = pa.concat_tables(parts).group_by(self.keys, use_threads=False).aggregate(
            [(self.value, "sum")])
        self.merged = pa.table([grouped[k] for k in self.keys] + [grouped[f"{self.value}_sum"]],
                               names=[*self.keys, self.value])
        self.pending, self.pending_rows = [], 0

    def result(self) -> pa.Table:
        """The summed table: key columns then the value column (keys unsorted)."""
        self._compact()
        if self.merged is None:
            return pa.table({name: pa.array([], pa.string()) for name in self.keys}
                            | {self.value: pa.array([], pa.int64())})
        return self.merged


def add_value_counts(summed: SummedCounts, values: pa.Array | pa.ChunkedArray) -> None:
    """Add one batch of values to a SummedCounts keyed by the values, counting occurrences."""
    found = pc.value_counts(values)
    summed.add(pa.table([found.field("values"), found.field("counts")],
                        names=[summed.keys[0], summed.value]))


class DistinctValues:
    """Values added batch by batch; how many distinct ones there are (nulls count as one)."""

    def __init__(self, min_compact_rows: int | None = None) -> None:
        self.min_compact_rows = MIN_COMPACT_ROWS if min_compact_rows is None else min_compact_rows
        self.merged: pa.Array | None = None
        self.pending: list[pa.Array] = []
        self.pending_rows = 0

    def add(self, values: pa.Array) -> None:
        """Add one batch of values."""
        distinct = pc.unique(values)
        self.pending.append(distinct)
        self.pending_rows += len(distinct)
        merged_rows = 0 if self.merged is None else len(self.merged)
        if self.pending_rows >= max(self.min_compact_rows, merged_rows):
            self._compact()

    def _compact(self) -> None:
        """Merge the distinct values seen so far into one array."""
        parts = ([] if self.merged is None else [self.merged]) + self.pending
        if parts:
            self.merged = pc.unique(pa.chunked_array(parts, type=parts[0].type))
        self.pending, self.pending_rows = [], 0

    def count(self) -> int:
        """The number of distinct values added."""
        self._compact()
        return 0 if self.merged is None else len(self.merged)
