"""`reprobe …`: the one door the workflow's rules use into the package.

Assembly only: each stage registers its own commands from `<stage>/commands.py`.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Sequence

from reprobe.errors import ReprobeError, error_line
from reprobe.estimate import commands as estimate_commands
from reprobe.job_times import record_job_time
from reprobe.report import commands as report_commands
from reprobe.sources import commands as sources_commands
from reprobe.stages import register_commands
from reprobe.step_settings import resolve_settings
from reprobe.wikipedia import commands as wikipedia_commands

log = logging.getLogger("reprobe")

EPILOG = """\
The workflow runs these commands from its rules; run them by hand to debug one step.
Typical use is through Snakemake:
  snakemake --cores all all                                         # the embedded default, offline
  snakemake all --cores all --configfile config/paper.yaml          # the full reproduction
  snakemake --cores all results/tables/corpus/wikipedia_stats.csv   # one table and its inputs
"""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of every subcommand, or with `only` (a command's name, "" for none)
    of the ground floor's commands and that one stage's."""
    parser = argparse.ArgumentParser(
        prog="reprobe",
        description="Rebuild probing datasets from raw sources and rerun their papers' "
        "experiments. These are the steps the Snakemake rules call.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    parser.add_argument("--debug", action="store_true",
                        help="on an error, print the traceback too (or set REPROBE_DEBUG=1)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, handler: Callable[[argparse.Namespace], None],
            parent: argparse._SubParsersAction = commands) -> argparse.ArgumentParser:
        sub = parent.add_parser(name, help=(handler.__doc__ or "").strip(),
                                description=handler.__doc__)
        sub.set_defaults(handler=handler)
        return sub

    sources_commands.register(commands, add)
    wikipedia_commands.register(commands, add)
    register_commands(commands, add, only=only)
    report_commands.register(commands, add)
    estimate_commands.register(commands, add)

    table = commands.add_parser("table", help="write a results table")
    tables = table.add_subparsers(dest="table_command", required=True)
    wikipedia_commands.register_tables(tables, add)
    return parser


def command_named(argv: Sequence[str]) -> str:
    """The command a command line names: its first word that is no option ("" when none)."""
    # The options before the command (-v, --debug, --help) take no value.
    return next((word for word in argv if not word.startswith("-")), "")


def run_step(args: argparse.Namespace) -> int:
    """Run the parsed subcommand; an error ends with one line naming what failed and exit
    status 1 (the traceback too with --debug)."""
    debug = args.debug or os.environ.get("REPROBE_DEBUG", "") not in ("", "0")
    try:
        resolve_settings(args)
        args.handler(args)
    except KeyboardInterrupt:
        log.error("interrupted; outputs are only ever renamed into place when complete")
        return 130
    except Exception as error:  # the one boundary: every failure is one line
        log.error("%s", error_line(error), exc_info=debug)
        if not debug and not isinstance(error, ReprobeError | OSError):
            log.error("this looks like a bug in reprobe: rerun the command with --debug "
                      "(reprobe --debug %s …) for the traceback and report it", args.command)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line (loading only the stage it names), run the step, and record its
    cost where `REPROBE_JOB_TIMES` asks for it."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(command_named(argv)).parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    status = run_step(args)
    record_job_time(argv, status)
    return status


if __name__ == "__main__":
    sys.exit(main())
