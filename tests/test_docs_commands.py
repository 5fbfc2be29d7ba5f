"""Docs that run: every `reprobe …`, `python -m reprobe …` and `snakemake …` command written in
README.md, docs/ and the CLI's own help texts parses with the real parsers (reprobe's and
Snakemake's own argparse), its settings pass the schema, and every target a command of the
default configuration names is a rule or a file of the default run's plan (one dry run)."""

from __future__ import annotations

import argparse
import functools
import io
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import REPO
from reprobe.cli import build_parser
from reprobe.errors import ReprobeError
from reprobe.step_settings import resolve_settings

PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
PROGRAM = re.compile(r"(?:python -m )?(reprobe|snakemake)(?=\s|$)")
# Placeholders a page writes where a value goes, and what stands in for them when parsed.
PLACEHOLDERS = {"N": "2"}
# Commands no parser can check, as written (continuation lines joined), each with its reason.
ALLOWED = {
    "snakemake <name>": "a template: <name> is any rule of a new paper (docs/architecture.md)",
    "reprobe <stage> <step> --help": "a template: any stage and step (docs/configuration.md)",
}
# Options after which Snakemake runs no job, so that it needs no --cores.
NO_JOBS = ("dryrun", "unlock", "report", "list_rules", "list_target_rules", "lint", "summary",
           "detailed_summary", "dag", "rulegraph", "filegraph", "delete_all_output", "touch",
           "cleanup_metadata", "list_changes", "profile")
# Configs whose plan needs the paper's sources: their commands are parsed only.
PAPER_DATA = ("config/paper.yaml", "config/released.yaml")


@dataclass(frozen=True)
class Written:
    """One command as a page or help text writes it."""

    where: str  # file:line, or the help text's command
    text: str  # continuation lines joined, prompt and shell comment left
    fragment: bool  # inline or with "…": may leave required options and --cores out


class ParseError(Exception):
    """An argparse error, raised instead of exiting."""


def raise_error(_parser: argparse.ArgumentParser, message: str) -> None:
    """argparse's `error`, raising instead of printing usage and exiting."""
    raise ParseError(message)


@contextmanager
def raising_parsers() -> Iterator[None]:
    """Every argparse parser raises ParseError instead of exiting, within the block; a help
    (`--help`, which exits 0) is written to nowhere."""
    with pytest.MonkeyPatch.context() as patch, redirect_stdout(io.StringIO()):
        patch.setattr(argparse.ArgumentParser, "error", raise_error)
        yield


def commands_in(text: str) -> list[str]:
    """The reprobe and snakemake commands of one shell line (prompt dropped, split at && ; |)."""
    text = re.sub(r"^\s*\$\s+", "", text)
    parts = re.split(r"\s*(?:&&|;|\|)\s+", text)
    return [part.strip() for part in parts
            if PROGRAM.match(part.strip()) and PROGRAM.sub("", part.strip(), 1).strip()]


def block_lines(lines: list[str]) -> Iterator[tuple[int, str]]:
    """Each command line of a page's code blocks (1-based line, continuations joined)."""
    inside, number = False, 0
    while number < len(lines):
        line, start = lines[number], number
        if line.lstrip().startswith("```"):
            inside = not inside
        elif inside:
            while line.rstrip().endswith("\\") and number + 1 < len(lines):
                number += 1
                line = line.rstrip()[:-1] + " " + lines[number].strip()
            yield start + 1, line
        number += 1


def inline_spans(text: str) -> Iterator[tuple[int, str]]:
    """Each inline code span of a text outside code blocks (its 1-based line, its text)."""
    for match in re.finditer(r"`([^`]+)`", text):
        if "\n\n" not in match.group(1):
            yield text.count("\n", 0, match.start()) + 1, " ".join(match.group(1).split())


def page_commands(page: Path) -> list[Written]:
    """Every command a Markdown page writes, in code blocks and inline code."""
    lines = page.read_text(encoding="utf-8").splitlines()
    name = page.relative_to(REPO).as_posix()
    found = [Written(f"{name}:{number}", command, "…" in command)
             for number, line in block_lines(lines) for command in commands_in(line)]
    fences = [number for number, line in enumerate(lines) if line.lstrip().startswith("```")]
    prose = list(lines)
    for start, end in zip(fences[::2], fences[1::2], strict=False):
        prose[start:end + 1] = [""] * (end + 1 - start)
    found += [Written(f"{name}:{number}", command, True)
              for number, span in inline_spans("\n".join(prose))
              for command in commands_in(span)]
    return found


def subparsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """A parser and every subcommand's parser below it."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                yield from subparsers(sub)


def help_commands() -> list[Written]:
    """Every command the CLI's help texts write: indented example lines and inline code."""
    found: list[Written] = []
    for parser in subparsers(build_parser()):
        text, where = parser.format_help(), f"`{parser.prog} --help`"
        for line in text.splitlines():
            if re.match(r"\s+(?:python -m )?(?:reprobe|snakemake) ", line):
                found += [Written(where, command, "…" in command)
                          for command in commands_in(line)]
        found += [Written(where, command, True) for _, span in inline_spans(text)
                  for command in commands_in(span)]
    return found


def all_commands() -> list[Written]:
    """Every command of README, docs/ and the help texts, each place once."""
    commands = [command for page in PAGES for command in page_commands(page)]
    return list(dict.fromkeys(commands + help_commands()))


COMMANDS = all_commands()


def words_of(text: str) -> list[str]:
    """A command's words after its program, optional groups opened, placeholders filled."""
    text = text.replace("…", " ").replace("...", " ")
    text = re.sub(r"(\S)\[([^\]\s]*)\]", r"\1\2", text)  # NAME=FILE[:KIND]
    text = re.sub(r"(?<!\S)\[|\](?!\S)", " ", text)  # [--format auto]
    words = shlex.split(PROGRAM.sub("", text, 1), comments=True)
    # A synopsis's alternatives (authors|clean): the first.
    words = [word.split("|")[0] if re.fullmatch(r"[\w.-]+(\|[\w.-]+)+", word) else word
             for word in words]
    return [PLACEHOLDERS.get(word, word) for word in words]


@functools.cache
def reprobe_parser(lenient: bool) -> argparse.ArgumentParser:
    """reprobe's parser; lenient: no option is required (for a fragment that leaves some out)."""
    parser = build_parser()
    if lenient:
        for sub in subparsers(parser):
            for action in sub._actions:
                if action.option_strings:
                    action.required = False
            for group in sub._mutually_exclusive_groups:
                group.required = False
    return parser


# What a fragment may leave out: a required positional, or the value of the option it names.
LEFT_OUT = ("the following arguments are required", "expected one argument",
            "expected at least one argument")


def gives_settings(args: argparse.Namespace) -> bool:
    """Whether a parsed command line gives settings (--settings, --set or --configfile)."""
    return any(getattr(args, option.dest, None) is not None or getattr(args, f"set_{option.dest}")
               for option in getattr(args, "settings_options", ())) or bool(configfiles(args))


def configfiles(args: argparse.Namespace) -> list[str]:
    """The config files a parsed command line names."""
    value = getattr(args, "configfile", None) or []
    return [str(path) for path in ([value] if isinstance(value, str | Path) else value)]


def reprobe_error(command: Written) -> str | None:
    """Why a reprobe command does not parse or its settings are not valid (None: it does)."""
    with raising_parsers():
        try:
            args = reprobe_parser(command.fragment).parse_args(words_of(command.text))
        except SystemExit as done:  # --help
            return None if done.code == 0 else f"exit status {done.code}"
        except ParseError as error:
            if command.fragment and any(reason in str(error) for reason in LEFT_OUT):
                return None
            return str(error)
    if command.fragment and not gives_settings(args):
        return None  # the settings a fragment leaves out are not its own
    if all((REPO / name).is_file() for name in configfiles(args)):
        try:
            resolve_settings(args)
        except ReprobeError as error:
            return str(error)
    return None


@functools.cache
def snakemake_parser() -> argparse.ArgumentParser:
    """Snakemake's own command-line parser."""
    from snakemake.cli import get_argument_parser

    return get_argument_parser()


def parsed_snakemake(command: Written) -> argparse.Namespace:
    """Snakemake's reading of a command (ParseError when it refuses it)."""
    with raising_parsers():
        return snakemake_parser().parse_args(words_of(command.text))


def snakemake_error(command: Written, args: argparse.Namespace) -> str | None:
    """Why a parsed snakemake command would not run as written (None: it would)."""
    for name in configfiles(args):
        if not name.endswith((".yaml", ".yml", ".json")):
            return f"--configfile reads {name!r} as a config: put targets before it"
    runs_jobs = not any(getattr(args, option, None) for option in NO_JOBS)
    if runs_jobs and not command.fragment and not (args.cores or args.jobs):
        return "runs jobs without --cores (Snakemake refuses: cores have to be specified)"
    return None


@dataclass(frozen=True)
class Plan:
    """The default configuration's rules and the files its `all` plans."""

    rules: frozenset[str]
    files: frozenset[str]


def snakemake_out(tmp: Path, *options: str) -> str:
    """The standard output of a Snakemake call on the default config, in a scratch folder."""
    done = subprocess.run([sys.executable, "-m", "snakemake", *options, "-d", str(tmp)],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def plan(tmp_path_factory: pytest.TempPathFactory) -> Plan:
    """The default config's rules and its whole plan's outputs (one dry run)."""
    tmp = tmp_path_factory.mktemp("plan")
    rules = snakemake_out(tmp, "--list-rules").split()
    files = {path.strip().rstrip("/")
             for line in snakemake_out(tmp, "-n", "all").splitlines()
             if line.strip().startswith("output:")
             for path in line.split(":", 1)[1].split(",")}
    return Plan(frozenset(rules), frozenset(files))


def checked(kind: str) -> list[Written]:
    """The commands of one program that are not on the allow-list."""
    return [command for command in COMMANDS if command.text.split("#")[0].strip() not in ALLOWED
            and PROGRAM.match(command.text).group(1) == kind]


def ids(commands: list[Written]) -> list[str]:
    """Test ids: where each command is written."""
    return [command.where for command in commands]


@pytest.mark.parametrize("command", checked("reprobe"), ids=ids(checked("reprobe")))
def test_documented_reprobe_command_parses(command: Written):
    error = reprobe_error(command)
    assert error is None, f"{command.where}: {command.text}\n  {error}"


@pytest.mark.parametrize("command", checked("snakemake"), ids=ids(checked("snakemake")))
def test_documented_snakemake_command_parses_and_names_planned_targets(command: Written,
                                                                        plan: Plan):
    try:
        args = parsed_snakemake(command)
    except ParseError as error:
        pytest.fail(f"{command.where}: {command.text}\n  {error}")
    except SystemExit as done:  # --help, --version
        assert done.code == 0, f"{command.where}: {command.text}"
        return
    error = snakemake_error(command, args)
    assert error is None, f"{command.where}: {command.text}\n  {error}"
    if any(config in command.text for config in PAPER_DATA):
        return  # the paper's data: parsed only
    unknown = [target for target in args.targets
               if target not in plan.rules and target.rstrip("/") not in plan.files]
    assert not unknown, (f"{command.where}: {command.text}\n  neither a rule nor planned by the "
                         f"default config: {unknown}")


def test_the_commands_are_found_where_they_are_written():
    found = {(command.where, command.text.split("#")[0].strip()) for command in COMMANDS}
    assert ("README.md:14", "snakemake --cores all all") in found
    assert any(where == "`reprobe --help`" and text.startswith("snakemake --cores all results/")
               for where, text in found)
    assert any(where.startswith("docs/papers/equate.md") and "--set max_depth=3" in text
               for where, text in found)  # continuation lines joined


def test_every_allowed_command_is_still_written():
    written = {command.text.split("#")[0].strip() for command in COMMANDS}
    assert set(ALLOWED) <= written, set(ALLOWED) - written


def test_placeholders_and_optional_groups_become_parseable_words():
    assert words_of("reprobe x --seed N [--format auto] --sim A=F[:K] … # note") == [
        "x", "--seed", "2", "--format", "auto", "--sim", "A=F:K"]
    assert words_of("reprobe x --protocol authors|clean") == ["x", "--protocol", "authors"]
    assert commands_in("$ pip install -e . && snakemake --cores all all") == [
        "snakemake --cores all all"]
    assert commands_in("the `reprobe` package") == []
