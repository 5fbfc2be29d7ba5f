"""Every rule's cluster resources, from measured costs: `costs.json` beside this module.

`costs.json` holds, for each rule, what one job was measured to take: a floor (the default
config's job, measured by benchmarks/default_run.py) and a cost per unit of configured data
(the paper configuration's job, extrapolated by benchmarks/scale.py from 3+ synthetic input
sizes, divided by the paper config's units). `benchmarks/rule_costs.py` rewrites it from those
two measurements; each entry says where its figures come from ("from"), and which rules are
still not measured.

A unit is what the stage's targets.py counts for that rule (the dump's shards, the pages of a
reader's block, the largest model's size class, …): the data's size is not known before it is
fetched, so the configured data stands for it. A job asks for its expected peak times
MEMORY_MARGIN and its expected wall time times RUNTIME_MARGIN (a node may be slower than the
machine that measured it); `reprobe estimate` divides them back out. Memory grows with the
attempt: a job killed for memory is retried once with twice as much (`retries:` on the heavy
rules); a job that failed on a bad input fails again at once.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

MemoryFunction = Callable[[Any, int], int]

COSTS = Path(__file__).with_name("costs.json")
MEMORY_MARGIN = 1.25  # measured peaks vary a little with the data's order and the allocator
RUNTIME_MARGIN = 2.0  # a cluster node may be half as fast as the machine that measured
MIN_MEM_MB = 512  # below this, a scheduler's own accounting dominates
MIN_RUNTIME_MIN = 5  # a queue's granularity: a shorter request buys nothing


class Scale(NamedTuple):
    """A rule's expected peak memory (MB) and wall time (minutes) per unit of data."""

    mem_floor: float
    mem_per_unit: float
    runtime_floor: float
    runtime_per_unit: float

    def memory_mb(self, units: float) -> float:
        """Expected peak RSS of one job, MB."""
        return self.mem_floor + self.mem_per_unit * units

    def runtime_min(self, units: float) -> float:
        """Expected wall time of one job, minutes."""
        return self.runtime_floor + self.runtime_per_unit * units


@cache
def read_costs(path: Path = COSTS) -> Mapping[str, Any]:
    """The measured costs file, read once per process."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def rule_scale(rule: str, path: Path = COSTS) -> Scale:
    """The measured Scale of `rule` (KeyError naming the file when it has no entry)."""
    rules = read_costs(path)["rules"]
    if rule not in rules:
        raise KeyError(f"{path}: no measured costs for rule {rule!r}; run benchmarks/"
                       "rule_costs.py, or add the rule's entry by hand with 'from' saying so")
    entry = rules[rule]
    return Scale(*entry["mem_mb"], *entry["runtime_min"])


def grows_with_attempt(mem_mb: int) -> MemoryFunction:
    """A Snakemake `mem_mb` that doubles on each retry (attempt 1, 2, …)."""

    def memory(wildcards: Any, attempt: int) -> int:
        """mem_mb for this attempt."""
        return mem_mb * 2 ** (attempt - 1)

    return memory


def requested(scale: Scale, units: float) -> tuple[int, int]:
    """(mem_mb, runtime minutes) a job asks for: expected figures times their margins."""
    mem_mb = max(MIN_MEM_MB, math.ceil(scale.memory_mb(units) * MEMORY_MARGIN))
    runtime = max(MIN_RUNTIME_MIN, math.ceil(scale.runtime_min(units) * RUNTIME_MARGIN))
    return mem_mb, runtime


def output_mb(rule: str, units: float, path: Path = COSTS) -> int | None:
    """The measured size of one job's outputs (MB) for this many units, None if unmeasured."""
    sizes = read_costs(path)["rules"][rule].get("output_mb")
    return None if sizes is None else math.ceil(sizes[0] + sizes[1] * units)


def measured_threads(rule: str, path: Path = COSTS) -> int | None:
    """The threads a threaded rule's run time was measured for (None: a one-thread rule)."""
    return read_costs(path)["rules"][rule].get("threads")


def on_threads(runtime: float, measured: int | None) -> Any:
    """A requested run time (minutes, margin included) as Snakemake's `runtime`: as is, or,
    for a rule measured on `measured` threads, a function of the job's own threads (its work
    spread evenly over them); never below MIN_RUNTIME_MIN."""
    if measured is None:
        return max(MIN_RUNTIME_MIN, math.ceil(runtime))

    def scaled_runtime(wildcards: Any, threads: int) -> int:
        """runtime (minutes) on this job's threads."""
        return minutes_on(runtime, measured, threads)

    return scaled_runtime


def minutes_on(runtime: float, measured: int, threads: int) -> int:
    """A run time measured on `measured` threads, spread over `threads` (whole minutes, never
    below MIN_RUNTIME_MIN)."""
    return max(MIN_RUNTIME_MIN, math.ceil(runtime * measured / max(threads, 1)))


def job_resources(rule: str, units: float = 0, budget_mb: int = 0) -> dict[str, Any]:
    """A rule's `resources:` (mem_mb by attempt, runtime, and output_mb where measured: a
    resource no scheduler limits, which `reprobe estimate` adds up) for this many units; a job
    given a memory budget it fills before spilling to disk (`budget_mb`) asks for it on top."""
    scale = rule_scale(rule)
    mem_mb = requested(scale, units)[0] + math.ceil(budget_mb * MEMORY_MARGIN)
    found = {"mem_mb": grows_with_attempt(mem_mb),
             "runtime": on_threads(scale.runtime_min(units) * RUNTIME_MARGIN,
                                   measured_threads(rule))}
    written = output_mb(rule, units)
    return found if written is None else {**found, "output_mb": written}


def per_job_resources(rule: str, units_of: Callable[[Any], float]) -> dict[str, Any]:
    """A rule's `resources:` when each job has its own units (a function of its wildcards)."""
    scale = rule_scale(rule)

    def memory(wildcards: Any, attempt: int) -> int:
        """mem_mb of this job for this attempt."""
        return requested(scale, units_of(wildcards))[0] * 2 ** (attempt - 1)

    measured = measured_threads(rule) or 1

    def runtime(wildcards: Any, threads: int) -> int:
        """runtime (minutes) of this job on its threads."""
        return minutes_on(scale.runtime_min(units_of(wildcards)) * RUNTIME_MARGIN, measured,
                          threads)

    found: dict[str, Any] = {"mem_mb": memory, "runtime": runtime}
    if read_costs()["rules"][rule].get("output_mb") is not None:
        found["output_mb"] = lambda wildcards: output_mb(rule, units_of(wildcards))
    return found


def job_memory(rule: str, units: float = 0) -> MemoryFunction:
    """A rule's `mem_mb` alone (by attempt), for a rule whose run time comes from elsewhere."""
    return job_resources(rule, units)["mem_mb"]


def wikipedia_resources(wikipedia: Mapping[str, Any], rule: str) -> dict[str, Any]:
    """mem_mb (by attempt) and runtime (minutes) of a Wikipedia reader's job."""
    if rule == "wikipedia_shard":
        # A shard holds one block of pages at a time (block_pages), whatever the dump's size.
        return job_resources(rule, int(wikipedia["block_pages"]))
    # The gather fills its memory budget before it spills (reprobe.wikipedia.spilled).
    return job_resources(rule, int(wikipedia["shards"]), int(wikipedia["gather_memory_mb"]))
