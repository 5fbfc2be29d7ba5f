"""`reprobe numersense export | harness-tasks`: the datasets as Hugging Face dataset folders
and as lm-evaluation-harness tasks (code in `exports.py` and `harness.py`, imported when run)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

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


def register_exports(sub: argparse._SubParsersAction,
                     add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add `export` and `harness-tasks` to the `numersense` command group."""
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
