"""Atomic outputs and the shared JSON-lines reader."""

from __future__ import annotations

import pytest

from reprobe.errors import InputFormatError, ReprobeError
from reprobe.io import atomic_directory, atomic_path, iter_json_objects


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
