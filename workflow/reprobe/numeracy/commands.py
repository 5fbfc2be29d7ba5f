"""`reprobe numeracy …`: the steps of the numeracy workflow (Naik et al. 2019)."""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from reprobe.errors import ConfigError
from reprobe.io import atomic_path
from reprobe.numeracy.retrain_settings import RetrainSettings
from reprobe.numeracy.settings import (
    ContrastiveRules,
    KnnSettings,
    PmiSettings,
    SelectionSettings,
    VectorProbeSettings,
)
from reprobe.numeracy.targets import FAMILY_NAMES, OFF_THE_SHELF_ROLE, RETRAINED_ROLE
from reprobe.scores import ScoreRow, write_scores
from reprobe.step_options import (
    Option,
    add_names,
    add_paths,
    listed,
    one_of,
    optional,
    several,
)
from reprobe.step_settings import add_settings_option

if TYPE_CHECKING:  # the CLI builds its parser without loading pandas
    import pandas as pd

log = logging.getLogger("reprobe.numeracy")
# The seed of `numeracy probe --vectors FILE` when a person gives none (the random baseline and
# the kNN split): fixed, so two runs give the same rows; the workflow passes the config's seed.
OWN_VECTORS_SEED = 0


def cmd_count(args: argparse.Namespace) -> None:
    """Count a sentence shard's sentences and tokens, in all and with a numeral."""
    from reprobe.numeracy.corpora import count_shard

    count_shard(Path(args.sentences), Path(args.output))


def cmd_select(args: argparse.Namespace) -> None:
    """Write one shard's part of the Num and All corpora, given every shard's counts."""
    from reprobe.numeracy.corpora import ShardPart, select_shard

    settings = args.settings
    part = ShardPart.in_folder(Path(args.output_dir))
    select_shard(Path(args.sentences), part.num, part.all, part.stats,
                 counts=[Path(c) for c in args.counts], shard_index=args.shard_index,
                 seed=args.seed, max_sentences=settings.max_sentences,
                 lowercase=settings.lowercase)


def cmd_corpus(args: argparse.Namespace) -> None:
    """Concatenate the shards' parts into the Num and All corpora."""
    from reprobe.numeracy.corpora import ShardPart, concatenate_corpora

    parts = [ShardPart.in_folder(Path(folder)) for folder in args.part_dirs]
    concatenate_corpora(parts, Path(args.num), Path(args.all), Path(args.stats))


def cmd_train(args: argparse.Namespace) -> None:
    """Train word vectors of one family on one corpus (word2vec text format + vocabulary)."""
    settings = args.settings
    family = settings.family_settings(args.family)
    corpus, output = Path(args.corpus), Path(args.output)
    if args.family == "glove":
        from reprobe.embeddings.glove import train_glove

        train_glove(corpus, output, seed=args.seed, workers=args.threads,
                    memory_mb=settings.glove["memory_mb"], **family)
    else:
        from reprobe.embeddings import train

        trainer = train.train_word2vec if args.family == "word2vec" else train.train_fasttext
        trainer(corpus, output, seed=args.seed, workers=args.threads, **family)


def cmd_vectors(args: argparse.Namespace) -> None:
    """Convert vectors of any supported format to gensim's native format, memory-mappable."""
    from reprobe.embeddings.load import load_vectors, plain_vectors, save_native

    # Left out, the format is guessed from the file's name.
    fmt = args.format or "auto"
    save_native(plain_vectors(load_vectors(Path(args.input), fmt)), Path(args.output))


def cmd_numerals(args: argparse.Namespace) -> None:
    """List a model's numerals (token, value, system) and write its Table 1 row."""
    from reprobe.embeddings.load import load_native
    from reprobe.numeracy.vector_probe import table1_rows, write_numerals

    words = load_native(Path(args.vectors)).index_to_key
    with atomic_path(args.output) as tmp:
        write_numerals(words, tmp)
    write_scores(table1_rows(args.model, words), Path(args.scores))


def cmd_tests(args: argparse.Namespace) -> None:
    """Build magnitude or numeration tests over the numbers common to the given models."""
    from reprobe.numeracy.probes import build_test_set

    rules = args.settings
    counts = build_test_set([Path(p) for p in args.numerals], args.kind, Path(args.output_dir),
                            **rules.keywords())
    print(json.dumps(counts))


def cmd_probe(args: argparse.Namespace) -> None:
    """Score one model on the workflow's test sets (--mag, --num), or, given a vectors file
    alone, on tests over its own numbers with kNN and Table 1 too (as the workflow does for
    each `numeracy.extra_vectors` row)."""
    if args.mag is None:
        write_scores(probe_own_vectors(args), Path(args.output))
        return
    from reprobe.embeddings.load import load_native
    from reprobe.numeracy.probes import probe_rows

    missing = [f"--{name}" for name in ("num", "model", "role", "seed")
               if getattr(args, name) is None]
    if missing:
        raise ConfigError(f"numeracy probe --mag: give {', '.join(missing)} too")
    vectors = load_native(Path(args.vectors))
    sets = {"mag": Path(args.mag), "num": Path(args.num)}
    table = probe_rows(args.model, args.role, vectors, sets, dim=vectors.vector_size,
                       seed=args.seed, with_random=args.role == OFF_THE_SHELF_ROLE)
    write_scores(table, Path(args.output))


def vectors_row_name(path: Path) -> str:
    """The row a vectors file gets when no --model names it: its name without suffixes."""
    name = path.name
    for suffix in (".gz", ".bz2", ".xz", ".zst"):
        name = name.removesuffix(suffix)
    return Path(name).stem or name


def probe_own_vectors(args: argparse.Namespace) -> pd.DataFrame:
    """`numeracy probe --vectors FILE`: every score row of one embedding, on its own numbers."""
    from reprobe.embeddings.load import FORMATS, load_vectors, plain_vectors
    from reprobe.numeracy.vector_probe import probe_own_numbers

    if args.num is not None or args.role not in (None, OFF_THE_SHELF_ROLE):
        raise ConfigError("numeracy probe: --num and --role retrained need the workflow's --mag "
                          "tests; without --mag the tests come from the vectors' own numbers")
    settings = args.settings
    if args.format is not None and args.format not in FORMATS:
        raise ConfigError(f"numeracy probe --format: {args.format!r} is not one of "
                          f"{', '.join(FORMATS)}")
    path = Path(args.vectors)
    # Left out, the format is guessed from the file's name and first bytes.
    vectors = plain_vectors(load_vectors(path, args.format or "auto"))
    model = args.model or vectors_row_name(path)
    seed = OWN_VECTORS_SEED if args.seed is None else args.seed
    log.info("%s: %d words of dimension %d from %s", model, len(vectors), vectors.vector_size,
             path)
    return probe_own_numbers(model, vectors, list(vectors.index_to_key), vectors.vector_size,
                             settings, seed)


def cmd_random(args: argparse.Namespace) -> None:
    """Score the random-embedding baseline on a role's shared test sets."""
    from reprobe.numeracy.probes import random_rows

    sets = {"mag": Path(args.mag), **({"num": Path(args.num)} if args.num else {})}
    write_scores(random_rows(args.model, args.role, sets, dim=args.dim, seed=args.seed),
                 Path(args.output))


def cmd_knn(args: argparse.Namespace) -> None:
    """R² of kNN regression of magnitude over a shared set of numbers (Table 6)."""
    from reprobe.embeddings.load import load_native
    from reprobe.numeracy.contrastive import common_numbers
    from reprobe.numeracy.probes import numeral_maps, read_numerals
    from reprobe.numeracy.vector_probe import checked_knn, knn_row

    settings = checked_knn(args.settings)
    arabic = [numeral_maps(read_numerals(Path(p)))[0] for p in args.set_numerals]
    numbers = common_numbers(arabic)
    rows: list[ScoreRow] = []
    for model, vectors_path, numerals_path in zip(args.models, args.vectors, args.numerals,
                                                  strict=True):
        # Each model is scored on the numbers of the shared set it has (all of them in the
        # paper: the retrained vocabularies hold every number common to the off-the-shelf ones).
        own = numeral_maps(read_numerals(Path(numerals_path)))[0]
        subset = {token: value for token, value in numbers.items() if token in own}
        rows.append(knn_row(model, load_native(Path(vectors_path)), subset, settings, args.seed))
    write_scores(rows, Path(args.output))


def cmd_pmi(args: argparse.Namespace) -> None:
    """Top nouns by PMI after primitive vs large numbers, in sentences with numbers (Table 5)."""
    from reprobe.numeracy.pmi import pmi_table

    settings = args.settings
    # Floats, as the thresholds have always been: the table writes each λ as 500.0.
    lambdas = [float(value) for value in settings.lambdas]
    pmi_table([Path(p) for p in args.sentences], Path(args.output),
              sample_size=settings.sentences, seed=args.seed, lambdas=lambdas,
              smoothing=float(settings.smoothing), top=settings.top)


def cmd_table(args: argparse.Namespace) -> None:
    """Write one of the paper's tables beside the published numbers."""
    from reprobe.numeracy.tables import write_numeracy_table

    rules = args.settings
    write_numeracy_table(args.table, [Path(p) for p in args.scores], Path(args.reference),
                         Path(args.csv), Path(args.md), beyond_paper=args.beyond_paper or [],
                         **rules.keywords())


def cmd_export(args: argparse.Namespace) -> None:
    """Write one number set's tests as a Hugging Face dataset folder (Parquet and a card)."""
    from reprobe.io import json_object
    from reprobe.numeracy.exports import export_number_set

    folders = {prop: Path(folder) for prop, folder in (("mag", args.mag), ("num", args.num))
               if folder}
    if not folders:
        raise ConfigError("numeracy export: give --mag, --num or both")
    rows = export_number_set(folders, Path(args.output), number_set=args.number_set,
                             scope=args.scope, models=args.models,
                             rules=args.settings,
                             sources=json_object(args.sources_json, "--sources-json"))
    log.info("%s: %s", args.output, json.dumps(rows))


# A model's role picks its test sets and tables (probe, random).
ROLES = one_of([OFF_THE_SHELF_ROLE, RETRAINED_ROLE])


def register(commands: argparse._SubParsersAction,
             add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the `numeracy` command group to the CLI."""
    group = commands.add_parser("numeracy", help="Naik et al. 2019: numeracy of embeddings")
    sub = group.add_subparsers(dest="numeracy_command", required=True, metavar="STEP")

    count = add("count", cmd_count, sub)
    add_paths(count, sentences="a sentences.parquet shard or text", output="counts JSON")

    select = add("select", cmd_select, sub)
    add_paths(select, sentences="the shard to select from",
              counts=several("every shard's counts, in order"),
              output_dir="folder for num.txt, all.txt, stats")
    select.add_argument("--shard-index", type=int, required=True, help="its place among shards")
    select.add_argument("--seed", type=int, required=True, help="sampling seed")
    add_settings_option(select, SelectionSettings, "numeracy")

    corpus = add("corpus", cmd_corpus, sub)
    add_paths(corpus, num="the Num corpus to write", all="the All corpus to write",
              stats="their sizes, JSON", part_dirs=listed("the shards' part folders, in order"))

    train = add("train", cmd_train, sub)
    add_names(train, family=one_of(sorted(FAMILY_NAMES)))
    add_paths(train, corpus="one sentence a line, tokens spaced",
              output="vectors, word2vec text format")
    add_settings_option(train, RetrainSettings, "numeracy.retrain")
    train.add_argument("--seed", type=int, required=True, help="the config's seed")
    train.add_argument("--threads", type=int, required=True, help="training threads (the job's)")

    vectors = add("vectors", cmd_vectors, sub)
    add_paths(vectors, input="vectors file", output="gensim .kv to write")
    add_names(vectors, format=optional("glove_txt, word2vec_txt, …; left out: from the name"))

    numerals = add("numerals", cmd_numerals, sub)
    add_paths(numerals, vectors="gensim .kv", output="numerals TSV",
              scores="Table 1 score rows, CSV")
    add_names(numerals, model="model name in the tables")

    tests = add("tests", cmd_tests, sub)
    add_names(tests, kind=one_of(["mag", "num"]))
    add_paths(tests, output_dir="folder for the test TSVs",
              numerals=listed("numerals TSVs of the models sharing the set"))
    add_settings_option(tests, ContrastiveRules, "numeracy")

    probe = add("probe", cmd_probe, sub)
    add_paths(probe, vectors="the workflow's .kv, or any vectors file (see --format)",
              mag=optional("the workflow's magnitude test folder; left out: the tests, kNN and "
                           "Table 1 rows of the vectors' own numbers"),
              num=optional("the workflow's numeration test folder (with --mag)"),
              output="score rows, CSV")
    add_names(probe, model=optional("row name in the tables; left out: the file's name"),
              role=one_of([OFF_THE_SHELF_ROLE, RETRAINED_ROLE],
                          "the model's tables (with --mag)", required=False),
              format=optional("glove_txt, word2vec_txt, word2vec_bin, fasttext_vec, "
                              "fasttext_bin or kv (gensim KeyedVectors, memory-mapped); left "
                              "out: from the file's name and first bytes"))
    add_settings_option(probe, VectorProbeSettings, "numeracy")
    probe.add_argument("--seed", type=int,
                       help="the config's seed (required with --mag); left out without --mag: "
                            f"{OWN_VECTORS_SEED}")

    random = add("random", cmd_random, sub)
    add_names(random, model="row name: Random or random", role=ROLES)
    add_paths(random, mag="magnitude test folder", num=optional("numeration test folder"),
              output="score rows, CSV")
    random.add_argument("--dim", type=int, required=True)
    random.add_argument("--seed", type=int, required=True)

    knn = add("knn", cmd_knn, sub)
    add_names(knn, models=several("model names in the tables"))
    add_paths(knn, vectors=several("one .kv per model, in order"),
              numerals=several("each model's numerals TSV"),
              set_numerals=several("numerals TSVs of the models whose common numbers form the "
                                   "set"),
              output="score rows, CSV")
    add_settings_option(knn, KnnSettings, "numeracy.knn")
    knn.add_argument("--seed", type=int, required=True)

    pmi = add("pmi", cmd_pmi, sub)
    add_paths(pmi, sentences=several("corpora or shards"), output="top nouns, CSV")
    add_settings_option(pmi, PmiSettings, "numeracy.pmi")
    pmi.add_argument("--seed", type=int, required=True)

    export = add("export", cmd_export, sub)
    add_names(export, number_set="the set's folder name under exports/numeracy",
              scope=one_of([RETRAINED_ROLE, OFF_THE_SHELF_ROLE, "model"]),
              models=several("the models whose vocabularies give the set"))
    add_paths(export, mag=optional("magnitude test folder"),
              num=optional("numeration test folder"), output="the dataset folder to write")
    add_settings_option(export, ContrastiveRules, "numeracy")
    export.add_argument("--sources-json", required=True,
                        help="the configured sources the card lists (JSON: name -> spec)")

    table = add("table", cmd_table, sub)
    add_names(table, table="table1 … table9",
              beyond_paper=Option("rows beyond the paper: a person's embeddings "
                                  "(numeracy.extra_vectors), marked and placed last",
                                  required=False, nargs="+"))
    add_paths(table, reference="the paper's numbers, CSV", csv="the table, CSV",
              md="the table, Markdown", scores=listed("score CSVs", at_least=0))
    add_settings_option(table, ContrastiveRules, "numeracy")
