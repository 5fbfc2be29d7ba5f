"""`reprobe wikipse nlp | mc`: Table 5's NLP tasks, sentence tasks and mention classification."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reprobe.io import json_object
from reprobe.step_options import Option, add_paths, several
from reprobe.step_settings import add_settings_option
from reprobe.wikipse.settings import MentionTypingSettings, SentEvalSettings

log = logging.getLogger("reprobe.wikipse")
PAPER = "wikipse"


def named_arguments(items: list[str]) -> dict[str, str]:
    """NAME=VALUE arguments as a mapping, in order."""
    return dict(item.split("=", 1) for item in items)


def load_ours(items: list[str]) -> dict[str, Any]:
    """Our vectors by row, from ROW=FOLDER arguments."""
    from reprobe.wikipse.embedding.vectors import load_vectors

    return {name: load_vectors(Path(path)) for name, path in named_arguments(items).items()}


def load_public(items: list[str]) -> dict[str, Any]:
    """Public embeddings by row, from NAME=PATH:FORMAT arguments."""
    from reprobe.embeddings.load import load_vectors

    return {name: load_vectors(Path(spec.rsplit(":", 1)[0]), spec.rsplit(":", 1)[1])
            for name, spec in named_arguments(items).items()}


def _embeddings(ours: list[str], public: list[str] | None) -> dict[str, Any]:
    """Table 5's rows: our vectors, then the public embeddings."""
    return {**load_ours(ours), **load_public(public or [])}


def cmd_nlp(args: argparse.Namespace) -> None:
    """Table 5's sentence tasks (SentEval's protocol) for ours and the public embeddings."""
    from reprobe.scores import ScoreRow, write_scores
    from reprobe.wikipse.tasks.senteval import binary_task, mrpc_task, read_binary, read_mrpc

    folds = args.settings.folds
    tasks = json_object(args.tasks, "--tasks")
    rows = []
    for name, vectors in _embeddings(args.ours, args.public).items():
        for task, files in tasks.items():
            if task == "MRPC":
                (train, y_train), (test, y_test) = (read_mrpc(Path(files[s]))
                                                    for s in ("train", "test"))
                found = mrpc_task(train, y_train, test, y_test, vectors, seed=args.seed,
                                  folds=folds)
                n = found["n_test"]
            else:
                sentences, labels = read_binary(Path(files["pos"]), Path(files["neg"]))
                found = binary_task(sentences, labels, vectors, folds=folds, seed=args.seed)
                n = found["n"]
            rows.append(ScoreRow(PAPER, "table5", name, "", task,
                                 round(float(found["accuracy"]), 1), int(n)))
            log.info("%s on %s: %.1f%%", name, task, found["accuracy"])
    write_scores(rows, Path(args.scores))


def cmd_mc(args: argparse.Namespace) -> None:
    """Table 5's MC: FIGER mention classification by the attentive typer, per embedding."""
    from reprobe.scores import ScoreRow, write_scores
    from reprobe.wikipse.tasks.mention_task import classify_mentions, read_typing_data

    typing = args.settings
    data = read_typing_data({s: Path(getattr(args, s)) for s in ("train", "dev", "test")},
                            context=typing.context, lowercase=typing.lowercase)
    rows = []
    for name, vectors in _embeddings(args.ours, args.public).items():
        found = classify_mentions(data, vectors, typing.typer, args.seed)
        log.info("%s on MC: strict %.1f, loose macro %.1f, loose micro %.1f (%.0f%% of words "
                 "with a vector)", name, found["strict"], found["loose_macro"],
                 found["loose_micro"], 100 * found["coverage"])
        rows.append(ScoreRow(PAPER, "table5", name, "", "MC", round(found["strict"], 1),
                             int(found["n_test"])))
    write_scores(rows, Path(args.scores))


def _embedding_options(parser: argparse.ArgumentParser) -> None:
    """Which embeddings a Table 5 step scores, and where its scores go."""
    add_paths(parser, ours=several("ROW=vectors folder"),
              public=Option("NAME=PATH:FORMAT", required=False, nargs="+"),
              scores="score rows (CSV)")


def register_nlp(sub: argparse._SubParsersAction,
                 add: Callable[..., argparse.ArgumentParser]) -> None:
    """The Table 5 steps."""
    nlp = add("nlp", cmd_nlp, sub)
    nlp.add_argument("--tasks", required=True, metavar="JSON", help=(
        'the tasks\' files as JSON: {"MR": {"pos": FILE, "neg": FILE}, "MRPC": {"train": FILE, '
        '"test": FILE}} (the workflow passes wikipse.senteval.tasks\' fetched files)'))
    add_settings_option(nlp, SentEvalSettings, "wikipse.senteval")
    nlp.add_argument("--seed", type=int, required=True, help="seed of the folds")
    _embedding_options(nlp)

    mc = add("mc", cmd_mc, sub)
    add_paths(mc, **{split: f"NFGEC FIGER {split} file" for split in ("train", "dev", "test")})
    add_settings_option(mc, MentionTypingSettings, "wikipse.mention_typing")
    mc.add_argument("--seed", type=int, required=True, help="seed of weights and batches")
    _embedding_options(mc)
