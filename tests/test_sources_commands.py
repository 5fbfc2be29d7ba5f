"""Tests for reprobe.sources.commands: `reprobe clean` removes what killed jobs left."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO

ENV = {**os.environ, "PYTHONPATH": str(REPO / "workflow")}


def dead_pid() -> int:
    """The id of a process that has exited."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def clean(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    """Run `reprobe clean` in workdir."""
    return subprocess.run([sys.executable, "-m", "reprobe", "clean", *args], cwd=workdir,
                          env=ENV, capture_output=True, text=True, timeout=120)


def test_clean_dry_run_lists_and_clean_removes_stale_staging(tmp_path: Path) -> None:
    stale = tmp_path / "data" / "models" / "numersense" / f".tiny-BERT.tmp-{dead_pid()}"
    stale.mkdir(parents=True)
    temp = tmp_path / "results" / f".table.csv.tmp-{dead_pid()}"
    temp.parent.mkdir()
    temp.write_text("half")
    kept = tmp_path / "data" / "raw" / "src" / "file.tsv.part"  # a resumable download
    kept.parent.mkdir(parents=True)
    kept.write_text("part")
    listed = clean(tmp_path, "--dry-run")
    assert listed.returncode == 0, listed.stderr
    assert f"would remove {Path('data/models/numersense') / stale.name}" in listed.stdout
    assert stale.exists() and temp.exists()
    done = clean(tmp_path)
    assert done.returncode == 0, done.stderr
    assert not stale.exists() and not temp.exists() and kept.exists()
    assert "2 stale staging paths" in done.stderr


def test_clean_takes_a_folder(tmp_path: Path) -> None:
    stale = tmp_path / "elsewhere" / f".x.tmp-{dead_pid()}"
    stale.parent.mkdir()
    stale.write_text("")
    assert clean(tmp_path, "elsewhere").returncode == 0
    assert not stale.exists()
