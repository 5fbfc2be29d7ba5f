"""`reprobe wikipse supersense-dataset | supersense-probe | supersense-export`: Table 8
(Appendix D), ambiguity prediction on UKP's supersense-annotated Wikipedia."""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable
from pathlib import Path

from reprobe.step_options import add_names, add_paths, one_of
from reprobe.wikipse.options import VECTOR_FORMATS, add_selection_options
from reprobe.wikipse.probe_commands import _classifier_options
from reprobe.wikipse.settings import ClassifierSettings

log = logging.getLogger("reprobe.wikipse")
SELECTION = "wikipse.supersense.selection"


def cmd_supersense_dataset(args: argparse.Namespace) -> None:
    """The word/supersense dataset (train.tsv, test.tsv, card.json) from the annotated corpus."""
    from reprobe.io import atomic_write_text
    from reprobe.wikipse.resource.dataset import SPLITS, select, summary
    from reprobe.wikipse.resource.release import write_release
    from reprobe.wikipse.tasks.supersense_spilled import corpus_supersenses

    selection = args.settings
    out = Path(args.output_dir)
    # The corpus's pairs are spilled beside the outputs and summed there in a fixed budget.
    found = corpus_supersenses(Path(args.corpus), args.min_frequency, out)
    counts, words = found.corpus, found.frequent
    splits = select(words, single_per_split=selection.single_per_split,
                    multi_per_split=selection.multi_per_split, seed=args.seed)
    for split in SPLITS:
        write_release(((w, words[w]) for w in splits[split]), out / f"{split}.tsv")
    card = {
        "corpus": {"files": counts.files, "lines": counts.lines, "tokens": counts.tokens,
                   "noun_tokens": counts.noun_tokens, "empty_words": counts.empty_words},
        "supersenses": found.supersenses,
        "annotated_words": found.annotated,
        "frequent_words": summary(words),
        "splits": {split: summary({w: words[w] for w in splits[split]}) for split in SPLITS},
        "parameters": {"min_frequency": args.min_frequency,
                       "single_per_split": selection.single_per_split,
                       "multi_per_split": selection.multi_per_split, "seed": args.seed},
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
    settings = args.settings
    rows = probe_rows(train, test, vectors, settings.classifiers, settings.fitting(args.seed))
    write_scores(rows, Path(args.scores))


def cmd_supersense_export(args: argparse.Namespace) -> None:
    """Write the supersense dataset as a Hugging Face dataset folder (Parquet and a card)."""
    from reprobe.io import json_object
    from reprobe.text import read_json
    from reprobe.wikipse.supersense_exports import export_supersense

    rows = export_supersense({"train": Path(args.train), "test": Path(args.test)},
                             Path(args.output), built=read_json(Path(args.card)),
                             sources=json_object(args.sources_json, "--sources-json"))
    log.info("%s: %s", args.output, json.dumps(rows))


def register_supersense(sub: argparse._SubParsersAction,
                        add: Callable[..., argparse.ArgumentParser]) -> None:
    """The Table 8 steps."""

    dataset = add("supersense-dataset", cmd_supersense_dataset, sub)
    add_paths(dataset, corpus="the unpacked supertextwiki folder (every file under it is read)",
              output_dir="train.tsv, test.tsv (released format) and card.json")
    add_selection_options(dataset, SELECTION)

    probe = add("supersense-probe", cmd_supersense_probe, sub)
    add_paths(probe, train="train split, released format", test="test split, released format",
              vectors="UKP's supersense-embeddings.txt", scores="score rows (CSV)")
    add_names(probe, format=one_of(VECTOR_FORMATS, "e.g. word2vec_txt"))
    _classifier_options(probe, ClassifierSettings)

    export = add("supersense-export", cmd_supersense_export, sub)
    add_paths(export, train="train.tsv of supersense-dataset", test="its test.tsv",
              card="its card.json (how it was built)", output="the dataset folder to write")
    export.add_argument("--sources-json", required=True,
                        help="the configured sources the card lists (JSON: name -> spec)")
