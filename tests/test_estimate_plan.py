"""Tests for reading a Snakemake dry run into planned jobs and their dependencies."""

from __future__ import annotations

from reprobe.estimate.plan import dependencies, dry_run_command, parse_dry_run
from reprobe.resources import MEMORY_MARGIN, RUNTIME_MARGIN

DRY_RUN = """\
Building DAG of jobs...
[Sun Nov 29 10:27:23 2026]
rule wikipedia_shard:
    input: data/plan.json, data/raw/dump.xml.bz2
    output: data/shards/0001/pages.parquet, data/shards/0001/links.parquet
    log: logs/wikipedia_shard/0001.log
    jobid: 7
    benchmark: logs/wikipedia_shard/0001.benchmark.tsv
    reason: Forced execution
    wildcards: shard=0001
    threads: 4
    resources: tmpdir=/tmp, runtime=120, gpu=1, mem_mb=2500, mem=2.5 GB, mem_mib=2384
[Sun Nov 29 10:27:23 2026]
localrule fetch_source:
    output: data/raw/dump.xml.bz2
    jobid: 3
    wildcards: source=enwiki, filename=dump.xml.bz2
    resources: tmpdir=/tmp, runtime=60, mem_mb=640
[Sun Nov 29 10:27:23 2026]
rule wikipedia_plan:
    input: data/raw/dump.xml.bz2
    output: data/plan.json
    jobid: 5
    resources: tmpdir=/tmp, runtime=10, mem_mb=640
Job stats:
"""


def test_a_dry_run_gives_each_job_its_files_threads_and_requests() -> None:
    jobs = {job.rule: job for job in parse_dry_run(DRY_RUN.splitlines())}
    shard = jobs["wikipedia_shard"]
    assert shard.jobid == 7 and shard.threads == 4 and shard.gpus == 1
    assert shard.inputs == ["data/plan.json", "data/raw/dump.xml.bz2"]
    assert shard.outputs[1] == "data/shards/0001/links.parquet"
    assert shard.wildcards == "shard=0001"
    assert shard.expected_minutes() == 120 / RUNTIME_MARGIN
    assert shard.expected_mem_mb() == 2500 / MEMORY_MARGIN
    assert jobs["fetch_source"].threads == 1 and jobs["fetch_source"].inputs == []


def test_a_download_asks_for_twice_its_expected_time() -> None:
    fetch = next(job for job in parse_dry_run(DRY_RUN.splitlines()) if job.rule == "fetch_source")
    assert fetch.expected_minutes() == 30


def test_a_job_needs_the_jobs_that_make_its_inputs() -> None:
    needs = dependencies(parse_dry_run(DRY_RUN.splitlines()))
    assert needs == {7: {3, 5}, 3: set(), 5: {3}}


def test_the_dry_run_names_the_config_files_last() -> None:
    command = dry_run_command([__import__("pathlib").Path("a.yaml")], 8, ["all"])
    assert command[3] == "all" and command[-2:] == ["--configfile", "a.yaml"]
    assert "--forceall" in command and command[command.index("--cores") + 1] == "8"
