"""`reprobe wikipedia …` and `reprobe table wikipedia-stats`: read a dump, tabulate its stats."""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable
from pathlib import Path

from reprobe.step_options import add_memory_option, add_paths, listed, optional

log = logging.getLogger("reprobe.wikipedia")


def cmd_plan(args: argparse.Namespace) -> None:
    """Plan how shard jobs split a dump (by multistream index, else by page blocks)."""
    from reprobe.step_settings import checked_option
    from reprobe.wikipedia.plan import plan_shards, write_plan

    plan = plan_shards(Path(args.dump), Path(args.index) if args.index else None, args.shards,
                       checked_option(args.block_pages, "wikipedia.block_pages",
                                      "--block-pages"))
    write_plan(plan, Path(args.output))
    log.info("%d shards, mode %s", plan.shards, plan.mode)


def cmd_shard(args: argparse.Namespace) -> None:
    """Read one shard of a dump into Parquet tables of pages, sentences and links."""
    from reprobe.wikipedia.plan import ShardPlan
    from reprobe.wikipedia.shard import ShardOutputs, read_shard

    plan = ShardPlan.from_json(Path(args.plan).read_text(encoding="utf-8"))
    stats = read_shard(plan, args.shard, ShardOutputs.in_folder(Path(args.output_dir)),
                       progress=not args.quiet, dump=Path(args.dump) if args.dump else None)
    log.info("shard %d: %s", args.shard, json.dumps(stats))


def cmd_gather(args: argparse.Namespace) -> None:
    """Resolve redirects and concatenate shard tables; sum their statistics."""
    from reprobe.wikipedia.gather import gather_shards
    from reprobe.wikipedia.shard import ShardOutputs

    shards = [ShardOutputs.in_folder(Path(folder)) for folder in args.shard_dirs]
    stats = gather_shards(shards, Path(args.output_dir), args.memory_mb)
    log.info("gathered %d shards: %s", len(shards), json.dumps(stats))


def cmd_stats_table(args: argparse.Namespace) -> None:
    """Write the Wikipedia corpus statistics table (.csv and .md)."""
    from reprobe.tables.write import write_table
    from reprobe.wikipedia.stats import wikipedia_stats_table

    stats = json.loads(Path(args.stats).read_text(encoding="utf-8"))
    write_table(wikipedia_stats_table(stats), Path(args.csv), Path(args.md),
                title="Wikipedia corpus statistics")


def register(commands: argparse._SubParsersAction,
             add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the `wikipedia` command group (plan, shard, gather) to the CLI."""
    group = commands.add_parser("wikipedia", help="read a MediaWiki dump into Parquet")
    sub = group.add_subparsers(dest="wikipedia_command", required=True)

    plan = add("plan", cmd_plan, sub)
    add_paths(plan, dump="pages-articles .xml.bz2 (or .xml)",
              index=optional("multistream index .txt.bz2, if any"), output="plan JSON to write")
    plan.add_argument("--shards", type=int, required=True, help="number of shard jobs")
    plan.add_argument("--block-pages", type=int, help="pages per block when there is no "
                      "index (default: the schema's wikipedia.block_pages)")

    shard = add("shard", cmd_shard, sub)
    add_paths(shard, plan="plan JSON from `reprobe wikipedia plan`",
              dump=optional("the dump to read, checked against the plan's (file name and "
                            "size); default: the path the plan recorded"),
              output_dir="folder for the shard's tables")
    shard.add_argument("--shard", type=int, required=True, help="shard number, from 0")
    shard.add_argument("--quiet", action="store_true", help="no progress bar")

    gather = add("gather", cmd_gather, sub)
    add_paths(gather, output_dir="folder for the gathered tables",
              shard_dirs=listed("shard folders, in order"))
    add_memory_option(gather)


def register_tables(tables: argparse._SubParsersAction,
                    add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add `wikipedia-stats` to the CLI's `table` group."""
    stats = add("wikipedia-stats", cmd_stats_table, tables)
    add_paths(stats, stats="stats.json from the gather step", csv="CSV to write",
              md="Markdown to write")
