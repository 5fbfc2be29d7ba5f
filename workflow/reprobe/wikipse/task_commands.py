"""`reprobe wikipse analyses | public | similarity`: WIKI-PSE part 2 beyond the probes, the
analyses (Figures 3-6, Table 7), Table 3's public embeddings and Table 6's similarity sets."""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable
from pathlib import Path

from reprobe.step_options import Option, add_names, add_paths, listed, one_of, optional, several
from reprobe.wikipse.nlp_commands import named_arguments
from reprobe.wikipse.options import SIMILARITY_KINDS
from reprobe.wikipse.probe_commands import (
    PAPER,
    _classifier_options,
    _split_data,
    _split_options,
    _splits,
)
from reprobe.wikipse.settings import ClassifierSettings

log = logging.getLogger("reprobe.wikipse")


def cmd_analyses(args: argparse.Namespace) -> None:
    """Figures 3-6 and Table 7 from the probes' predictions (MLP) of one dimension."""
    from reprobe.wikipse.probing.part2_tables import write_analyses

    predictions = named_arguments(args.predictions)
    train, test = _splits(args)
    write_analyses({k: Path(v) for k, v in predictions.items()}, train, test,
                   Path(args.word_vectors), Path(args.output_dir), args.classifier,
                   args.ambiguity, args.suffix or "")


def cmd_similarity(args: argparse.Namespace) -> None:
    """Table 6: word-similarity Spearman and analogy accuracy of word embeddings."""
    from reprobe.wikipse.probing.part2_tables import write_similarity_table

    vectors = named_arguments(args.vectors)
    beyond = named_arguments(args.beyond or [])
    datasets = json.loads(args.datasets)
    write_similarity_table({k: Path(v) for k, v in vectors.items()}, datasets,
                           Path(args.reference), Path(args.csv), Path(args.md), args.variant,
                           {k: Path(v) for k, v in beyond.items()})


def cmd_public(args: argparse.Namespace) -> None:
    """Table 3: ours and public embeddings on the words every one of them has."""
    from reprobe.scores import ScoreRow, write_scores
    from reprobe.wikipse.nlp_commands import load_ours, load_public
    from reprobe.wikipse.probing.probes import (
        class_order,
        features,
        fit_predict_sclasses,
        indicator,
        micro_f1,
    )
    from reprobe.wikipse.probing.public import (
        public_features,
        shared_subset,
        subset,
        subset_summary,
    )

    train, test = _split_data(args)
    public = load_public(args.public)
    ours = load_ours(args.ours)
    # The same words for every row: in both public vocabularies and in each of ours.
    keep = {split: [w for w in shared_subset(data, list(public.values()))
                    if all(w in vectors for vectors in ours.values())]
            for split, data in (("train", train), ("test", test))}
    log.info("public-embedding subset: %s", json.dumps(subset_summary(
        subset(train, keep["train"]), subset(test, keep["test"]))))
    classes = class_order(train, test)
    y_train = indicator(keep["train"], train, classes)
    y_test = indicator(keep["test"], test, classes)
    classifiers = args.settings
    settings = classifiers.fitting(args.seed)
    rows = []
    for name in [*ours, *public]:
        model, _, dim = name.rpartition(" ") if name in ours else (name, "", "")
        if not keep["train"] or not keep["test"]:
            # No shared word: a row without a score, not a classifier fitted on nothing.
            rows += [ScoreRow(PAPER, "table3", model, dim, kind, float("nan"), 0)
                     for kind in classifiers.classifiers]
            continue
        if name in ours:
            x_train, x_test = (features(keep[s], ours[name])[0] for s in ("train", "test"))
        else:
            x_train, x_test = (public_features(keep[s], public[name]) for s in ("train", "test"))
        for kind in classifiers.classifiers:
            pred, _ = fit_predict_sclasses(x_train, y_train, x_test, kind, settings)
            rows.append(ScoreRow(PAPER, "table3", model, dim, kind,
                                 round(micro_f1(y_test, pred), 3), len(keep["test"])))
    write_scores(rows, Path(args.scores))


def register_tasks(sub: argparse._SubParsersAction,
                   add: Callable[..., argparse.ArgumentParser]) -> None:
    """The part 2 steps beyond the probes."""
    analyses = add("analyses", cmd_analyses, sub)
    _split_options(analyses, ambiguity=True)
    add_paths(analyses, word_vectors="word vectors (Figure 6)",
              output_dir="figures and Table 7 go here",
              predictions=listed("SERIES=predictions.npz"))
    add_names(analyses, suffix=optional("ends each file name (`_authors_corpus`: "
                                        "figure3a_authors_corpus.png); none for the rebuild"))
    analyses.add_argument("--classifier", default="MLP", help="whose predictions (paper MLP)")

    public = add("public", cmd_public, sub)
    _split_options(public, ambiguity=False)
    add_paths(public, public=several("NAME=PATH:FORMAT of each public embedding (glove_txt, "
                                     "fasttext_vec…)"),
              ours=several("'SSKIP word 300'=FOLDER of each of our embeddings"),
              scores="score rows (CSV)")
    _classifier_options(public, ClassifierSettings)

    similarity = add("similarity", cmd_similarity, sub)
    add_paths(similarity, datasets='JSON {name: {"path": …, "kind": KIND}}, KIND one of '
                                   + ", ".join(SIMILARITY_KINDS),
              reference="the paper's numbers (CSV)", csv="the table (CSV)",
              md="the table (Markdown)", vectors=listed("MODEL DIM=vectors folder"),
              beyond=Option("NAME=vectors folder or embedding file of each embedding beyond "
                            "the paper (its dimension: the vectors')", required=False,
                            nargs="+"))
    add_names(similarity, variant=one_of(["rebuilt", "authors_corpus"], "whose embeddings "
                                         "(named in the title when not the rebuild)"))
