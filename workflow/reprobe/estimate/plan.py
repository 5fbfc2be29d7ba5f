"""The jobs a configuration would run, with their resources and dependencies, from Snakemake's
own dry run (`snakemake -n --forceall`): the workflow's DAG as the scheduler would see it.

Each job's `mem_mb` and `runtime` are what it asks for (reprobe.resources: measured costs times
their margins); `expected` divides the margins back out, as the estimate wants what a job will
take, not what it asks a cluster for. Downloads and extractions (`fetch_source`,
`extract_source`) ask for their size at a modest rate with a 2× margin
(config.fetch_runtime_minutes), halved the same way.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reprobe.errors import ReprobeError
from reprobe.resources import MEMORY_MARGIN, RUNTIME_MARGIN

REPO = Path(__file__).resolve().parents[3]
JOB_HEADER = re.compile(r"^(?:local)?(?:rule|checkpoint) (\w+):$")
FIELD = re.compile(r"^    (\w+): (.*)$")
DOWNLOAD_RULES = ("fetch_source", "extract_source")
DOWNLOAD_MARGIN = 2.0  # config.fetch_runtime_minutes doubles the time at its rate


@dataclass
class PlannedJob:
    """One job of the dry run: its rule, files, threads and what it asks for."""

    jobid: int
    rule: str
    wildcards: str = ""
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    threads: int = 1
    mem_mb: int = 0
    runtime_min: float = 0.0
    gpus: int = 0
    output_mb: float | None = None  # what its outputs measured (None: not measured)
    minutes: float | None = None  # the expected wall time when known better than the request

    def expected_minutes(self) -> float:
        """The wall time the job is expected to take (its request without the margin)."""
        if self.minutes is not None:
            return self.minutes
        margin = DOWNLOAD_MARGIN if self.rule in DOWNLOAD_RULES else RUNTIME_MARGIN
        return self.runtime_min / margin

    def expected_mem_mb(self) -> float:
        """The peak memory the job is expected to reach (its request without the margin)."""
        return self.mem_mb / MEMORY_MARGIN


def wildcard_values(job: PlannedJob) -> dict[str, str]:
    """A job's wildcards as a mapping."""
    return dict(pair.split("=", 1) for pair in job.wildcards.split(", ") if "=" in pair)


def time_downloads(jobs: Sequence[PlannedJob], sources: Mapping[str, Mapping[str, Any]],
                   bytes_per_second: float) -> None:
    """Set each fetch's and extraction's expected minutes: a local file takes none, a
    download of known size takes its size at `bytes_per_second` (an extraction, at ten times
    that); one of unknown size keeps its request."""
    for job in jobs:
        if job.rule not in DOWNLOAD_RULES:
            continue
        spec = sources.get(wildcard_values(job).get("source", ""), {})
        rate = bytes_per_second * (10 if job.rule == "extract_source" else 1)
        if "path" in spec:
            job.minutes = 0.0
        elif spec.get("size"):
            job.minutes = int(spec["size"]) / rate / 60


def _files(value: str) -> list[str]:
    """A dry run's comma-separated file list."""
    return [name for name in (part.strip() for part in value.split(", ")) if name]


def _resources(value: str) -> dict[str, str]:
    """`key=value, …` from a dry run's resources line."""
    pairs = (item.split("=", 1) for item in value.split(", ") if "=" in item)
    return {key.strip(): val.strip() for key, val in pairs}


def _fill(job: PlannedJob, key: str, value: str) -> None:
    """Set one field of a job from its dry-run line."""
    if key == "input":
        job.inputs = _files(value)
    elif key == "output":
        job.outputs = _files(value)
    elif key == "jobid":
        job.jobid = int(value)
    elif key == "wildcards":
        job.wildcards = value
    elif key == "threads":
        job.threads = int(value)
    elif key == "resources":
        found = _resources(value)
        job.mem_mb = int(float(found.get("mem_mb", 0)))
        job.runtime_min = float(found.get("runtime", 0))
        job.gpus = int(float(found.get("gpu", 0)))
        if "output_mb" in found:
            job.output_mb = float(found["output_mb"])


def parse_dry_run(lines: Iterable[str]) -> list[PlannedJob]:
    """The jobs of `snakemake -n` output (aggregate targets with no command included)."""
    jobs: list[PlannedJob] = []
    current: PlannedJob | None = None
    for line in lines:
        line = line.rstrip("\n")
        header = JOB_HEADER.match(line)
        if header:
            current = PlannedJob(jobid=-1, rule=header.group(1))
            jobs.append(current)
            continue
        found = FIELD.match(line)
        if current is not None and found:
            _fill(current, *found.groups())
        elif not line.startswith("    "):
            current = None
    return jobs


def dry_run_command(configfiles: Sequence[Path], cores: int, targets: Sequence[str],
                    project: Path = REPO) -> list[str]:
    """The Snakemake dry run that lists every job of a fresh run of `targets`."""
    command = [sys.executable, "-m", "snakemake", *targets, "--dry-run", "--forceall",
               "--cores", str(cores), "--snakefile", str(project / "Snakefile"),
               "--directory", str(project)]
    # Last: --configfile takes every word after it.
    return [*command, "--configfile", *map(str, configfiles)] if configfiles else command


def planned_jobs(configfiles: Sequence[Path], cores: int, targets: Sequence[str] = ("all",),
                 project: Path = REPO) -> list[PlannedJob]:
    """Every job a fresh run of `targets` under these config files would run (in `project`, a
    copy of this project: its files are listed relative to it)."""
    command = dry_run_command(configfiles, cores, targets, project)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise ReprobeError(f"snakemake's dry run failed ({' '.join(command[2:])}):\n{tail}")
    return parse_dry_run((done.stdout + "\n" + done.stderr).splitlines())


def dependencies(jobs: Sequence[PlannedJob]) -> dict[int, set[int]]:
    """Each job's id → the ids of the jobs that make its inputs."""
    maker: dict[str, int] = {}
    for job in jobs:
        for output in job.outputs:
            maker[output.rstrip("/")] = job.jobid
    return {job.jobid: {maker[name.rstrip("/")] for name in job.inputs
                        if name.rstrip("/") in maker and maker[name.rstrip("/")] != job.jobid}
            for job in jobs}
