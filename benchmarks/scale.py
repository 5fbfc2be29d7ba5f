#!/usr/bin/env python3
"""Scale benchmark: every heavy step of the papers, timed at growing sizes of generated input,
fitted as cost ∝ size^α and extrapolated to the paper's sizes (config/paper.yaml).

Inputs (scale_inputs.py, scale_wiki.py; cached in --work by size): a multistream Wikipedia
dump of N pages of gensim's excerpt, every copy renamed (titles, redirects, link targets) and a
share of its prose words drawn from an open Zipf vocabulary, with synthetic redirects up to
English Wikipedia's 3 a hundred links; a Freebase N-Triples dump with a topic for each of its
titles, ~9.4 triples a link; text corpora of N tokens from the open vocabulary; released-like
files of fixed-size sources (scale_files: EQUATE's, NumerSense's, WIKI-PSE's tasks'). The steps
(scale_steps.py) run as their rules run them, `python -m reprobe …` as a child process each,
timed by harness.measure: CPU seconds of the process tree, wall seconds, peak RSS of the tree
sampled every --interval seconds. scale_fit.py fits and extrapolates; scale_report.py writes
the Markdown, the plots and costs.json.

    python benchmarks/scale.py --tiny                 # minutes: checks that every step runs
    python benchmarks/scale.py --quick --update-readme  # 3 sizes a step over 16x, < 30 min
    python benchmarks/scale.py --update-readme          # 5 sizes a step over 16x, longer
    python benchmarks/scale.py --quick --steps wikipedia_shard,wikipse_typing

--update-readme writes docs/scale.md (between its `scale` markers), docs/scale/<step>.png and
workflow/reprobe/costs.json (--costs to write it elsewhere); without it the Markdown is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "workflow"))
import harness  # noqa: E402
from scale_fit import Point  # noqa: E402
from scale_levels import LADDERS, Level, level_details, make_level, paper_settings  # noqa: E402
from scale_report import Results, markdown, write_outputs  # noqa: E402
from scale_steps import BENCHMARKED, SERIES, Step, closure, output_mb  # noqa: E402

PAGE = harness.REPO / "docs" / "scale.md"
COSTS = harness.REPO / "workflow" / "reprobe" / "costs.json"
CHILD_ENV = {"PYTHONPATH": str(harness.REPO / "workflow")}


def step_list(text: str) -> list[str]:
    """An argparse type: comma-separated step names, each one of the benchmarked steps."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in BENCHMARKED]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown step(s) {unknown or text!r}; choose from "
                                         f"{', '.join(BENCHMARKED)}")
    return names


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = harness.new_parser(__doc__)
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true",
                      help="3 sizes a step spanning 16x (29 minutes on 2 cores, measured)")
    size.add_argument("--tiny", action="store_true",
                      help="3 tiny sizes a step: checks that everything runs (4 minutes)")
    parser.add_argument("--steps", type=step_list, default=list(BENCHMARKED), metavar="A,B",
                        help=f"the steps to time (default all: {', '.join(BENCHMARKED)})")
    parser.add_argument("--work", type=Path, metavar="DIR",
                        help="folder for the inputs (cached by size) and outputs (default: a "
                        "temporary folder, removed at the end)")
    parser.add_argument("--interval", type=float, default=0.1, metavar="S",
                        help="seconds between peak-RSS samples (default 0.1)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write every "
                        "measurement and the costs as JSON")
    parser.add_argument("--update-readme", nargs="?", type=Path, const=PAGE, metavar="PATH",
                        help="write the block between the `scale` markers of PATH (default "
                        "docs/scale.md), the plots beside it under scale/, and costs.json")
    parser.add_argument("--from-json", type=Path, metavar="PATH",
                        help="run nothing: report the measurements a --json file holds")
    parser.add_argument("--keep", type=Path, metavar="PATH",
                        help="an earlier --json: its steps not run now are kept (rerun some "
                        "steps, report them all)")
    parser.add_argument("--costs", type=Path, default=COSTS, metavar="PATH",
                        help="where --update-readme writes costs.json (default "
                        "workflow/reprobe/costs.json)")
    return parser.parse_args(argv)


def mode_of(args: argparse.Namespace) -> str:
    """tiny, quick or default."""
    return "tiny" if args.tiny else "quick" if args.quick else "default"


def log_counts(step: Step, log: Path) -> dict[str, float]:
    """Counts the step's log reports (GloVe's co-occurrences; its epochs' seconds, summed),
    by detail name."""
    text = log.read_text(encoding="utf-8", errors="replace")
    found = {name: re.findall(pattern, text) for name, pattern in step.log_counts.items()}
    sums = {name: re.findall(pattern, text) for name, pattern in step.log_sums.items()}
    return {**{name: float(values[-1]) for name, values in found.items() if values},
            **{name: sum(map(float, values)) for name, values in sums.items() if values}}


def point(step: Step, level: Level, measured: harness.Measurement, logs: Path) -> Point:
    """A timed run as a point of its step: its size, seconds, peak RSS, details, outputs."""
    log = logs / f"{step.name}-{level.chain}-{level.size}.log"
    details = step.details({**level_details(level), **log_counts(step, log)})
    return Point(step.size(level), measured.cpu_s, measured.wall_s,
                 measured.peak_rss_bytes / 1e6, details, output_mb(step, level))


def run_one(step: Step, level: Level, logs: Path, interval: float) -> harness.Measurement:
    """Run a step's command on a level, timed; its log under `logs`."""
    log = logs / f"{step.name}-{level.chain}-{level.size}.log"
    print(f"  {step.name} at {level.size} (load {os.getloadavg()[0]:.2f}) ...", file=sys.stderr,
          flush=True)
    return harness.measure(step.argv(level), log, interval=interval, env_extra=CHILD_ENV)


def run_chain(chain: str, names: list[str], mode: str, work: Path, settings: dict[str, str],
              interval: float, results: dict[str, list[Point]], failures: dict[str, str]
              ) -> None:
    """Every size of one chain: the steps named, and the steps they need, untimed."""
    steps = [step for step in closure(names) if step.chain == chain]
    if not steps:  # no level of this chain is generated for nothing
        return
    cores = len(os.sched_getaffinity(0))
    logs = work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    ladder = LADDERS[chain][mode]
    for size in ladder:
        print(f"{chain} at {size} ...", file=sys.stderr, flush=True)
        level = make_level(chain, size, work, settings, cores, min(ladder))
        for step in steps:
            blocked = [need for need in step.needs if need in failures]
            if step.name in failures or blocked:
                failures.setdefault(step.name, f"not run: {', '.join(blocked)} failed")
                continue
            try:
                if step.warm_up and size == ladder[0]:
                    run_one(step, level, logs, interval)
                measured = run_one(step, level, logs, interval)
                if step.name in names:
                    results.setdefault(step.name, []).append(point(step, level, measured, logs))
            except SystemExit as error:
                failures[step.name] = f"failed at size {size}: {str(error).splitlines()[0]}"
            except (KeyError, OSError, ValueError) as error:
                failures[step.name] = f"its outputs at size {size} could not be read: {error!r}"


def run_all(names: list[str], mode: str, work: Path, interval: float
            ) -> tuple[dict[str, list[Point]], dict[str, str]]:
    """Every chain the named steps are on: their points (in the table's order, each step's
    fixed-shard series last) and what failed, the steps they need included."""
    settings = paper_settings(len(os.sched_getaffinity(0)))
    results: dict[str, list[Point]] = {}
    failures: dict[str, str] = {}
    # A step's second series (a fixed shard in a growing dump) runs with it.
    names = [*names, *(SERIES[name] for name in names if name in SERIES)]
    for chain in LADDERS:
        run_chain(chain, names, mode, work, settings, interval, results, failures)
    order = [*BENCHMARKED, *SERIES.values()]
    return {name: results[name] for name in order if name in results}, failures


def read_results(path: Path) -> Results:
    """The measurements of an earlier --json file, and how they were made."""
    data = json.loads(path.read_text(encoding="utf-8"))
    run = data["run"]
    points = {name: [Point(**point) for point in series]
              for name, series in data["points"].items()}
    return Results(points, data["failures"], run["mode"], run["command"], run["date"],
                   run["host"], run["cores"])


def kept_with(earlier: Results, now: Results) -> Results:
    """The earlier results with the steps run now replaced (both commands recorded; the size
    ladder must be the same)."""
    if earlier.mode != now.mode:
        raise SystemExit(f"--keep: that run was --{earlier.mode}, this one --{now.mode}")
    points = {**earlier.points, **now.points}
    failures = {**{name: why for name, why in earlier.failures.items()
                   if name not in now.points}, **now.failures}
    order = [*BENCHMARKED, *SERIES.values()]
    return Results({name: points[name] for name in order if name in points}, failures,
                   now.mode, f"{earlier.command}; then {now.command}", now.date, now.host,
                   now.cores)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print the Markdown or write the page, plots and costs.json."""
    args = parse_args(argv)
    mode = mode_of(args)
    host, date = harness.machine(), harness.now()
    command = harness.command_line("benchmarks/scale.py", argv)
    if args.from_json:
        results = read_results(args.from_json)
    else:
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="reprobe-scale-") as scratch:
            work = args.work or Path(scratch)
            points, failures = run_all(args.steps, mode, work, args.interval)
        results = Results(points, failures, mode, command, date, host, host["cores"])
        print(f"done in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    if args.keep:
        results = kept_with(read_results(args.keep), results)
    if args.json:
        from dataclasses import asdict

        from scale_report import costs

        harness.write_json(args.json, {
            "points": {n: [asdict(p) for p in ps] for n, ps in results.points.items()},
            "failures": results.failures, "costs": costs(results),
            "run": {"mode": results.mode, "command": results.command, "date": results.date,
                    "host": results.host, "cores": results.cores}})
    if args.update_readme:
        write_outputs(results, args.update_readme, args.costs)
    else:
        print(markdown(results))
    return 1 if results.failures and not results.points else 0


if __name__ == "__main__":
    sys.exit(main())
