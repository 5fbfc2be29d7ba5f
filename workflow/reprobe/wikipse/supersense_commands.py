"""`reprobe wikipse supersense-dataset | supersense-probe`: Table 8 (Appendix D), ambiguity
prediction on UKP's supersense-annotated Wikipedia."""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable
from pathlib import Path

from reprobe.wikipse.options import VECTOR_FORMATS, add_selection_options
from reprobe.wikipse.probe_commands import _classifier_options, _settings

log = logging.getLogger("reprobe.wikipse")


def cmd_supersense_dataset(args: argparse.Namespace) -> None:
    """The word/supersense dataset (train.tsv, test.tsv, card.json) from the annotated corpus."""
    from reprobe.io import atomic_write_text
    from reprobe.wikipse.resource.dataset import SPLITS, select, summary
    from reprobe.wikipse.resource.release import write_release
    from reprobe.wikipse.tasks.supersense import (
        count_corpus,
        frequent_words,
        supersense_tokens,
        supersense_words,
    )

    counts = count_corpus(Path(args.corpus))
    words = frequent_words(counts.pairs, args.min_frequency)
    splits = select(words, single_per_split=args.single_per_split,
                    multi_per_split=args.multi_per_split, seed=args.seed)
    out = Path(args.output_dir)
    for split in SPLITS:
        write_release(((w, words[w]) for w in splits[split]), out / f"{split}.tsv")
    card = {
        "corpus": {"files": counts.files, "lines": counts.lines, "tokens": counts.tokens,
                   "noun_tokens": counts.noun_tokens, "empty_words": counts.empty_words},
        "supersenses": supersense_tokens(counts.pairs),
        "annotated_words": summary(supersense_words(counts.pairs)),
        "frequent_words": summary(words),
        "splits": {split: summary({w: words[w] for w in splits[split]}) for split in SPLITS},
        "parameters": {"min_frequency": args.min_frequency,
                       "single_per_split": args.single_per_split,
                       "multi_per_split": args.multi_per_split, "seed": args.seed},
    }
    atomic_write_text(out / "card.json", json.dumps(card, indent=2, sort_keys=True) + "\n")
    log.info("supersense dataset: %s", json.dumps(card["splits"]))


def cmd_supersense_probe(args: argparse.Namespace) -> None:
    """Table 8: MAJORITY, FREQUENCY and the classifiers on normalised and raw vectors."""
    from reprobe.embeddings.load import load_vectors
    from reprobe.scores import write_scores
    from reprobe.wikipse.resource.release import read_split
    from reprobe.wikipse.tasks.supersense import probe_rows

    train, test = read_split(Path(args.train)), read_split(Path(args.test))
    vectors = load_vectors(Path(args.vectors), args.format)
    rows = probe_rows(train, test, vectors, args.classifiers, _settings(args))
    write_scores(rows, Path(args.scores))


def register_supersense(sub: argparse._SubParsersAction,
                        add: Callable[..., argparse.ArgumentParser]) -> None:
    """The Table 8 steps."""

    dataset = add("supersense-dataset", cmd_supersense_dataset, sub)
    dataset.add_argument("--corpus", required=True,
                         help="the unpacked supertextwiki folder (every file under it is read)")
    add_selection_options(dataset)
    dataset.add_argument("--output-dir", required=True,
                         help="train.tsv, test.tsv (released format) and card.json")

    probe = add("supersense-probe", cmd_supersense_probe, sub)
    probe.add_argument("--train", required=True, help="train split, released format")
    probe.add_argument("--test", required=True, help="test split, released format")
    probe.add_argument("--vectors", required=True, help="UKP's supersense-embeddings.txt")
    probe.add_argument("--format", choices=VECTOR_FORMATS, required=True, help="e.g. word2vec_txt")
    _classifier_options(probe)
    probe.add_argument("--scores", required=True, help="score rows (CSV)")
