"""Cluster resources that scale with the configured data, so the small default config asks a
cluster for little and config/paper.yaml for what the full data needs.

A rule's memory grows with the attempt: a job killed for memory is retried once with twice as
much (`retries:` on the heavy rules), a job that failed on a bad input fails again at once.
The stage formulas live in each stage's targets.py; the Wikipedia reader's are here, since the
reader is shared. The dump's size is not known before it is fetched, so the configured number
of shards stands for it: config/paper.yaml cuts the English dump into 256 shards of ~90 MB of bz2.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

MemoryFunction = Callable[[Any, int], int]


def scaled(floor: float, per_unit: float, units: float, cap: float | None = None) -> int:
    """floor + per_unit × units, at most cap, as a whole number."""
    value = floor + per_unit * units
    return int(min(value, cap) if cap is not None else value)


def grows_with_attempt(mem_mb: int) -> MemoryFunction:
    """A Snakemake `mem_mb` that doubles on each retry (attempt 1, 2, …)."""

    def memory(wildcards: Any, attempt: int) -> int:
        """mem_mb for this attempt."""
        return mem_mb * 2 ** (attempt - 1)

    return memory


class Scale(NamedTuple):
    """How a rule's memory (MB) and run time (minutes) grow per unit of configured data."""

    mem_floor: float
    mem_per_unit: float
    runtime_floor: float
    runtime_per_unit: float


def job_resources(scale: Scale, units: float) -> dict[str, Any]:
    """A rule's `resources:` (mem_mb by attempt, runtime) for this many units of data."""
    return {"mem_mb": grows_with_attempt(scaled(scale.mem_floor, scale.mem_per_unit, units)),
            "runtime": scaled(scale.runtime_floor, scale.runtime_per_unit, units)}


def wikipedia_resources(wikipedia: Mapping[str, Any], rule: str) -> dict[str, Any]:
    """mem_mb (by attempt) and runtime (minutes) of a Wikipedia reader's job."""
    if rule == "wikipedia_shard":
        # A shard holds one block of pages at a time (block_pages), whatever the dump's size.
        return job_resources(Scale(1024, 30, 30, 4.5), int(wikipedia["block_pages"]))
    # The gather holds every shard's links and titles at once: ~190 MB a paper shard.
    return job_resources(Scale(1024, 190, 30, 2.7), int(wikipedia["shards"]))
