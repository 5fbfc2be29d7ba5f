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
import datetime
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import harness  # noqa: E402
from scale_equate_inputs import GENRES, LABELS, Draws, bracketed, tokens, write_jsonl  # noqa: E402
from scale_fit import MEMORY_FLAT, Fit, fit_power, linear_from_largest  # noqa: E402
from scale_vectors import write_vectors  # noqa: E402

SECTION = "equate-trained"
ARCHITECTURES = ("align", "cbow", "bilstm", "ch", "infersent", "ssen", "esim")
NAMES = {"align": "ALIGN", "cbow": "CBOW", "bilstm": "BiLSTM", "ch": "CH",
         "infersent": "InferSent", "ssen": "SSEN", "esim": "ESIM"}
PAPER_PAIRS = 392_702  # MultiNLI 1.0 train
PAPER_DEV_PAIRS = 9_815  # dev-matched with a gold label
PAPER_VECTOR_LINES = 2_196_017  # glove.840B.300d.txt
DEV_SHARE = PAPER_DEV_PAIRS / PAPER_PAIRS
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
MB = 1 << 20
# Bytes a training pair holds beyond its tokens: two int64 sentence offsets and an int64
# label (EncodedPairs), and the epoch's index arrays (a permutation, the lengths, the kept
# indices: int64 each) and its batches' Python ints (~36 bytes each).
PAIR_BYTES = 2 * 8 + 8 + 3 * 8 + 36
# Bytes a token holds: its int32 id, and during encoding a pointer in a Python list (which
# over-allocates by about an eighth); the list is gone before training, so this is an upper
# bound.
TOKEN_BYTES = 4 + 8 * 1.125
LOG_LINE = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) \w+ [\w.]+: (.*)$", re.M)
# The child that runs `reprobe equate train-baseline` with the workflow's batches or plain ones.
BATCHING_CHILD = ("import sys; sys.path.insert(0, {here!r}); import equate_trained; "
                  "equate_trained.batching_child(sys.argv[1], sys.argv[2:])")


# --- inputs -----------------------------------------------------------------------------------


def nli_pair(draws: Draws, number: int) -> dict[str, Any]:
    """One MultiNLI-layout pair: a premise of ~22 tokens, a hypothesis of ~11 beginning with
    its first words, a random label."""
    premise = tokens(draws, 9, 33, quantity=draws.chance(0.1))
    hypothesis = [*premise[:draws.between(1, 3)], *tokens(draws, 5, 14, False)[1:]]
    label = LABELS[draws.between(0, 2)]
    row: dict[str, Any] = {"annotator_labels": [label], "genre": GENRES[number % len(GENRES)],
                           "gold_label": label}
    for key, words in (("sentence1", premise), ("sentence2", hypothesis)):
        binary, parse = bracketed(words)
        row |= {f"{key}_binary_parse": binary, f"{key}_parse": parse}
    return row | {"pairID": f"{number}{label[0]}", "promptID": str(number),
                  "sentence1": " ".join(premise).replace(" .", "."),
                  "sentence2": " ".join(hypothesis).replace(" .", ".")}


def nli_pairs(count: int, seed: int, salt: int) -> Iterator[dict[str, Any]]:
    """`count` pairs from one seeded generator (salt: which file)."""
    draws = Draws(np.random.default_rng([seed, salt, count]))
    for number in range(count):
        yield nli_pair(draws, number)


def pool_facts(path: Path) -> dict[str, float]:
    """Tokens a premise and a hypothesis hold on average (as the baselines split them), and
    the distinct words, of a pairs file."""
    from reprobe.equate.trained.text import words

    premise, hypothesis, seen = [], [], set()
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            first, second = words(row["sentence1"]), words(row["sentence2"])
            premise.append(len(first))
            hypothesis.append(len(second))
            seen.update(first, second)
    return {"pairs": len(premise), "premise_tokens": float(np.mean(premise)),
            "hypothesis_tokens": float(np.mean(hypothesis)), "distinct_words": len(seen)}


def counting_s_per_pair(path: Path) -> float:
    """CPU seconds `equate vocabulary` spends counting one training pair's words."""
    from reprobe.equate.trained.vocabulary import training_words

    start = time.process_time()
    training_words(path)
    return (time.process_time() - start) / sum(1 for _ in path.open(encoding="utf-8"))


def flat_bytes_per_pair(tokens_per_pair: float) -> float:
    """What one more training pair adds to a training job's memory (upper bound)."""
    return tokens_per_pair * TOKEN_BYTES + PAIR_BYTES


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


@dataclass(frozen=True)
class VocabularyPoint:
    """One `equate vocabulary` run."""

    lines: int
    wall_s: float
    cpu_s: float
    peak_rss_mb: float
    words: int
    with_vector: int


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
class TrainPoint:
    """One `equate train-baseline` run of one epoch, split by its log's timestamps."""

    pairs: int
    dev_pairs: int
    wall_s: float
    cpu_s: float
    peak_rss_mb: float
    epoch_s: float  # the training pass (epoch_span_s within what the logged rate allows)
    dev_s: float  # the dev pass
    save_s: float  # the resumable checkpoint
    logged_pairs_s: float  # the rate training.py logs (rounded)
    epoch_span_s: float  # from "N training pairs" to "epoch 1: N pairs": the pass, and before
    # it the optimiser's construction (~1 s: Adam's first one imports torch's compiler parts)

    @property
    def pairs_s(self) -> float:
        """Training pairs a second over the epoch."""
        return self.pairs / max(self.epoch_s, 1e-6)


def log_marks(log: str) -> dict[str, float]:
    """Seconds since the epoch of the training log's milestones, and the logged rate."""
    marks: dict[str, float] = {}
    for stamp, message in LOG_LINE.findall(log.replace("\r", "\n")):
        moment = datetime.datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S,%f").timestamp()
        if re.search(r": \d+ training pairs, \d+ dev pairs", message):
            marks["start"] = moment
        elif found := re.match(r"epoch 1: (\d+) pairs, ([\d.]+) pairs/s", message):
            marks["trained"], marks["logged_pairs_s"] = moment, float(found.group(2))
        elif message.startswith("epoch 1: dev accuracy"):
            marks["dev"] = moment
        elif message.startswith("stopped:"):
            marks["saved"] = moment
    missing = {"start", "trained", "dev", "saved"} - set(marks)
    if missing:
        raise SystemExit(f"the training log lacks {sorted(missing)}:\n{log[-2000:]}")
    return marks


def epoch_seconds(pairs: int, span_s: float, logged_pairs_s: float) -> float:
    """The training pass's seconds: the span between the log lines around it, which holds a
    second of set-up too, brought within what the logged rate (rounded to a unit) allows."""
    if logged_pairs_s <= 0:
        return span_s
    shortest = pairs / (logged_pairs_s + 0.5)
    longest = pairs / (logged_pairs_s - 0.5) if logged_pairs_s > 0.5 else span_s
    return min(max(span_s, shortest), longest)


def train_point(pairs: int, dev_pairs: int, result: harness.Measurement, log: str) -> TrainPoint:
    """A run's figures."""
    marks = log_marks(log)
    span = marks["trained"] - marks["start"]
    return TrainPoint(pairs, dev_pairs, result.wall_s, result.cpu_s,
                      result.peak_rss_bytes / MB,
                      epoch_seconds(pairs, span, marks["logged_pairs_s"]),
                      marks["dev"] - marks["trained"], marks["saved"] - marks["dev"],
                      marks["logged_pairs_s"], span)


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


# --- fits and extrapolation -------------------------------------------------------------------


def fit_dict(fit: Fit) -> dict[str, float]:
    """A fit as JSON."""
    return {"coef": fit.coef, "alpha": fit.alpha}


def epochs_of(architecture: str, assumed: int) -> tuple[int, str]:
    """The epochs a paper run trains for, and why that many."""
    from reprobe.equate.trained.architectures import RECIPES

    cap = RECIPES[architecture].max_epochs
    if cap is not None:
        return cap, ("the recipe's 20-epoch cap (its schedule may stop it sooner)"
                     if architecture == "infersent" else f"the recipe's {cap} epochs")
    return assumed, "assumed: no cap, the schedule stops it"


def train_summary(architecture: str, points: Sequence[TrainPoint], bytes_per_pair: float,
                  assumed_epochs: int) -> dict[str, Any]:
    """An architecture's points, fits and paper-scale estimate (extrapolated)."""
    sizes = [p.pairs for p in points]
    cpu, rss = fit_power(sizes, [p.cpu_s for p in points]), fit_power(
        sizes, [p.peak_rss_mb for p in points])
    epoch_fit = fit_power(sizes, [p.epoch_s for p in points])
    largest = max(points, key=lambda p: p.pairs)
    dev_rate = largest.dev_pairs / max(largest.dev_s, 1e-3)
    epoch_s = PAPER_PAIRS / largest.pairs_s + PAPER_DEV_PAIRS / dev_rate + largest.save_s
    fixed_s = max(0.0, largest.wall_s - largest.epoch_s - largest.dev_s - largest.save_s)
    epochs, why = epochs_of(architecture, assumed_epochs)
    job_wall_s = fixed_s + epochs * epoch_s
    busy = largest.cpu_s / max(largest.wall_s, 1e-9)  # CPU seconds per wall second
    peak = largest.peak_rss_mb + bytes_per_pair * (PAPER_PAIRS - largest.pairs) / MB
    return {
        "points": [asdict(p) | {"pairs_s": p.pairs_s} for p in points],
        "cpu_s": fit_dict(cpu), "epoch_s": fit_dict(epoch_fit), "peak_rss_mb": fit_dict(rss),
        "memory_flat": rss.alpha < MEMORY_FLAT,
        "paper": {
            "pairs": PAPER_PAIRS, "dev_pairs": PAPER_DEV_PAIRS, "extrapolated": True,
            "pairs_s": largest.pairs_s, "dev_pairs_s": dev_rate,
            "epoch_wall_s": epoch_s, "epoch_wall_s_power_law": epoch_fit.at(PAPER_PAIRS),
            "fixed_s": fixed_s, "epochs": epochs, "epochs_from": why,
            "job_wall_s": job_wall_s, "wall_hours": job_wall_s / 3600,
            "cpu_per_wall": busy, "cpu_hours": job_wall_s * busy / 3600,
            "peak_rss_mb": peak, "flat_bytes_per_pair": bytes_per_pair}}


def vocabulary_summary(points: Sequence[VocabularyPoint], pool_pairs: int,
                       count_s: float) -> dict[str, Any]:
    """The vocabulary step's points, fits and paper-scale estimate (extrapolated)."""
    lines = [p.lines for p in points]
    cpu, rss = fit_power(lines, [p.cpu_s for p in points]), fit_power(
        lines, [p.peak_rss_mb for p in points])
    wall = fit_power(lines, [p.wall_s for p in points])
    extra = count_s * max(0, PAPER_PAIRS - pool_pairs)

    def at_paper(fit: Fit, name: str) -> float:
        """The larger of the power law and the line through the two largest sizes (a power
        law through the start-up's constant bends below a cost that grows linearly)."""
        values = [getattr(p, name) for p in points]
        return max(fit.at(PAPER_VECTOR_LINES),
                   linear_from_largest(lines, values, PAPER_VECTOR_LINES))

    return {"points": [asdict(p) for p in points], "pool_pairs": pool_pairs,
            "cpu_s": fit_dict(cpu), "wall_s": fit_dict(wall), "peak_rss_mb": fit_dict(rss),
            "count_s_per_pair": count_s,
            "paper": {"lines": PAPER_VECTOR_LINES, "pairs": PAPER_PAIRS, "extrapolated": True,
                      "cpu_s": at_paper(cpu, "cpu_s") + extra,
                      "wall_s": at_paper(wall, "wall_s") + extra,
                      "counting_extra_s": extra,
                      "peak_rss_mb": at_paper(rss, "peak_rss_mb")}}


# --- the report -------------------------------------------------------------------------------


def hours(seconds: float) -> str:
    """Seconds as hours, as the table writes them."""
    value = seconds / 3600
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}" if value >= 1 else f"{value:.2f}"


def markdown(data: dict[str, Any], provenance: list[str]) -> str:
    """The Markdown block: inputs, the baselines' table, batching, the vocabulary step."""
    facts, settings = data["pool"], data["settings"]
    vocab = data["vocabulary"]
    largest_vocab = max(vocab["points"], key=lambda p: p["lines"])
    rows = []
    for architecture, found in data["architectures"].items():
        paper, largest = found["paper"], max(found["points"], key=lambda p: p["pairs"])
        sizes = ", ".join(f"{p['pairs']:,}" for p in found["points"])
        rows.append([NAMES[architecture], sizes, f"{largest['pairs_s']:,.1f}",
                     f"{largest['cpu_s'] / largest['wall_s']:.2f}",
                     f"{largest['peak_rss_mb']:,.0f}", f"{found['peak_rss_mb']['alpha']:.2f}",
                     f"{found['cpu_s']['alpha']:.2f}", f"{found['epoch_s']['alpha']:.2f}",
                     hours(paper["epoch_wall_s"]), str(paper["epochs"]),
                     hours(paper["job_wall_s"]), hours(paper["cpu_hours"] * 3600),
                     f"{paper['peak_rss_mb']:,.0f}"])
    header = ["model", "pairs measured", "pairs/s (largest)", "CPU s / wall s", "peak RSS MB",
              "RSS α", "CPU α", "pass α", "epoch h (392,702 pairs)", "epochs",
              f"job h on {settings['threads']} threads", "CPU h", "peak RSS MB (paper)"]
    assumed = [NAMES[a] for a, f in data["architectures"].items()
               if f["paper"]["epochs_from"].startswith("assumed")]
    lines = [
        *provenance, "",
        f"Pairs: generated, MultiNLI's layout, Zipf words (premise {facts['premise_tokens']:.1f}"
        f" tokens, hypothesis {facts['hypothesis_tokens']:.1f} on average), random labels; "
        f"each size is the first N pairs of a pool of {facts['pairs']:,}, whose "
        f"{largest_vocab['words']:,}-word vocabulary ({largest_vocab['with_vector']:,} with a "
        f"300d vector from the {largest_vocab['lines']:,}-line file) every run reads; dev "
        f"{DEV_SHARE:.1%} of N. Width {float(settings['width'])!r}, one epoch (max_epochs 1), "
        f"{settings['threads']} thread(s), cpu, float32; torch {data['torch']}. α: the power "
        "law in pairs of the whole process's CPU s, of the training pass and of peak RSS "
        "(scale_fit). The last five columns are **extrapolated** to MultiNLI: an epoch of "
        "392,702 pairs at the largest size's rate, 9,815 dev pairs at its dev rate and a "
        "checkpoint; the job adds its start-up.", "",
        harness.markdown_table(header, rows), "",
        f"Epochs: ALIGN 5, SSEN 6, InferSent 20 (the recipes' caps; InferSent's schedule may "
        f"stop sooner); {', '.join(assumed) or 'none'}: {settings['assumed_epochs']} "
        "(**assumed**: only their schedules stop them). Peak RSS at the paper: the largest "
        f"size's plus the flat arrays of the other pairs ({settings['flat_bytes_per_pair']:.0f} "
        "bytes a pair, an upper bound).", ""]
    bucket = data["bucketing"]
    lines += [
        f"Batching, {NAMES[bucket['architecture']]} on {bucket['pairs']:,} pairs (one epoch "
        "each, the same command):", "",
        harness.markdown_table(
            ["batches", "pairs/s", "padding share", "CPU s", "peak RSS MB"],
            [[way, f"{bucket[way]['pairs_s']:,.1f}", f"{bucket[way]['padding_share']:.1%}",
              f"{bucket[way]['cpu_s']:.1f}", f"{bucket[way]['peak_rss_mb']:,.0f}"]
             for way in ("bucketed", "plain")]), "",
        f"Ratio of pairs/s, bucketed / plain: **{bucket['ratio']:.2f}**.", ""]
    paper = vocab["paper"]
    lines += [
        f"`equate vocabulary` over the {vocab['pool_pairs']:,}-pair pool:", "",
        harness.markdown_table(
            ["vector lines", "wall s", "CPU s", "peak RSS MB", "words", "with a vector"],
            [[f"{p['lines']:,}", f"{p['wall_s']:.1f}", f"{p['cpu_s']:.1f}",
              f"{p['peak_rss_mb']:,.0f}", f"{p['words']:,}", f"{p['with_vector']:,}"]
             for p in vocab["points"]]), "",
        f"CPU α {vocab['cpu_s']['alpha']:.2f}, RSS α {vocab['peak_rss_mb']['alpha']:.2f} in "
        f"lines. **Extrapolated** to {PAPER_VECTOR_LINES:,} lines and {PAPER_PAIRS:,} pairs "
        "(the larger of the power law and the line through the two largest sizes): "
        f"{paper['cpu_s']:,.0f} CPU s ({paper['counting_extra_s']:.0f} of them counting the "
        f"extra pairs at {vocab['count_s_per_pair'] * 1e6:.0f} µs each), peak RSS "
        f"{paper['peak_rss_mb']:,.0f} MB."]
    return "\n".join(lines) + "\n"


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


def best_train(runs: Sequence[TrainPoint]) -> TrainPoint:
    """The fastest of repeated runs, with the largest peak RSS."""
    fastest = min(runs, key=lambda p: p.wall_s)
    return TrainPoint(**(asdict(fastest) | {"cpu_s": min(p.cpu_s for p in runs),
                                           "peak_rss_mb": max(p.peak_rss_mb for p in runs)}))


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
