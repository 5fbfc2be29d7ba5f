"""Every `reprobe …` command a rule writes is one the CLI reads: each command of the default,
released and paper configs' dry runs parses with `reprobe.cli.build_parser`."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from reprobe.cli import build_parser

# Where a job's command ends: its log redirection or the next command of its shell block.
COMMAND_ENDS = ("2>", ">", "2>>", ">>", "&&", "||", "|", ";")


def reprobe_commands(text: str) -> list[list[str]]:
    """The argument lists of the `reprobe …` commands in a dry run's printed shell commands."""
    commands = []
    for line in text.splitlines():
        line = line.strip().removeprefix("Shell command:")
        if "reprobe " not in line:
            continue
        tokens = shlex.split(line)
        for i, token in enumerate(tokens):
            # `reprobe` as the command word: first, after `python -m`, or after `&&`.
            if token == "reprobe" and (i == 0 or tokens[i - 1] in ("-m", *COMMAND_ENDS)):
                rest = tokens[i + 1:]
                end = next((k for k, word in enumerate(rest) if word in COMMAND_ENDS), len(rest))
                commands.append(rest[:end])
    return commands


def test_reprobe_commands_are_cut_at_the_log_and_the_next_command():
    text = ("Shell command: python -m reprobe a b --out 'p q' 2> log && mv a b\n"
            "    mkdir x && reprobe c --n 1 > x\n  wc -l reprobe.log\n")
    assert reprobe_commands(text) == [["a", "b", "--out", "p q"], ["c", "--n", "1"]]


@pytest.mark.parametrize("config", ["config.yaml", "released.yaml", "paper.yaml"])
def test_every_command_of_a_dry_run_parses(config: str, tmp_path: Path):
    run = subprocess.run(
        [sys.executable, "-m", "snakemake", "all", "-n", "-p", "-s", str(REPO / "Snakefile"),
         "-d", str(tmp_path), "--configfile", str(REPO / "config" / config)],
        capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    commands = reprobe_commands(run.stdout + run.stderr)
    assert len(commands) > 50, "the dry run printed no commands"
    parser = build_parser()
    for arguments in commands:
        try:
            parser.parse_args(arguments)
        except SystemExit:
            pytest.fail(f"{config}: the CLI does not read: reprobe {shlex.join(arguments)}")
