"""`reprobe wikipse probe | released-stats | baselines | table | variants`: WIKI-PSE part 2's
S-class and ambiguity probes and Tables 2-4 (the analyses, Tables 3 and 6 in task_commands,
Table 5's in nlp_commands, Table 8's in supersense_commands)."""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reprobe.step_options import add_names, add_paths, listed, one_of, optional
from reprobe.step_settings import add_settings_option
from reprobe.wikipse.options import SIMILARITY_KINDS, VECTOR_FORMATS
from reprobe.wikipse.resource.release import READINGS
from reprobe.wikipse.settings import EmbeddingProbeSettings

log = logging.getLogger("reprobe.wikipse")
PAPER = "wikipse"
PROBES = "wikipse.probes"
TASK_TABLE = {"sclass": "table2", "ambiguity": "table4"}
AMBIGUITY = ("multi-class = more than one entry on the word's line (authors: the release's split "
             "counts) or more than one distinct S-class (paper, §3)")
LOOKUPS = ("annotated", "plain")


def _classifier_options(parser: argparse.ArgumentParser, cls: type) -> None:
    """The classifiers and their settings (config section wikipse.probes), and the seed."""
    add_settings_option(parser, cls, PROBES)
    parser.add_argument("--seed", type=int, required=True, help="every classifier's seed")


def _splits(args: argparse.Namespace) -> tuple[Any, Any]:
    """The train and test Splits (distinct classes, entries per line) of released-format files,
    their classes checked against the class list when one is given."""
    from reprobe.wikipse.resource.classes import read_released_classes
    from reprobe.wikipse.resource.release import read_split

    known = read_released_classes(Path(args.classes)) if getattr(args, "classes", None) \
        else None
    return read_split(Path(args.train), known), read_split(Path(args.test), known)


def _split_data(args: argparse.Namespace) -> tuple[Any, Any]:
    """The train and test words with their distinct classes (counts summed)."""
    train, test = _splits(args)
    return train.classes, test.classes


def _split_options(parser: argparse.ArgumentParser, ambiguity: bool) -> None:
    """--train, --test, --classes and (ambiguity steps) --ambiguity."""
    add_paths(parser, train="train split, released format", test="test split, released format",
              classes=optional("the released class list (semantic_classes.txt): a class "
                               "outside it is an error naming the line"))
    if ambiguity:
        add_names(parser, ambiguity=one_of(READINGS, AMBIGUITY))


def _probe_settings(args: argparse.Namespace) -> tuple[EmbeddingProbeSettings, int]:
    """The classifiers' settings and seed a probe was given; without them (one command, no
    config) the schema's wikipse.probes and the embedded default config's seed, so that the
    rows are those the default run writes."""
    from reprobe.config import CHECKOUT, load_yaml
    settings = args.settings
    seed = args.seed if args.seed is not None else \
        int(load_yaml(CHECKOUT / "config" / "config.yaml")["seed"])
    return settings, seed


def _scores_path(args: argparse.Namespace) -> Path:
    """Where the score rows go: --scores (the rules) or --output (the one command)."""
    from reprobe.errors import ReprobeError

    if (args.scores is None) == (args.output is None):
        raise ReprobeError("reprobe wikipse probe: give one of --scores and --output")
    return Path(args.scores or args.output)


def similarity_datasets(items: list[str]) -> dict[str, dict[str, str]]:
    """Table 6's datasets by name, as `wikipse similarity --datasets` takes them, from
    `NAME=FILE[:KIND]` arguments (KIND absent: pairs); an error names a malformed argument."""
    from reprobe.errors import ReprobeError

    datasets: dict[str, dict[str, str]] = {}
    for item in items:
        name, sep, spec = item.partition("=")
        if not (sep and name and spec) or name in datasets:
            raise ReprobeError(f"reprobe wikipse probe --similarity: expected NAME=FILE[:KIND] "
                               f"with a name of its own, got {item!r}")
        path, colon, kind = spec.rpartition(":")
        if not colon or (kind not in SIMILARITY_KINDS and Path(spec).exists()):
            # No kind given, or the colon is the name's of a file that exists: word pairs.
            path, kind = spec, "pairs"
        elif kind not in SIMILARITY_KINDS:
            raise ReprobeError(f"reprobe wikipse probe --similarity {item!r}: no file {spec!r}, "
                               f"and {kind!r} is no kind ({', '.join(SIMILARITY_KINDS)})")
        datasets[name] = {"path": path, "kind": kind}
    return datasets


def cmd_probe(args: argparse.Namespace) -> None:
    """S-class (Table 2) and ambiguity (Table 4) probes of one embedding on one dataset: a
    vectors folder of the workflow, or any embedding file (`--vectors FILE --train TRAIN
    --test TEST --output scores.csv`, a row beyond the paper, no config needed); with
    `--similarity`, Table 6's rows of the same embedding too."""
    import numpy as np

    from reprobe.io import atomic_path
    from reprobe.scores import ScoreRow, write_scores
    from reprobe.tables.beyond import beyond_row
    from reprobe.wikipse.embedding.outside import (
        checked_dimension,
        outside_features,
        read_embedding,
    )
    from reprobe.wikipse.probing.probes import (
        ambiguity_labels,
        class_order,
        features,
        indicator,
        probe_kind,
    )

    settings, seed = _probe_settings(args)
    similarity = similarity_datasets(args.similarity or [])
    scores = _scores_path(args)
    train_split, test_split = _splits(args)
    train, test = train_split.classes, test_split.classes
    path = Path(args.vectors)
    vectors = read_embedding(path, args.format)
    dim = checked_dimension(vectors, args.dim, path)
    row = args.row or beyond_row(path.stem)
    # The workflow's own folders hold WIKI-PSE's `@x@` tokens; any other file has plain words.
    lookup = args.lookup or ("annotated" if path.is_dir() else "plain")
    featurise = features if lookup == "annotated" else outside_features
    classes = class_order(train, test)
    x_train, kept_train = featurise(list(train), vectors)
    x_test, kept_test = featurise(list(test), vectors)
    words_train = [w for w, k in zip(train, kept_train, strict=True) if k]
    words_test = [w for w, k in zip(test, kept_test, strict=True) if k]
    log.info("%s: %d of %d train and %d of %d test words have a vector (%s lookup; %d and %d "
             "left out)", row, len(words_train), len(train), len(words_test), len(test), lookup,
             len(train) - len(words_train), len(test) - len(words_test))
    y_train, y_test = indicator(words_train, train, classes), indicator(words_test, test, classes)
    labels = (ambiguity_labels(words_train, train_split, settings.ambiguity),
              ambiguity_labels(words_test, test_split, settings.ambiguity))
    saved = {"words": np.array(words_test, dtype=str), "classes": np.array(classes),
             "y_true": y_test, "a_true": labels[1]}
    rows = []
    for kind in settings.classifiers:
        if not words_train or not words_test:
            # Nothing to fit or to score: rows without a score, saying no word was probed.
            rows += [ScoreRow(PAPER, table, row, dim, kind, float("nan"), 0)
                     for table in TASK_TABLE.values()]
            continue
        found, _, predicted = probe_kind(kind, x_train, y_train, x_test, y_test,
                                         settings.fitting(seed), labels)
        saved.update({f"{name}_{kind}": array for name, array in predicted.items()})
        for result in found:
            # Table 2's micro F1 to three decimals, Table 4's accuracy to one, as printed.
            value = round(result["value"], 3 if result["task"] == "sclass" else 1)
            rows.append(ScoreRow(PAPER, TASK_TABLE[result["task"]], row, dim, kind, value,
                                 result["n"]))
        log.info("%s %s: %s", row, kind,
                 ", ".join(f"{r['task']} {r['value']:.3f}" for r in found))
    if similarity:
        # Table 6's rows, as the workflow's similarity step has them for an extra embedding
        # (imported here: the tables' module loads matplotlib, which a probe job needs not).
        from reprobe.wikipse.probing.part2_tables import similarity_of

        rows += similarity_of(row, dim, vectors, similarity)
    write_scores(rows, scores)
    if args.predictions:
        with atomic_path(args.predictions) as tmp, tmp.open("wb") as handle:
            np.savez_compressed(handle, **saved)


def cmd_released_stats(args: argparse.Namespace) -> None:
    """§3's split statistics of the released train and test files (no rebuild needed)."""
    from reprobe.wikipse.tables import released_stats_rows, write_released_stats_table

    train, test = _splits(args)
    rows = released_stats_rows({"train": train, "test": test}, args.ambiguity)
    write_released_stats_table(rows, args.ambiguity, Path(args.reference), Path(args.csv),
                               Path(args.md))


def cmd_baselines(args: argparse.Namespace) -> None:
    """The random S-class baseline and FREQUENCY, from the dataset files alone."""
    from reprobe.scores import ScoreRow, write_scores
    from reprobe.wikipse.probing.probes import (
        accuracy,
        ambiguity_labels,
        class_order,
        frequency_baseline,
        frequency_features,
        indicator,
        random_baseline_draw,
        random_baseline_expected,
        word_frequency,
    )

    train_split, test_split = _splits(args)
    train, test = train_split.classes, test_split.classes
    classes = class_order(train, test)
    y_train, y_test = indicator(list(train), train, classes), indicator(list(test), test, classes)
    frequency = word_frequency({**train, **test})
    a_pred, _ = frequency_baseline(frequency_features(list(train), frequency),
                                   ambiguity_labels(list(train), train_split, args.ambiguity),
                                   frequency_features(list(test), frequency))
    n = len(test)
    rows = [ScoreRow(PAPER, "table2", "random", "", "LR",
                     round(random_baseline_expected(y_train, y_test), 3), n),
            ScoreRow(PAPER, "table2", "random (seeded draw)", "", "LR",
                     round(random_baseline_draw(y_train, y_test, args.seed), 3), n),
            ScoreRow(PAPER, "table4", "FREQUENCY", "", "LR",
                     round(accuracy(ambiguity_labels(list(test), test_split, args.ambiguity),
                                    a_pred), 1), n)]
    write_scores(rows, Path(args.scores))
    log.info("baselines: %s", json.dumps([r._asdict() for r in rows]))


def cmd_table(args: argparse.Namespace) -> None:
    """Table 2 or 4 (one dataset variant) beside the paper's numbers."""
    from reprobe.wikipse.probing.part2_tables import write_probe_table

    write_probe_table(args.table, [Path(p) for p in args.scores], Path(args.reference),
                      Path(args.csv), Path(args.md), args.variant, args.ambiguity)


def cmd_variants(args: argparse.Namespace) -> None:
    """Table 2 or 4 with every probed variant side by side."""
    from reprobe.errors import ReprobeError
    from reprobe.wikipse.probing.part2_tables import write_variants_table

    scores: dict[str, list[Path]] = {}
    for item in args.scores:
        variant, sep, path = item.partition("=")
        if not sep:
            raise ReprobeError(f"reprobe wikipse variants: expected VARIANT=PATH, got {item!r}")
        scores.setdefault(variant, []).append(Path(path))
    write_variants_table(args.table, scores, Path(args.reference), Path(args.csv),
                         Path(args.md), args.ambiguity)


def register_probes(sub: argparse._SubParsersAction,
                    add: Callable[..., argparse.ArgumentParser]) -> None:
    """The part 2 steps."""
    probe = add("probe", cmd_probe, sub)
    _split_options(probe, ambiguity=False)
    add_paths(probe, vectors="a vectors folder (KeyedVectors) or any embedding file (--format)",
              scores=optional("score rows (CSV), as the rules name them"),
              output=optional("score rows (CSV): the one command's name for --scores"),
              predictions=optional("test predictions (.npz; absent: not written)"))
    add_names(probe, format=one_of(VECTOR_FORMATS, "how an embedding file is read (absent: "
                                   "auto, from its suffix and first bytes)", required=False),
              row=optional("table row: SKIP word, SSKIP unifΣ, ... (absent: the file's name, "
                           "beyond the paper)"),
              dim=optional("the embedding's dimension (table column), checked against the "
                           "vectors (absent: theirs)"),
              lookup=one_of(LOOKUPS, "how a word @x@ is found: annotated as @x@ only; plain "
                            "as @x@, x, X title-cased or X upper-cased (absent: annotated for a "
                            "vectors folder, plain for a file)", required=False))
    add_settings_option(probe, EmbeddingProbeSettings, PROBES)
    probe.add_argument("--seed", type=int, help="every classifier's seed (absent: the "
                       "embedded default config's)")
    probe.add_argument("--similarity", nargs="+", metavar="NAME=FILE[:KIND]", help=(
        "each word-similarity or analogy dataset (Table 6) to score the embedding on as well: "
        "rows of table6 with NAME as metric, as the workflow's Table 6 writes them for an "
        f"extra embedding; KIND one of {', '.join(SIMILARITY_KINDS)} (absent: pairs)"))

    released_stats = add("released-stats", cmd_released_stats, sub)
    _split_options(released_stats, ambiguity=True)
    add_paths(released_stats, reference="the paper's numbers (CSV)", csv="the table (CSV)",
              md="the table (Markdown)")

    baselines = add("baselines", cmd_baselines, sub)
    _split_options(baselines, ambiguity=True)
    baselines.add_argument("--seed", type=int, required=True, help="seed of the random draw")
    add_paths(baselines, scores="score rows (CSV)")

    table = add("table", cmd_table, sub)
    add_names(table, table=one_of(["table2", "table3", "table4", "table5", "table8"]),
              variant=one_of(["rebuilt", "released", "authors_corpus", "authors_embeddings",
                              "supersense"]),
              ambiguity=one_of(READINGS, "Table 4: the ambiguity reading the probes used "
                                         "(named in its notes)", required=False))
    add_paths(table, reference="the paper's numbers (CSV)", csv="the table (CSV)",
              md="the table (Markdown)", scores=listed("score files"))

    variants = add("variants", cmd_variants, sub)
    add_names(variants, table=one_of(["table2", "table4"]),
              ambiguity=one_of(READINGS, "Table 4: the ambiguity reading the probes used",
                               required=False))
    add_paths(variants, reference="the paper's numbers (CSV)", csv="the table (CSV)",
              md="the table (Markdown)",
              scores=listed("VARIANT=score file, every file of each"))
