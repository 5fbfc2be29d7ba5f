"""`reprobe report page`: write one paper's page of the offline report."""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Callable
from pathlib import Path

from reprobe.errors import ConfigError
from reprobe.io import json_object
from reprobe.sources.settings import LOCK_VARIABLE
from reprobe.step_options import add_paths, listed

log = logging.getLogger("reprobe.report")


def cmd_page(args: argparse.Namespace) -> None:
    """Write a paper's page: its tables beside the paper's numbers, figures, cards, sources,
    config; and a JSON summary of what is within tolerance."""
    from reprobe.report.costs import read_costs
    from reprobe.report.page import write_paper_page
    from reprobe.report.provenance import find_cards, with_lock
    from reprobe.sources.lock import read_lock

    if args.tolerance < 0:
        raise ConfigError(f"--tolerance: {args.tolerance} is negative")
    summary = write_paper_page(
        Path(args.output), Path(args.summary), args.title, [Path(t) for t in args.tables],
        find_cards(Path(args.cards_under)),
        with_lock(json_object(args.sources_json, "--sources-json"),
                  read_lock(Path(args.lock)) if args.lock else {}),
        json_object(args.config_json, "--config-json"), args.tolerance,
        read_costs(Path(args.benchmarks_under), Path(args.output).stem)
        if args.benchmarks_under else None)
    counts = summary["counts"]
    log.info("%s: %d tables, %d of %d numbers within %s of the paper", args.output,
             len(summary["tables"]), counts["within"], counts["compared"],
             summary["tolerance_text"])


def register(commands: argparse._SubParsersAction,
             add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the `report` command group to the CLI."""
    group = commands.add_parser("report", help="the offline report of every table")
    sub = group.add_subparsers(dest="report_command", required=True, metavar="STEP")
    page = add("page", cmd_page, sub)
    add_paths(page, tables=listed("the paper's table files (.csv, .md, .png); a sibling .md "
                                  "or .png of a listed .csv is read too"),
              cards_under="folder whose card.json and *.card.json files are shown",
              output="the page (.html)", summary="the tally of each table (.json)")
    page.add_argument("--title", required=True, help="the paper's name, the page's heading")
    page.add_argument("--benchmarks-under", metavar="FOLDER",
                      help="the jobs' benchmark files (logs/): the page's cost section, by rule "
                      "of the paper the page's file name names")
    page.add_argument("--tolerance", type=float, required=True,
                      help="mark a number when |ours − paper| > tolerance × |paper|")
    page.add_argument("--config-json", required=True, help="the config sections to show")
    page.add_argument("--sources-json", required=True,
                      help="the paper's sources: name -> spec with the fetched `file`")
    page.add_argument("--lock", default=os.environ.get(LOCK_VARIABLE) or None,
                      help=f"the sources lock, to show which sha256 it pins (default "
                      f"${LOCK_VARIABLE}, as the workflow sets it)")

