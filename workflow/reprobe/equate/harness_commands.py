"""`reprobe equate harness`: EQUATE's lm-evaluation-harness tasks answered by a local NLI
classifier (a checkpoint Table 6's neural rows read), through the harness's own evaluation.

A causal LM needs no reprobe: `lm_eval --model hf --model_args pretrained=… --tasks equate
--include_path exports`. A sequence classifier is not a model the harness can load, so this
command hands it to the harness as reprobe.equate.harness_model.NliClassifierLM.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from reprobe.lm_harness import add_task_options
from reprobe.step_options import add_paths


def cmd_harness(args: argparse.Namespace) -> None:
    """Evaluate a local NLI checkpoint on EQUATE's harness tasks; write the harness's results."""
    from reprobe.lm_harness import require_lm_eval, run_tasks

    require_lm_eval("reprobe equate harness")
    from reprobe.equate.harness_model import NliClassifierLM
    from reprobe.io import json_object

    model = NliClassifierLM(Path(args.checkpoint), batch_size=args.batch_size,
                            label_map=json_object(args.label_map, "--label-map")
                            if args.label_map else None)
    run_tasks(model, args.tasks, Path(args.include_path), Path(args.output),
              described=f"NLI checkpoint {args.checkpoint}")


def register_harness(sub: argparse._SubParsersAction,
                     add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add `reprobe equate harness` (needs the `[harness]` extra)."""
    harness = add("harness", cmd_harness, sub)
    add_paths(harness, checkpoint="a local sequence-classification checkpoint folder, or a "
                                  "baseline's folder from `equate train-baseline`")
    add_task_options(harness, "equate", "exports/equate/lm_eval")
    harness.add_argument("--label-map", help="JSON class name -> label, as for Table 6's "
                                             "neural rows (`LABEL_0` checkpoints need one)")
    harness.add_argument("--batch-size", type=int, required=True, help="pairs per batch")
