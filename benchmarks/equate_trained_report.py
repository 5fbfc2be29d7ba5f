"""The figures of the trained baselines' benchmark (equate_trained) and its report: a run's
record (`VocabularyPoint`; `TrainPoint`, its training log split by the timestamps into the epoch,
the dev pass and the checkpoint: `log_marks`, `epoch_seconds`), the fits in size (scale_fit's
power laws) and their extrapolation to MultiNLI and GloVe 840B, marked so (`train_summary`,
`vocabulary_summary`: the JSON's figures), and the Markdown block (`markdown`) that
docs/benchmarks.md holds between its `equate-trained` markers.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import harness
from equate_trained_inputs import DEV_SHARE, PAPER_DEV_PAIRS, PAPER_PAIRS, PAPER_VECTOR_LINES
from scale_fit import MEMORY_FLAT, Fit, fit_power, linear_from_largest

NAMES = {"align": "ALIGN", "cbow": "CBOW", "bilstm": "BiLSTM", "ch": "CH",
         "infersent": "InferSent", "ssen": "SSEN", "esim": "ESIM"}
MB = 1 << 20
LOG_LINE = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) \w+ [\w.]+: (.*)$", re.M)


# --- a run's figures --------------------------------------------------------------------------


@dataclass(frozen=True)
class VocabularyPoint:
    """One `equate vocabulary` run."""

    lines: int
    wall_s: float
    cpu_s: float
    peak_rss_mb: float
    words: int
    with_vector: int


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


def best_train(runs: Sequence[TrainPoint]) -> TrainPoint:
    """The fastest of repeated runs, with the largest peak RSS."""
    fastest = min(runs, key=lambda p: p.wall_s)
    return TrainPoint(**(asdict(fastest) | {"cpu_s": min(p.cpu_s for p in runs),
                                           "peak_rss_mb": max(p.peak_rss_mb for p in runs)}))




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


