"""A paper's cost section: wall time, CPU time and peak memory of its rules, biggest first, from
the `benchmark:` file Snakemake writes beside each job's log (`logs/<rule>/….benchmark.tsv`).

Only the jobs that have run are counted; a job rerun replaces its file, so the figures are the
last run's. Memory is Snakemake's max_rss (MB), sampled while the job runs: a job of a few
seconds may end before its first sample and show no memory.
"""

from __future__ import annotations

import csv
import html
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from reprobe.estimate.summary import stage_of

BENCHMARK_SUFFIX = ".benchmark.tsv"
# A page's folder name → the stage its rules are named after.
PAGE_STAGES = {"corpus": "wikipedia"}


@dataclass
class RuleCost:
    """One rule's jobs, summed wall and CPU seconds, and its largest peak RSS."""

    jobs: int = 0
    wall_s: float = 0.0
    cpu_s: float = 0.0
    max_rss_mb: float = 0.0


def rule_of(path: Path, logs: Path) -> str:
    """The rule a benchmark file belongs to: `logs/<rule>/…` or `logs/<rule>.benchmark.tsv`."""
    parts = path.relative_to(logs).parts
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(BENCHMARK_SUFFIX)


def _number(value: str | None) -> float:
    """A benchmark cell as a number ("-" and blanks are 0)."""
    try:
        return float(value or 0)
    except ValueError:
        return 0.0


def read_costs(logs: Path, page: str) -> dict[str, RuleCost]:
    """The cost of each of the page's rules, from every benchmark file under `logs`."""
    stage = PAGE_STAGES.get(page, page)
    costs: dict[str, RuleCost] = defaultdict(RuleCost)
    for path in sorted(Path(logs).rglob(f"*{BENCHMARK_SUFFIX}")):
        rule = rule_of(path, Path(logs))
        if stage_of(rule) != stage:
            continue
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                cost = costs[rule]
                cost.jobs += 1
                cost.wall_s += _number(row.get("s"))
                cost.cpu_s += _number(row.get("cpu_time"))
                cost.max_rss_mb = max(cost.max_rss_mb, _number(row.get("max_rss")))
    return dict(costs)


def _seconds(value: float) -> str:
    """Seconds, as minutes or hours when long."""
    if value >= 3600:
        return f"{value / 3600:.1f} h"
    return f"{value / 60:.1f} min" if value >= 60 else f"{value:.1f} s"


def ranked(costs: Mapping[str, RuleCost]) -> list[tuple[str, RuleCost]]:
    """The rules by summed wall time, biggest first (then by name)."""
    return sorted(costs.items(), key=lambda item: (-item[1].wall_s, item[0]))


def costs_html(costs: Mapping[str, RuleCost]) -> str:
    """The section: one row per rule, biggest first, and the totals."""
    if not costs:
        return ('<section id="costs"><h2>Cost of this run</h2><p>No benchmark files yet: '
                "the rules' jobs record them under logs/ as they run.</p></section>")
    rows = "".join(_row(rule, cost) for rule, cost in ranked(costs))
    total = RuleCost(sum(c.jobs for c in costs.values()), sum(c.wall_s for c in costs.values()),
                     sum(c.cpu_s for c in costs.values()),
                     max(c.max_rss_mb for c in costs.values()))
    head = ("<tr><th>rule</th><th class=num>jobs</th><th class=num>wall (sum)</th>"
            "<th class=num>CPU (sum)</th><th class=num>largest peak RSS</th></tr>")
    return ('<section id="costs"><h2>Cost of this run</h2><p>Each rule\'s jobs as Snakemake '
            "measured them (<code>benchmark:</code> files under <code>logs/</code>), biggest "
            f"first; {total.jobs} jobs, {_seconds(total.wall_s)} of job time in all. "
            "<code>reprobe estimate</code> says what the paper configuration would take.</p>"
            f"<table><thead>{head}</thead><tbody>{rows}{_row('total', total)}</tbody></table>"
            "</section>")


def _row(rule: str, cost: RuleCost) -> str:
    """One rule's row."""
    memory = f"{cost.max_rss_mb:.0f} MB" if cost.max_rss_mb else "—"
    return (f"<tr><td>{html.escape(rule)}</td><td class=num>{cost.jobs}</td>"
            f"<td class=num>{_seconds(cost.wall_s)}</td><td class=num>{_seconds(cost.cpu_s)}"
            f"</td><td class=num>{memory}</td></tr>")


def summary(costs: Mapping[str, RuleCost]) -> list[dict[str, float | str]]:
    """The section's rows for the page's JSON summary."""
    return [{"rule": rule, "jobs": cost.jobs, "wall_s": round(cost.wall_s, 2),
             "cpu_s": round(cost.cpu_s, 2), "max_rss_mb": round(cost.max_rss_mb, 1)}
            for rule, cost in ranked(costs)]

