"""Gather shards: resolve redirects, concatenate pages and links, sum the statistics.

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

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from reprobe.io import atomic_path, atomic_write_text
from reprobe.wikipedia.arrow_counts import DistinctValues
from reprobe.wikipedia.shard import LINKS_SCHEMA, PAGES_SCHEMA, ShardOutputs

MAX_REDIRECT_HOPS = 5
REDIRECTS_SCHEMA = pa.schema([("title", pa.string()), ("target", pa.string()),
                              ("hops", pa.int8())])
RESOLVED_LINKS_SCHEMA = LINKS_SCHEMA.append(pa.field("raw_target", pa.string()))


def read_redirects(shards: Sequence[ShardOutputs]) -> dict[str, str]:
    """Title → direct redirect target, from every shard's pages table."""
    redirects: dict[str, str] = {}
    for shard in shards:
        table = pq.read_table(shard.pages, columns=["title", "redirect_target", "status"])
        table = table.filter(pc.equal(table["status"], "redirect"))
        redirects.update(zip(table["title"].to_pylist(), table["redirect_target"].to_pylist(),
                             strict=True))
    return redirects


def resolve_redirects(direct: dict[str, str]) -> tuple[dict[str, tuple[str, int]], int]:
    """Follow redirect chains to their end (at most MAX_REDIRECT_HOPS); count the cycles
    and over-long chains, which are left unresolved."""
    resolved: dict[str, tuple[str, int]] = {}
    broken = 0
    for title, target in direct.items():
        hops, seen = 1, {title}
        while target in direct and hops < MAX_REDIRECT_HOPS and target not in seen:
            seen.add(target)
            target = direct[target]
            hops += 1
        if target in direct:
            broken += 1
            continue
        resolved[title] = (target, hops)
    return resolved, broken


def gather_shards(shards: Sequence[ShardOutputs], folder: Path) -> dict:
    """Write the gathered tables and statistics into `folder`; return the statistics."""
    resolved, broken = resolve_redirects(read_redirects(shards))
    with atomic_path(folder / "redirects.parquet") as tmp:
        titles = list(resolved)
        pq.write_table(pa.table({
            "title": titles,
            "target": [resolved[t][0] for t in titles],
            "hops": pa.array([resolved[t][1] for t in titles], pa.int8()),
        }, schema=REDIRECTS_SCHEMA), tmp, compression="zstd")
    with atomic_path(folder / "pages.parquet") as tmp, \
            pq.ParquetWriter(tmp, PAGES_SCHEMA, compression="zstd") as writer:
        for shard in shards:
            writer.write_table(pq.read_table(shard.pages, schema=PAGES_SCHEMA))
    # Distinct targets as Arrow buffers: as a Python set, ~15M strings at paper scale, ~1.5 GB.
    targets = DistinctValues()
    redirected_links = 0
    with atomic_path(folder / "links.parquet") as tmp, \
            pq.ParquetWriter(tmp, RESOLVED_LINKS_SCHEMA, compression="zstd") as writer:
        for shard in shards:
            for batch in pq.ParquetFile(shard.links).iter_batches():
                raw = batch.column("target").to_pylist()
                final = [resolved[t][0] if t in resolved else t for t in raw]
                redirected_links += sum(a != b for a, b in zip(raw, final, strict=True))
                columns = {name: batch.column(name) for name in LINKS_SCHEMA.names}
                columns["target"] = pa.array(final, pa.string())
                targets.add(columns["target"])
                columns["raw_target"] = pa.array(raw, pa.string())
                writer.write_batch(pa.record_batch(columns, schema=RESOLVED_LINKS_SCHEMA))
    totals: Counter[str] = Counter()
    for shard in shards:
        counts = json.loads(shard.stats.read_text(encoding="utf-8"))
        counts.pop("shard", None)
        totals.update(counts)
    stats = {
        "shards": len(shards),
        **{key: totals[key] for key in sorted(totals)},
        "distinct_link_targets": targets.count(),
        "links_through_redirects": redirected_links,
        "unresolved_redirects": broken,
    }
    atomic_write_text(folder / "stats.json", json.dumps(stats, indent=1) + "\n")
    return stats
