"""`reprobe equate …`: the steps of the EQUATE workflow (Ravichander et al. 2019)."""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reprobe.equate.harness_commands import register_harness
from reprobe.equate.settings import (
    TINY_PATH,
    HypSettings,
    QreasSettings,
    RedditSettings,
    TinyNliSettings,
)
from reprobe.equate.trained_commands import register_trained
from reprobe.errors import ReprobeError
from reprobe.io import atomic_write_text
from reprobe.step_options import add_names, add_paths, listed, one_of, optional, several
from reprobe.step_settings import add_settings_option

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

    settings = args.settings
    gather_redditnli_shards([Path(p) for p in args.shards], Path(args.output), top=settings.top,
                            days=settings.days)


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

    train_hyp(Path(args.train), Path(args.output), seed=args.seed,
              settings=args.settings)


def cmd_tiny_model(args: argparse.Namespace) -> None:
    """Train a tiny BERT NLI checkpoint on NLI pairs (the offline neural row)."""
    from reprobe.equate.neural import build_tiny_nli_model

    build_tiny_nli_model(Path(args.output_dir), Path(args.train), seed=args.seed,
                         settings=args.settings)


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
    from reprobe.equate.targets import KIND_FILES, KIND_SETTINGS, QREAS_KINDS, option_flag

    needed = [*KIND_FILES[args.kind], *KIND_SETTINGS.get(args.kind, ())]
    missing = [option_flag(name) for name in needed if getattr(args, name) in (None, "")]
    if missing:
        raise ReprobeError(f"equate score --kind {args.kind} needs {', '.join(missing)}")
    resources: Any = None
    if args.kind in QREAS_KINDS:
        from reprobe.equate.qreas.wordnet import load_wordnet

        settings = args.settings
        wordnet = load_wordnet(Path(args.wordnet))
    if args.kind == "qreas_authors":
        from reprobe.equate.authors.pruner import Lexicon, read_word_list
        from reprobe.equate.authors.reasoner import Reading

        lexicon = Lexicon(wordnet, read_word_list(Path(args.jobs)),
                          read_word_list(Path(args.nationalities)))
        resources = (lexicon, Reading.of(settings.released_code_reading(args.model)))
    if args.kind == "qreas":
        from reprobe.equate.qreas.pipeline import Resources
        from reprobe.equate.qreas.pruner import load_word_list

        resources = Resources.for_row(wordnet, load_word_list(Path(args.jobs)),
                                      load_word_list(Path(args.nationalities)), settings,
                                      args.model)
    return Predictor(
        args.kind, hyp_model=Path(args.hyp_model) if args.hyp_model else None,
        checkpoint=Path(args.checkpoint or args.trained_model)
        if args.checkpoint or args.trained_model else None,
        label_map=json.loads(args.label_map) if args.label_map else None,
        batch_size=args.batch_size, resources=resources, threads=args.threads)


def cmd_score(args: argparse.Namespace) -> None:
    """Run one Table 6 row on evaluation sets, its model loaded once (or on one shard of a
    set, or gather a set's shards); write predictions and score rows per set."""
    from reprobe.equate.evaluate import Predictor, evaluate_set, predict_shard

    sets = _score_sets(args)
    if args.shard is not None:
        (test_set, pairs, _, predictions), = sets
        n = predict_shard(_predictor(args), Path(pairs), test_set=test_set,
                          variant=args.variant, shard=args.shard, shards=args.shards,
                          out_jsonl=Path(predictions))
        log.info("%s on %s/%s: shard %d of %d, %d pairs", args.model, args.variant,
                 test_set, args.shard, args.shards, n)
        return
    # Gathering shards reads only their predictions: no model or WordNet to load.
    predictor = Predictor(args.kind) if args.from_shards else _predictor(args)
    for test_set, pairs, scores, predictions in sets:
        row = evaluate_set(predictor, Path(pairs), model=args.model, test_set=test_set,
                           variant=args.variant, scores_csv=Path(scores),
                           predictions_jsonl=Path(predictions),
                           shard_files=[Path(p) for p in args.from_shards])
        log.info("%s on %s/%s: %s%% of %s", args.model, args.variant, test_set,
                 f"{row.value:.1f}" if isinstance(row.value, float) else row.value, row.n)


def _score_sets(args: argparse.Namespace) -> list[tuple[str, str, str | None, str]]:
    """`score`'s sets: (name, pairs, scores, predictions), the lists checked against each
    other; one set only for a shard or a gather."""
    names, pairs, predictions = args.test_set, args.pairs, args.predictions
    scores = args.scores if args.scores else [None] * len(names)
    if not len(names) == len(pairs) == len(scores) == len(predictions):
        raise ReprobeError(f"equate score: {len(names)} --test-set, {len(pairs)} --pairs, "
                           f"{len(scores)} --scores and {len(predictions)} --predictions: "
                           "give one of each per set")
    if (args.shard is not None or args.from_shards) and len(names) != 1:
        raise ReprobeError("equate score: --shard and --from-shards take one --test-set")
    if args.shard is None and not args.scores:
        raise ReprobeError("equate score needs --scores (or --shard to label one shard)")
    return list(zip(names, pairs, scores, predictions, strict=True))


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
                 Path(args.md), predictions, beyond_paper=args.beyond_paper)


def cmd_perturbation_table(args: argparse.Namespace) -> None:
    """Write the §5.1 table: accuracy on unperturbed vs perturbed NewsNLI pairs."""
    from reprobe.equate.tables import write_perturbation_table

    write_perturbation_table([Path(s) for s in args.scores],
                             Path(args.reference) if args.reference else None,
                             Path(args.csv), Path(args.md), beyond_paper=args.beyond_paper)


def cmd_recovery_table(args: argparse.Namespace) -> None:
    """Write how many released pairs the rebuilt sets (and candidates) reproduce."""
    from reprobe.equate.tables import write_recovery_table

    write_recovery_table([Path(r) for r in args.recovery], Path(args.csv), Path(args.md))


def cmd_export(args: argparse.Namespace) -> None:
    """Write one evaluation set as a Hugging Face dataset folder (Parquet and a dataset card)."""
    from reprobe.equate.exports import export_set
    from reprobe.io import json_object

    export_set(Path(args.pairs), Path(args.output), variant=args.variant,
               test_set=args.test_set,
               recovery=Path(args.recovery) if args.recovery else None,
               sources=json_object(args.sources_json, "--sources-json")
               if args.sources_json else {})


def cmd_harness_tasks(args: argparse.Namespace) -> None:
    """Write lm-evaluation-harness tasks (NLI as multiple choice) over exported set folders."""
    from reprobe.equate.harness_tasks import write_tasks

    write_tasks([Path(folder) for folder in args.folders], Path(args.output))


def add_beyond_paper_option(table: argparse.ArgumentParser) -> None:
    """A table step's `--beyond-paper` option: one row per use (a name may hold spaces)."""
    table.add_argument("--beyond-paper", action="append", default=[], metavar="ROW",
                       help="(repeatable) a neural row the paper did not test "
                            "(equate.neural), marked and placed last")


def register(commands: argparse._SubParsersAction,
             add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the `equate` command group to the CLI."""
    group = commands.add_parser("equate", help="Ravichander et al. 2019: EQUATE and Q-REAS")
    sub = group.add_subparsers(dest="equate_command", required=True, metavar="STEP")

    awp = add("awpnli", cmd_awpnli, sub)
    add_paths(awp, problems="questions.json (Roy & Roth)",
              output="AwpNLI jsonl (a .card.json goes beside)",
              folds=listed("files of problem ids to keep (e.g. allArith folds); none: every "
                           "problem", at_least=0))
    awp.add_argument("--seed", type=int, required=True, help="seed of the wrong guesses")

    stress = add("stresstest", cmd_stresstest, sub)
    add_paths(stress, aqua="AQuA-RAT problems, one JSON a line", output="Stress Test jsonl")
    stress.add_argument("--seed", type=int, required=True, help="seed of the changed quantities")
    stress.add_argument("--max-premises", type=int, default=None,
                        help="keep a seeded sample of this many premises")

    news_shard = add("newsnli-shard", cmd_newsnli_shard, sub)
    add_paths(news_shard, stories="folder (or .tgz) of CNN .story files",
              output="scored candidates, Parquet (counts go beside, .json)")
    news_shard.add_argument("--shard", type=int, required=True, help="this shard, from 0")
    news_shard.add_argument("--shards", type=int, required=True, help="number of shards")

    news = add("newsnli", cmd_newsnli, sub)
    add_paths(news, stories="the stories (named in the card)",
              output="candidate jsonl (gold_label empty)",
              shards=listed("the shards' Parquet files, in shard order"))

    titles = add("reddit-titles", cmd_reddit_titles, sub)
    add_paths(titles, dump="a Pushshift submission dump (.zst/NDJSON)",
              output="usable titles, Parquet (counts go beside, .json)")

    reddit = add("redditnli", cmd_redditnli, sub)
    add_paths(reddit, output="candidate jsonl (gold_label empty)",
              shards=listed("the dumps' title Parquet files, in dump order"))
    add_settings_option(reddit, RedditSettings, "equate.redditnli")

    label = add("label", cmd_label, sub)
    add_names(label, test_set="newsnli or redditnli")
    add_paths(label, candidates="candidate jsonl", released="released jsonl with human labels",
              output="rebuilt labelled jsonl", recovery="recovery counts, JSON")

    recovery_counts = add("recovery", cmd_recovery, sub)
    add_names(recovery_counts, test_set="stresstest or awpnli")
    add_paths(recovery_counts, rebuilt="the rebuilt jsonl", released="the released jsonl",
              output="recovery counts, JSON")

    perturb = add("perturb", cmd_perturb, sub)
    add_paths(perturb, newsnli="labelled NewsNLI jsonl", unperturbed="jsonl to write",
              perturbed="jsonl to write")
    perturb.add_argument("--seed", type=int, required=True)

    hyp = add("train-hyp", cmd_train_hyp, sub)
    add_paths(hyp, train="NLI training jsonl (MultiNLI layout)", output="fastText model .bin")
    hyp.add_argument("--seed", type=int, required=True)
    add_settings_option(hyp, HypSettings, "equate.hyp")

    tiny = add("tiny-model", cmd_tiny_model, sub)
    add_paths(tiny, train="NLI training jsonl (MultiNLI layout)", output_dir="checkpoint folder")
    tiny.add_argument("--seed", type=int, required=True)
    add_settings_option(tiny, TinyNliSettings, TINY_PATH)

    checkpoint = add("checkpoint", cmd_checkpoint, sub)
    add_paths(checkpoint, output_dir="checkpoint folder",
              files=listed("NAME=PATH: hub file name and fetched file"))

    score = add("score", cmd_score, sub)
    add_names(score, kind=one_of(["majority", "hyp", "trained", "neural", "qreas",
                                  "qreas_authors"],
                                 "trained: a baseline trained here; qreas: Algorithm 1; "
                                 "qreas_authors: the released code"),
              model="row name in Table 6",
              test_set=several("the sets (rte_quant, newsnli, redditnli, stresstest, awpnli, "
                               "unperturbed, perturbed), one for --shard or --from-shards"),
              variant=one_of(["released", "rebuilt", "perturbation", "mnli"],
                             "mnli: Table 7's MultiNLI dev-matched"))
    add_paths(score, pairs=several("each set's evaluation jsonl"),
              scores=several("each set's score rows CSV to write (not with --shard)",
                             required=False),
              predictions=several("each set's predictions jsonl to write (with --shard: that "
                                  "shard's)"),
              hyp_model=optional("HYP: the fastText model"),
              checkpoint=optional("neural: the checkpoint folder"),
              trained_model=optional("trained: the model folder `equate train-baseline` wrote"),
              wordnet=optional("Q-REAS: WordNet database folder"),
              jobs=optional("Q-REAS: job list"), nationalities=optional("Q-REAS: nationality list"))
    score.add_argument("--from-shards", nargs="+", default=[], metavar="PATH",
                       help="gather the predictions of these shard files instead of labelling")
    score.add_argument("--label-map", help="neural: JSON class name -> label")
    score.add_argument("--batch-size", type=int, help="neural, trained: pairs per batch")
    # Q-REAS rows read `equate.qreas` (the row's own released-code or variant entry only).
    add_settings_option(score, QreasSettings, "equate.qreas")
    score.add_argument("--shard", type=int,
                       help="label only the pairs i with i mod --shards == this (0-based)")
    score.add_argument("--shards", type=int, default=1, help="number of shards (with --shard)")
    score.add_argument("--threads", type=int, default=1, help="neural: CPU threads")

    table6 = add("table6", cmd_table6, sub)
    add_paths(table6, reference="published Table 6, long CSV", csv="table CSV to write",
              md="table Markdown to write", scores=listed("score rows CSVs"))
    table6.add_argument("--qreas-predictions", action="append", default=[],
                        metavar="SET/ROW=PATH",
                        help="(repeatable) a Q-REAS row's predictions on a set, to count the "
                             "pairs the released code's rules move")
    add_beyond_paper_option(table6)

    perturbation = add("perturbation-table", cmd_perturbation_table, sub)
    add_paths(perturbation, reference=optional("published numbers with s5.1 rows"),
              csv="table CSV to write", md="table Markdown to write",
              scores=listed("score rows CSVs"))
    add_beyond_paper_option(perturbation)

    export = add("export", cmd_export, sub)
    add_names(export, variant=one_of(["released", "rebuilt", "perturbation"]),
              test_set="the set's name (rte_quant, newsnli, …)")
    add_paths(export, pairs="the set's jsonl", output="the dataset folder to write",
              recovery=optional("recovery counts of a rebuilt set, JSON"))
    export.add_argument("--sources-json", help="the released source's spec (url, sha256)")

    harness = add("harness-tasks", cmd_harness_tasks, sub)
    add_paths(harness, output="the task folder to write (--include_path of lm_eval)",
              folders=listed("exported set folders (released-rte_quant, …)"))
    register_harness(sub, add)
    register_trained(sub, add)

    recovery = add("recovery-table", cmd_recovery_table, sub)
    add_paths(recovery, csv="table CSV to write", md="table Markdown to write",
              recovery=listed("recovery JSONs from `equate label` or `equate recovery`"))
