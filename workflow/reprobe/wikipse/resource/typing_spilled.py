"""Every link target of the dump typed with S-classes, in a bounded memory (DuckDB).

At paper scale ~330M links reach ~15M distinct targets, and the Freebase tables joined with
them run to tens of millions of rows. DuckDB counts the links by target, joins the targets with
the title source (FIGER types from a small title table, or Freebase types of each title's MID
through types.map) and sorts them by title within `memory_mb`, spilling beyond it
(reprobe.wikipedia.spilled). The sorted rows come back in batches; each batch is typed with
`typing.type_titles` and its typed targets appended to the output, so Python holds one batch
at a time: the counts and the output are those of typing every target at once.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from reprobe.io import atomic_path
from reprobe.wikipedia.spilled import (
    RowGroupWriter,
    duckdb_within,
    parquet_list,
    parquet_with_columns,
)
from reprobe.wikipse.resource.classes import FoldRule
from reprobe.wikipse.resource.freebase import TITLES_SCHEMA, TYPES_SCHEMA
from reprobe.wikipse.resource.typing import COUNT_KEYS, TYPED_SCHEMA, to_figer, type_titles

BATCH_ROWS = 20_000  # typed titles a batch: a few MB as Python objects


def freebase_source(connection: Any, types: Path, titles: Path) -> None:
    """The view `source(title, rank, kind)`: each title's Freebase types, joined on the MID
    (a type listed twice, through two MIDs, comes twice; rank 0: they are sorted by name)."""
    parquet_with_columns(types, TYPES_SCHEMA.names)
    parquet_with_columns(titles, TITLES_SCHEMA.names)
    connection.execute(
        "CREATE TEMP VIEW source AS SELECT t.title, 0 AS rank, y.freebase_type AS kind "
        f"FROM read_parquet({parquet_list([titles])}) t "
        f"JOIN read_parquet({parquet_list([types])}) y ON y.mid = t.mid")


def table_source(connection: Any, title_figer: Mapping[str, Sequence[str]]) -> None:
    """The view `source(title, rank, kind)` of a (small) title → FIGER types table, each
    title's types in their listed order."""
    rows = [(title, rank, kind) for title, kinds in title_figer.items()
            for rank, kind in enumerate(kinds)]
    table = pa.table({"title": pa.array([r[0] for r in rows], pa.string()),
                      "rank": pa.array([r[1] for r in rows], pa.int32()),
                      "kind": pa.array([r[2] for r in rows], pa.string())})
    connection.register("source_table", table)
    connection.execute("CREATE TEMP VIEW source AS SELECT title, rank, kind FROM source_table")


def titles_with_kinds(batches: Iterable[pa.RecordBatch]
                      ) -> Iterator[list[tuple[str, list[str], int]]]:
    """(title, kinds, links) of rows sorted by title, one title's rows gathered (its kinds
    distinct, in order), in lists of about BATCH_ROWS titles: list aggregates cannot spill, so
    they are made here, a batch at a time."""
    chunk: list[tuple[str, list[str], int]] = []
    current: tuple[str, list[str], int] | None = None
    for batch in batches:
        for title, kind, links in zip(*(batch.column(i).to_pylist() for i in range(3)),
                                      strict=True):
            if current is not None and current[0] == title:
                if kind not in current[1]:
                    current[1].append(kind)
                continue
            if current is not None:
                chunk.append(current)
                if len(chunk) >= BATCH_ROWS:
                    yield chunk
                    chunk = []
            current = (title, [kind], links)
    if current is not None:
        chunk.append(current)
    if chunk:
        yield chunk


def type_dump_targets(links: Path, out: Path, figer_types: Collection[str],
                      rules: Sequence[FoldRule], memory_mb: int, *,
                      title_figer: Mapping[str, Sequence[str]] | None = None,
                      freebase: tuple[Path, Path] | None = None,
                      types_map: Mapping[str, Sequence[str]] | None = None
                      ) -> tuple[set[str], dict[str, int]]:
    """Type the gathered links' targets from a title table (`title_figer`) or Freebase's
    (types, titles) Parquet through `types_map`; write the typed targets (title, sclasses),
    sorted by title, to `out`. Returns the S-classes produced and the counts titles, typed,
    unmapped_title, no_class, links and links_typed."""
    parquet_with_columns(links, ["target"])
    produced: set[str] = set()
    counts = dict.fromkeys(COUNT_KEYS, 0)
    links_typed = 0
    with duckdb_within(memory_mb, Path(out).parent) as connection:
        connection.execute("CREATE TEMP TABLE targets AS SELECT target, "
                           "CAST(count(*) AS BIGINT) AS links "
                           f"FROM read_parquet({parquet_list([links])}) GROUP BY target")
        if freebase is not None:
            freebase_source(connection, *freebase)
        else:
            table_source(connection, title_figer or {})
        titles, link_total = connection.execute(
            "SELECT count(*), coalesce(sum(links), 0) FROM targets").fetchall()[0]
        # The source's rows of linked titles, sorted by title: the written order.
        reader = connection.sql("SELECT s.title, s.kind, t.links FROM source s "
                                "JOIN targets t ON t.target = s.title "
                                "ORDER BY s.title, s.rank, s.kind").to_arrow_reader(BATCH_ROWS)
        # Snappy, pyarrow's default: the bytes `typing.write_typed_targets` writes.
        with atomic_path(out) as tmp, RowGroupWriter(tmp, TYPED_SCHEMA, "snappy") as writer:
            for chunk in titles_with_kinds(reader):
                known = {title: kinds for title, kinds, _ in chunk}
                if freebase is not None:
                    known = to_figer(known, types_map or {})
                typed, part = type_titles(list(known), known, figer_types, rules)
                for key in ("typed", "no_class"):
                    counts[key] += part[key]
                links_typed += sum(links for title, _, links in chunk if title in typed)
                produced.update(c for classes in typed.values() for c in classes)
                writer.add(pa.table({"title": list(typed),
                                     "sclasses": [typed[t] for t in typed]}))
    counts["titles"] = int(titles)
    counts["unmapped_title"] = int(titles) - counts["typed"] - counts["no_class"]
    return produced, {**counts, "links": int(link_total), "links_typed": links_typed}
