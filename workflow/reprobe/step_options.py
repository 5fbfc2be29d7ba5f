"""A step's files and names declared in one call each, instead of one `add_argument` apiece.

A step's command line holds three kinds of thing: the files it reads and writes (`--output
PATH`), the names of the job it is (`--model`, `--test-set`: a rule's wildcards), and its
settings (one `--settings` JSON, `reprobe.step_settings`). The first two are declared here as
keyword arguments, in the order `--help` lists them: a plain string is a required option's help;
`optional`, `several`, `listed` and `one_of` say otherwise. Values stay strings, as argparse
gives them, so a handler reads `args.output` as before.

The rules write every value that can come from a config as `--option=value` (argparse reads
`--model -x` as a missing value, `--model=-x` as the row `-x`), and an option of several values
as that option once per value (`--models=A --models=-B`): `several` options gather what each of
their occurrences gives (argparse's `extend`), so `--counts A B` reads as before.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass


@dataclass(frozen=True)
class Option:
    """How one declared option is read: required or not, one value or several, positional."""

    help: str
    required: bool = True
    nargs: str | None = None
    positional: bool = False
    choices: tuple[str, ...] | None = None


def optional(help: str) -> Option:
    """An option that may be left out (its value is then None)."""
    return Option(help, required=False)


def several(help: str, required: bool = True) -> Option:
    """An option taking one or more values (`--counts A B C`, or `--counts=A --counts=B`: each
    occurrence adds its values), required unless said."""
    return Option(help, required=required, nargs="+")


def listed(help: str, at_least: int = 1) -> Option:
    """Positional values after the options: one or more (`at_least=1`) or any number (0)."""
    if at_least not in (0, 1):
        raise ValueError(f"listed: at_least is 0 or 1, not {at_least}")
    return Option(help, nargs="+" if at_least else "*", positional=True)


def one_of(values: tuple[str, ...] | list[str], help: str = "", required: bool = True
           ) -> Option:
    """An option whose value is one of `values`."""
    return Option(help, required=required, choices=tuple(values))


def _add(parser: argparse.ArgumentParser, metavar: str, spec: dict[str, str | Option]) -> None:
    """Add each declared option (keyword `test_set` → `--test-set`)."""
    for name, declared in spec.items():
        option = declared if isinstance(declared, Option) else Option(declared)
        keywords: dict[str, object] = {"help": option.help or None, "nargs": option.nargs}
        if option.choices is not None:
            keywords["choices"] = option.choices
        elif not option.positional:  # a positional list is shown by its own name
            keywords["metavar"] = metavar
        if option.positional:
            parser.add_argument(name, **keywords)
        else:
            if option.nargs is not None:  # every occurrence adds its values
                keywords["action"] = "extend"
            parser.add_argument(f"--{name.replace('_', '-')}", required=option.required,
                                **keywords)


def add_paths(parser: argparse.ArgumentParser, **paths: str | Option) -> None:
    """The files a step reads and writes, by option name (a string: a required one's help)."""
    _add(parser, "PATH", paths)


def add_names(parser: argparse.ArgumentParser, **names: str | Option) -> None:
    """The names of the job a step runs (row, set, model), by option name."""
    _add(parser, "NAME", names)


def add_memory_option(parser: argparse.ArgumentParser) -> None:
    """`--memory-mb`: the memory budget a job over the whole dump fills before it spills to disk
    (the rules pass wikipedia.gather_memory_mb)."""
    parser.add_argument("--memory-mb", type=int, required=True, metavar="MB",
                        help="memory the job holds its tables in before spilling to disk "
                        "beside its outputs (config: wikipedia.gather_memory_mb)")
