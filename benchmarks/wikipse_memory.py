#!/usr/bin/env python3
"""WIKI-PSE memory: peak RSS of counting link targets and of a corpus shard job's redirects,
the old way (whole tables as Python objects) beside the new (DuckDB within a budget; Arrow,
batches, filtered).

Synthetic inputs at --scales multiples of --links gathered links and --redirects redirects
(seeded): link targets are drawn from a Zipf law (exponent 1.1) over a vocabulary of 4.5% of
the links (15M of 330M at paper scale), so the distinct targets grow with the size; every
tenth rank of the vocabulary is a redirect title, as links to redirects are. A shard's links
(--shard-links rows, the same at every size: a bigger dump has more shards, not bigger ones)
draw from the same law.

Each measurement is one child process (this script with --child), its peak RSS sampled every
--interval s with the harness (`measure`):
  typing    old: the gathered target column read whole, `pc.value_counts`, a Python dict of
            the distinct targets (what `wikipse typing` did); new: the count typing makes now
            (DuckDB within a 256 MB budget, spilling beyond it).
  shard     the shard's links read, then old: the whole redirects table as a dict (what every
            `wikipse corpus-shard` job did); new: `read_redirects` of the shard's own distinct
            targets only. Both resolve the shard's targets through what they loaded.
  floor     Python with pyarrow imported and nothing read: what every child costs anyway.
The old and new children of a pair must agree on their result (distinct targets and links;
redirects used and links resolved), or the script stops.

It prints a Markdown block; --update-readme writes it between the `<!-- wikipse-memory:begin
-->` and `<!-- wikipse-memory:end -->` markers of docs/benchmarks.md.

    python benchmarks/wikipse_memory.py --update-readme
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

SECTION = "wikipse-memory"  # the README's markers: <!-- wikipse-memory:begin --> ... :end -->
ZIPF = 1.1
VOCABULARY_SHARE = 0.045  # distinct-target vocabulary per link: 15M of 330M at paper scale
REDIRECT_EVERY = 10  # every tenth vocabulary rank is a redirect title
MB = 1 << 20


# --- inputs -----------------------------------------------------------------------------------


def vocabulary(size: int):
    """The target vocabulary by Zipf rank: `Title r`, or `Redirect r` for every tenth rank."""
    import pyarrow as pa

    return pa.array([f"Redirect {r}" if r % REDIRECT_EVERY == 3 else f"Title {r}"
                     for r in range(size)], pa.string())


def zipf_targets(words, rows: int, seed: int):
    """rows link targets drawn from the vocabulary with Zipf weights (seeded)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, len(words) + 1) ** ZIPF
    return words.take(rng.choice(len(words), size=rows, p=weights / weights.sum()))


def write_inputs(folder: Path, links: int, redirects: int, shard_links: int, seed: int) -> dict:
    """The gathered links, the gathered redirects and one shard's links; their sizes."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    words = vocabulary(max(1, int(links * VOCABULARY_SHARE)))
    targets = zipf_targets(words, links, seed)
    pq.write_table(pa.table({"page_id": pa.array(range(links), pa.int64()), "target": targets}),
                   folder / "links.parquet", compression="zstd")
    # Redirect titles: those of the vocabulary first, then more that no link names.
    titles = [f"Redirect {r}" for r in range(3, len(words), REDIRECT_EVERY)]
    titles += [f"Redirect {r}" for r in range(len(words), len(words) + redirects - len(titles))]
    titles = titles[:redirects]
    pq.write_table(pa.table({"title": pa.array(titles, pa.string()),
                             "target": [f"Title {i % len(words)}" for i in range(len(titles))],
                             "hops": pa.array([1] * len(titles), pa.int8())}),
                   folder / "redirects.parquet", compression="zstd")
    shard = zipf_targets(words, shard_links, seed + 1)
    pq.write_table(pa.table({"page_id": pa.array(range(shard_links), pa.int64()),
                             "sentence_index": pa.array([0] * shard_links, pa.int32()),
                             "token_start": pa.array([0] * shard_links, pa.int32()),
                             "token_end": pa.array([1] * shard_links, pa.int32()),
                             "surface": shard, "target": shard}),
                   folder / "shard_links.parquet", compression="zstd")
    return {"links": links, "vocabulary": len(words),
            "distinct_targets": len(pc.unique(targets)), "redirects": len(titles),
            "shard_links": shard_links, "shard_distinct": len(pc.unique(shard))}


# --- the children -----------------------------------------------------------------------------


def typing_old(links: Path) -> dict:
    """The old `_link_targets`: the whole target column, value_counts, a dict of Python objects."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    counts = pc.value_counts(pq.read_table(links, columns=["target"])["target"])
    targets = {str(item["values"]): int(item["counts"]) for item in counts.to_pylist()}
    return {"distinct": len(targets), "links": sum(targets.values())}


TYPING_BUDGET_MB = 256  # the counting's memory budget (wikipedia.gather_memory_mb)


def typing_new(links: Path) -> dict:
    """Typing's count of the targets (`typing_spilled.type_dump_targets`): DuckDB within
    TYPING_BUDGET_MB, spilling beyond it."""
    from reprobe.wikipedia.spilled import duckdb_within, parquet_list

    with duckdb_within(TYPING_BUDGET_MB, links.parent) as connection:
        connection.execute("CREATE TEMP TABLE targets AS SELECT target, count(*) AS links "
                           f"FROM read_parquet({parquet_list([links])}) GROUP BY target")
        distinct, total = connection.execute(
            "SELECT count(*), sum(links) FROM targets").fetchall()[0]
    return {"distinct": int(distinct), "links": int(total)}


def shard_table(shard_links: Path):
    """The shard's links, read whole as the shard job reads them."""
    import pyarrow.parquet as pq

    return pq.read_table(shard_links)


def shard_old(shard_links: Path, redirects: Path) -> dict:
    """The old shard job: every redirect of the dump in a dict, then the shard's targets."""
    import pyarrow.parquet as pq

    targets = shard_table(shard_links)["target"].to_pylist()
    table = pq.read_table(redirects, columns=["title", "target"])
    loaded = dict(zip(table["title"].to_pylist(), table["target"].to_pylist(), strict=True))
    resolved = [loaded.get(t, t) for t in targets]
    return {"used": len({t for t in targets if t in loaded}),
            "resolved": sum(a != b for a, b in zip(targets, resolved, strict=True))}


def shard_new(shard_links: Path, redirects: Path) -> dict:
    """The new shard job: only the redirects of the shard's own distinct targets."""
    import pyarrow.compute as pc

    from reprobe.wikipse.resource.corpora import read_redirects

    links = shard_table(shard_links)
    targets = links["target"].to_pylist()
    loaded = read_redirects(redirects, pc.unique(links["target"]))
    resolved = [loaded.get(t, t) for t in targets]
    return {"used": len(loaded),
            "resolved": sum(a != b for a, b in zip(targets, resolved, strict=True))}


def floor() -> dict:
    """Nothing read: Python and pyarrow imported, as every child has them."""
    import pyarrow.compute  # noqa: F401
    import pyarrow.parquet  # noqa: F401

    return {}


CHILDREN = {"typing-old": typing_old, "typing-new": typing_new, "shard-old": shard_old,
            "shard-new": shard_new, "floor": floor}


def run_child(kind: str, result: Path, paths: list[str]) -> None:
    """Run one child's step and write its result as JSON."""
    found = CHILDREN[kind](*map(Path, paths))
    result.write_text(json.dumps(found) + "\n", encoding="utf-8")


# --- measuring --------------------------------------------------------------------------------


def measured(kind: str, paths: list[Path], folder: Path, interval: float) -> tuple[int, dict]:
    """A child's peak tree RSS in bytes and its result."""
    result = folder / f"{kind}.json"
    argv = [sys.executable, str(Path(__file__).resolve()), "--child", kind, str(result),
            *map(str, paths)]
    figures = harness.measure(argv, folder / f"{kind}.log", interval)
    return figures.peak_rss_bytes, json.loads(result.read_text(encoding="utf-8"))


def measure_scale(scale: int, args: argparse.Namespace, work: Path) -> dict:
    """Inputs at one scale, then both pairs of children; the figures."""
    folder = work / f"x{scale}"
    folder.mkdir(parents=True)
    sizes = write_inputs(folder, args.links * scale, args.redirects * scale, args.shard_links,
                         args.seed)
    print(f"scale {scale}: {json.dumps(sizes)}", file=sys.stderr, flush=True)
    row: dict = {"scale": scale, **sizes}
    pairs = {"typing": [folder / "links.parquet"],
             "shard": [folder / "shard_links.parquet", folder / "redirects.parquet"]}
    for step, paths in pairs.items():
        results = {}
        for way in ("old", "new"):
            row[f"{step}_{way}_bytes"], results[way] = measured(f"{step}-{way}", paths, folder,
                                                                args.interval)
        if results["old"] != results["new"]:
            raise SystemExit(f"scale {scale}, {step}: old and new disagree: {results}")
        row[f"{step}_result"] = results["new"]
    shutil.rmtree(folder)
    return row


def markdown(rows: list[dict], floor_bytes: int, provenance: list[str]) -> str:
    """The table of peak RSS, old and new, per scale and step."""
    def mb(value: int) -> str:
        return f"{value / MB:,.0f}"

    table = []
    for row in rows:
        cells = [f"×{row['scale']}", f"{row['links']:,}", f"{row['distinct_targets']:,}",
                 f"{row['redirects']:,}"]
        for step in ("typing", "shard"):
            old, new = row[f"{step}_old_bytes"], row[f"{step}_new_bytes"]
            cells += [mb(old), mb(new), f"{old / new:.2f}"]
        table.append(cells)
    header = ["scale", "links", "distinct targets", "redirects", "typing old MB",
              "typing new MB", "old/new", "shard old MB", "shard new MB", "old/new"]
    first, last = rows[0], rows[-1]
    growth = [f"{step} {last[f'{step}_{way}_bytes'] / first[f'{step}_{way}_bytes']:.2f}× ({way})"
              for step in ("typing", "shard") for way in ("old", "new")]
    return "\n".join([
        *provenance, "",
        f"Peak RSS of the child process (MB = 2^20 bytes); a child that only imports pyarrow "
        f"peaks at {mb(floor_bytes)} MB. Each shard job reads {first['shard_links']:,} links "
        f"at every scale ({first['shard_distinct']:,} distinct targets at ×{first['scale']}, "
        f"{last['shard_distinct']:,} at ×{last['scale']}).", "",
        harness.markdown_table(header, table), "",
        f"From ×{first['scale']} to ×{last['scale']}, peak RSS grows: " + ", ".join(growth) + ".",
    ]) + "\n"


# --- command line -----------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = harness.new_parser(__doc__)
    parser.add_argument("--links", type=harness.positive_int, default=1_000_000,
                        help="gathered links at scale 1 (default 1,000,000)")
    parser.add_argument("--redirects", type=harness.positive_int, default=250_000,
                        help="redirects at scale 1 (default 250,000)")
    parser.add_argument("--shard-links", type=harness.positive_int, default=100_000,
                        help="one shard's links, at every scale (default 100,000)")
    parser.add_argument("--scales", type=harness.positive_int, nargs="+", default=[1, 4, 16],
                        help="multiples of --links and --redirects (default 1 4 16)")
    parser.add_argument("--interval", type=float, default=0.01,
                        help="seconds between RSS samples (default 0.01)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the inputs")
    parser.add_argument("--work-dir", type=Path, help="where the inputs go (default: a "
                        "temporary folder, removed after)")
    harness.add_report_options(parser, noun="measurement", keeps="the largest peak",
                               json_help="also write every figure as JSON here", section=SECTION)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Build the inputs scale by scale, measure the children, print (and store) the table."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        run_child(argv[1], Path(argv[2]), argv[3:])
        return
    args = parse_args(argv)
    provenance = harness.provenance(harness.command_line("benchmarks/wikipse_memory.py", argv),
                                    harness.now(), harness.machine())
    work = Path(tempfile.mkdtemp(prefix="wikipse-memory-", dir=args.work_dir))
    try:
        floor_bytes = max(measured("floor", [], work, args.interval)[0]
                          for _ in range(args.repeat))
        rows = []
        for scale in args.scales:
            repeats = [measure_scale(scale, args, work) for _ in range(args.repeat)]
            best = repeats[0] | {key: max(r[key] for r in repeats)
                                 for key in repeats[0] if key.endswith("_bytes")}
            rows.append(best)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    block = markdown(rows, floor_bytes, provenance)
    print(block)
    harness.save(args, SECTION, block, {"floor_bytes": floor_bytes, "rows": rows})


if __name__ == "__main__":
    main()
