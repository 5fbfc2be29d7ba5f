"""Tests for the simulated run: dependencies, threads, memory, critical path first."""

from __future__ import annotations

import pytest

from reprobe.estimate.plan import PlannedJob
from reprobe.estimate.schedule import Machine, remaining_paths, simulate, topological_order
from reprobe.resources import MEMORY_MARGIN, RUNTIME_MARGIN


def job(jobid: int, hours: float, threads: int = 1, mem_gb: float = 1, gpus: int = 0) -> PlannedJob:
    """A planned job expected to take `hours` and `mem_gb`."""
    return PlannedJob(jobid, f"rule_{jobid}", threads=threads,
                      mem_mb=int(mem_gb * 1024 * MEMORY_MARGIN),
                      runtime_min=hours * 60 * RUNTIME_MARGIN, gpus=gpus)


def test_a_chain_takes_the_sum_of_its_jobs() -> None:
    jobs = [job(1, 1), job(2, 2), job(3, 3)]
    run = simulate(jobs, {1: set(), 2: {1}, 3: {2}}, Machine(8, 64 * 1024))
    assert run.makespan_h() == pytest.approx(6)
    assert run.start_h[3] == pytest.approx(3)


def test_independent_jobs_share_the_cores() -> None:
    jobs = [job(i, 1, threads=4) for i in range(4)]
    run = simulate(jobs, {i: set() for i in range(4)}, Machine(8, 64 * 1024))
    assert run.makespan_h() == pytest.approx(2)  # two at a time on 8 cores


def test_memory_limits_how_many_run_at_once() -> None:
    jobs = [job(i, 1, mem_gb=40) for i in range(3)]
    run = simulate(jobs, {i: set() for i in range(3)}, Machine(32, 100 * 1024))
    assert run.makespan_h() == pytest.approx(2)


def test_a_job_bigger_than_the_machine_is_reported_not_run() -> None:
    jobs = [job(1, 1, mem_gb=200), job(2, 1, gpus=1)]
    run = simulate(jobs, {1: set(), 2: set()}, Machine(32, 128 * 1024))
    assert {found.jobid for found in run.too_big} == {1, 2}
    assert run.makespan_h() == 0


def test_more_threads_than_cores_run_on_the_whole_machine() -> None:
    run = simulate([job(1, 1, threads=64)], {1: set()}, Machine(32, 1024 * 64))
    assert run.makespan_h() == pytest.approx(1)


def test_the_longest_path_starts_first() -> None:
    # One core: the 5-hour chain goes first, the lone 1-hour job last.
    jobs = [job(1, 1), job(2, 1), job(3, 4)]
    needs = {1: set(), 2: set(), 3: {2}}
    assert remaining_paths({j.jobid: j for j in jobs}, needs)[2] == pytest.approx(5)
    run = simulate(jobs, needs, Machine(1, 64 * 1024))
    assert run.start_h[2] == 0 and run.start_h[3] == pytest.approx(1)
    assert run.start_h[1] == pytest.approx(5)


def test_a_cycle_is_refused() -> None:
    jobs = {1: job(1, 1), 2: job(2, 1)}
    with pytest.raises(ValueError, match="cycle"):
        topological_order(jobs, {1: {2}, 2: {1}})
