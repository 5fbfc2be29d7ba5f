"""`reprobe numeracy …`: the steps of the numeracy workflow (Naik et al. 2019)."""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable
from pathlib import Path

from reprobe.io import atomic_path
from reprobe.numeracy.retrain_settings import RetrainSettings
from reprobe.numeracy.targets import FAMILY_NAMES
from reprobe.scores import ScoreRow, write_scores
from reprobe.step_settings import add_settings_option

log = logging.getLogger("reprobe.numeracy")


def cmd_count(args: argparse.Namespace) -> None:
    """Count a sentence shard's sentences and tokens, in all and with a numeral."""
    from reprobe.numeracy.corpora import count_shard

    count_shard(Path(args.sentences), Path(args.output))


def cmd_select(args: argparse.Namespace) -> None:
    """Write one shard's part of the Num and All corpora, given every shard's counts."""
    from reprobe.numeracy.corpora import ShardPart, select_shard

    part = ShardPart.in_folder(Path(args.output_dir))
    select_shard(Path(args.sentences), part.num, part.all, part.stats,
                 counts=[Path(c) for c in args.counts], shard_index=args.shard_index,
                 seed=args.seed, max_sentences=args.max_sentences, lowercase=args.lowercase)


def cmd_corpus(args: argparse.Namespace) -> None:
    """Concatenate the shards' parts into the Num and All corpora."""
    from reprobe.numeracy.corpora import ShardPart, concatenate_corpora

    parts = [ShardPart.in_folder(Path(folder)) for folder in args.part_dirs]
    concatenate_corpora(parts, Path(args.num), Path(args.all), Path(args.stats))


def cmd_train(args: argparse.Namespace) -> None:
    """Train word vectors of one family on one corpus (word2vec text format + vocabulary)."""
    from reprobe.step_settings import read_settings

    settings = read_settings(args.settings, RetrainSettings, "numeracy.retrain")
    family = settings.family_settings(args.family)
    corpus, output = Path(args.corpus), Path(args.output)
    if args.family == "glove":
        from reprobe.embeddings.glove import train_glove

        train_glove(corpus, output, seed=args.seed, workers=args.threads, **family)
    else:
        from reprobe.embeddings import train

        trainer = train.train_word2vec if args.family == "word2vec" else train.train_fasttext
        trainer(corpus, output, seed=args.seed, workers=args.threads, **family)


def cmd_vectors(args: argparse.Namespace) -> None:
    """Convert vectors of any supported format to gensim's native format, memory-mappable."""
    from reprobe.embeddings.load import load_vectors, plain_vectors, save_native

    save_native(plain_vectors(load_vectors(Path(args.input), args.format)), Path(args.output))


def cmd_numerals(args: argparse.Namespace) -> None:
    """List a model's numerals (token, value, system) and write its Table 1 row."""
    from reprobe.embeddings.load import load_native
    from reprobe.numerals import numeral_counts, vocabulary_numerals

    words = load_native(Path(args.vectors)).index_to_key
    with atomic_path(args.output) as tmp:
        vocabulary_numerals(words).to_csv(tmp, sep="\t", index=False)
    counts = numeral_counts(words)
    rows: list[ScoreRow] = []
    for system in ("english", "arabic"):
        share = 100.0 * counts[system] / counts["vocabulary"] if counts["vocabulary"] else 0.0
        rows += [ScoreRow("numeracy", "table1", args.model, "", f"{system}_count",
                          counts[system], counts["vocabulary"]),
                 ScoreRow("numeracy", "table1", args.model, "", f"{system}_share",
                          round(share, 2), counts["vocabulary"])]
    write_scores(rows, Path(args.scores))


def cmd_tests(args: argparse.Namespace) -> None:
    """Build magnitude or numeration tests over the numbers common to the given models."""
    from reprobe.numeracy.probes import build_test_set

    counts = build_test_set([Path(p) for p in args.numerals], args.kind, Path(args.output_dir),
                            tie_break=args.tie_break,
                            exclude_equidistant=args.ova_exclude_equidistant)
    print(json.dumps(counts))


def cmd_probe(args: argparse.Namespace) -> None:
    """Score one model on its test sets (and a random embedding of the same vocabulary)."""
    from reprobe.embeddings.load import load_native
    from reprobe.numeracy.probes import probe_rows

    vectors = load_native(Path(args.vectors))
    sets = {"mag": Path(args.mag), "num": Path(args.num)}
    table = probe_rows(args.model, args.role, vectors, sets, dim=vectors.vector_size,
                       seed=args.seed, with_random=args.role == "off_the_shelf")
    write_scores(table, Path(args.output))


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
    from reprobe.numeracy.knn import knn_r2
    from reprobe.numeracy.probes import numeral_maps, read_numerals

    arabic = [numeral_maps(read_numerals(Path(p)))[0] for p in args.set_numerals]
    numbers = common_numbers(arabic)
    rows: list[ScoreRow] = []
    for model, vectors_path, numerals_path in zip(args.models, args.vectors, args.numerals,
                                                  strict=True):
        # Each model is scored on the numbers of the shared set it has (all of them in the
        # paper: the retrained vocabularies hold every number common to the off-the-shelf ones).
        own = numeral_maps(read_numerals(Path(numerals_path)))[0]
        subset = {token: value for token, value in numbers.items() if token in own}
        try:
            r2 = round(knn_r2(load_native(Path(vectors_path)), subset, k=args.k,
                              target=args.target, seed=args.seed, test_size=args.test_size), 4)
        except ValueError as exc:
            log.warning("%s: no kNN score: %s", model, exc)
            r2 = float("nan")
        rows.append(ScoreRow("numeracy", "table6", model, "", "r2", r2, len(subset)))
    write_scores(rows, Path(args.output))


def cmd_pmi(args: argparse.Namespace) -> None:
    """Top nouns by PMI after primitive vs large numbers, in sentences with numbers (Table 5)."""
    from reprobe.numeracy.pmi import pmi_table

    pmi_table([Path(p) for p in args.sentences], Path(args.output), sample_size=args.sample,
              seed=args.seed, lambdas=args.lambdas, smoothing=args.smoothing, top=args.top)


def cmd_table(args: argparse.Namespace) -> None:
    """Write one of the paper's tables beside the published numbers."""
    from reprobe.numeracy.tables import write_numeracy_table

    write_numeracy_table(args.table, [Path(p) for p in args.scores], Path(args.reference),
                         Path(args.csv), Path(args.md), tie_break=args.tie_break,
                         exclude_equidistant=args.ova_exclude_equidistant)


def _add_test_rules(parser: argparse.ArgumentParser) -> None:
    """The options that fix which tests exist (the tables' notes repeat them); required, so
    that the schema's default is the only one."""
    from reprobe.numeracy.contrastive import TIE_BREAKS

    parser.add_argument("--tie-break", choices=TIE_BREAKS, required=True,
                        help="which of two equally far numbers comes first (x+, SC's and BC's x-)")
    parser.add_argument("--ova-exclude-equidistant", action=argparse.BooleanOptionalAction,
                        required=True,
                        help="leave the number as close to x as x+ out of OVA's x- (footnote 4)")


def register(commands: argparse._SubParsersAction,
             add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the `numeracy` command group to the CLI."""
    group = commands.add_parser("numeracy", help="Naik et al. 2019: numeracy of embeddings")
    sub = group.add_subparsers(dest="numeracy_command", required=True, metavar="STEP")

    count = add("count", cmd_count, sub)
    count.add_argument("--sentences", required=True, help="a sentences.parquet shard or text")
    count.add_argument("--output", required=True, help="counts JSON")

    select = add("select", cmd_select, sub)
    select.add_argument("--sentences", required=True, help="the shard to select from")
    select.add_argument("--shard-index", type=int, required=True, help="its place among shards")
    select.add_argument("--counts", nargs="+", required=True, help="every shard's counts, in order")
    select.add_argument("--seed", type=int, required=True, help="sampling seed")
    select.add_argument("--max-sentences", type=int, default=None, help="cap on Num and All")
    select.add_argument("--lowercase", action="store_true", help="lowercase the corpora")
    select.add_argument("--output-dir", required=True, help="folder for num.txt, all.txt, stats")

    corpus = add("corpus", cmd_corpus, sub)
    corpus.add_argument("--num", required=True, help="the Num corpus to write")
    corpus.add_argument("--all", required=True, help="the All corpus to write")
    corpus.add_argument("--stats", required=True, help="their sizes, JSON")
    corpus.add_argument("part_dirs", nargs="+", help="the shards' part folders, in order")

    train = add("train", cmd_train, sub)
    train.add_argument("--family", choices=sorted(FAMILY_NAMES), required=True)
    train.add_argument("--corpus", required=True, help="one sentence a line, tokens spaced")
    train.add_argument("--output", required=True, help="vectors, word2vec text format")
    add_settings_option(train, RetrainSettings, "numeracy.retrain")
    train.add_argument("--seed", type=int, required=True, help="the config's seed")
    train.add_argument("--threads", type=int, required=True, help="training threads (the job's)")

    vectors = add("vectors", cmd_vectors, sub)
    vectors.add_argument("--input", required=True, help="vectors file")
    vectors.add_argument("--format", default="auto", help="glove_txt, word2vec_txt, …, auto")
    vectors.add_argument("--output", required=True, help="gensim .kv to write")

    numerals = add("numerals", cmd_numerals, sub)
    numerals.add_argument("--vectors", required=True, help="gensim .kv")
    numerals.add_argument("--model", required=True, help="model name in the tables")
    numerals.add_argument("--output", required=True, help="numerals TSV")
    numerals.add_argument("--scores", required=True, help="Table 1 score rows, CSV")

    tests = add("tests", cmd_tests, sub)
    tests.add_argument("--kind", choices=["mag", "num"], required=True)
    tests.add_argument("--output-dir", required=True, help="folder for the test TSVs")
    tests.add_argument("numerals", nargs="+", help="numerals TSVs of the models sharing the set")
    _add_test_rules(tests)

    probe = add("probe", cmd_probe, sub)
    probe.add_argument("--vectors", required=True, help="gensim .kv")
    probe.add_argument("--model", required=True)
    probe.add_argument("--role", choices=["off_the_shelf", "retrained"], required=True)
    probe.add_argument("--mag", required=True, help="magnitude test folder")
    probe.add_argument("--num", required=True, help="numeration test folder")
    probe.add_argument("--seed", type=int, required=True)
    probe.add_argument("--output", required=True, help="score rows, CSV")

    random = add("random", cmd_random, sub)
    random.add_argument("--model", required=True, help="row name: Random or random")
    random.add_argument("--role", choices=["off_the_shelf", "retrained"], required=True)
    random.add_argument("--mag", required=True)
    random.add_argument("--num", default=None)
    random.add_argument("--dim", type=int, required=True)
    random.add_argument("--seed", type=int, required=True)
    random.add_argument("--output", required=True)

    knn = add("knn", cmd_knn, sub)
    knn.add_argument("--models", nargs="+", required=True)
    knn.add_argument("--vectors", nargs="+", required=True, help="one .kv per model, in order")
    knn.add_argument("--numerals", nargs="+", required=True, help="each model's numerals TSV")
    knn.add_argument("--set-numerals", nargs="+", required=True,
                     help="numerals TSVs of the models whose common numbers form the set")
    knn.add_argument("--k", type=int, required=True)
    knn.add_argument("--target", choices=["log", "raw"], required=True)
    knn.add_argument("--test-size", type=float, required=True)
    knn.add_argument("--seed", type=int, required=True)
    knn.add_argument("--output", required=True)

    pmi = add("pmi", cmd_pmi, sub)
    pmi.add_argument("--sentences", nargs="+", required=True, help="corpora or shards")
    pmi.add_argument("--sample", type=int, required=True)
    pmi.add_argument("--lambdas", type=float, nargs="+", required=True)
    pmi.add_argument("--smoothing", type=float, required=True)
    pmi.add_argument("--top", type=int, required=True)
    pmi.add_argument("--seed", type=int, required=True)
    pmi.add_argument("--output", required=True)

    table = add("table", cmd_table, sub)
    table.add_argument("--table", required=True, help="table1 … table9")
    table.add_argument("--reference", required=True, help="the paper's numbers, CSV")
    table.add_argument("--csv", required=True)
    table.add_argument("--md", required=True)
    table.add_argument("scores", nargs="*", help="score CSVs")
    _add_test_rules(table)

