"""`reprobe numersense export | harness-tasks | harness`: the datasets as Hugging Face dataset
folders, as lm-evaluation-harness tasks, and a masked LM answering those tasks through the
harness (code in `exports.py`, `harness.py` and `harness_model.py`, imported when run)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from reprobe.lm_harness import add_task_options
from reprobe.step_options import add_names, add_paths, listed, one_of, optional


def optional_path(value: str | None) -> Path | None:
    """A path option's value as a Path (None stays None)."""
    return Path(value) if value else None


def cmd_export(args: argparse.Namespace) -> None:
    """Write one NumerSense dataset as a Hugging Face dataset folder (Parquet and a card)."""
    from reprobe.io import json_object
    from reprobe.numersense.exports import Inputs, export_dataset

    inputs = Inputs(Path(args.probes), optional_path(args.labels), args.labels_from,
                    optional_path(args.card_json), optional_path(args.categories),
                    optional_path(args.compare), optional_path(args.compare_labels))
    sources = json_object(args.sources_json, "--sources-json") if args.sources_json else {}
    rows = export_dataset(args.dataset, inputs, Path(args.output), sources)
    print(f"{args.dataset}: {rows} rows -> {args.output}")


def cmd_harness_tasks(args: argparse.Namespace) -> None:
    """Write lm-evaluation-harness tasks for exported NumerSense probe sets."""
    from reprobe.numersense.harness import write_harness_tasks

    names = write_harness_tasks([Path(d) for d in args.datasets], Path(args.output))
    print(f"tasks in {args.output}: {', '.join(names) or 'none'}")


def cmd_harness(args: argparse.Namespace) -> None:
    """Evaluate a masked LM on NumerSense's harness tasks (the clean protocol's scores at the
    mask); write the harness's results."""
    from reprobe.lm_harness import require_lm_eval, run_tasks

    require_lm_eval("reprobe numersense harness")
    from reprobe.numersense.harness_model import MaskedLMProbe
    from reprobe.numersense.models import load_model

    model, tokenizer = load_model(args.model, "masked")
    run_tasks(MaskedLMProbe(model, tokenizer, batch_size=args.batch_size, device=args.device),
              args.tasks, Path(args.include_path), Path(args.output),
              described=f"masked LM {args.model}")


def register_exports(sub: argparse._SubParsersAction,
                     add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add `export`, `harness-tasks` and `harness` to the `numersense` command group."""
    export = add("export", cmd_export, sub)
    add_names(export, dataset="<rebuilt|released>-<set>: core, all, validation, train, "
                              "sentences",
              labels_from=one_of(["gold", "builder"], "where --labels comes from: "
                                 "numersense.gold, or the builder's re-created labels",
                                 required=False))
    add_paths(export, probes="the set's file (.txt probes, .tsv probe<TAB>word, or plain "
                             "sentences)",
              labels=optional("labelled probes (.tsv) giving the rows of an unlabelled set"),
              card_json=optional("a rebuilt set's .card.json"),
              categories=optional("the builder's core.categories.tsv"),
              compare=optional("the other variant's set, for the overlap counts"),
              compare_labels=optional("labels of an unlabelled --compare set (.tsv)"),
              output="the dataset folder to write")
    export.add_argument("--sources-json", metavar="JSON",
                        help="the files the set comes from: source name -> {file, url or path}")

    tasks = add("harness-tasks", cmd_harness_tasks, sub)
    add_paths(tasks, output="the task folder to write (YAMLs, utils.py, README.md)",
              datasets=listed("exported probe-set folders, one task each"))

    harness = add("harness", cmd_harness, sub)
    add_paths(harness, model="a masked LM: a local folder, or a hub name where it is cached")
    add_task_options(harness, "numersense", "exports/numersense/lm_eval")
    harness.add_argument("--batch-size", type=int, required=True, help="probes per batch")
    harness.add_argument("--device", required=True, help="cpu, cuda, …")
