"""Run a model reprobe adapts (an NLI classifier, a masked LM) on lm-evaluation-harness tasks
the workflow wrote, and write the harness's results: the one place that imports lm-eval's
evaluation (the `[harness]` extra), with an error that says how to install it."""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from typing import Any

from reprobe.errors import ReprobeError
from reprobe.io import atomic_write_text
from reprobe.step_options import add_paths

log = logging.getLogger("reprobe")
INSTALL = "pip install -e '.[harness]'"


def add_task_options(parser: argparse.ArgumentParser, tag: str, folder: str) -> None:
    """A harness command's task folder (`folder`, where the workflow writes it), results file
    and tasks (the stage's `tag` unless named)."""
    add_paths(parser, include_path=f"the task folder the workflow writes ({folder})",
              output="results JSON to write (the harness's results per task)")
    parser.add_argument("--tasks", nargs="+", default=[tag], metavar="NAME",
                        help=f"tasks, or the tag `{tag}` (every task of the folder)")


def require_lm_eval(command: str) -> None:
    """An error naming `command` and the install line when lm-eval is not installed."""
    try:
        import lm_eval  # noqa: F401
    except ModuleNotFoundError as error:
        raise ReprobeError(f"{command} needs lm-evaluation-harness: {INSTALL}") from error


def run_tasks(model: Any, tasks: list[str], include_path: Path, output: Path, *,
              described: str) -> dict[str, Any]:
    """Evaluate `model` (an lm-eval LM) zero-shot on `tasks` (names or tags) of the task folder
    `include_path` alone; log the harness's table and write its results per task to `output`
    (JSON, atomically), with `described` saying which model it was."""
    from lm_eval import simple_evaluate
    from lm_eval.tasks import TaskManager
    from lm_eval.utils import make_table

    out = simple_evaluate(model=model, tasks=tasks, num_fewshot=0,
                          task_manager=TaskManager(include_path=str(include_path),
                                                   include_defaults=False))
    if out is None:  # the harness returns nothing on ranks other than the first
        return {}
    log.info("%s:\n%s", described, make_table(out))
    atomic_write_text(output, json.dumps({"model": described, "results": out["results"]},
                                         indent=2, sort_keys=True, default=str) + "\n")
    return out["results"]
