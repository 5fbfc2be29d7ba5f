"""Run a model reprobe adapts (an NLI classifier, a masked LM) on lm-evaluation-harness tasks
the workflow wrote, and write the harness's results: the one place that imports lm-eval's
evaluation (the `[harness]` extra), with an error that says how to install it."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from reprobe.errors import ReprobeError
from reprobe.io import atomic_write_text

log = logging.getLogger("reprobe")
INSTALL = "pip install -e '.[harness]'"


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
