"""Atomic outputs and the shared JSON-lines reader."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from reprobe.errors import InputFormatError, ReprobeError
from reprobe.io import (
    atomic_directory,
    atomic_path,
    is_stale_staging,
    iter_json_objects,
    stale_staging_under,
)


def test_atomic_path_leaves_nothing_when_the_block_fails(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("crash")
    assert list(tmp_path.iterdir()) == []


def test_json_lines_skip_blanks_and_name_the_bad_line(tmp_path):
    assert list(iter_json_objects("f", ['{"a": 1}', "", '{"b": 2}'])) == [
        (1, {"a": 1}), (3, {"b": 2})]
    with pytest.raises(InputFormatError, match="f: line 2: not JSON"):
        list(iter_json_objects("f", ['{"a": 1}', "{oops"]))
    with pytest.raises(InputFormatError, match="line 1: expected a JSON object"):
        list(iter_json_objects("f", ["[1, 2]"]))


def test_atomic_directory_replaces_a_folder_whole_or_not_at_all(tmp_path):
    target = tmp_path / "model"
    target.mkdir()
    (target / "old.bin").write_text("old")
    with pytest.raises(RuntimeError), atomic_directory(target) as staging:
        (staging / "new.bin").write_text("half")
        raise RuntimeError("crash while saving")
    assert [p.name for p in target.iterdir()] == ["old.bin"]
    with atomic_directory(target) as staging:
        (staging / "new.bin").write_text("new")
    assert [p.name for p in target.iterdir()] == ["new.bin"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model"]


def test_a_full_disk_names_the_target_being_written(tmp_path):
    target = tmp_path / "table.csv"
    # /dev/full answers every write with ENOSPC and names no file, as pyarrow's writer does.
    with (pytest.raises(ReprobeError, match=r"table\.csv: failed while writing it \(No space"),
          atomic_path(target), open("/dev/full", "w") as full):
        full.write("x" * 100_000)
        full.flush()
    assert not target.exists() and list(tmp_path.iterdir()) == []


def test_an_oserror_naming_another_file_passes_unchanged(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.txt"), atomic_path(tmp_path / "out"):
        (tmp_path / "missing.txt").read_text()


def dead_pid() -> int:
    """The id of a process that has exited."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_rerun_removes_the_staging_a_killed_job_left(tmp_path):
    target = tmp_path / "models" / "tiny-BERT"
    left = tmp_path / "models" / f".tiny-BERT.tmp-{dead_pid()}"
    (left / "sub").mkdir(parents=True)
    other = tmp_path / "models" / f".tiny-GPT.tmp-{dead_pid()}"
    other.mkdir()
    live = tmp_path / "models" / f".tiny-BERT.tmp-{os.getppid()}"
    live.mkdir()
    with atomic_directory(target) as staging:
        (staging / "config.json").write_text("{}")
    assert sorted(p.name for p in target.parent.iterdir()) == sorted(
        ["tiny-BERT", other.name, live.name])


def test_a_file_rewrite_removes_a_killed_jobs_temporary_file(tmp_path):
    left = tmp_path / f".out.tsv.tmp-{dead_pid()}"
    left.write_text("half")
    with atomic_path(tmp_path / "out.tsv") as temporary:
        temporary.write_text("whole")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.tsv"]


def test_stale_staging_under_finds_dead_writers_only(tmp_path):
    dead = tmp_path / "data" / "a" / f".x.tmp-{dead_pid()}"
    (dead / "inner").mkdir(parents=True)
    (dead / "inner" / f".y.tmp-{dead_pid()}").write_text("")
    alive = tmp_path / "data" / f".z.tmp-{os.getpid()}"
    alive.write_text("")
    (tmp_path / "data" / ".hidden.tmp-x").write_text("")
    assert stale_staging_under(tmp_path / "data") == [dead]
    assert is_stale_staging(dead) and not is_stale_staging(alive)
