"""benchmarks/default_run.py: the run's steps summed by rule, and its report's totals; the run
itself is the suite's one default run (conftest's `default_run`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import REPO, default_run_report

sys.path.insert(0, str(REPO / "benchmarks"))
import default_run  # noqa: E402


def test_a_steps_rule_is_named_by_its_logs_path(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    assert default_run.rule_of(str(logs / "equate_score_released/MAJ.log"), tmp_path) == (
        "equate_score_released")
    assert default_run.rule_of(str(logs / "wikipse_mc_authors.log"), tmp_path) == (
        "wikipse_mc_authors")
    assert default_run.rule_of("/dev/pts/0", tmp_path) == "(no rule log)"


def test_steps_are_summed_by_rule_and_ranked(tmp_path: Path) -> None:
    records = [{"log": str(tmp_path / "logs/a/1.log"), "wall_s": 2.0, "cpu_s": 1.5,
                "max_rss_mb": 100.0},
               {"log": str(tmp_path / "logs/a/2.log"), "wall_s": 1.0, "cpu_s": 0.5,
                "max_rss_mb": 300.0},
               {"log": str(tmp_path / "logs/b.log"), "wall_s": 4.0, "cpu_s": 1.0,
                "max_rss_mb": 50.0}]
    rules = default_run.by_rule(records, tmp_path)
    assert rules["a"] == {"jobs": 2, "wall_s": 3.0, "cpu_s": 2.0, "max_wall_s": 2.0,
                          "max_rss_mb": 300.0}
    assert default_run.top_rules(rules, "cpu_s") == ["a", "b"]
    assert default_run.top_rules(rules, "wall_s") == ["b", "a"]
    block = default_run.report({"wall_s": 10.0, "cpu_s": 6.0, "snakemake_cpu_s": 2.0,
                                "peak_rss_mb": 500, "cores": 2}, rules, ["Command: x"])
    assert "**Total: 10 s (0.2 min) wall** on 2 cores; 6 CPU s in all, of which 3 in the 3" in (
        block)
    assert "| `a` | 2 | 3.0 | 2.0 | 1.50 | 300 |" in block


def test_the_copy_holds_what_a_clone_would(tmp_path: Path) -> None:
    files = default_run.project_files(REPO)
    assert {"Snakefile", "README.md", "config/config.yaml"} <= set(files)
    assert not any(name.startswith(("results/", ".snakemake/")) for name in files)


def test_the_suites_run_was_timed_step_by_step(default_run: Path) -> None:
    figures = json.loads(default_run_report(default_run).read_text(encoding="utf-8"))
    assert figures["wall_s"] > 0 and figures["cpu_s"] > 0
    # Every step of the run recorded itself, and every one belongs to a rule.
    assert sum(rule["jobs"] for rule in figures["rules"].values()) > 300
    assert "(no rule log)" not in figures["rules"]
    assert figures["rules"]["wikipedia_shard"]["jobs"] == 4
