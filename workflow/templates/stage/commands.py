"""`reprobe STAGE_NAME …`: the stage's steps, as its rules call them."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path


def cmd_counts(args: argparse.Namespace) -> None:
    """Count the non-blank lines of a text input; write the counts table."""
    from reprobe.STAGE_NAME import STAGE
    from reprobe.STAGE_NAME.counts import write_counts

    write_counts(Path(args.input), Path(args.csv), Path(args.md), STAGE.title)


def register(commands: argparse._SubParsersAction,
             add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the `STAGE_NAME` command group to the CLI."""
    group = commands.add_parser("STAGE_NAME", help="STAGE_TITLE")
    sub = group.add_subparsers(dest="STAGE_NAME_command", required=True, metavar="STEP")
    counts = add("counts", cmd_counts, sub)
    counts.add_argument("--input", required=True, help="a text file")
    counts.add_argument("--csv", required=True, help="the table, CSV")
    counts.add_argument("--md", required=True, help="the table, Markdown")
