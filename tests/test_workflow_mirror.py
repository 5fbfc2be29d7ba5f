"""End to end: the fetch rule with a mirror, offline, and the lock beside the config given."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import yaml

from conftest import REPO

SAMPLE = REPO / "data/samples/equate/jobs.txt"
UNREACHABLE = "https://mirror.invalid/equate/jobs.txt"


def run(workdir: Path, configfile: Path, *args: str) -> subprocess.CompletedProcess:
    """Snakemake on a config in workdir (targets first: --configfile takes several values)."""
    command = [sys.executable, "-m", "snakemake", *args, "--cores", "1",
               "-s", str(REPO / "Snakefile"), "-d", str(workdir),
               "--configfile", str(configfile)]
    return subprocess.run(command, capture_output=True, text=True, timeout=600)


def mirrored_config(tmp_path: Path, *, extra_source: bool = False) -> Path:
    """The default config with the jobs list as an unreachable URL, a mirror, offline."""
    config = yaml.safe_load((REPO / "config/config.yaml").read_text(encoding="utf-8"))
    config["sources"]["equate_jobs_sample"] = {"url": UNREACHABLE}
    if extra_source:
        config["sources"]["not_mirrored"] = {"url": "https://mirror.invalid/nothing.tsv"}
    config["download"] = {"mirror": str(tmp_path / "mirror"), "offline": True}
    path = tmp_path / "lab.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return path


def test_an_offline_run_takes_a_source_from_the_mirror_and_locks_it(tmp_path):
    (tmp_path / "mirror/equate_jobs_sample").mkdir(parents=True)
    (tmp_path / "mirror/equate_jobs_sample/jobs.txt").write_bytes(SAMPLE.read_bytes())
    configfile = mirrored_config(tmp_path)
    result = run(tmp_path, configfile, "data/raw/equate_jobs_sample/jobs.txt")
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "data/raw/equate_jobs_sample/jobs.txt").read_bytes() == SAMPLE.read_bytes()
    lock = yaml.safe_load((tmp_path / "lab.lock.yaml").read_text(encoding="utf-8"))
    entry = lock["sources"]["equate_jobs_sample"]
    assert entry["url"] == UNREACHABLE
    assert entry["sha256"] == hashlib.sha256(SAMPLE.read_bytes()).hexdigest()


def test_offline_names_every_missing_source_before_any_job(tmp_path):
    (tmp_path / "mirror").mkdir()
    result = run(tmp_path, mirrored_config(tmp_path, extra_source=True), "-n", "all")
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "offline: 2 sources are not in data/raw/, and not in the mirror" in output
    assert "equate_jobs_sample: jobs.txt (https://mirror.invalid/equate/jobs.txt)" in output
    assert "not_mirrored: nothing.tsv" in output
    assert not (tmp_path / "data").exists()
