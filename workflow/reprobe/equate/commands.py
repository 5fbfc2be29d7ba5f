"""`reprobe equate …`: the steps of the EQUATE workflow (Ravichander et al. 2019)."""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reprobe.errors import ReprobeError
from reprobe.io import atomic_write_text

log = logging.getLogger("reprobe.equate")


def cmd_awpnli(args: argparse.Namespace) -> None:
    """Build AwpNLI from arithmetic word problems (Roy & Roth questions.json)."""
    from reprobe.equate.sets.awpnli import build_awpnli

    build_awpnli(Path(args.problems), Path(args.output), seed=args.seed,
                 folds=[Path(f) for f in args.folds])


def cmd_stresstest(args: argparse.Namespace) -> None:
    """Build the quantifier Stress Test from AQuA-RAT problems."""
    from reprobe.equate.sets.stresstest import build_stress_test

    build_stress_test(Path(args.aqua), Path(args.output), seed=args.seed,
                      max_premises=args.max_premises)


def cmd_newsnli_shard(args: argparse.Namespace) -> None:
    """Score one shard of the CNN stories: NewsNLI candidates before the top-half cut."""
    from reprobe.equate.sets.newsnli import write_newsnli_shard

    write_newsnli_shard(Path(args.stories), args.shard, args.shards, Path(args.output))


def cmd_newsnli(args: argparse.Namespace) -> None:
    """Gather the NewsNLI shards: keep the most similar half; write the candidates (unlabelled)."""
    from reprobe.equate.sets.newsnli import gather_newsnli_shards

    gather_newsnli_shards(Path(args.stories), [Path(p) for p in args.shards], Path(args.output))


def cmd_reddit_titles(args: argparse.Namespace) -> None:
    """One Reddit dump's usable r/economics titles (a RedditNLI shard)."""
    from reprobe.equate.sets.redditnli import write_dump_titles

    write_dump_titles(Path(args.dump), Path(args.output))


def cmd_redditnli(args: argparse.Namespace) -> None:
    """Gather the title shards: pair titles within days, keep the top (unlabelled)."""
    from reprobe.equate.sets.redditnli import gather_redditnli_shards

    gather_redditnli_shards([Path(p) for p in args.shards], Path(args.output), top=args.top,
                            days=args.days)


def _write_recovery(test_set: str, counts: dict[str, object], output: Path) -> None:
    """Write recovery counts as JSON, and log them."""
    atomic_write_text(output, json.dumps({"test_set": test_set, **counts}, indent=2,
                                         sort_keys=True) + "\n")
    log.info("%s recovery: %s", test_set, json.dumps(counts))


def cmd_label(args: argparse.Namespace) -> None:
    """Label candidates from the released set they recover; count what is recovered."""
    from reprobe.equate.sets.recovery import label_candidates

    counts = label_candidates(Path(args.candidates), Path(args.released), Path(args.output))
    _write_recovery(args.test_set, counts, Path(args.recovery))


def cmd_recovery(args: argparse.Namespace) -> None:
    """Count the released pairs a rebuilt set reproduces (exact, swapped, premise only)."""
    from reprobe.equate.sets.recovery import recovery_table

    counts = recovery_table(Path(args.rebuilt), Path(args.released))
    _write_recovery(args.test_set, counts, Path(args.output))


def cmd_perturb(args: argparse.Namespace) -> None:
    """Write §5.1's unperturbed and perturbed NewsNLI sets."""
    from reprobe.equate.sets.perturb import build_perturbation_sets

    build_perturbation_sets(Path(args.newsnli), Path(args.unperturbed), Path(args.perturbed),
                            seed=args.seed)


def cmd_train_hyp(args: argparse.Namespace) -> None:
    """Train the hypothesis-only fastText classifier (HYP) on NLI pairs."""
    from reprobe.equate.baselines import train_hyp

    train_hyp(Path(args.train), Path(args.output), seed=args.seed, epochs=args.epochs,
              dim=args.dim, lr=args.lr, word_ngrams=args.word_ngrams)


def cmd_tiny_model(args: argparse.Namespace) -> None:
    """Train a tiny BERT NLI checkpoint on NLI pairs (the offline neural row)."""
    from reprobe.equate.neural import build_tiny_nli_model

    build_tiny_nli_model(Path(args.output_dir), Path(args.train), seed=args.seed,
                         hidden=args.hidden, layers=args.layers, steps=args.steps, lr=args.lr)


def cmd_checkpoint(args: argparse.Namespace) -> None:
    """Gather fetched checkpoint files (NAME=PATH) into one model folder."""
    from reprobe.equate.neural import assemble_checkpoint

    files = {}
    for item in args.files:
        name, sep, path = item.partition("=")
        if not sep:
            raise ReprobeError(f"checkpoint file: expected NAME=PATH, got {item!r}")
        files[name] = Path(path)
    assemble_checkpoint(files, Path(args.output_dir))


def _predictor(args: argparse.Namespace) -> Any:
    """The predictor a `score` call describes, its files and settings checked and loaded."""
    from reprobe.equate.evaluate import Predictor
    from reprobe.equate.targets import KIND_FILES, KIND_SETTINGS, option_flag

    needed = [*KIND_FILES[args.kind], *KIND_SETTINGS.get(args.kind, ())]
    missing = [option_flag(name) for name in needed if getattr(args, name) in (None, "")]
    if missing:
        raise ReprobeError(f"equate score --kind {args.kind} needs {', '.join(missing)}")
    resources: Any = None
    if args.kind == "qreas_authors":
        from reprobe.equate.authors.equations import POOL_SOLUTIONS
        from reprobe.equate.authors.pruner import Lexicon, read_word_list
        from reprobe.equate.authors.reasoner import Reading
        from reprobe.equate.qreas.wordnet import load_wordnet

        lexicon = Lexicon(load_wordnet(Path(args.wordnet)), read_word_list(Path(args.jobs)),
                          read_word_list(Path(args.nationalities)))
        reading = Reading(pool=POOL_SOLUTIONS if args.solutions == "pool" else None,
                          contradiction_on_mismatch=args.mismatch == "contradiction")
        resources = (lexicon, reading)
    if args.kind == "qreas":
        from reprobe.equate.qreas.pipeline import Resources
        from reprobe.equate.qreas.pruner import load_word_list
        from reprobe.equate.qreas.wordnet import load_wordnet

        resources = Resources(load_wordnet(Path(args.wordnet)), load_word_list(Path(args.jobs)),
                              load_word_list(Path(args.nationalities)),
                              max_depth=args.max_depth, max_solutions=args.max_solutions,
                              years=args.years, strict_bounds=args.strict_bounds,
                              cross_units=args.cross_units)
    return Predictor(
        args.kind, hyp_model=Path(args.hyp_model) if args.hyp_model else None,
        checkpoint=Path(args.checkpoint) if args.checkpoint else None,
        label_map=json.loads(args.label_map) if args.label_map else None, resources=resources,
        threads=args.threads)


def cmd_score(args: argparse.Namespace) -> None:
    """Run one Table 6 row on one evaluation set (or one shard of it, or gather its shards);
    write predictions and score rows."""
    from reprobe.equate.evaluate import Predictor, evaluate_set, predict_shard

    if args.shard is not None:
        n = predict_shard(_predictor(args), Path(args.pairs), test_set=args.test_set,
                          variant=args.variant, shard=args.shard, shards=args.shards,
                          out_jsonl=Path(args.predictions))
        log.info("%s on %s/%s: shard %d of %d, %d pairs", args.model, args.variant,
                 args.test_set, args.shard, args.shards, n)
        return
    if not args.scores:
        raise ReprobeError("equate score needs --scores (or --shard to label one shard)")
    # Gathering shards reads only their predictions: no model or WordNet to load.
    predictor = Predictor(args.kind) if args.from_shards else _predictor(args)
    row = evaluate_set(predictor, Path(args.pairs), model=args.model, test_set=args.test_set,
                       variant=args.variant, scores_csv=Path(args.scores),
                       predictions_jsonl=Path(args.predictions),
                       shard_files=[Path(p) for p in args.from_shards])
    log.info("%s on %s/%s: %s%% of %s", args.model, args.variant, args.test_set,
             f"{row.value:.1f}" if isinstance(row.value, float) else row.value, row.n)


def cmd_table6(args: argparse.Namespace) -> None:
    """Write Table 6 (one evaluation variant) beside one published version."""
    from reprobe.equate.tables import write_table6

    predictions = {}
    for argument in args.qreas_predictions:
        key, _, path = argument.partition("=")
        test_set, _, row = key.partition("/")
        if not path or not row:
            raise ReprobeError(f"--qreas-predictions {argument!r}: expected SET/ROW=PATH")
        predictions[(test_set, row)] = Path(path)
    write_table6([Path(s) for s in args.scores], Path(args.reference), Path(args.csv),
                 Path(args.md), predictions)


def cmd_perturbation_table(args: argparse.Namespace) -> None:
    """Write the §5.1 table: accuracy on unperturbed vs perturbed NewsNLI pairs."""
    from reprobe.equate.tables import write_perturbation_table

    write_perturbation_table([Path(s) for s in args.scores],
                             Path(args.reference) if args.reference else None,
                             Path(args.csv), Path(args.md))


def cmd_recovery_table(args: argparse.Namespace) -> None:
    """Write how many released pairs the rebuilt sets (and candidates) reproduce."""
    from reprobe.equate.tables import write_recovery_table

    write_recovery_table([Path(r) for r in args.recovery], Path(args.csv), Path(args.md))


def register(commands: argparse._SubParsersAction,
             add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the `equate` command group to the CLI."""
    group = commands.add_parser("equate", help="Ravichander et al. 2019: EQUATE and Q-REAS")
    sub = group.add_subparsers(dest="equate_command", required=True, metavar="STEP")

    awp = add("awpnli", cmd_awpnli, sub)
    awp.add_argument("--problems", required=True, help="questions.json (Roy & Roth)")
    awp.add_argument("--output", required=True, help="AwpNLI jsonl (a .card.json goes beside)")
    awp.add_argument("--seed", type=int, required=True, help="seed of the wrong guesses")
    awp.add_argument("folds", nargs="*",
                     help="files of problem ids to keep (e.g. allArith folds); none: every problem")

    stress = add("stresstest", cmd_stresstest, sub)
    stress.add_argument("--aqua", required=True, help="AQuA-RAT problems, one JSON a line")
    stress.add_argument("--output", required=True, help="Stress Test jsonl")
    stress.add_argument("--seed", type=int, required=True, help="seed of the changed quantities")
    stress.add_argument("--max-premises", type=int, default=None,
                        help="keep a seeded sample of this many premises")

    news_shard = add("newsnli-shard", cmd_newsnli_shard, sub)
    news_shard.add_argument("--stories", required=True,
                            help="folder (or .tgz) of CNN .story files")
    news_shard.add_argument("--shard", type=int, required=True, help="this shard, from 0")
    news_shard.add_argument("--shards", type=int, required=True, help="number of shards")
    news_shard.add_argument("--output", required=True,
                            help="scored candidates, Parquet (counts go beside, .json)")

    news = add("newsnli", cmd_newsnli, sub)
    news.add_argument("--stories", required=True, help="the stories (named in the card)")
    news.add_argument("--output", required=True, help="candidate jsonl (gold_label empty)")
    news.add_argument("shards", nargs="+", help="the shards' Parquet files, in shard order")

    titles = add("reddit-titles", cmd_reddit_titles, sub)
    titles.add_argument("--dump", required=True, help="a Pushshift submission dump (.zst/NDJSON)")
    titles.add_argument("--output", required=True,
                        help="usable titles, Parquet (counts go beside, .json)")

    reddit = add("redditnli", cmd_redditnli, sub)
    reddit.add_argument("--output", required=True, help="candidate jsonl (gold_label empty)")
    reddit.add_argument("--top", type=int, required=True, help="pairs kept (paper 300)")
    reddit.add_argument("--days", type=float, required=True, help="pairing window in days")
    reddit.add_argument("shards", nargs="+", help="the dumps' title Parquet files, in dump order")

    label = add("label", cmd_label, sub)
    label.add_argument("--test-set", required=True, help="newsnli or redditnli")
    label.add_argument("--candidates", required=True, help="candidate jsonl")
    label.add_argument("--released", required=True, help="released jsonl with human labels")
    label.add_argument("--output", required=True, help="rebuilt labelled jsonl")
    label.add_argument("--recovery", required=True, help="recovery counts, JSON")

    recovery_counts = add("recovery", cmd_recovery, sub)
    recovery_counts.add_argument("--test-set", required=True, help="stresstest or awpnli")
    recovery_counts.add_argument("--rebuilt", required=True, help="the rebuilt jsonl")
    recovery_counts.add_argument("--released", required=True, help="the released jsonl")
    recovery_counts.add_argument("--output", required=True, help="recovery counts, JSON")

    perturb = add("perturb", cmd_perturb, sub)
    perturb.add_argument("--newsnli", required=True, help="labelled NewsNLI jsonl")
    perturb.add_argument("--unperturbed", required=True, help="jsonl to write")
    perturb.add_argument("--perturbed", required=True, help="jsonl to write")
    perturb.add_argument("--seed", type=int, required=True)

    hyp = add("train-hyp", cmd_train_hyp, sub)
    hyp.add_argument("--train", required=True, help="NLI training jsonl (MultiNLI layout)")
    hyp.add_argument("--output", required=True, help="fastText model .bin")
    hyp.add_argument("--seed", type=int, required=True)
    hyp.add_argument("--epochs", type=int, required=True)
    hyp.add_argument("--dim", type=int, required=True)
    hyp.add_argument("--lr", type=float, required=True)
    hyp.add_argument("--word-ngrams", type=int, required=True)

    tiny = add("tiny-model", cmd_tiny_model, sub)
    tiny.add_argument("--train", required=True, help="NLI training jsonl (MultiNLI layout)")
    tiny.add_argument("--output-dir", required=True, help="checkpoint folder")
    tiny.add_argument("--seed", type=int, required=True)
    tiny.add_argument("--hidden", type=int, required=True)
    tiny.add_argument("--layers", type=int, required=True)
    tiny.add_argument("--steps", type=int, required=True)
    tiny.add_argument("--lr", type=float, required=True)

    checkpoint = add("checkpoint", cmd_checkpoint, sub)
    checkpoint.add_argument("--output-dir", required=True, help="checkpoint folder")
    checkpoint.add_argument("files", nargs="+", help="NAME=PATH: hub file name and fetched file")

    score = add("score", cmd_score, sub)
    score.add_argument("--kind", choices=["majority", "hyp", "neural", "qreas", "qreas_authors"],
                       required=True, help="qreas: Algorithm 1; qreas_authors: the released code")
    score.add_argument("--model", required=True, help="row name in Table 6")
    score.add_argument("--test-set", required=True,
                       help="rte_quant, newsnli, redditnli, stresstest, awpnli, "
                       "unperturbed or perturbed")
    score.add_argument("--variant", choices=["released", "rebuilt", "perturbation"],
                       required=True)
    score.add_argument("--pairs", required=True, help="the evaluation jsonl")
    score.add_argument("--scores", help="score rows CSV to write (not with --shard)")
    score.add_argument("--predictions", required=True,
                       help="predictions jsonl to write (with --shard: that shard's)")
    score.add_argument("--shard", type=int,
                       help="label only the pairs i with i mod --shards == this (0-based)")
    score.add_argument("--shards", type=int, default=1, help="number of shards (with --shard)")
    score.add_argument("--from-shards", nargs="+", default=[],
                       help="gather the predictions of these shard files instead of labelling")
    score.add_argument("--hyp-model", help="HYP: the fastText model")
    score.add_argument("--checkpoint", help="neural: the checkpoint folder")
    score.add_argument("--label-map", help="neural: JSON class name -> label")
    score.add_argument("--wordnet", help="Q-REAS: WordNet database folder")
    score.add_argument("--jobs", help="Q-REAS: job list")
    score.add_argument("--nationalities", help="Q-REAS: nationality list")
    # Q-REAS's settings have one default, the config schema's (`equate.qreas`): required
    # with --kind qreas, checked in _predictor.
    score.add_argument("--max-depth", type=int, help="Q-REAS: tree depth (paper 3)")
    score.add_argument("--max-solutions", type=int, help="Q-REAS: equations kept (paper 50)")
    score.add_argument("--years", choices=["date", "quantity", "drop"],
                       help="Q-REAS: how a year such as 'in 2005' is read")
    score.add_argument("--strict-bounds", action="store_true",
                       help="Q-REAS, beyond the paper: 'more/fewer than', 'over', 'under' "
                            "exclude their endpoint")
    score.add_argument("--cross-units", action="store_true",
                       help="Q-REAS, beyond the paper: x and / may combine quantities of "
                            "different units")
    score.add_argument("--solutions", choices=["every", "pool"],
                       help="Q-REAS (released code): every ILP solution, or its 50-solution pool")
    score.add_argument("--mismatch", choices=["contradiction", "neutral"],
                       help="Q-REAS (released code): what a value mismatch makes the pair")
    score.add_argument("--threads", type=int, default=1, help="neural: CPU threads")

    table6 = add("table6", cmd_table6, sub)
    table6.add_argument("--reference", required=True, help="published Table 6, long CSV")
    table6.add_argument("--csv", required=True)
    table6.add_argument("--md", required=True)
    table6.add_argument("--qreas-predictions", action="append", default=[],
                        help="SET/ROW=PATH (repeatable): a Q-REAS row's predictions on a set, "
                             "to count the pairs the released code's rules move")
    table6.add_argument("scores", nargs="+", help="score rows CSVs")

    perturbation = add("perturbation-table", cmd_perturbation_table, sub)
    perturbation.add_argument("--reference", help="published numbers with s5.1 rows")
    perturbation.add_argument("--csv", required=True)
    perturbation.add_argument("--md", required=True)
    perturbation.add_argument("scores", nargs="+", help="score rows CSVs")

    recovery = add("recovery-table", cmd_recovery_table, sub)
    recovery.add_argument("--csv", required=True)
    recovery.add_argument("--md", required=True)
    recovery.add_argument("recovery", nargs="+",
                          help="recovery JSONs from `equate label` or `equate recovery`")
