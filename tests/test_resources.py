"""Tests for cluster resources that scale with the configured data."""

from __future__ import annotations

from pathlib import Path

import yaml

from reprobe.resources import Scale, grows_with_attempt, job_resources, scaled, wikipedia_resources

REPO = Path(__file__).resolve().parents[1]
# The one-node test cluster has this much memory; every default job must fit on it.
SMALL_NODE_MB = 8000


def config(name: str) -> dict:
    """A shipped config."""
    return yaml.safe_load((REPO / "config" / name).read_text(encoding="utf-8"))


def test_scaled_grows_linearly_up_to_the_cap() -> None:
    assert scaled(1024, 10, 0) == 1024
    assert scaled(1024, 10, 100) == 2024
    assert scaled(1024, 10, 100, cap=1500) == 1500


def test_memory_doubles_on_each_retry() -> None:
    memory = grows_with_attempt(3000)
    assert [memory(None, attempt) for attempt in (1, 2, 3)] == [3000, 6000, 12000]


def test_job_resources_scale_memory_and_runtime() -> None:
    found = job_resources(Scale(1000, 50, 30, 2), 10)
    assert found["mem_mb"](None, 1) == 1500 and found["runtime"] == 50


def test_the_gather_follows_the_number_of_shards() -> None:
    small = wikipedia_resources(config("config.yaml")["wikipedia"], "wikipedia_gather")
    paper = wikipedia_resources(config("paper.yaml")["wikipedia"], "wikipedia_gather")
    assert small["mem_mb"](None, 1) < SMALL_NODE_MB
    assert paper["mem_mb"](None, 1) > 40000
    shard = wikipedia_resources(config("paper.yaml")["wikipedia"], "wikipedia_shard")
    assert shard["mem_mb"](None, 1) < 8000 and shard["runtime"] >= 60


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
