"""`reprobe equate harness`: EQUATE's lm-evaluation-harness tasks answered by a local NLI
classifier (a checkpoint Table 6's neural rows read), through the harness's own evaluation.

A causal LM needs no reprobe: `lm_eval --model hf --model_args pretrained=… --tasks equate
--include_path exports`. A sequence classifier is not a model the harness can load, so this
command hands it to the harness as reprobe.equate.harness_model.NliClassifierLM.
"""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable
from pathlib import Path

from reprobe.errors import ReprobeError
from reprobe.step_options import add_paths

log = logging.getLogger("reprobe.equate")


def cmd_harness(args: argparse.Namespace) -> None:
    """Evaluate a local NLI checkpoint on EQUATE's harness tasks; write the harness's results."""
    try:
        from lm_eval import simple_evaluate
    except ModuleNotFoundError as error:
        raise ReprobeError("reprobe equate harness needs lm-evaluation-harness: "
                           "pip install -e '.[harness]'") from error
    from lm_eval.tasks import TaskManager
    from lm_eval.utils import make_table

    from reprobe.equate.harness_model import NliClassifierLM
    from reprobe.io import atomic_write_text, json_object

    model = NliClassifierLM(Path(args.checkpoint), batch_size=args.batch_size,
                            label_map=json_object(args.label_map, "--label-map")
                            if args.label_map else None)
    out = simple_evaluate(model=model, tasks=args.tasks, num_fewshot=0,
                          task_manager=TaskManager(include_path=args.include_path,
                                                   include_defaults=False))
    if out is None:  # the harness returns nothing on ranks other than the first
        return
    log.info("EQUATE tasks on %s:\n%s", args.checkpoint, make_table(out))
    atomic_write_text(Path(args.output), json.dumps(
        {"checkpoint": str(args.checkpoint), "results": out["results"]},
        indent=2, sort_keys=True, default=str) + "\n")


def register_harness(sub: argparse._SubParsersAction,
                     add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add `reprobe equate harness` (needs the `[harness]` extra)."""
    harness = add("harness", cmd_harness, sub)
    add_paths(harness, checkpoint="a local sequence-classification checkpoint folder",
              include_path="the task folder the workflow writes (exports/equate/lm_eval)",
              output="results JSON to write (the harness's results per task)")
    harness.add_argument("--tasks", nargs="+", default=["equate"], metavar="NAME",
                         help="tasks or the tag `equate` (every exported set)")
    harness.add_argument("--label-map", help="JSON class name -> label, as for Table 6's "
                                             "neural rows (`LABEL_0` checkpoints need one)")
    harness.add_argument("--batch-size", type=int, required=True, help="pairs per batch")
