"""Fits of the scale benchmark and what they say at the paper's sizes (all extrapolated).

Each step's CPU seconds and peak RSS are fitted separately as cost = coef × size^α by least
squares on log(size), log(cost). A power law through a large constant (the interpreter and its
imports: ~100-250 MB, ~0.5 s) bends towards α = 0 at small sizes and so understates costs that
grow linearly; beside it the report shows peak RSS extended linearly from the two largest
sizes, which is right for memory growing linearly and overstates memory growing more slowly
(a vocabulary). The verdicts and costs.json use the power law.

The targets of issue 32, checked on the extrapolated figures:
- the paper tier within TIER_HOURS of wall time on TIER_CORES cores and TIER_MEMORY_MB: each
  benchmarked stage runs alone, as many jobs at once as cores (their threads) and memory (their
  peak RSS) allow, the stages one after the other (`tier_hours`);
- GloVe, 25 epochs on one 1.5B-token corpus, within GLOVE_HOURS on GLOVE_THREADS threads;
- no step's peak RSS growing with the whole input (α ≥ MEMORY_FLAT), except a shard job's
  growing with its shard only, and a model's growing as its vocabulary does (vocabulary ×
  dimension: α at most the vocabulary's + MEMORY_FLAT).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scale_types import Step

MEMORY_FLAT = 0.1
TIER_HOURS, TIER_CORES, TIER_MEMORY_MB = 24.0, 32, 128_000.0
GLOVE_HOURS, GLOVE_THREADS, GLOVE_STEP = 3.0, 16, "numeracy_train_glove"
GLOVE_PAPER_ENTRIES = 533e6  # nonzero co-occurrences at 1.5B tokens (issue 32)


@dataclass(frozen=True)
class Point:
    """One timed run: its size in the step's unit, its seconds and peak RSS, and details."""

    size: float
    cpu_s: float
    wall_s: float
    peak_rss_mb: float
    details: dict[str, float] = field(default_factory=dict)
    output_mb: float = 0.0  # what the run wrote


@dataclass(frozen=True)
class Fit:
    """cost = coef × size^alpha."""

    coef: float
    alpha: float

    def at(self, size: float) -> float:
        """The fitted cost at a size."""
        return self.coef * size ** self.alpha


@dataclass(frozen=True)
class Estimate:
    """One job of a step at the paper's size, extrapolated."""

    size: float
    cpu_s: float
    wall_s: float  # on the step's own threads
    peak_rss_mb: float  # the power law, at the memory size
    peak_rss_linear_mb: float  # linear from the two largest sizes, at the memory size
    memory_size: float
    output_mb: float  # what the job writes (power law)


def fit_power(sizes: Sequence[float], values: Sequence[float]) -> Fit:
    """The least-squares power law through points, in log-log (at least two sizes)."""
    if len(set(sizes)) < 2:
        raise ValueError("a fit needs at least two different sizes")
    x = np.log(np.asarray(sizes, dtype=float))
    y = np.log(np.maximum(np.asarray(values, dtype=float), 1e-9))
    alpha, intercept = np.polyfit(x, y, 1)
    return Fit(float(math.exp(intercept)), float(alpha))


def linear_from_largest(sizes: Sequence[float], values: Sequence[float], size: float) -> float:
    """The value at `size` on the line through the two largest sizes (never decreasing)."""
    order = np.argsort(sizes)
    (s1, v1), (s2, v2) = [(sizes[i], values[i]) for i in order[-2:]]
    slope = max((v2 - v1) / (s2 - s1), 0.0) if s2 != s1 else 0.0
    return v2 + slope * (size - s2)


def fits_of(points: Sequence[Point]) -> tuple[Fit, Fit]:
    """The CPU-seconds and peak-RSS fits of a step's points."""
    sizes = [p.size for p in points]
    return (fit_power(sizes, [p.cpu_s for p in points]),
            fit_power(sizes, [p.peak_rss_mb for p in points]))


def bench_threads(step: Step, cores: int) -> int:
    """The threads the step ran on here: the machine's cores for a trainer, else one."""
    return min(cores, step.threads) if step.threads > 1 else 1


def flat_in_dump(dump_points: Sequence[Point] | None) -> bool:
    """Whether a fixed shard's peak RSS stays flat as the whole dump grows (False: not
    measured)."""
    return bool(dump_points) and len({p.size for p in dump_points}) >= 2 and fits_of(
        dump_points)[1].alpha < MEMORY_FLAT


def estimate(step: Step, points: Sequence[Point], cores: int,
             dump_points: Sequence[Point] | None = None) -> Estimate:
    """One paper job of the step: CPU s, wall s on its threads (CPU s / threads, as
    efficiently as the threads were used at the largest size), peak RSS (two ways), at the
    paper's memory size unless a fixed shard in a growing dump (`dump_points`) shows that
    its memory follows its own shard only."""
    assert step.paper is not None
    cpu, rss = fits_of(points)
    largest = max(points, key=lambda p: p.size)
    cpu_s = glove_cpu_s(points, cores, step.paper.size) if step.name == GLOVE_STEP else None
    if cpu_s is None and step.paper.vocabulary:
        # A trainer's work is linear in its tokens; its α here is above 1 only because the
        # generated text's share of in-vocabulary tokens grows with its size.
        cpu_s = largest.cpu_s / largest.size * step.paper.size
    cpu_s = cpu.at(step.paper.size) if cpu_s is None else cpu_s
    # How well the job used its threads here (at most 1: a child process or BLAS threads of a
    # one-thread job get no core of their own on a cluster).
    efficiency = min(largest.cpu_s / max(largest.wall_s * bench_threads(step, cores), 1e-9), 1.0)
    wall_s = cpu_s / (step.threads * efficiency)
    memory_size = step.paper.size if flat_in_dump(dump_points) else (
        step.paper.memory_size or step.paper.size)
    linear = linear_from_largest([p.size for p in points], [p.peak_rss_mb for p in points],
                                 memory_size)
    written = fit_power([p.size for p in points], [max(p.output_mb, 1e-6) for p in points])
    model = model_rss_mb(step, points)
    peak = rss.at(memory_size) if model is None else model
    peak = linear if step.linear_memory else peak
    linear = linear if model is None else model
    if step.budget_mb is not None:  # beyond its budget it spills: what it held, plus the budget
        bound = largest.peak_rss_mb + step.budget_mb
        peak, linear = min(peak, bound), min(linear, bound)
    return Estimate(step.paper.size, cpu_s, wall_s, peak, linear, memory_size,
                    written.at(step.paper.size))


def model_rss_mb(step: Step, points: Sequence[Point]) -> float | None:
    """A trainer's peak RSS at the paper's vocabulary: its largest measurement plus what each
    further word took between its two largest sizes (vocabulary × dimension), None if it is no
    trainer. The generated text's vocabulary grows far faster than real text's, so a power
    law in tokens would overstate it."""
    if not (step.paper and step.paper.vocabulary and step.vocabulary):
        return None
    pairs = sorted((p.details[step.vocabulary], p.peak_rss_mb) for p in points
                   if p.details.get(step.vocabulary))
    if len(pairs) < 2:
        return None
    (v1, r1), (v2, r2) = pairs[-2:]
    per_word = max(0.0, (r2 - r1) / max(v2 - v1, 1.0))
    return r2 + per_word * max(0.0, step.paper.vocabulary - v2)


def glove_cpu_s(points: Sequence[Point], cores: int, size: float) -> float | None:
    """GloVe's CPU seconds at the paper's size, its two parts extrapolated each by what it
    follows: counting and writing by tokens (a power law through the points), the fit by its
    nonzero co-occurrences (seconds per entry at the largest size, times the real corpus's
    GLOVE_PAPER_ENTRIES). Generated text has far more distinct co-occurrences per token than
    real text, so extrapolating the fit by tokens would overstate it (None: not logged)."""
    if not all(p.details.get("fit_s") and p.details.get("co-occurrences") for p in points):
        return None
    threads = min(cores, 16)
    fit_cpu = [p.details["fit_s"] * threads for p in points]
    rest = fit_power([p.size for p in points],
                     [max(p.cpu_s - fit, 1e-3) for p, fit in zip(points, fit_cpu, strict=True)])
    largest = max(range(len(points)), key=lambda k: points[k].size)
    per_entry = fit_cpu[largest] / points[largest].details["co-occurrences"]
    return rest.at(size) + per_entry * GLOVE_PAPER_ENTRIES


def detail_fit(points: Sequence[Point], name: str) -> Fit | None:
    """The power law of a detail (vocabulary, co-occurrences) against size, when recorded."""
    pairs = [(p.size, p.details[name]) for p in points if p.details.get(name)]
    return fit_power(*zip(*pairs, strict=True)) if len({s for s, _ in pairs}) >= 2 else None


def vocabulary_alpha(step: Step, points: Sequence[Point]) -> float | None:
    """How the vocabulary of the step's model grows with the step's size."""
    fit = detail_fit(points, step.vocabulary) if step.vocabulary else None
    return fit.alpha if fit else None


def memory_verdict(step: Step, points: Sequence[Point],
                   dump_points: Sequence[Point] | None = None) -> tuple[bool, str]:
    """Whether the step's peak RSS meets the memory target, and why."""
    alpha = fits_of(points)[1].alpha
    if alpha < MEMORY_FLAT:
        return True, f"flat (α {alpha:.2f})"
    if dump_points and len({p.size for p in dump_points}) >= 2:
        in_dump = fits_of(dump_points)[1].alpha
        if in_dump < MEMORY_FLAT:
            return True, (f"grows with its shard (α {alpha:.2f}), flat in the whole dump "
                          f"(α {in_dump:.2f} with a fixed shard)")
        return False, f"grows with the whole dump (α {in_dump:.2f} with a fixed shard)"
    if not step.whole_input:
        return True, f"grows with its shard only (α {alpha:.2f}), not with the whole dump"
    if step.budget_mb is not None:
        bound = max(p.peak_rss_mb for p in points) + step.budget_mb
        return True, (f"bounded by its budget (α {alpha:.2f} while it fills "
                      f"{step.budget_mb} MB; {step.budget_why}): at most {bound:.0f} MB")
    largest = max(points, key=lambda p: p.size)
    if step.paper is not None and largest.size >= step.paper.size:
        return True, (f"measured at the paper's size, nothing extrapolated (α {alpha:.2f}; "
                      f"{largest.peak_rss_mb:.0f} MB)")
    vocabulary = vocabulary_alpha(step, points)
    if vocabulary is not None and alpha <= vocabulary + MEMORY_FLAT:
        return True, (f"grows as the model does (α {alpha:.2f}; vocabulary α "
                      f"{vocabulary:.2f}: vocabulary × dimension)")
    return False, f"grows with the whole input (α {alpha:.2f})"


def glove_verdict(estimate_: Estimate, threads: int) -> tuple[bool, str]:
    """Whether one GloVe job at the paper's size (its wall time on `threads`) fits GLOVE_HOURS
    on GLOVE_THREADS threads (the issue's yardstick; the paper config gives it fewer, for the
    machine's sake)."""
    hours = estimate_.wall_s * threads / GLOVE_THREADS / 3600
    return hours <= GLOVE_HOURS, (f"{hours:.2f} h on {GLOVE_THREADS} threads (target ≤ "
                                  f"{GLOVE_HOURS:g} h)")


@dataclass(frozen=True)
class Stage:
    """A benchmarked stage of the paper tier: its jobs run as resources allow."""

    step: str
    jobs: int
    at_once: int
    hours: float
    fits_memory: bool


def stage(step: Step, estimate_: Estimate) -> Stage:
    """How long a stage of the step's paper jobs takes on the tier's machine."""
    assert step.paper is not None
    peak = estimate_.peak_rss_mb
    fits = peak <= TIER_MEMORY_MB
    at_once = max(1, min(step.paper.jobs, TIER_CORES // step.threads,
                         int(TIER_MEMORY_MB // max(peak, 1.0))))
    work = step.paper.work if step.paper.work is not None else step.paper.jobs
    waves = math.ceil(step.paper.jobs / at_once)
    hours = waves * estimate_.wall_s * work / step.paper.jobs / 3600
    return Stage(step.name, step.paper.jobs, at_once, hours, fits)


def tier_verdict(stages: Sequence[Stage], missing: Sequence[str]) -> tuple[bool | None, str]:
    """The paper tier's wall time from its stages, against TIER_HOURS (None if incomplete
    and within it so far)."""
    hours = sum(s.hours for s in stages)
    too_big = [s.step for s in stages if not s.fits_memory]
    text = (f"{hours:.1f} h for the {len(stages)} benchmarked stages, one after the other, "
            f"on {TIER_CORES} cores and {TIER_MEMORY_MB / 1000:g} GB (target ≤ "
            f"{TIER_HOURS:g} h)")
    if too_big:
        return False, text + f"; peak RSS over {TIER_MEMORY_MB / 1000:g} GB: {', '.join(too_big)}"
    if hours > TIER_HOURS:
        return False, text
    if missing:
        return None, text + f"; not measured: {', '.join(missing)}"
    return True, text
