"""Every paper stage of the workflow, in the order the run and the report list them.

The Snakefile includes each enabled stage's rules and makes its shortcut target, the CLI adds
each stage's commands, and the report names each stage's page by its title, all by looping
over `STAGES`: adding a paper adds one line here (docs/architecture.md, "Adding a paper").
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Mapping
from typing import Any

from reprobe import equate, numeracy, numersense, wikipse
from reprobe.stage import Stage

STAGES: tuple[Stage, ...] = (
    numeracy.STAGE,
    equate.STAGE,
    numersense.STAGE,
    wikipse.STAGE,
)


def enabled(config: Mapping[str, Any], stages: tuple[Stage, ...] = STAGES) -> list[Stage]:
    """The stages a config runs: those whose section it has."""
    return [stage for stage in stages if stage.name in config]


def titles(stages: tuple[Stage, ...] = STAGES) -> dict[str, str]:
    """Each stage's title by its name (the report's page names)."""
    return {stage.name: stage.title for stage in stages}


def register_commands(commands: argparse._SubParsersAction,
                      add: Callable[..., argparse.ArgumentParser],
                      stages: tuple[Stage, ...] = STAGES, only: str | None = None) -> None:
    """Add the stages' `reprobe <stage> …` commands to the CLI: every stage's, or with `only`
    that stage's alone, the others listed by title without loading their modules."""
    for stage in stages:
        if only is None or only == stage.name:
            importlib.import_module(stage.commands).register(commands, add)
        else:
            # A job runs one step: loading the other stages' modules would only slow its start.
            commands.add_parser(stage.name, help=stage.title, add_help=False)
