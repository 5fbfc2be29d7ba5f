"""`reprobe equate vocabulary | train-baseline | table7`: the trained baselines' steps (their
vocabulary and vectors, one model's training) and Table 7."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from reprobe.equate.settings import (
    TRAINED_PATH,
    TrainedRowSettings,
    TrainingSettings,
)
from reprobe.step_options import add_paths, listed
from reprobe.step_settings import add_settings_option

log = logging.getLogger("reprobe.equate")


def cmd_vocabulary(args: argparse.Namespace) -> None:
    """The training words and their pretrained vectors, for every trained baseline."""
    from reprobe.equate.trained.vocabulary import make_vocabulary

    counts = make_vocabulary(Path(args.train), Path(args.vectors), Path(args.output))
    log.info("vocabulary: %(words)d words, %(with_vector)d with a vector of %(dimension)d",
             counts)


def cmd_train_baseline(args: argparse.Namespace) -> None:
    """Train one baseline (its paper's recipe) on NLI pairs, its best dev epoch kept."""
    from reprobe.equate.trained.saved import TrainedSettings, train_baseline

    row = args.settings
    training = args.training
    summary = train_baseline(Path(args.train), Path(args.dev), Path(args.vocabulary),
                             Path(args.output_dir),
                             settings=TrainedSettings(**asdict(row), **asdict(training)),
                             seed=args.seed, threads=args.threads)
    progress = summary["progress"]
    log.info("%s: best dev accuracy %.2f%% at epoch %d of %d (%s)", row.architecture,
             progress["best_dev"], progress["best_epoch"], progress["epoch"],
             progress["stopped"])


def cmd_table7(args: argparse.Namespace) -> None:
    """Table 7: every configured row trained on MultiNLI, on its dev-matched set."""
    from reprobe.equate.table7 import write_table7

    write_table7([Path(p) for p in args.scores], Path(args.reference), Path(args.csv),
                 Path(args.md), beyond_paper=args.beyond_paper)


def register_trained(sub: argparse._SubParsersAction,
                     add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the trained baselines' steps and Table 7."""
    vocabulary = add("vocabulary", cmd_vocabulary, sub)
    add_paths(vocabulary, train="NLI training jsonl (MultiNLI layout)",
              vectors="word vectors, GloVe or word2vec text",
              output="the vocabulary folder to write")

    train = add("train-baseline", cmd_train_baseline, sub)
    add_paths(train, train="NLI training jsonl (MultiNLI layout)",
              dev="MultiNLI dev-matched jsonl (picks the best epoch)",
              vocabulary="the folder `equate vocabulary` wrote",
              output_dir="the model folder to write")
    train.add_argument("--seed", type=int, required=True)
    train.add_argument("--threads", type=int, required=True,
                       help="CPU threads (the workflow gives equate.training.threads)")
    add_settings_option(train, TrainedRowSettings, TRAINED_PATH)
    add_settings_option(train, TrainingSettings, "equate.training", dest="training")

    table7 = add("table7", cmd_table7, sub)
    add_paths(table7, reference="published Table 7, long CSV", csv="table CSV to write",
              md="table Markdown to write", scores=listed("score rows CSVs"))
    table7.add_argument("--beyond-paper", action="append", default=[], metavar="ROW",
                        help="(repeatable) a row the paper did not test, marked and placed last")
