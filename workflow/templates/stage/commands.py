"""`reprobe STAGE_NAME …`: the stage's steps, as its rules call them."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from reprobe.step_options import add_paths


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
    # Files in one call; a step with settings adds one `--settings` option for its config
    # section (reprobe.step_settings.add_settings_option), the rule passing the section as JSON.
    add_paths(counts, input="a text file", csv="the table, CSV", md="the table, Markdown")
