"""Whole-dump tables in bounded memory: DuckDB group-bys, joins and sorts that spill to disk.

A gather over every shard (link targets, a corpus's vocabulary, redirects) holds as many keys
as the whole dump has: tens of millions at paper scale, from hundreds of millions of rows.
DuckDB runs its hash aggregates, joins and sorts within a memory limit and spills what does
not fit to a temporary folder, so
such a job's memory is the configured budget (`wikipedia.gather_memory_mb`), whatever the
dump. It runs on one thread (the jobs ask for one), and every query whose order matters sorts.
Results come back as Arrow batches, written with pyarrow as before, so readers see the same
tables. Operators that cannot spill (list aggregates) are left to Python, over sorted rows.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from reprobe.errors import InputFormatError
from reprobe.io import atomic_path

# Rows a Parquet batch is read in: bigger batches measured more memory, not less time.
BATCH_ROWS = 1 << 16
# Rows of a written row group, and of a batch read back from DuckDB: what Python holds at once
# of a whole-dump table (a few MB; pyarrow's default of a million rows was ~100 MB of links).
ROW_GROUP_ROWS = 1 << 16
SPILL_PREFIX = ".spill-"  # a job's spill folder, beside its outputs (one job a folder)


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


@contextlib.contextmanager
def spill_folder(near: Path, owner: str = "") -> Iterator[Path]:
    """A temporary folder beside `near`'s files (the job's outputs: the same disk), removed at
    the end; one a killed run of the same job left there is removed first. `owner` (the output
    a job writes) tells jobs apart that write into the same folder."""
    prefix = f".{owner}{SPILL_PREFIX}" if owner else SPILL_PREFIX
    near = Path(near)
    near.mkdir(parents=True, exist_ok=True)
    for stale in near.glob(prefix + "*"):
        shutil.rmtree(stale, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix=prefix, dir=near) as folder:
        yield Path(folder)


@contextlib.contextmanager
def duckdb_within(memory_mb: int, near: Path, owner: str = "") -> Iterator[Any]:
    """A DuckDB connection limited to `memory_mb`, spilling into a `spill_folder` beside
    `near`."""
    import duckdb

    with spill_folder(near, owner) as spill:
        # Insertion order need not be kept (every query that needs an order sorts): DuckDB
        # then streams more and holds less.
        connection = duckdb.connect(config={"threads": 1, "memory_limit": f"{memory_mb}MB",
                                            "temp_directory": str(spill),
                                            "preserve_insertion_order": False})
        try:
            yield connection
        finally:
            connection.close()


def sql_string(text: str | Path) -> str:
    """A SQL string literal (a path for `read_parquet`)."""
    return "'" + str(text).replace("'", "''") + "'"


def parquet_list(paths: Sequence[Path]) -> str:
    """A SQL list literal of Parquet paths for `read_parquet`."""
    return "[" + ", ".join(map(sql_string, paths)) + "]"


class RowGroupWriter:
    """Tables appended to a Parquet file in row groups of ROW_GROUP_ROWS (or `group_rows`), so
    at most one group is held; open it as a context manager."""

    def __init__(self, path: Path, schema: pa.Schema, compression: str = "zstd",
                 group_rows: int | None = None) -> None:
        self.schema = schema
        self.group_rows = ROW_GROUP_ROWS if group_rows is None else group_rows
        self.writer = pq.ParquetWriter(path, schema, compression=compression)
        self.pending: list[pa.Table] = []
        self.pending_rows = 0
        self.rows = 0

    def __enter__(self) -> RowGroupWriter:
        return self

    def __exit__(self, *error: object) -> None:
        if error[0] is None:
            self.flush(final=True)
        self.writer.close()

    def add(self, table: pa.Table) -> None:
        """Append rows (the schema's columns, in order; cast to its types)."""
        self.pending.append(_cast(table, self.schema))
        self.pending_rows += table.num_rows
        self.flush()

    def flush(self, final: bool = False) -> None:
        """Write every full row group; when final, the rest too (an empty file: no rows)."""
        while self.pending_rows >= self.group_rows:
            self._write(self.group_rows)
        if final and (self.pending_rows or not self.rows):
            self._write(self.pending_rows)

    def _write(self, size: int) -> None:
        """Write the first `size` pending rows as one row group."""
        table = pa.concat_tables(self.pending) if self.pending else self.schema.empty_table()
        self.writer.write_table(table.slice(0, size).combine_chunks())
        rest = table.slice(size)
        self.pending = [rest] if rest.num_rows else []
        self.pending_rows -= size
        self.rows += size


def write_query(connection: Any, query: str, schema: pa.Schema, path: Path,
                parameters: Sequence[Any] = ()) -> int:
    """A query's rows written to Parquet under `schema`, in row groups of ROW_GROUP_ROWS,
    atomically; the rows written."""
    # A relation streams its batches; an executed (DB-API) result would copy every row first.
    reader = connection.sql(query, params=list(parameters) or None).to_arrow_reader(
        ROW_GROUP_ROWS)
    with atomic_path(path) as tmp, RowGroupWriter(tmp, schema) as writer:
        for batch in reader:
            writer.add(pa.Table.from_batches([batch]))
    return writer.rows


def _cast(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """A table with the written schema's names and types (columns taken in order)."""
    columns = [table.column(index).cast(field.type) for index, field in enumerate(schema)]
    return pa.Table.from_arrays(columns, schema=schema)
