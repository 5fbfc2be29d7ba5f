#!/usr/bin/env python3
"""EQUATE's seven trained NLI baselines on a CPU: one epoch each at the paper's width, at three
sizes, extrapolated to MultiNLI; length-bucketed against plain batches; the vocabulary step.

Everything runs through the workflow's own commands, each a child process timed by the harness
(`harness.measure`: wall and CPU seconds of the process tree, its peak RSS sampled every 50 ms),
one at a time, with OMP_NUM_THREADS set to the run's threads as Snakemake sets it:

1. Inputs (seeded; nothing is downloaded). A pool of --pool-pairs MultiNLI-layout pairs
   (`pairID`, `genre`, parses, `gold_label`; random labels) whose words follow the open Zipf
   vocabulary of the scale benchmark (scale_equate_inputs' Draws): premises of ~22 tokens,
   hypotheses of ~11 that begin with the premise's first words. 20,000 pairs hold about as
   many distinct words as MultiNLI's training set is taken to (~100,000; CH's released
   `n_words` is 100,140: an assumption, not counted here), so every baseline's embedding (and,
   where it is fine-tuned, its gradient and Adam's states) is the paper's size at every
   training size below. Vector files are GloVe-format text, 300d, the open vocabulary's words
   by rank (scale_vectors.write_vectors, cached under --work-dir): the largest covers most of
   the pool's tokens.
2. `equate vocabulary` over the pool with vector files of --vector-lines lines (50k, 200k,
   800k), fitted as CPU s and peak RSS ∝ lines^α and extrapolated to GloVe 840B's 2,196,017
   lines; counting the paper's 392,702 training pairs instead of the pool's adds the pool's
   counting time per pair (`vocabulary.training_words`, timed here). The largest run's folder
   is the vocabulary every training run reads.
3. `equate train-baseline` of each architecture at width 1.0 (--width), max_epochs 1, on the
   pool's first N pairs for three N per architecture (--sizes; the slow ones smaller), a dev
   set of 2.5% of N (MultiNLI's 9,815 / 392,702). The log's timestamps split a run into its
   epoch (training pairs/s), the dev pass and the checkpoint; the rest is start-up, loading
   and saving. Fitted: CPU s, the epoch's seconds and peak RSS ∝ pairs^α (scale_fit).
   Extrapolated to the paper (marked so): an epoch of 392,702 pairs at the largest size's
   rate (every pair costs the same once the vocabulary is fixed; a power law through the
   start-up's constant would bend below it), plus 9,815 dev pairs at its dev rate and one
   checkpoint; times the epochs the recipe caps (ALIGN 5, SSEN 6, InferSent at most 20) or,
   where only the schedule stops training (CBOW, BiLSTM, CH, ESIM), an assumed
   --assumed-epochs (10); CPU hours are that wall time times the CPU seconds per wall second
   measured. Memory: the largest size's peak plus the flat arrays of the remaining pairs
   (their token ids, offsets, labels, the encoding's transient list and the epoch's index
   arrays): RSS α near 0 says nothing else grows with the training set.
4. Batching, side by side in one run: `train-baseline` of --bucket-architecture (BiLSTM) on
   --bucket-pairs pairs with the workflow's length-bucketed batches
   (`batches.bucketed_batches`: shuffled, sorted by length within chunks of 50 batches) and
   with plain shuffled batches (what a training loop does without it; the child replaces
   `training.bucketed_batches` for training only). Reported: training pairs/s of each, their
   ratio, and the share of padding positions each batching makes.

Prints a Markdown block; --json PATH writes every figure (benchmarks/rule_costs.py
--equate-trained reads it), --update-readme writes the block between the `equate-trained`
markers of docs/benchmarks.md. --tiny runs everything at toy sizes (width 0.05, one thread)
in seconds, for the test. At paper width on two threads the default run takes about 8 minutes
(the vector files are written once, about a minute, and cached).

    python benchmarks/equate_trained.py --json benchmarks/work/equate_trained.json
    python benchmarks/equate_trained.py --tiny --jobs 2 --json /tmp/equate_trained.json
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import harness  # noqa: E402
from equate_trained_inputs import (  # noqa: E402
    DEV_SHARE,
    PAPER_DEV_PAIRS,
    PAPER_PAIRS,
    PAPER_VECTOR_LINES,
    counting_s_per_pair,
    flat_bytes_per_pair,
    nli_pairs,
    pool_facts,
)
from equate_trained_report import (  # noqa: E402
    MB,
    TrainPoint,
    VocabularyPoint,
    best_train,
    markdown,
    train_point,
    train_summary,
    vocabulary_summary,
)
from scale_equate_inputs import write_jsonl  # noqa: E402
from scale_vectors import write_vectors  # noqa: E402

SECTION = "equate-trained"
ARCHITECTURES = ("align", "cbow", "bilstm", "ch", "infersent", "ssen", "esim")
ASSUMED_EPOCHS = 10
# Per architecture, sizes spanning 16x that keep the default run near 8 minutes on 2 threads
# (rates measured at width 1.0: ALIGN ~10,000 pairs/s, CBOW ~130 (Adam over its fine-tuned
# 100,000 x 300 embedding every step), BiLSTM ~95, ESIM ~60, CH ~16, InferSent ~8, SSEN ~3).
SIZES: dict[str, tuple[int, ...]] = {
    "align": (256, 1024, 4096), "cbow": (128, 512, 2048), "bilstm": (128, 512, 2048),
    "esim": (128, 512, 2048), "ch": (32, 128, 512), "infersent": (16, 64, 256),
    "ssen": (16, 64, 256)}
VECTOR_LINES = (50_000, 200_000, 800_000)
POOL_PAIRS = 20_000
TINY = {"sizes": (16, 32), "vector_lines": (2_000, 4_000), "pool_pairs": 300, "width": 0.05,
        "threads": 1, "bucket_pairs": 32}
MIN_DEV_PAIRS = 8
SEED = 1
# The child that runs `reprobe equate train-baseline` with the workflow's batches or plain ones.
BATCHING_CHILD = ("import sys; sys.path.insert(0, {here!r}); import equate_trained; "
                  "equate_trained.batching_child(sys.argv[1], sys.argv[2:])")


# --- running the steps ------------------------------------------------------------------------


def reprobe_argv(*words: str | Path) -> list[str]:
    """`python -m reprobe …` with this interpreter."""
    return [sys.executable, "-m", "reprobe", *(str(word) for word in words)]


def measured(argv: list[str], log: Path, threads: int) -> tuple[harness.Measurement, str]:
    """Run a child to completion (harness.measure: seconds and peak RSS), and its log."""
    result = harness.measure(argv, log, interval=0.05,
                             env_extra={"OMP_NUM_THREADS": str(threads),
                                        "MKL_NUM_THREADS": str(threads)})
    return result, log.read_text(encoding="utf-8", errors="replace")


def run_vocabulary(pool: Path, vectors: Path, lines: int, output: Path, work: Path,
                   threads: int) -> VocabularyPoint:
    """`equate vocabulary` over the pool and one vector file."""
    shutil.rmtree(output, ignore_errors=True)
    result, log = measured(reprobe_argv("equate", "vocabulary", "--train", pool, "--vectors",
                                        vectors, "--output", output),
                           work / f"vocabulary-{lines}.log", threads)
    found = re.search(r"vocabulary: (\d+) words, (\d+) with a vector", log)
    if found is None:
        raise SystemExit(f"equate vocabulary logged no counts:\n{log[-2000:]}")
    return VocabularyPoint(lines, result.wall_s, result.cpu_s, result.peak_rss_bytes / MB,
                           int(found.group(1)), int(found.group(2)))


@dataclass(frozen=True)
class Job:
    """One training run to make: an architecture at a size, with the batching named."""

    architecture: str
    pairs: int
    batching: str = ""  # "" (the command as the workflow runs it), "bucketed" or "plain"


def settings_json(architecture: str, width: float) -> str:
    """`--settings` of one epoch at a width (InferSent: the paper's classifier)."""
    return json.dumps({"architecture": architecture, "width": width, "max_epochs": 1,
                       "classifier": "paper", "unaligned": 0.5})


def run_training(job: Job, files: dict[int, tuple[Path, Path, int]], vocabulary: Path,
                 work: Path, width: float, threads: int) -> TrainPoint:
    """Train one epoch of a job (its output removed after)."""
    train, dev, dev_pairs = files[job.pairs]
    name = f"{job.architecture}-{job.pairs}{'-' + job.batching if job.batching else ''}"
    output = work / "models" / name
    shutil.rmtree(output, ignore_errors=True)
    words = ["equate", "train-baseline", "--train", train, "--dev", dev, "--vocabulary",
             vocabulary, "--output-dir", output, "--seed", str(SEED), "--threads",
             str(threads), "--settings", settings_json(job.architecture, width), "--training",
             json.dumps({"device": "cpu", "precision": None})]
    argv = reprobe_argv(*words)
    if job.batching:
        argv = [sys.executable, "-c", BATCHING_CHILD.format(here=str(HERE)), job.batching,
                *(str(word) for word in words)]
    try:
        result, log = measured(argv, work / f"{name}.log", threads)
    finally:
        shutil.rmtree(output, ignore_errors=True)
    return train_point(job.pairs, dev_pairs, result, log)


def plain_batches(lengths: np.ndarray, batch_size: int,
                  rng: np.random.Generator | None) -> list[np.ndarray]:
    """Shuffled batches with no regard to length (prediction, without rng, as before)."""
    from reprobe.equate.trained.batches import bucketed_batches

    if rng is None:
        return bucketed_batches(lengths, batch_size, None)
    order = rng.permutation(len(lengths))
    return [order[i:i + batch_size] for i in range(0, len(order), batch_size)]


def batching_child(batching: str, argv: list[str]) -> None:
    """`reprobe …` with the workflow's batches ("bucketed") or plain shuffled ones ("plain")."""
    from reprobe.equate.trained import training

    if batching == "plain":
        training.bucketed_batches = plain_batches
    elif batching != "bucketed":
        raise SystemExit(f"unknown batching {batching!r}")
    from reprobe.__main__ import run

    sys.argv = ["reprobe", *argv]
    run()


def padding_share(path: Path, architecture: str, batching: str) -> float:
    """The share of a training epoch's padded positions (both sides) that are padding: the
    sentences as split, cut where the recipe cuts training sentences (InferSent's <s> </s> and
    dropped words, and the pairs ESIM and CH leave out, are not counted)."""
    from reprobe.equate.trained.architectures import RECIPES
    from reprobe.equate.trained.batches import bucketed_batches
    from reprobe.equate.trained.text import words

    recipe = RECIPES[architecture]
    cut = recipe.text.train_max_tokens or 10**9
    sides = [[], []]
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            for side, key in enumerate(("sentence1", "sentence2")):
                sides[side].append(min(len(words(row[key])), cut))
    premise, hypothesis = np.asarray(sides[0]), np.asarray(sides[1])
    rng = np.random.default_rng([SEED, 0])  # the first epoch's generator (training.py)
    make = bucketed_batches if batching == "bucketed" else plain_batches
    groups = make(np.maximum(premise, hypothesis), recipe.batch_size, rng)
    real = float(premise.sum() + hypothesis.sum())
    padded = float(sum(len(g) * (premise[g].max() + hypothesis[g].max()) for g in groups))
    return 1.0 - real / padded


# --- command line -----------------------------------------------------------------------------


def parse_sizes(values: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """--sizes ARCH=N,N,N (repeatable)."""
    found = {}
    for value in values:
        architecture, _, numbers = value.partition("=")
        if architecture not in ARCHITECTURES or not numbers:
            raise SystemExit(f"--sizes {value!r}: expected ARCH=N,N,… with ARCH one of "
                             f"{', '.join(ARCHITECTURES)}")
        try:
            found[architecture] = tuple(sorted(harness.positive_int(n)
                                               for n in numbers.split(",")))
        except (ValueError, argparse.ArgumentTypeError) as error:
            raise SystemExit(f"--sizes {value!r}: {error}") from None
        if len(set(found[architecture])) < 2:
            raise SystemExit(f"--sizes {value!r}: a fit needs at least two sizes")
    return found


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = harness.new_parser(__doc__)
    parser.add_argument("--architectures", nargs="+", choices=ARCHITECTURES,
                        default=list(ARCHITECTURES), help="which baselines (default all)")
    parser.add_argument("--sizes", action="append", default=[], metavar="ARCH=N,N,N",
                        help="training pairs of an architecture's runs (repeatable; defaults: "
                        + "; ".join(f"{a} {','.join(map(str, s))}" for a, s in SIZES.items())
                        + ")")
    parser.add_argument("--width", type=float, help="every hidden size times this (default "
                        "1.0, the paper's; --tiny 0.05)")
    parser.add_argument("--threads", type=harness.positive_int,
                        help="threads of each run (default: the cores, at most 2; --tiny 1)")
    parser.add_argument("--pool-pairs", type=harness.positive_int,
                        help=f"pairs of the pool (default {POOL_PAIRS:,})")
    parser.add_argument("--vector-lines", type=harness.positive_int, nargs="+",
                        help="lines of the vector files (default "
                        + " ".join(map(str, VECTOR_LINES)) + ")")
    parser.add_argument("--bucket-architecture", choices=ARCHITECTURES, default="bilstm",
                        help="the baseline of the batching comparison (default bilstm)")
    parser.add_argument("--bucket-pairs", type=harness.positive_int,
                        help="its pairs (default its largest size)")
    parser.add_argument("--assumed-epochs", type=harness.positive_int, default=ASSUMED_EPOCHS,
                        help="epochs of a baseline with no cap (default 10: an assumption)")
    parser.add_argument("--jobs", type=harness.positive_int, default=1,
                        help="training runs at once (default 1; more shares the cores, and "
                        "the timings with them)")
    parser.add_argument("--work-dir", type=Path, default=HERE / "work" / "equate_trained",
                        help="inputs and logs (vector files cached; default "
                        "benchmarks/work/equate_trained)")
    parser.add_argument("--tiny", action="store_true",
                        help="toy sizes, width 0.05, one thread: seconds (the test)")
    harness.add_report_options(parser, noun="run", keeps="the least seconds and largest peak",
                               json_help="also write every figure as JSON here (read by "
                               "benchmarks/rule_costs.py --equate-trained)", section=SECTION)
    args = parser.parse_args(argv)
    tiny = args.tiny
    sizes = {a: TINY["sizes"] if tiny else SIZES[a] for a in ARCHITECTURES}
    args.sizes = sizes | parse_sizes(args.sizes)
    args.width = args.width if args.width is not None else TINY["width"] if tiny else 1.0
    args.threads = args.threads or (TINY["threads"] if tiny
                                    else min(2, len(os.sched_getaffinity(0))))
    args.pool_pairs = args.pool_pairs or (TINY["pool_pairs"] if tiny else POOL_PAIRS)
    args.vector_lines = sorted(args.vector_lines or (TINY["vector_lines"] if tiny
                                                     else VECTOR_LINES))
    if len(set(args.vector_lines)) < 2:
        parser.error("--vector-lines: a fit needs at least two sizes")
    args.bucket_pairs = args.bucket_pairs or max(args.sizes[args.bucket_architecture])
    if max(max(args.sizes[a]) for a in args.architectures) > args.pool_pairs or \
            args.bucket_pairs > args.pool_pairs:
        parser.error("a training size exceeds --pool-pairs")
    return args


def main(argv: list[str] | None = None) -> int:
    """Generate the inputs, measure every step, print (and store) the report."""
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    import torch

    date, host = harness.now(), harness.machine()
    provenance = harness.provenance(harness.command_line("benchmarks/equate_trained.py", argv),
                                    date, host)
    work = args.work_dir
    (work / "models").mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    pool = work / f"pool-{args.pool_pairs}.jsonl"
    write_jsonl(pool, nli_pairs(args.pool_pairs, SEED, 0))
    facts = pool_facts(pool)
    print(f"pool: {facts}", file=sys.stderr, flush=True)

    # The vocabulary step at each vector file; the largest's folder is the training vocabulary.
    vocabulary_points = []
    for lines in args.vector_lines:
        vectors = Path(write_vectors(work / f"vectors-{lines}", lines).path)
        output = work / f"vocabulary-{lines}"
        runs = [run_vocabulary(pool, vectors, lines, output, work, 1) for _ in range(args.repeat)]
        best = min(runs, key=lambda p: p.wall_s)
        vocabulary_points.append(VocabularyPoint(**(asdict(best) | {
            "peak_rss_mb": max(p.peak_rss_mb for p in runs)})))
        print(f"  vocabulary, {lines:,} lines: {vocabulary_points[-1]}", file=sys.stderr,
              flush=True)
    vocabulary = work / f"vocabulary-{args.vector_lines[-1]}"
    vocab = vocabulary_summary(vocabulary_points, args.pool_pairs, counting_s_per_pair(pool))

    # Training files: the pool's first N pairs, a dev set of DEV_SHARE of N.
    needed = {n for a in args.architectures for n in args.sizes[a]} | {args.bucket_pairs}
    files: dict[int, tuple[Path, Path, int]] = {}
    pool_lines = pool.read_text(encoding="utf-8").splitlines(keepends=True)
    for pairs in sorted(needed):
        train, dev = work / f"train-{pairs}.jsonl", work / f"dev-{pairs}.jsonl"
        train.write_text("".join(pool_lines[:pairs]), encoding="utf-8")
        dev_pairs = max(MIN_DEV_PAIRS, round(pairs * DEV_SHARE))
        write_jsonl(dev, nli_pairs(dev_pairs, SEED, 1))
        files[pairs] = (train, dev, dev_pairs)

    jobs = [Job(a, n) for a in args.architectures for n in args.sizes[a]]
    jobs += [Job(args.bucket_architecture, args.bucket_pairs, way)
             for way in ("bucketed", "plain")]
    runs: dict[Job, list[TrainPoint]] = {job: [] for job in jobs}

    def one(job: Job) -> tuple[Job, TrainPoint]:
        point = run_training(job, files, vocabulary, work, args.width, args.threads)
        print(f"  {job.architecture} {job.pairs} {job.batching or ''}: {point.pairs_s:,.1f} "
              f"pairs/s, {point.wall_s:.1f} s wall, {point.cpu_s:.1f} CPU s, "
              f"{point.peak_rss_mb:,.0f} MB (load {os.getloadavg()[0]:.2f})", file=sys.stderr,
              flush=True)
        return job, point

    for _ in range(args.repeat):
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool_of:
            for job, point in pool_of.map(one, jobs):
                runs[job].append(point)
    best = {job: best_train(points) for job, points in runs.items()}
    bytes_per_pair = flat_bytes_per_pair(facts["premise_tokens"] + facts["hypothesis_tokens"])
    architectures = {a: train_summary(a, [best[Job(a, n)] for n in args.sizes[a]],
                                      bytes_per_pair, args.assumed_epochs)
                     for a in args.architectures}
    bucketing: dict[str, Any] = {"architecture": args.bucket_architecture,
                                 "pairs": args.bucket_pairs}
    for way in ("bucketed", "plain"):
        point = best[Job(args.bucket_architecture, args.bucket_pairs, way)]
        bucketing[way] = asdict(point) | {"pairs_s": point.pairs_s, "padding_share": padding_share(
            files[args.bucket_pairs][0], args.bucket_architecture, way)}
    bucketing["ratio"] = bucketing["bucketed"]["pairs_s"] / bucketing["plain"]["pairs_s"]
    data = {"command": provenance[0], "provenance": provenance, "date": date, "machine": host,
            "torch": torch.__version__, "seconds": time.perf_counter() - started,
            "settings": {"width": args.width, "threads": args.threads, "seed": SEED,
                         "pool_pairs": args.pool_pairs, "assumed_epochs": args.assumed_epochs,
                         "paper_pairs": PAPER_PAIRS, "paper_dev_pairs": PAPER_DEV_PAIRS,
                         "paper_vector_lines": PAPER_VECTOR_LINES, "tiny": args.tiny,
                         "flat_bytes_per_pair": bytes_per_pair},
            "pool": facts, "vocabulary": vocab, "architectures": architectures,
            "bucketing": bucketing}
    block = markdown(data, provenance)
    print(block)
    harness.save(args, SECTION, block, data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
