"""What a simulated run costs, per stage and in all: CPU-hours, wall-clock on the machine, the
largest job's memory, disk and downloads, and the jobs that cannot run there."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from reprobe.estimate.plan import DOWNLOAD_RULES, REPO, PlannedJob, wildcard_values
from reprobe.estimate.schedule import Machine, Simulation, simulate
from reprobe.resources import read_costs

# Rules of no paper's stage, by the name their stage is shown under.
SHARED_STAGES = {"fetch": "download", "extract": "download", "wikipedia": "wikipedia",
                 "table": "wikipedia", "report": "report", "all": "report"}


def stage_of(rule: str) -> str:
    """The stage a rule belongs to: its name's first word (fetch/extract are downloads)."""
    first = rule.split("_", 1)[0]
    return SHARED_STAGES.get(first, first)
SCORE_RULES = ("equate_score", "equate_score_shard", "equate_score_released",
               "equate_score_rebuilt", "equate_score_perturbation", "equate_score_mnli")
ALIAS = re.compile(r"(?m)^\s*use rule (\w+) as (\w+)")


@dataclass
class StageCost:
    """One stage's share of the run."""

    jobs: int = 0
    cpu_h: float = 0.0
    alone_h: float = 0.0  # wall-clock of the stage's jobs alone on the machine
    largest_mem_mb: float = 0.0
    largest_rule: str = ""
    rules: set[str] = field(default_factory=set)
    not_measured: set[str] = field(default_factory=set)

    def add(self, job: PlannedJob, start: float, end: float, cores: int, measured: bool) -> None:
        """Count one job in."""
        self.jobs += 1
        self.rules.add(job.rule)
        self.cpu_h += (end - start) * min(job.threads, cores)
        if job.expected_mem_mb() > self.largest_mem_mb:
            self.largest_mem_mb, self.largest_rule = job.expected_mem_mb(), job.rule
        if not measured:
            self.not_measured.add(job.rule)


def rule_aliases() -> dict[str, str]:
    """`use rule A as B`: B → A (B asks for what A's costs give)."""
    aliases = {}
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        for found in ALIAS.finditer(path.read_text(encoding="utf-8")):
            aliases[found.group(2)] = found.group(1)
    return aliases


def measured_rules() -> set[str]:
    """The rules whose costs come from a measurement (costs.json says where each comes from),
    and the rules that reuse one of theirs."""
    rules = read_costs()["rules"]
    # "growth per unit not measured", "paper-scale input not measured": partly the earlier
    # requests, so not counted as measured.
    measured = {name for name, entry in rules.items()
                if "not measured" not in str(entry.get("from", ""))}
    # EQUATE's score rules ask by kind (equate_score[other], equate_score[fetched]), its
    # training rule by architecture (equate_train_baseline[cbow], …).
    if {"equate_score[other]", "equate_score[fetched]"} <= measured:
        measured |= set(SCORE_RULES)
    by_architecture = [name for name in rules if name.startswith("equate_train_baseline[")]
    if by_architecture and set(by_architecture) <= measured:
        measured.add("equate_train_baseline")
    return measured | {alias for alias, base in rule_aliases().items() if base in measured}


def stage_costs(jobs: Sequence[PlannedJob], needs: Mapping[int, set[int]],
                simulation: Simulation, machine: Machine) -> dict[str, StageCost]:
    """Each stage's jobs, CPU-hours, wall-clock alone on the machine and largest job."""
    measured = measured_rules() | set(DOWNLOAD_RULES) | {"all"}
    stages: dict[str, StageCost] = defaultdict(StageCost)
    members: dict[str, list[PlannedJob]] = defaultdict(list)
    for job in jobs:
        members[stage_of(job.rule)].append(job)
        stages[stage_of(job.rule)].add(job, simulation.start_h[job.jobid],
                                       simulation.end_h[job.jobid], machine.cores,
                                       job.rule in measured)
    for name, stage_jobs in members.items():
        ids = {job.jobid for job in stage_jobs}
        # Alone: what it needs from other stages is taken as made.
        inner = {jobid: needs[jobid] & ids for jobid in ids}
        stages[name].alone_h = simulate(stage_jobs, inner, machine).makespan_h()
    return dict(sorted(stages.items()))


def download_bytes(jobs: Sequence[PlannedJob], sources: Mapping[str, Mapping[str, Any]]
                   ) -> tuple[int, list[str]]:
    """Bytes the run downloads (sources whose size the config records), and the sources whose
    size it does not."""
    total, unknown = 0, []
    for job in jobs:
        if job.rule != "fetch_source":
            continue
        source = wildcard_values(job).get("source", "")
        spec = sources.get(source, {})
        if "path" in spec:  # a local file: nothing to download
            continue
        size = spec.get("size")
        if size:
            total += int(size)
        else:
            unknown.append(source)
    return total, sorted(set(unknown))


def disk_bytes(jobs: Sequence[PlannedJob], downloads: int) -> tuple[int, list[str]]:
    """Bytes on disk at the end of the run (the downloads and every measured job's outputs;
    no output is temporary, so this is also the peak), and the rules whose outputs are not
    measured."""
    written = sum(job.output_mb or 0.0 for job in jobs) * 1e6
    unmeasured = sorted({job.rule for job in jobs if job.output_mb is None
                         and job.rule not in (*DOWNLOAD_RULES, "all")})
    return int(downloads + written), unmeasured


def costliest_rules(jobs: Sequence[PlannedJob], cores: int, count: int = 5
                    ) -> list[tuple[str, int, float]]:
    """The rules that book the most core-hours: (rule, jobs, core-hours), biggest first."""
    booked: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for job in jobs:
        booked[job.rule][0] += 1
        booked[job.rule][1] += job.expected_minutes() / 60 * min(job.threads, cores)
    ranked = sorted(booked.items(), key=lambda item: (-item[1][1], item[0]))[:count]
    return [(rule, int(found[0]), found[1]) for rule, found in ranked]


def hours(value: float) -> str:
    """Hours as a reader wants them: minutes under one hour."""
    return f"{value * 60:.0f} min" if value < 1 else f"{value:.1f} h"


def report_lines(stages: Mapping[str, StageCost], simulation: Simulation, machine: Machine,
                 downloads: tuple[int, list[str]],
                 disk: tuple[int, list[str]] = (0, []),
                 costliest: Sequence[tuple[str, int, float]] = ()) -> list[str]:
    """The estimate as Markdown: one row per stage, then the totals and warnings."""
    lines = [f"Estimated on {machine.cores} cores, {machine.mem_mb / 1024:.0f} GB, "
             f"{machine.gpus} GPU(s) (costs: reprobe/costs.json; extrapolated where "
             "measured at smaller sizes).", "",
             "| stage | jobs | CPU-hours | wall alone on the machine | largest job | "
             "rules with measured costs |", "|---|---:|---:|---:|---|---:|"]
    for name, stage in stages.items():
        largest = (f"{stage.largest_mem_mb / 1024:.1f} GB ({stage.largest_rule})"
                   if stage.largest_rule else "-")
        measured = len(stage.rules) - len(stage.not_measured)
        lines.append(f"| {name} | {stage.jobs} | {stage.cpu_h:.1f} | {hours(stage.alone_h)} "
                     f"| {largest} | {measured} of {len(stage.rules)} |")
    total_cpu = sum(stage.cpu_h for stage in stages.values())
    largest = max(stages.values(), key=lambda stage: stage.largest_mem_mb)
    size, unknown = downloads
    lines += ["", f"**Total: {hours(simulation.makespan_h())} wall** (the critical path through "
              f"the DAG, honouring each job's threads and memory), {total_cpu:.0f} CPU-hours; "
              f"largest job {largest.largest_mem_mb / 1024:.1f} GB ({largest.largest_rule}).",
              f"Downloads: {size / 1e9:.1f} GB" + (
                  f", plus {len(unknown)} sources whose size the config does not record "
                  f"({', '.join(unknown[:8])}{', …' if len(unknown) > 8 else ''})."
                  if unknown else "."),
              f"Disk at the peak and at the end (no output is temporary): {disk[0] / 1e9:.1f} "
              "GB" + (f", plus the outputs of {len(disk[1])} rules not measured yet"
                      if disk[1] else "") + " (extracted archives not counted)."]
    if costliest:
        lines.append("Costliest rules: " + "; ".join(
            f"{rule} ({jobs} jobs, {booked:.0f} core-hours)" for rule, jobs, booked in costliest)
            + ".")
    guessed = sorted(rule for stage in stages.values() for rule in stage.not_measured)
    if guessed:
        lines.append(f"Not measured yet at paper scale (their costs are, wholly or in their "
                     f"growth per unit, the requests made before the scale benchmark): "
                     f"{', '.join(guessed)}.")
    for job in simulation.too_big:
        why = ("asks for a GPU" if job.gpus and not machine.gpus
               else f"needs {job.expected_mem_mb() / 1024:.1f} GB")
        lines.append(f"WARNING: {job.rule} ({job.wildcards or 'no wildcards'}) {why}: it "
                     "cannot run on this machine.")
    return lines
