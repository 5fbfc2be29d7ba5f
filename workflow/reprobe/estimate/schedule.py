"""A run simulated on one machine: the jobs start as Snakemake starts them, when their inputs are
made and their threads, memory and GPU fit what is free, longest remaining path first.

Snakemake's own scheduler solves a small knapsack over the ready jobs; starting the jobs with
the longest path to the end first is the classic list-scheduling rule and lands within a few
percent of it on DAGs shaped like this one (many short jobs around a few long chains). A job
asking for more threads than the machine has runs on all of it (Snakemake lowers its threads to
--cores); a job asking for more memory than the machine has cannot run, and is reported.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from reprobe.estimate.plan import PlannedJob


@dataclass(frozen=True)
class Machine:
    """What the run has: cores, memory (MB) and GPUs."""

    cores: int
    mem_mb: float
    gpus: int = 0


@dataclass
class Simulation:
    """When each job starts and ends (hours), and what could not run."""

    start_h: dict[int, float] = field(default_factory=dict)
    end_h: dict[int, float] = field(default_factory=dict)
    too_big: list[PlannedJob] = field(default_factory=list)

    def makespan_h(self) -> float:
        """Hours from the first job's start to the last job's end."""
        return max(self.end_h.values(), default=0.0)


def users_of(jobs: Mapping[int, PlannedJob], needs: Mapping[int, set[int]]) -> dict[int, list[int]]:
    """Each job's id → the ids of the jobs that read what it makes."""
    users: dict[int, list[int]] = {jobid: [] for jobid in jobs}
    for jobid, made_by in needs.items():
        for maker in made_by:
            users[maker].append(jobid)
    return users


def remaining_paths(jobs: Mapping[int, PlannedJob],
                    needs: Mapping[int, set[int]]) -> dict[int, float]:
    """Each job's longest path (its own hours included) to the end of the run."""
    users = users_of(jobs, needs)
    path: dict[int, float] = {}
    for jobid in reversed(topological_order(jobs, needs)):
        after = max((path[user] for user in users[jobid]), default=0.0)
        path[jobid] = jobs[jobid].expected_minutes() / 60 + after
    return path


def topological_order(jobs: Mapping[int, PlannedJob], needs: Mapping[int, set[int]]) -> list[int]:
    """The jobs, each after every job it needs (ValueError on a cycle)."""
    waiting = {jobid: len(needs.get(jobid, ())) for jobid in jobs}
    users = users_of(jobs, needs)
    order = [jobid for jobid, count in waiting.items() if count == 0]
    for jobid in order:  # grows while it is walked
        for user in users[jobid]:
            waiting[user] -= 1
            if waiting[user] == 0:
                order.append(user)
    if len(order) != len(jobs):
        raise ValueError("the jobs' dependencies form a cycle")
    return order


def _fits(job: PlannedJob, free: Machine, machine: Machine) -> bool:
    """Whether the job can start on what is free now."""
    return (min(job.threads, machine.cores) <= free.cores
            and job.expected_mem_mb() <= free.mem_mb and min(job.gpus, machine.gpus) <= free.gpus)


def simulate(planned: Sequence[PlannedJob], needs: Mapping[int, set[int]],
             machine: Machine) -> Simulation:
    """Run the jobs on the machine in simulated time."""
    jobs = {job.jobid: job for job in planned}
    result = Simulation()
    result.too_big = [job for job in planned if job.expected_mem_mb() > machine.mem_mb
                      or (job.gpus and not machine.gpus)]
    skipped = {job.jobid for job in result.too_big}
    priority = remaining_paths(jobs, needs)
    waiting = {jobid: len(needs.get(jobid, ())) for jobid in jobs}
    users = users_of(jobs, needs)
    ready = [jobid for jobid, count in waiting.items() if count == 0]
    running: list[tuple[float, int]] = []
    free = machine
    now = 0.0
    while ready or running:
        ready.sort(key=lambda jobid: -priority[jobid])
        for jobid in list(ready):
            job = jobs[jobid]
            if jobid in skipped or _fits(job, free, machine):
                ready.remove(jobid)
                hours = 0.0 if jobid in skipped else job.expected_minutes() / 60
                result.start_h[jobid], result.end_h[jobid] = now, now + hours
                heapq.heappush(running, (now + hours, jobid))
                if jobid not in skipped:
                    free = _take(free, job, machine, -1)
        now, jobid = heapq.heappop(running)
        if jobid not in skipped:
            free = _take(free, jobs[jobid], machine, +1)
        for user in users[jobid]:
            waiting[user] -= 1
            if waiting[user] == 0:
                ready.append(user)
    return result


def _take(free: Machine, job: PlannedJob, machine: Machine, sign: int) -> Machine:
    """What is free after a job starts (sign -1) or ends (+1)."""
    return Machine(free.cores + sign * min(job.threads, machine.cores),
                   free.mem_mb + sign * job.expected_mem_mb(),
                   free.gpus + sign * min(job.gpus, machine.gpus))
