"""The scale benchmark's outputs: the Markdown block of docs/scale.md, a log-log plot per step
and the `measured` and `steps` of workflow/reprobe/costs.json (from which
benchmarks/rule_costs.py makes the rules' costs that the workflow's resource functions read)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import harness
from scale_fit import (
    GLOVE_PAPER_ENTRIES,
    GLOVE_STEP,
    Estimate,
    Point,
    Stage,
    detail_fit,
    estimate,
    fits_of,
    glove_verdict,
    memory_verdict,
    stage,
    tier_verdict,
)
from scale_levels import LADDERS
from scale_steps import BENCHMARKED, BY_NAME, SERIES

EXTRAPOLATED = "extrapolated"


@dataclass(frozen=True)
class Results:
    """A run's measurements, what failed, and where and how it ran."""

    points: Mapping[str, Sequence[Point]]
    failures: Mapping[str, str]
    mode: str
    command: str
    date: str
    host: dict
    cores: int


def number(value: float) -> str:
    """A size or count, short: 950, 12.3k, 4.5M, 3.1B."""
    for limit, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= limit:
            return f"{value / limit:.3g}{suffix}"
    return f"{value:.3g}"


def verdict(met: bool | None) -> str:
    """met / NOT met / unknown."""
    return {True: "met", False: "**not met**", None: "unknown"}[met]


def dump_series(results: Results, name: str) -> Sequence[Point] | None:
    """A step's points with a fixed shard in a growing dump, where measured."""
    return results.points.get(SERIES.get(name, ""))


def estimates(results: Results) -> dict[str, Estimate]:
    """The paper-scale estimate of every benchmarked step measured at two sizes or more."""
    return {name: estimate(BY_NAME[name], points, results.cores, dump_series(results, name))
            for name, points in results.points.items()
            if BY_NAME[name].paper is not None and len({p.size for p in points}) >= 2}


def memory(results: Results, name: str) -> tuple[bool, str]:
    """A step's memory verdict, with its fixed-shard series where measured."""
    return memory_verdict(BY_NAME[name], results.points[name], dump_series(results, name))


def summary_table(results: Results, found: Mapping[str, Estimate]) -> str:
    """Step | unit | α | the paper job | CPU hours | wall | peak RSS, all extrapolated."""
    rows = []
    for name, est in found.items():
        step, points = BY_NAME[name], results.points[name]
        assert step.paper is not None
        cpu, rss = fits_of(points)
        memory_met, why = memory(results, name)
        rows.append([f"`{name}`", step.unit, f"{cpu.alpha:.2f} / {rss.alpha:.2f}",
                     f"{number(step.paper.size)} ({step.paper.per})",
                     f"{est.cpu_s / 3600:.3g}", f"{est.wall_s / 3600:.3g} ({step.threads})",
                     f"{est.peak_rss_mb / 1000:.3g}", f"{est.peak_rss_linear_mb / 1000:.3g}",
                     f"{verdict(memory_met)}: {why}"])
    header = ["step", "unit", "α CPU / α RSS", "one paper job: size (per)",
              "CPU hours (extrapolated)", "wall hours on its threads (extrapolated)",
              "peak RSS GB (extrapolated)", "peak RSS GB, linear (extrapolated)",
              "peak RSS target"]
    return harness.markdown_table(header, rows, "lllllrrrl")


def glove_lines(results: Results, found: Mapping[str, Estimate]) -> list[str]:
    """The GloVe target, and its co-occurrences beside the paper-scale figure."""
    if GLOVE_STEP not in found:
        return ["- GloVe, 25 epochs on one 1.5B-token corpus ≤ 3 h on 16 threads: unknown "
                "(not measured)."]
    met, text = glove_verdict(found[GLOVE_STEP], BY_NAME[GLOVE_STEP].threads)
    lines = [f"- GloVe, 25 epochs on one 1.5B-token corpus ≤ 3 h on 16 threads: "
             f"{verdict(met)}, {text} ({EXTRAPOLATED})."]
    entries = detail_fit(results.points[GLOVE_STEP], "co-occurrences")
    if entries:
        ratio = entries.at(1.5e9) / GLOVE_PAPER_ENTRIES
        lines.append(f"- GloVe's nonzero co-occurrences grow as tokens^{entries.alpha:.2f} on "
                     f"the generated corpora: {number(entries.at(1.5e9))} at 1.5B tokens "
                     f"({EXTRAPOLATED}), {number(ratio)}× the ~{number(GLOVE_PAPER_ENTRIES)} of "
                     "the real corpus (issue 32), so the GloVe figures extrapolated here are "
                     f"{'pessimistic' if ratio > 1 else 'optimistic'} where they follow them.")
    return lines


def target_lines(results: Results, found: Mapping[str, Estimate]) -> list[str]:
    """The three targets of issue 32, each computed from the extrapolated figures."""
    stages: list[Stage] = [stage(BY_NAME[name], est) for name, est in found.items()]
    missing = [name for name in BENCHMARKED if name not in found]
    tier_met, tier_text = tier_verdict(stages, missing)
    verdicts = {name: memory(results, name) for name in found}
    failing = [name for name, (met, _) in verdicts.items() if not met]
    lines = [f"- Paper tier ≤ 24 h wall on 32 cores / 128 GB, its benchmarked stages alone: "
             f"{verdict(tier_met)}, {tier_text} ({EXTRAPOLATED}). The whole run, with the "
             "stages not benchmarked here and the DAG's order: `reprobe estimate --configfile "
             "config/paper.yaml --cores 32 --mem-gb 128 --gpus 1` (README's tier table).",
             *glove_lines(results, found),
             f"- No step's peak RSS growing with the whole input, except a model's "
             f"(vocabulary × dimension): {verdict(not failing if verdicts else None)}"
             + (f"; grows with the whole input: {', '.join(f'`{n}`' for n in failing)}."
                if failing else ".")]
    rows = [[f"`{s.step}`", str(s.jobs), str(s.at_once), f"{s.hours:.2f}",
             "yes" if s.fits_memory else "**no**"] for s in stages]
    table = harness.markdown_table(["stage", "paper jobs", "at once", "hours (extrapolated)",
                                    "fits in 128 GB"], rows)
    return [*lines, "", table]


def paper_table(found: Mapping[str, Estimate]) -> str:
    """Where each paper size comes from."""
    rows = []
    for name in found:
        paper = BY_NAME[name].paper
        assert paper is not None
        rows.append([f"`{name}`", f"{number(paper.size)} {BY_NAME[name].unit}", paper.per,
                     paper.source])
    return harness.markdown_table(["step", "size of one job", "one job is", "source"], rows,
                                  "llll")


def step_section(name: str, points: Sequence[Point], plots: str) -> list[str]:
    """One step's measured points, fits and plot."""
    step = BY_NAME[name]
    title = (f"#### `{step.series_of}` with a fixed shard ({name})" if step.series_of else
             f"#### `{name}`")
    detail_names = list(dict.fromkeys(k for p in points for k in p.details))
    rows = [[number(p.size), *(number(p.details[k]) if k in p.details else "" for k in
                               detail_names),
             f"{p.cpu_s:.2f}", f"{p.wall_s:.2f}", f"{p.peak_rss_mb:.0f}", f"{p.output_mb:.3g}"]
            for p in points]
    header = [f"size ({step.unit})", *detail_names, "CPU s", "wall s", "peak RSS MB",
              "output MB"]
    lines = [title, "", harness.markdown_table(header, rows), ""]
    if len({p.size for p in points}) >= 2:
        cpu, rss = fits_of(points)
        lines += [f"CPU s = {cpu.coef:.3g} × size^{cpu.alpha:.3f}; peak RSS MB = "
                  f"{rss.coef:.3g} × size^{rss.alpha:.3f} (least squares in log-log).", ""]
        if step.paper is not None:
            lines += [f"![{name}: CPU seconds and peak RSS against size, with the fits "
                      f"extended to the paper's size ({EXTRAPOLATED})]({plots}/{name}.png)", ""]
    return lines


def markdown(results: Results, plots: str = "scale") -> str:
    """The whole block for docs/scale.md."""
    found = estimates(results)
    ladders = {chain: LADDERS[chain][results.mode] for chain in LADDERS}
    lines = [*harness.provenance(results.command, results.date, results.host), "",
             f"Mode `{results.mode}`: sizes {ladders['wiki']} excerpt pages (Wikipedia and "
             f"Freebase steps), {ladders['text']} tokens (numeracy trainers), "
             f"{ladders['sskip']} tokens (SSKIP), {ladders['probe']} words a split (probes)."
             + (" **A `--tiny` run checks that the benchmark works; its figures say nothing "
                "about scale.**" if results.mode == "tiny" else ""), "",
             "### Summary at the paper's sizes (extrapolated)", "",
             f"Every figure at the paper's size is **{EXTRAPOLATED}** from the sizes measured "
             "below (cost ∝ size^α, fitted by least squares in log-log; the linear column "
             "extends peak RSS along its two largest sizes).", "",
             summary_table(results, found), "", "### Targets of issue 32 (extrapolated)", "",
             *target_lines(results, found), "", "### Paper sizes", "", paper_table(found), ""]
    if results.failures:
        lines += ["### Not measured", "", *(f"- `{name}`: {why}" for name, why in
                                           results.failures.items()), ""]
    lines += ["### Steps", ""]
    for name, points in results.points.items():
        lines += step_section(name, points, plots)
    return "\n".join(lines) + "\n"


def costs(results: Results) -> dict:
    """costs.json: the measurement, and per step its points, fits and paper job."""
    steps = {}
    for name, est in estimates(results).items():
        step, points = BY_NAME[name], results.points[name]
        assert step.paper is not None
        cpu, rss = fits_of(points)
        steps[name] = {
            "rules": list(step.rules), "unit": step.unit, "threads": step.threads,
            "points": [{"size": p.size, "cpu_s": round(p.cpu_s, 3), "wall_s": round(p.wall_s, 3),
                        "peak_rss_mb": round(p.peak_rss_mb, 1)} for p in points],
            "cpu_s": {"coef": cpu.coef, "alpha": cpu.alpha},
            "peak_rss_mb": {"coef": rss.coef, "alpha": rss.alpha},
            "paper": {"size": step.paper.size, "per": step.paper.per,
                      "source": step.paper.source, "cpu_s": round(est.cpu_s, 1),
                      "peak_rss_mb": round(est.peak_rss_mb, 1),
                      "output_mb": round(est.output_mb, 1),
                      # False where the ladder reached the paper's size: measured, not fitted.
                      "extrapolated": max(p.size for p in points) < step.paper.size}}
    host = results.host
    machine = (f"{host['cores']} cores ({host['cpu_model']}), Python {host['python']}, "
               f"{host['platform']}, load average before {host['load_average_before'][0]:.2f}")
    return {"measured": {"command": results.command, "date": results.date, "machine": machine,
                         "git": host["git_head"]},
            "steps": steps}


def plot(name: str, points: Sequence[Point], est: Estimate, path: Path) -> None:
    """A log-log plot of a step's CPU seconds and peak RSS, fits extended to the paper."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    step = BY_NAME[name]
    cpu, rss = fits_of(points)
    figure, axes = plt.subplots(1, 2, figsize=(9, 3.6))
    for axis, fit, key, target, label in (
            (axes[0], cpu, "cpu_s", est.cpu_s, "CPU seconds"),
            (axes[1], rss, "peak_rss_mb", est.peak_rss_mb, "peak RSS (MB)")):
        sizes = [p.size for p in points]
        far = est.memory_size if key == "peak_rss_mb" else est.size
        line = np.geomspace(min(sizes), max(far, max(sizes)), 50)
        axis.loglog(sizes, [getattr(p, key) for p in points], "o", label="measured")
        axis.loglog(line, fit.at(line), "--", label=f"fit, α {fit.alpha:.2f} ({EXTRAPOLATED})")
        axis.loglog([far], [target], "s", label=f"paper job ({EXTRAPOLATED})")
        axis.set_xlabel(step.unit)
        axis.set_ylabel(label)
        axis.legend(fontsize=7)
    figure.suptitle(f"{name} ({EXTRAPOLATED} beyond the measured sizes)")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=90)
    plt.close(figure)


def merged_costs(results: Results, costs_path: Path) -> dict:
    """costs.json with this run's `measured` and `steps`, its other keys (the rules'
    costs, which benchmarks/rule_costs.py writes) kept."""
    found = json.loads(costs_path.read_text(encoding="utf-8")) if costs_path.is_file() else {}
    return {**found, **costs(results)}


def write_outputs(results: Results, page: Path, costs_path: Path) -> None:
    """The page's block between its markers, a plot per step beside it, and costs.json."""
    for name, est in estimates(results).items():
        plot(name, results.points[name], est, page.parent / "scale" / f"{name}.png")
    harness.update_readme(page, "scale", markdown(results))
    harness.write_json(costs_path, merged_costs(results, costs_path))
