"""Tests for the estimate's figures per stage and in all."""

from __future__ import annotations

from reprobe.estimate.plan import PlannedJob
from reprobe.estimate.schedule import Machine, simulate
from reprobe.estimate.summary import (
    costliest_rules,
    disk_bytes,
    download_bytes,
    measured_rules,
    report_lines,
    rule_aliases,
    stage_costs,
    stage_of,
)
from reprobe.resources import MEMORY_MARGIN, RUNTIME_MARGIN


def planned(jobid: int, rule: str, hours: float, threads: int = 1, mem_gb: float = 1,
            wildcards: str = "") -> PlannedJob:
    """A planned job of `rule` expected to take `hours` and `mem_gb`."""
    return PlannedJob(jobid, rule, wildcards=wildcards, threads=threads,
                      mem_mb=int(mem_gb * 1024 * MEMORY_MARGIN),
                      runtime_min=hours * 60 * RUNTIME_MARGIN)


def test_a_rule_belongs_to_its_first_word_or_a_shared_stage() -> None:
    assert stage_of("wikipse_corpus_shard") == "wikipse"
    assert stage_of("fetch_source") == stage_of("extract_source") == "download"
    assert stage_of("table_wikipedia_stats") == "wikipedia"


def test_downloads_add_the_sizes_the_config_records() -> None:
    jobs = [planned(1, "fetch_source", 0, wildcards="source=a, filename=a.gz"),
            planned(2, "fetch_source", 0, wildcards="source=b, filename=b.gz"),
            planned(3, "extract_source", 0, wildcards="source=a")]
    assert download_bytes(jobs, {"a": {"size": 2_000}, "b": {"size": None}}) == (2_000, ["b"])


def test_stages_sum_cpu_hours_and_name_their_largest_job() -> None:
    jobs = [planned(1, "numeracy_train", 2, threads=16, mem_gb=10),
            planned(2, "numeracy_probe", 1, mem_gb=2), planned(3, "equate_table6", 1)]
    needs = {1: set(), 2: {1}, 3: set()}
    machine = Machine(32, 128 * 1024)
    run = simulate(jobs, needs, machine)
    stages = stage_costs(jobs, needs, run, machine)
    assert stages["numeracy"].cpu_h == 2 * 16 + 1
    assert stages["numeracy"].alone_h == 3 and stages["equate"].alone_h == 1
    assert stages["numeracy"].largest_rule == "numeracy_train"
    lines = "\n".join(report_lines(stages, run, machine, (3_000_000_000, [])))
    assert "**Total: 3.0 h wall**" in lines and "Downloads: 3.0 GB." in lines


def test_a_job_too_big_for_the_machine_is_a_warning() -> None:
    jobs = [planned(1, "wikipedia_gather", 1, mem_gb=300)]
    machine = Machine(32, 128 * 1024)
    run = simulate(jobs, {1: set()}, machine)
    lines = report_lines(stage_costs(jobs, {1: set()}, run, machine), run, machine, (0, []))
    assert any(line.startswith("WARNING: wikipedia_gather") and "300.0 GB" in line
               for line in lines)


def test_a_rule_used_under_another_name_shares_its_costs() -> None:
    aliases = rule_aliases()
    assert aliases["wikipse_embed_authors"] == "wikipse_embed"
    assert ("wikipse_embed_authors" in measured_rules()) == ("wikipse_embed" in measured_rules())


def test_disk_adds_downloads_and_measured_outputs() -> None:
    jobs = [planned(1, "wikipedia_shard", 1), planned(2, "wikipedia_gather", 1),
            planned(3, "fetch_source", 0)]
    jobs[0].output_mb = 250.0
    assert disk_bytes(jobs, 1_000_000_000) == (1_250_000_000, ["wikipedia_gather"])


def test_the_costliest_rules_book_the_most_core_hours() -> None:
    jobs = [planned(1, "wikipse_embed", 1, threads=32), planned(2, "wikipse_embed", 1,
                                                                threads=32),
            planned(3, "numeracy_train", 2, threads=16), planned(4, "equate_table6", 0.1)]
    assert costliest_rules(jobs, 32, 2) == [("wikipse_embed", 2, 64.0),
                                            ("numeracy_train", 1, 32.0)]
