"""Tests for reprobe.sources.lock: where the lock lives, pins, records, parallel writers."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from reprobe.errors import ConfigError, InputFormatError, SourceError
from reprobe.sources.lock import lock_path_for, lockable, pin_for, read_lock, record

URL = "https://example.org/a.tsv"


def test_the_lock_sits_beside_the_config():
    assert lock_path_for("config/paper.yaml") == Path("config/paper.lock.yaml")


def test_pins_come_from_the_config_then_the_lock_for_the_same_url():
    lock = {"a": {"url": URL, "sha256": "b" * 64, "size": 3}}
    assert pin_for({"url": URL, "sha256": "A" * 64}, "a", lock).origin == "config"
    assert pin_for({"url": URL}, "a", lock).sha256 == "b" * 64
    # A changed URL is another file: the old entry does not apply.
    assert pin_for({"url": URL + "?v=2"}, "a", lock).origin == "none"
    assert pin_for({"path": "x"}, "a", lock).origin == "none"


def test_only_unpinned_url_sources_are_locked():
    assert lockable({"url": URL}) and not lockable({"url": URL, "sha256": "a" * 64})
    assert not lockable({"path": "data/samples/x"})


def test_record_adds_keeps_and_refuses_to_overwrite(tmp_path):
    lock = tmp_path / "c.lock.yaml"
    assert record(lock, "a", URL, "a" * 64, 3)
    assert not record(lock, "a", URL, "a" * 64, 3)
    with pytest.raises(SourceError, match="already locks"):
        record(lock, "a", URL, "c" * 64, 3)
    # A new URL for the source replaces its entry.
    assert record(lock, "a", URL + "?v=2", "c" * 64, 4)
    assert read_lock(lock)["a"]["url"] == URL + "?v=2"


def test_a_broken_lock_names_the_file_and_entry(tmp_path):
    lock = tmp_path / "c.lock.yaml"
    lock.write_text("sources:\n  a: {url: x}\n")
    with pytest.raises(InputFormatError, match=r"c\.lock\.yaml: sources\.a: expected url"):
        read_lock(lock)
    lock.write_text("sources: [\n")
    with pytest.raises(ConfigError, match=r"c\.lock\.yaml:\d+:\d+: not valid YAML"):
        read_lock(lock)
    lock.write_text("sources:\n  a: {url: x}\n  a: {url: y}\n")
    with pytest.raises(ConfigError, match=r"c\.lock\.yaml:3: duplicate key 'a' at lines 2 "
                                          r"and 3"):
        read_lock(lock)


def _record_one(args: tuple[Path, int]) -> None:
    """Record one entry (run in a worker process)."""
    lock, index = args
    record(lock, f"s{index}", f"{URL}/{index}", f"{index:064x}", index)


def test_parallel_writers_lose_no_entry(tmp_path):
    lock = tmp_path / "c.lock.yaml"
    with multiprocessing.get_context("fork").Pool(4) as pool:
        pool.map(_record_one, [(lock, index) for index in range(24)])
    assert sorted(read_lock(lock)) == sorted(f"s{index}" for index in range(24))
