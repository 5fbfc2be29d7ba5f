"""Tests for cluster resources that scale with the configured data."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from reprobe.equate.trained.architectures import ARCHITECTURES
from reprobe.resources import (
    MEMORY_MARGIN,
    RUNTIME_MARGIN,
    Scale,
    grows_with_attempt,
    job_resources,
    measured_threads,
    on_threads,
    read_costs,
    requested,
    rule_scale,
    wikipedia_resources,
)

REPO = Path(__file__).resolve().parents[1]
# The one-node test cluster has this much memory; every default job must fit on it.
SMALL_NODE_MB = 8000


def config(name: str) -> dict:
    """A shipped config, with the schema's defaults filled in (as the workflow reads it)."""
    from reprobe.config import fill_defaults

    found = yaml.safe_load((REPO / "config" / name).read_text(encoding="utf-8"))
    fill_defaults(found)
    return found


def test_a_request_is_the_measured_cost_times_its_margins() -> None:
    mem_mb, runtime = requested(Scale(1000, 50, 30, 2), 10)
    assert mem_mb == int(1500 * MEMORY_MARGIN) and runtime == int(50 * RUNTIME_MARGIN)


def test_a_request_never_goes_below_the_floors() -> None:
    assert requested(Scale(1, 0, 0.01, 0), 0) == (512, 5)


def test_memory_doubles_on_each_retry() -> None:
    memory = grows_with_attempt(3000)
    assert [memory(None, attempt) for attempt in (1, 2, 3)] == [3000, 6000, 12000]


def test_job_resources_read_the_rule_from_the_costs_file() -> None:
    scale = rule_scale("wikipedia_gather")
    found = job_resources("wikipedia_gather", 4)
    assert found["mem_mb"](None, 1) == requested(scale, 4)[0]
    assert found["runtime"] == requested(scale, 4)[1]


def test_a_rule_without_costs_is_named(tmp_path: Path) -> None:
    costs = tmp_path / "costs.json"
    costs.write_text(json.dumps({"rules": {}}), encoding="utf-8")
    with pytest.raises(KeyError, match="no measured costs for rule 'nowhere'"):
        rule_scale("nowhere", costs)


def test_every_costs_entry_says_where_it_comes_from() -> None:
    for rule, entry in read_costs()["rules"].items():
        assert entry["from"], rule
        assert len(entry["mem_mb"]) == len(entry["runtime_min"]) == 2, rule
        assert min(*entry["mem_mb"], *entry["runtime_min"]) >= 0, rule


def test_every_rule_that_runs_a_job_has_measured_costs() -> None:
    costs = read_costs()["rules"]
    blocks = rule_blocks()
    # Every score job of EQUATE asks by its row's kind: equate_score[fetched] or [other]; a
    # trained baseline's job by its architecture: equate_train_baseline[<architecture>].
    by_kind = ("EQ.score_mem_mb", "EQ_TRAINED.train_mem_mb")
    missing = [name for name, block in blocks.items()
               if "shell:" in block and name not in costs
               and not any(call in block for call in by_kind)]
    assert missing == []
    assert {"equate_score[fetched]", "equate_score[other]"} <= set(costs)
    assert {f"equate_train_baseline[{a}]" for a in ARCHITECTURES} <= set(costs)


def test_every_rule_that_runs_a_job_records_its_benchmark() -> None:
    missing = [name for name, block in rule_blocks().items()
               if "shell:" in block and "benchmark:" not in block]
    assert missing == []
    # Rules made in a loop (`rule:` with `name:`) too: every log has its benchmark beside it.
    text = "".join(path.read_text(encoding="utf-8")
                   for path in sorted((REPO / "workflow/rules").glob("*.smk")))
    logs = re.findall(r'\n(\s*)log:\n\s*f?"(logs/[^"]+)\.log",?', text)
    benchmarks = set(re.findall(r'\n\s*benchmark:\n\s*f?"(logs/[^"]+)\.benchmark\.tsv"', text))
    assert logs and [path for _, path in logs if path not in benchmarks] == []


def test_the_gather_follows_the_number_of_shards() -> None:
    small = wikipedia_resources(config("config.yaml")["wikipedia"], "wikipedia_gather")
    paper = wikipedia_resources(config("paper.yaml")["wikipedia"], "wikipedia_gather")
    assert small["mem_mb"](None, 1) < SMALL_NODE_MB
    assert small["mem_mb"](None, 1) < paper["mem_mb"](None, 1)
    shard = wikipedia_resources(config("paper.yaml")["wikipedia"], "wikipedia_shard")
    assert shard["mem_mb"](None, 1) < 8000
    # The gather asks for its memory budget on top of what it was measured to need.
    budget = dict(config("paper.yaml")["wikipedia"], gather_memory_mb=10_000)
    assert wikipedia_resources(budget, "wikipedia_gather")["mem_mb"](None, 1) == \
        paper["mem_mb"](None, 1) + 12_500 - round(1.25 * config("paper.yaml")["wikipedia"][
            "gather_memory_mb"])


def rule_blocks() -> dict[str, str]:
    """Each rule's text, by name."""
    import re

    text = "".join(path.read_text(encoding="utf-8")
                   for path in sorted((REPO / "workflow/rules").glob("*.smk")))
    parts = re.split(r"(?m)^(?=rule |checkpoint )", text)
    return {m.group(1): part for part in parts
            if (m := re.match(r"(?:rule|checkpoint) (\w+):", part))}


def test_retries_only_where_they_can_help() -> None:
    blocks = rule_blocks()
    # A rule parsing a raw source fails on a bad input: retrying cannot help.
    for name in ("wikipedia_shard", "wikipse_mc", "wikipse_public", "numeracy_vectors"):
        assert "retries:" not in blocks[name], name
    # A rule that retries asks for more memory on the retry, or is a download.
    for name, block in blocks.items():
        if "retries:" in block:
            assert ".resources(" in block or "_resources(" in block, name
    # The fetch retries network errors itself; a checksum mismatch is reported once.
    assert "retries:" not in blocks["fetch_source"]


def test_a_threaded_rules_run_time_follows_the_jobs_threads(tmp_path: Path) -> None:
    costs = tmp_path / "costs.json"
    costs.write_text(json.dumps({"rules": {"train": {
        "mem_mb": [100, 0], "runtime_min": [60, 0], "threads": 16, "from": "x"}}}))
    runtime = on_threads(rule_scale("train", costs).runtime_min(0) * RUNTIME_MARGIN,
                         measured_threads("train", costs))
    assert runtime(None, 16) == 120 and runtime(None, 8) == 240 and runtime(None, 64) == 30
    assert on_threads(119.2, None) == 120 and on_threads(1, None) == 5
    assert on_threads(1, 16)(None, 1) == 16  # the floor applies after the threads
