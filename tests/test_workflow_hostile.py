"""Hostile and ordinary-but-awkward config strings through the fetch rule (issue 22, point 1)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import REPO

SAMPLE = REPO / "data/samples/equate/jobs.txt"


def run(workdir: Path, config: dict, *args: str) -> subprocess.CompletedProcess:
    """Snakemake on a config written into workdir."""
    configfile = workdir / "lab config.yaml"
    configfile.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    command = [sys.executable, "-m", "snakemake", *args, "--cores", "1",
               "-s", str(REPO / "Snakefile"), "-d", str(workdir), "--configfile", str(configfile)]
    return subprocess.run(command, capture_output=True, text=True, timeout=600)


def default() -> dict:
    """The embedded default config."""
    return yaml.safe_load((REPO / "config/config.yaml").read_text(encoding="utf-8"))


def test_a_local_path_with_a_space_is_fetched(tmp_path):
    folder = tmp_path / "shared data"
    folder.mkdir()
    shutil.copyfile(SAMPLE, folder / "jobs list.txt")
    config = default()
    config["sources"]["equate_jobs_sample"] = {"path": str(folder / "jobs list.txt")}
    result = run(tmp_path, config, "data/raw/equate_jobs_sample/jobs list.txt")
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "data/raw/equate_jobs_sample/jobs list.txt").read_bytes() == \
        SAMPLE.read_bytes()


@pytest.mark.parametrize("filename", ["v.tsv;touch INJECTED;#", "$(touch INJECTED).tsv",
                                      "it's.tsv", "-rf"])
def test_a_hostile_file_name_is_refused_naming_the_key(tmp_path, filename):
    config = default()
    config["sources"]["equate_jobs_sample"]["filename"] = filename
    result = run(tmp_path, config, "all", "-n")
    assert result.returncode != 0
    assert "sources.equate_jobs_sample.filename" in result.stdout + result.stderr
    assert not list(tmp_path.rglob("INJECTED")) and not Path("INJECTED").exists()


def test_a_failed_job_shows_its_error_on_the_console_and_is_reported_once(tmp_path):
    # No --profile: profiles/default (beside the Snakefile) shows the failed job's log.
    config = default()
    config["sources"]["equate_jobs_sample"]["sha256"] = "0" * 64
    result = run(tmp_path, config, "data/raw/equate_jobs_sample/jobs.txt")
    console = result.stdout + result.stderr
    assert result.returncode != 0
    assert "ERROR reprobe" in console and "sha256" in console  # the log's own line
    # Not retried: one job, one failure (only network errors are retried, inside the fetch).
    assert console.count("Error in rule fetch_source") == 1, console[-3000:]
