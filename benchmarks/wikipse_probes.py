#!/usr/bin/env python3
"""WIKI-PSE probing classifiers: the Table 2 grid (LR, KNN, MLP over 34 S-classes, and the
Table 4 ambiguity probe) for ONE embedding, timed per classifier kind.

The data is synthetic, drawn with --seed: --words train and --words test words (the release:
44,250 each), --dim dimensions (the paper's largest: 400), --classes S-classes (34). Half the
words have one S-class, the other half 2 + Poisson(0.5), 1.75 a word on average as in the
release; classes are drawn without replacement from a Zipf prior (exponent 1.4, which puts the
random baseline near the paper's .273). A class is a mixture: its centroid plus one of 8
sub-centroids (spread --spread), so that a linear probe is not enough; a word's vector is the
sum of its classes' sub-centroids plus Gaussian noise (--noise), L2-normalised. The vectors
only have to give the classifiers something to learn: timings depend on sizes and iterations.

What is timed, in this process, with the library's own functions (reprobe.wikipse.probing.probes, as
`probe_grid` runs them): per kind, S-class prediction (34 binary classifiers, LR and MLP fitted
in --jobs joblib processes; KNN one shared neighbour search, then a vote per class) and the
ambiguity probe (one binary classifier; KNN reuses the neighbours). Inside the workers each
class's fit and predict seconds and iterations are recorded: that is where the time goes.
CPU seconds are this process's plus its children's (the joblib workers, via psutil). The
worker pool is started (untimed) before the first kind. MLP variants (--mlp-variants, e.g.
`256` or `100:es` for early stopping) are timed on --variant-classes S-classes spread over the
frequency ranking and for ambiguity, and the seconds of their grid column estimated as mean
seconds a class × classes / jobs + the ambiguity fit; their micro F1 on those classes is shown
beside the default's.

Below the full size, the figures are also extrapolated to 44,250 words and 400 dimensions
(marked): fits and predictions scale with words × dim (iterations assumed unchanged), the KNN
search with words² × dim. Target: the whole grid for one embedding under 10 minutes.

It prints a Markdown block; --update-readme writes it between the `<!-- wikipse-probes:begin
-->` and `<!-- wikipse-probes:end -->` markers of benchmarks/README.md.

    python benchmarks/wikipse_probes.py --jobs 2 --update-readme
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from joblib import Parallel, delayed

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

from reprobe.step_settings import schema_default, settings_from_schema  # noqa: E402
from reprobe.wikipse.probing.probes import (  # noqa: E402
    KINDS,
    LR_MAX_ITER,
    ProbeSettings,
    accuracy,
    fit_predict_binary,
    fit_predict_sclasses,
    micro_f1,
    nearest_neighbours,
    predict_ambiguity,
    random_baseline_expected,
)
from reprobe.wikipse.settings import ClassifierSettings  # noqa: E402

SECTION = "wikipse-probes"  # the README's markers: <!-- wikipse-probes:begin --> ... :end -->
FULL_WORDS, FULL_DIM = 44_250, 400  # the release's split size, the paper's largest dimension
TARGET_S = 600.0  # the whole grid for one embedding, on the benchmark's cores
ZIPF, SUBCLUSTERS = 1.4, 8


# --- data -------------------------------------------------------------------------------------


def synthetic(words: int, dim: int, classes: int, noise: float, spread: float, seed: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors (float32) and their 0/1 S-class matrix, as the module docstring says."""
    rng = np.random.default_rng(seed)
    prior = 1 / np.arange(1, classes + 1) ** ZIPF
    prior /= prior.sum()
    centroids = rng.normal(size=(classes, 1, dim)) / np.sqrt(dim)
    subs = centroids + spread * rng.normal(size=(classes, SUBCLUSTERS, dim)) / np.sqrt(dim)
    counts = np.where(rng.random(words) < 0.5, 1,
                      np.minimum(2 + rng.poisson(0.5, words), classes))
    y = np.zeros((words, classes), dtype=np.int8)
    x = noise * rng.normal(size=(words, dim)) / np.sqrt(dim)
    for i, count in enumerate(counts):
        chosen = rng.choice(classes, count, replace=False, p=prior)
        y[i, chosen] = 1
        x[i] += subs[chosen, rng.integers(0, SUBCLUSTERS, count)].sum(axis=0)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x.astype(np.float32), y


# --- timing -----------------------------------------------------------------------------------


def cpu_seconds() -> float:
    """CPU seconds of this process and its live children (the joblib workers)."""
    import psutil

    total = time.process_time()
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


@dataclass
class Run:
    """One classifier kind over both tasks (or an MLP variant over some S-classes)."""

    kind: str
    wall_s: float = 0.0
    cpu_s: float = 0.0
    sclass_s: float = 0.0
    ambiguity_s: float = 0.0
    search_s: float = 0.0
    f1: float = float("nan")
    ambiguity_acc: float = float("nan")
    fits: list[dict] = field(default_factory=list)  # per S-class: fit_s, predict_s, n_iter
    ambiguity_fit: dict | None = None  # LR, MLP: fit_s, predict_s, n_iter
    classes: list[int] = field(default_factory=list)  # variants: the S-classes timed
    default_f1: float = float("nan")  # variants: the default MLP's micro F1 on those classes


def timed(step: Callable[[], Any]) -> tuple[Any, float]:
    """A call's result and its wall seconds."""
    start = time.perf_counter()
    result = step()
    return result, time.perf_counter() - start


def run_kind(kind: str, data: dict[str, np.ndarray], settings: ProbeSettings
             ) -> tuple[Run, np.ndarray]:
    """Both tasks of one kind, as probe_kind runs them, every step timed; and the S-class
    predictions."""
    x_train, y_train, x_test, y_test = (data[k] for k in ("x_train", "y_train", "x_test",
                                                        "y_test"))
    a_train, a_test = (y.sum(axis=1) > 1 for y in (y_train, y_test))
    run, cpu, neighbours = Run(kind), cpu_seconds(), None
    if kind == "KNN":
        neighbours, run.search_s = timed(lambda: nearest_neighbours(x_train, x_test,
                                                                    settings.knn_k))
    (pred, fits), run.sclass_s = timed(lambda: fit_predict_sclasses(
        x_train, y_train, x_test, kind, settings, neighbours))
    run.sclass_s += run.search_s
    if kind == "KNN":
        (a_pred, _), run.ambiguity_s = timed(lambda: predict_ambiguity(
            x_train, a_train, x_test, kind, settings, neighbours))
    else:
        # What predict_ambiguity does for LR and MLP, with the classifier's cost kept.
        (proba, fit), run.ambiguity_s = timed(lambda: fit_predict_binary(
            x_train, a_train.astype(np.int8), x_test, kind, settings))
        a_pred, run.ambiguity_fit = proba > 0.5, asdict(fit)
    run.wall_s, run.cpu_s = run.sclass_s + run.ambiguity_s, cpu_seconds() - cpu
    run.fits = [asdict(f) for f in fits]
    run.f1, run.ambiguity_acc = micro_f1(y_test, pred), accuracy(a_test, a_pred)
    return run, pred


def parse_variant(spec: str, base: ProbeSettings) -> ProbeSettings:
    """`HIDDEN` or `HIDDEN:es` (early stopping) as MLP settings."""
    hidden, _, flag = spec.partition(":")
    if flag not in ("", "es"):
        raise SystemExit(f"bad MLP variant {spec!r}: use HIDDEN or HIDDEN:es")
    return replace(base, mlp_hidden=int(hidden), mlp_early_stopping=flag == "es")


def run_variant(spec: str, data: dict[str, np.ndarray], settings: ProbeSettings,
                columns: list[int], default_pred: np.ndarray | None) -> Run:
    """One MLP variant fitted on some S-classes and for ambiguity, beside the default's F1
    on those classes."""
    variant = parse_variant(spec, settings)
    a_train, a_test = (data[y].sum(axis=1) > 1 for y in ("y_train", "y_test"))
    cpu = cpu_seconds()
    (pred, fits), sclass_s = timed(lambda: fit_predict_sclasses(
        data["x_train"], data["y_train"][:, columns], data["x_test"], "MLP", variant))
    (proba, fit), ambiguity_s = timed(lambda: fit_predict_binary(
        data["x_train"], a_train.astype(np.int8), data["x_test"], "MLP", variant))
    return Run(f"MLP {spec}", wall_s=sclass_s + ambiguity_s, cpu_s=cpu_seconds() - cpu,
               sclass_s=sclass_s, ambiguity_s=ambiguity_s,
               f1=micro_f1(data["y_test"][:, columns], pred),
               ambiguity_acc=accuracy(a_test, proba > 0.5), fits=[asdict(f) for f in fits],
               ambiguity_fit=asdict(fit), classes=columns,
               default_f1=float("nan") if default_pred is None else
               micro_f1(data["y_test"][:, columns], default_pred[:, columns]))


# --- the report -------------------------------------------------------------------------------


def scale(args: argparse.Namespace) -> tuple[float, float]:
    """Factors to the full size: (linear in words × dim, quadratic in words × dim)."""
    words, dim = FULL_WORDS / args.words, FULL_DIM / args.dim
    return words * dim, words * words * dim


def per_class(run: Run) -> tuple[str, str, str, str]:
    """Mean and max fit seconds a class, mean predict seconds, iterations, for the table."""
    fitted = [f for f in run.fits if f["n_iter"] > 0]
    if not fitted:
        return ("–", "–", "–", "–")
    fit = [f["fit_s"] for f in fitted]
    iters = [f["n_iter"] for f in fitted]
    return (f"{np.mean(fit):.2f}", f"{max(fit):.2f}",
            f"{np.mean([f['predict_s'] for f in fitted]):.3f}",
            f"{np.mean(iters):.0f} ({min(iters)}–{max(iters)})")


def estimate(run: Run, n_classes: int, jobs: int) -> float:
    """A variant's seconds for both tasks: mean s a class × classes / jobs, + the ambiguity s."""
    mean = np.mean([f["fit_s"] + f["predict_s"] for f in run.fits])
    return float(mean * n_classes / jobs + run.ambiguity_s)


def iterations(fit: dict | None) -> str:
    """An ambiguity classifier's iterations, for the report."""
    return "–" if fit is None else str(fit["n_iter"])


def markdown(runs: dict[str, Run], variants: dict[str, Run], facts: dict, provenance: list[str],
             args: argparse.Namespace) -> str:
    """Data, the grid table, where the time goes, variants, the target line."""
    full = args.words == FULL_WORDS and args.dim == FULL_DIM
    linear, quadratic = scale(args)
    lines = [*provenance, "", f"Data (synthetic, seed {args.seed}): {args.words:,} train + "
             f"{args.words:,} test words, {args.dim} dimensions, {args.classes} S-classes, "
             f"{facts['mean_classes']:.2f} classes a word, noise {args.noise}, spread "
             f"{args.spread}; random baseline (expected) micro F1 {facts['random']:.3f}. "
             f"Settings: {facts['settings']}; {args.jobs} joblib worker(s), started in "
             f"{facts['pool_s']:.1f} s (untimed).", ""]
    rows = []
    for kind, run in runs.items():
        rows.append((kind, f"{run.sclass_s:.1f}", f"{run.ambiguity_s:.1f}",
                     f"{run.wall_s:.1f}", f"{run.cpu_s:.1f}", *per_class(run),
                     iterations(run.ambiguity_fit), f"{run.f1:.3f}",
                     f"{run.ambiguity_acc:.1f}"))
    total = sum(run.wall_s for run in runs.values())
    rows.append(("**grid**", "", "", f"**{total:.1f}**",
                 f"{sum(r.cpu_s for r in runs.values()):.1f}", *[""] * 7))
    lines += [harness.markdown_table(
        ["kind", "S-classes s", "ambiguity s", "wall s", "CPU s", "fit s/class, mean",
         "fit s/class, max", "predict s/class", "iterations (range)", "ambiguity iterations",
         "micro F1", "ambiguity %"], rows), ""]
    notes = []
    for kind, run in runs.items():
        if kind == "KNN":
            notes.append(f"KNN: the shared neighbour search (test × train similarities, top "
                         f"{facts['k']}) takes {run.search_s:.1f} of its {run.wall_s:.1f} s; "
                         f"the votes for {args.classes} classes and ambiguity the rest")
        elif run.fits:
            fit = sum(f["fit_s"] for f in run.fits)
            predict = sum(f["predict_s"] for f in run.fits)
            capped = sum(f["n_iter"] >= facts["max_iter"][kind] for f in run.fits)
            notes.append(f"{kind}: per-class fits sum to {fit:.1f} s and predictions to "
                         f"{predict:.2f} s of worker time ({fit / (fit + predict):.1%} fitting)"
                         f" over {run.sclass_s:.1f} s wall on {args.jobs} worker(s); "
                         f"{capped} class(es) stopped at max_iter; the ambiguity classifier "
                         f"{run.ambiguity_s:.1f} s (one fit, in this process, after the "
                         f"S-classes)")
    lines += ["Where the time goes: " + "; ".join(notes) + ".", ""]
    if variants:
        vrows = [(spec, f"{run.sclass_s:.1f}", *per_class(run), f"{run.ambiguity_s:.1f}",
                  iterations(run.ambiguity_fit), f"{run.f1:.3f}", f"{run.default_f1:.3f}",
                  f"{run.ambiguity_acc:.1f}", f"{estimate(run, args.classes, args.jobs):.0f}")
                 for spec, run in variants.items()]
        lines += [f"MLP variants (`HIDDEN` units, `:es` early stopping), each fitted on "
                  f"S-classes {next(iter(variants.values())).classes} (0 = most frequent) "
                  f"and for ambiguity; est. grid s (the MLP column, both tasks) = mean s a "
                  f"class × {args.classes} / {args.jobs} + ambiguity s:", "",
                  harness.markdown_table(
                      ["MLP", "S-classes s", "fit s/class, mean", "fit s/class, max",
                       "predict s/class",
                       "iterations (range)", "ambiguity s", "ambiguity iterations",
                       "micro F1 (these classes)", "default's F1 (same)", "ambiguity %",
                       "est. column s"], vrows), ""]
    verdict = f"{'met' if total <= TARGET_S else 'not met'}"
    if full:
        lines.append(f"Target (whole grid for one embedding < {TARGET_S:.0f} s on {args.jobs} "
                     f"worker(s)): {total:.0f} s, {verdict}.")
    else:
        extrapolated = sum(run.search_s * quadratic + (run.wall_s - run.search_s) * linear
                           for run in runs.values())
        lines.append(f"**Extrapolated** to {FULL_WORDS:,} words and {FULL_DIM} dimensions (fits "
                     f"× {linear:.1f}, KNN search × {quadratic:.1f}, iterations assumed "
                     f"unchanged): about {extrapolated:.0f} s for the grid, target "
                     f"{'met' if extrapolated <= TARGET_S else 'not met'} (estimate).")
    return "\n".join(lines) + "\n"


# --- command line -----------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = harness.new_parser(__doc__)
    parser.add_argument("--words", type=harness.positive_int, default=FULL_WORDS,
                        help=f"train words, and as many test words (default {FULL_WORDS:,})")
    parser.add_argument("--dim", type=harness.positive_int, default=FULL_DIM,
                        help=f"vector dimension (default {FULL_DIM})")
    parser.add_argument("--classes", type=harness.positive_int, default=34,
                        help="S-classes (default 34)")
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS),
                        help="classifier kinds of the grid (default all)")
    parser.add_argument("--jobs", type=harness.positive_int, default=2,
                        help="joblib worker processes (ProbeSettings.n_jobs; default 2)")
    parser.add_argument("--mlp-hidden", type=harness.positive_int,
                        default=schema_default("wikipse.probes.mlp_hidden"),
                        help="the grid MLP's hidden units (default: the schema's)")
    parser.add_argument("--mlp-early-stopping", action="store_true",
                        help="the grid MLP stops early on a 10%% validation split")
    parser.add_argument("--mlp-variants", nargs="*", default=[], metavar="HIDDEN[:es]",
                        help="more MLP settings to time on --variant-classes S-classes")
    parser.add_argument("--variant-classes", type=harness.positive_int, default=4,
                        help="S-classes each MLP variant is fitted on (default 4)")
    parser.add_argument("--noise", type=float, default=4.0, help="noise norm (default 4)")
    parser.add_argument("--spread", type=float, default=2.0,
                        help="sub-centroid spread (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of data and classifiers")
    harness.add_report_options(parser, noun="classifier kind", keeps="the least seconds",
                               json_help="also write every figure as JSON here",
                               section=SECTION)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Draw the data, start the workers, time the grid and the variants, print (and store)."""
    args = parse_args(argv)
    import sklearn

    # The schema's classifier settings (wikipse.probes), with the grid's own MLP and workers.
    settings = replace(settings_from_schema(ClassifierSettings, "wikipse.probes").fitting(
        args.seed), mlp_hidden=args.mlp_hidden, mlp_early_stopping=args.mlp_early_stopping,
        n_jobs=args.jobs)
    provenance = harness.provenance(
        harness.command_line("benchmarks/wikipse_probes.py", argv), harness.now(),
        harness.machine(), f"; scikit-learn {sklearn.__version__}, numpy {np.__version__}")
    x, y = synthetic(2 * args.words, args.dim, args.classes, args.noise, args.spread, args.seed)
    data = {"x_train": x[:args.words], "y_train": y[:args.words],
            "x_test": x[args.words:], "y_test": y[args.words:]}
    _, pool_s = timed(lambda: Parallel(n_jobs=args.jobs)(delayed(abs)(i) for i in range(4)))
    every = harness.round_robin(args.kinds, args.repeat, lambda kind: run_kind(kind, data,
                                                                               settings),
                                lambda run: f"{run[0].wall_s:.1f} s, F1 {run[0].f1:.3f}")
    best = {kind: min(every[kind], key=lambda run: run[0].wall_s) for kind in args.kinds}
    runs = {kind: run for kind, (run, _) in best.items()}
    step = max(1, args.classes // args.variant_classes)
    columns = list(range(0, args.classes, step))[:args.variant_classes]
    # Classifiers are per class and seeded alike: the default's columns are what a fit on
    # those classes alone would predict.
    default_pred = best["MLP"][1] if "MLP" in best else None
    variants = {spec: run_variant(spec, data, settings, columns, default_pred)
                for spec in args.mlp_variants}
    facts = {"mean_classes": float(y.sum(axis=1).mean()), "pool_s": pool_s,
             "random": random_baseline_expected(data["y_train"], data["y_test"]),
             "k": settings.knn_k, "settings": ", ".join(f"{k}={v}" for k, v in
                                                       asdict(settings).items()),
             "max_iter": {"LR": LR_MAX_ITER, "MLP": settings.mlp_max_iter}}
    block = markdown(runs, variants, facts, provenance, args)
    print(block)
    harness.save(args, SECTION, block, {"facts": facts, "runs": [asdict(r) for r in runs.values()],
                                        "variants": [asdict(r) for r in variants.values()]})


if __name__ == "__main__":
    main()
