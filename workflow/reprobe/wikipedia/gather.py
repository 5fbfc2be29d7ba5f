"""Gather shards: resolve redirects, concatenate pages and links, sum the statistics.

The redirects and link targets of the whole dump (~10M and ~15M at paper scale) are resolved
and counted by DuckDB within the job's memory budget (`wikipedia.gather_memory_mb`), spilling
to disk beyond it (reprobe.wikipedia.spilled); pages and links are copied shard by shard.

Sentences stay sharded (`shards/<k>/sentences.parquet`): they are most of the corpus, and
downstream stages read them shard by shard, one job per shard.

Outputs:
- redirects.parquet: title string, target string (final article after following redirect
  chains), hops int8 (1 for a direct redirect)
- pages.parquet: the shards' pages tables, concatenated in shard order
- links.parquet: the shards' links tables with `target` resolved through redirects and the
  link's own normalised target kept as `raw_target`
- stats.json: the shards' counts summed, plus distinct link targets and redirect resolution
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from reprobe.io import atomic_path, atomic_write_text
from reprobe.wikipedia.shard import LINKS_SCHEMA, PAGES_SCHEMA, ShardOutputs
from reprobe.wikipedia.spilled import (
    BATCH_ROWS,
    ROW_GROUP_ROWS,
    RowGroupWriter,
    duckdb_within,
    parquet_list,
    parquet_with_columns,
    write_query,
)

MAX_REDIRECT_HOPS = 5
REDIRECTS_SCHEMA = pa.schema([("title", pa.string()), ("target", pa.string()),
                              ("hops", pa.int8())])
RESOLVED_LINKS_SCHEMA = LINKS_SCHEMA.append(pa.field("raw_target", pa.string()))


def _direct_redirects(shards: Sequence[ShardOutputs]) -> str:
    """SQL of every shard's redirects (title, target) with their place (shard, row)."""
    parts = [f"SELECT title, redirect_target AS target, {index} AS shard, file_row_number AS row "
             f"FROM read_parquet({parquet_list([shard.pages])}, file_row_number = true) "
             "WHERE status = 'redirect'" for index, shard in enumerate(shards)]
    return " UNION ALL ".join(parts)


def resolve_redirects(connection: Any, shards: Sequence[ShardOutputs]) -> int:
    """The table `resolved(title, target, hops)`: each redirect followed to its end, at most
    MAX_REDIRECT_HOPS, in the order the titles first appear; a title listed twice keeps its
    last target. Returns how many redirects were left unresolved (cycles, longer chains)."""
    connection.execute(
        "CREATE TEMP TABLE direct AS SELECT title, arg_max(target, shard * 1e12 + row) AS "
        f"target, min(shard * 1e12 + row) AS place FROM ({_direct_redirects(shards)}) "
        "GROUP BY title")
    # t1 is the title's own target; r_k is t_k's redirect, whose target is t_(k+1). The chain
    # ends at the first t_k that is no redirect; past MAX_REDIRECT_HOPS it is unresolved.
    joins = " ".join(f"LEFT JOIN direct r{k} ON r{k}.title = "
                     f"{'d' if k == 1 else f'r{k - 1}'}.target"
                     for k in range(1, MAX_REDIRECT_HOPS + 1))
    target = " ".join(f"WHEN r{k}.title IS NULL THEN {'d' if k == 1 else f'r{k - 1}'}.target"
                      for k in range(1, MAX_REDIRECT_HOPS + 1))
    hops = " ".join(f"WHEN r{k}.title IS NULL THEN {k}" for k in range(1, MAX_REDIRECT_HOPS + 1))
    connection.execute(
        f"CREATE TEMP TABLE chains AS SELECT d.title, d.place, CASE {target} END AS target, "
        f"CASE {hops} END AS hops FROM direct d {joins}")
    connection.execute("CREATE TEMP TABLE resolved AS SELECT title, target, hops, place "
                       "FROM chains WHERE hops IS NOT NULL")
    return int(connection.execute("SELECT count(*) FROM chains WHERE hops IS NULL"
                                  ).fetchall()[0][0])


def write_resolved_links(connection: Any, shards: Sequence[ShardOutputs], path: Path
                         ) -> tuple[int, int]:
    """Every shard's links, in order, with `target` resolved through the redirects and the
    link's own target kept as `raw_target`; the number of links a redirect changed and of
    distinct (resolved) targets, a missing one counting as one."""
    names = ", ".join(f"l.{name}" for name in LINKS_SCHEMA.names if name != "target")
    changed = 0
    with atomic_path(path) as tmp:
        with RowGroupWriter(tmp, RESOLVED_LINKS_SCHEMA) as writer:
            for shard in shards:
                query = (f"SELECT {names}, coalesce(r.target, l.target) AS target, "
                         "l.target AS raw_target FROM read_parquet("
                         f"{parquet_list([shard.links])}, file_row_number = true) l "
                         "LEFT JOIN resolved r ON r.title = l.target ORDER BY l.file_row_number")
                for batch in connection.sql(query).to_arrow_reader(ROW_GROUP_ROWS):
                    table = pa.Table.from_batches([batch]).select(RESOLVED_LINKS_SCHEMA.names)
                    changed += int(pc.sum(pc.not_equal(table["target"], table["raw_target"]))
                                   .as_py() or 0)
                    writer.add(table)
        # Written and closed: its distinct targets counted from the file, spilling as needed.
        distinct = connection.execute(
            "SELECT count(DISTINCT target) + coalesce(max(CASE WHEN target IS NULL THEN 1 "
            f"ELSE 0 END), 0) FROM read_parquet({parquet_list([tmp])})").fetchall()[0][0]
    return changed, int(distinct)


def gather_shards(shards: Sequence[ShardOutputs], folder: Path, memory_mb: int) -> dict:
    """Write the gathered tables and statistics into `folder` (the whole dump's tables in
    `memory_mb`, spilling to disk beyond it); return the statistics."""
    folder = Path(folder)
    with duckdb_within(memory_mb, folder) as connection:
        broken = resolve_redirects(connection, shards)
        write_query(connection, "SELECT title, target, hops FROM resolved ORDER BY place",
                    REDIRECTS_SCHEMA, folder / "redirects.parquet")
        with atomic_path(folder / "pages.parquet") as tmp, \
                pq.ParquetWriter(tmp, PAGES_SCHEMA, compression="zstd") as writer:
            for shard in shards:  # batch by batch: a shard's pages are never held whole
                for batch in parquet_with_columns(shard.pages, PAGES_SCHEMA.names).iter_batches(
                        batch_size=BATCH_ROWS, columns=PAGES_SCHEMA.names):
                    writer.write_table(pa.Table.from_batches([batch]).cast(PAGES_SCHEMA))
        redirected_links, distinct = write_resolved_links(connection, shards,
                                                          folder / "links.parquet")
    totals: Counter[str] = Counter()
    for shard in shards:
        counts = json.loads(shard.stats.read_text(encoding="utf-8"))
        counts.pop("shard", None)
        totals.update(counts)
    stats = {
        "shards": len(shards),
        **{key: totals[key] for key in sorted(totals)},
        "distinct_link_targets": distinct,
        "links_through_redirects": redirected_links,
        "unresolved_redirects": broken,
    }
    atomic_write_text(folder / "stats.json", json.dumps(stats, indent=1) + "\n")
    return stats
