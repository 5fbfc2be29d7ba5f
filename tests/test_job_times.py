"""A step's cost record: written only when REPROBE_JOB_TIMES names a file, naming its log."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import REPO


def run_step(tmp_path, environment: dict[str, str]) -> subprocess.CompletedProcess:
    """`reprobe config-check` on the default config, its standard error sent to a log file."""
    with open(tmp_path / "step.log", "w", encoding="utf-8") as log:
        return subprocess.run([sys.executable, "-m", "reprobe", "config-check",
                               str(REPO / "config/config.yaml")], stdout=subprocess.DEVNULL,
                              stderr=log, env=environment, check=False)


def test_a_step_appends_its_wall_cpu_and_rss_naming_its_log(tmp_path, monkeypatch):
    times = tmp_path / "times.jsonl"
    monkeypatch.setenv("REPROBE_JOB_TIMES", str(times))
    for _ in range(2):
        assert run_step(tmp_path, dict(os.environ)).returncode == 0
    records = [json.loads(line) for line in times.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 2
    for record in records:
        assert record["log"] == str(tmp_path / "step.log")
        assert record["argv"][0] == "config-check" and record["status"] == 0
        assert record["cpu_s"] > 0 and 0 < record["wall_s"] < 60 and record["max_rss_mb"] > 1


def test_nothing_is_recorded_unless_asked(tmp_path, monkeypatch):
    monkeypatch.delenv("REPROBE_JOB_TIMES", raising=False)
    assert run_step(tmp_path, dict(os.environ)).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["step.log"]
