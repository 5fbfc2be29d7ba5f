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

from collections.abc import Collection, Mapping, Sequence
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

BATCH_ROWS = 100_000  # typed titles a batch: a few tens of MB as Python objects


def freebase_source(connection: Any, types: Path, titles: Path) -> None:
    """The view `source(title, kinds)`: each title (among the link targets) with its
    Freebase types, distinct and sorted, joined on the MID."""
    parquet_with_columns(types, TYPES_SCHEMA.names)
    parquet_with_columns(titles, TITLES_SCHEMA.names)
    connection.execute(
        "CREATE TEMP VIEW source AS SELECT t.title, "
        "list_sort(list_distinct(list(y.freebase_type))) AS kinds "
        f"FROM read_parquet({parquet_list([titles])}) t "
        f"JOIN read_parquet({parquet_list([types])}) y ON y.mid = t.mid "
        "WHERE t.title IN (SELECT target FROM targets) GROUP BY t.title")


def table_source(connection: Any, title_figer: Mapping[str, Sequence[str]]) -> None:
    """The view `source(title, kinds)` of a (small) title → FIGER types table."""
    table = pa.table({"title": pa.array(list(title_figer), pa.string()),
                      "kinds": pa.array([list(kinds) for kinds in title_figer.values()],
                                        pa.list_(pa.string()))})
    connection.register("source_table", table)
    connection.execute("CREATE TEMP VIEW source AS SELECT title, kinds FROM source_table")


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
        # Targets the source knows, sorted by title: the written order.
        reader = connection.sql("SELECT s.title, s.kinds, t.links FROM source s "
                                "JOIN targets t ON t.target = s.title "
                                "ORDER BY s.title").to_arrow_reader(BATCH_ROWS)
        # Snappy, pyarrow's default: the bytes `typing.write_typed_targets` writes.
        with atomic_path(out) as tmp, RowGroupWriter(tmp, TYPED_SCHEMA, "snappy") as writer:
            for batch in reader:
                known = dict(zip(batch.column(0).to_pylist(), batch.column(1).to_pylist(),
                                 strict=True))
                if freebase is not None:
                    known = to_figer(known, types_map or {})
                typed, part = type_titles(list(known), known, figer_types, rules)
                for key in ("typed", "no_class"):
                    counts[key] += part[key]
                links_of = dict(zip(batch.column(0).to_pylist(), batch.column(2).to_pylist(),
                                    strict=True))
                links_typed += sum(links_of[title] for title in typed)
                produced.update(c for classes in typed.values() for c in classes)
                writer.add(pa.table({"title": list(typed),
                                     "sclasses": [typed[t] for t in typed]}))
    counts["titles"] = int(titles)
    counts["unmapped_title"] = int(titles) - counts["typed"] - counts["no_class"]
    return produced, {**counts, "links": int(link_total), "links_typed": links_typed}
