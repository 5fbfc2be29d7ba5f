"""benchmarks/equate_trained.py at toy sizes (--tiny), and how benchmarks/rule_costs.py turns its
JSON into the trained baselines' costs."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import equate_trained  # noqa: E402
import equate_trained_inputs  # noqa: E402
import equate_trained_report  # noqa: E402
import rule_costs  # noqa: E402
import rule_costs_equate  # noqa: E402


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str]:
    """The --tiny run's JSON and its printed report (two runs at once: about 25 s)."""
    folder = tmp_path_factory.mktemp("equate-trained")
    out = folder / "equate_trained.json"
    command = [sys.executable, "benchmarks/equate_trained.py", "--tiny", "--jobs", "2",
               "--work-dir", str(folder / "work"), "--json", str(out)]
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(out.read_text(encoding="utf-8")), result.stdout


def test_the_tiny_run_measures_every_architecture_and_fits_each(
        tiny_run: tuple[dict[str, Any], str]) -> None:
    data, report = tiny_run
    assert set(data["architectures"]) == set(equate_trained.ARCHITECTURES)
    for architecture, found in data["architectures"].items():
        assert [p["pairs"] for p in found["points"]] == [16, 32], architecture
        for point in found["points"]:
            assert point["wall_s"] > 0 and point["cpu_s"] > 0 and point["peak_rss_mb"] > 50
            assert 0 < point["epoch_s"] <= point["epoch_span_s"] + 1e-9
            assert point["pairs_s"] > 0 and point["dev_pairs"] == equate_trained.MIN_DEV_PAIRS
        for fit in ("cpu_s", "epoch_s", "peak_rss_mb"):
            assert set(found[fit]) == {"coef", "alpha"}, (architecture, fit)
        paper = found["paper"]
        assert paper["extrapolated"] is True and paper["pairs"] == 392_702
        assert paper["job_wall_s"] > paper["epoch_wall_s"] > 0
        assert paper["cpu_hours"] > 0 and paper["peak_rss_mb"] > point["peak_rss_mb"]
        expected = {"align": 5, "ssen": 6, "infersent": 20}.get(architecture, 10)
        assert paper["epochs"] == expected, architecture
        assert paper["epochs_from"].startswith("assumed") == (expected == 10)
        assert f"| {equate_trained_report.NAMES[architecture]} | 16, 32 |" in report
    assert data["settings"]["tiny"] is True and data["settings"]["width"] == 0.05


def test_the_tiny_run_compares_batchings_and_measures_the_vocabulary(
        tiny_run: tuple[dict[str, Any], str]) -> None:
    data, report = tiny_run
    bucketing = data["bucketing"]
    assert bucketing["architecture"] == "bilstm" and bucketing["pairs"] == 32
    for way in ("bucketed", "plain"):
        assert bucketing[way]["pairs_s"] > 0 and 0 <= bucketing[way]["padding_share"] < 1
    assert bucketing["ratio"] == pytest.approx(
        bucketing["bucketed"]["pairs_s"] / bucketing["plain"]["pairs_s"])
    # Sorting by length within chunks never pads more than a plain shuffle.
    assert bucketing["bucketed"]["padding_share"] <= bucketing["plain"]["padding_share"]
    assert "Ratio of pairs/s, bucketed / plain:" in report
    vocabulary = data["vocabulary"]
    assert [p["lines"] for p in vocabulary["points"]] == [2_000, 4_000]
    assert all(p["words"] > 100 and 0 < p["with_vector"] <= p["words"]
               for p in vocabulary["points"])
    assert set(vocabulary["cpu_s"]) == {"coef", "alpha"}
    assert vocabulary["paper"]["lines"] == 2_196_017 and vocabulary["paper"]["extrapolated"]
    assert vocabulary["paper"]["cpu_s"] > vocabulary["paper"]["counting_extra_s"] > 0
    pool = data["pool"]
    assert 18 < pool["premise_tokens"] < 26 and 8 < pool["hypothesis_tokens"] < 14


def test_the_generated_pairs_are_in_multinlis_layout(tmp_path: Path) -> None:
    from reprobe.equate.jsonl import read_pairs

    rows = list(equate_trained_inputs.nli_pairs(50, 1, 0))
    assert rows == list(equate_trained_inputs.nli_pairs(50, 1, 0))  # seeded
    assert {row["gold_label"] for row in rows} <= {"entailment", "neutral", "contradiction"}
    assert {"pairID", "promptID", "genre", "sentence1_binary_parse"} <= set(rows[0])
    path = tmp_path / "train.jsonl"
    equate_trained.write_jsonl(path, rows)
    assert list(read_pairs(path, consensus_only=True)) == rows  # the workflow's reader takes it


def test_the_pass_is_the_span_within_what_the_rounded_rate_allows() -> None:
    # 32 pairs logged at 504 pairs/s: the span's second of set-up is left out.
    assert equate_trained_report.epoch_seconds(32, 1.1, 504.0) == pytest.approx(32 / 503.5)
    # 256 pairs at a logged 3 pairs/s (2.5 to 3.5): the span stands.
    assert equate_trained_report.epoch_seconds(256, 86.0, 3.0) == 86.0
    log = "\n".join([
        "2026-11-29 19:07:55,015 INFO reprobe.equate.trained.saved: bilstm: 32 training pairs, "
        "8 dev pairs, 1428243 weights (1428243 trained)",
        "epoch 1: 100%|##| 1/1 [00:00<00:00, 17.05batch/s]\r",
        "2026-11-29 19:07:56,128 INFO reprobe.equate.trained.training: epoch 1: 32 pairs, 504 "
        "pairs/s, train accuracy 18.75%",
        "2026-11-29 19:07:56,132 INFO reprobe.equate.trained.training: epoch 1: dev accuracy "
        "37.50% (best 37.50% at epoch 1), lr 0.0004",
        "2026-11-29 19:07:56,148 INFO reprobe.equate.trained.training: stopped: 1 epochs"])
    marks = equate_trained_report.log_marks(log)
    assert marks["trained"] - marks["start"] == pytest.approx(1.113, abs=1e-3)
    assert marks["logged_pairs_s"] == 504.0


def paper_width(data: dict[str, Any]) -> dict[str, Any]:
    """The tiny run's JSON as if it had run at the paper's width."""
    found = copy.deepcopy(data)
    found["settings"] |= {"tiny": False, "width": 1.0}
    return found


def test_rule_costs_writes_the_trained_baselines_from_the_json(
        tiny_run: tuple[dict[str, Any], str]) -> None:
    data = tiny_run[0]
    old = {f"equate_train_baseline[{a}]": {"unit": None, "mem_mb": [8000.0, 0.0],
                                           "runtime_min": [1440.0, 0.0], "from": "by hand"}
           for a in equate_trained.ARCHITECTURES}
    old["equate_vocabulary"] = {"unit": None, "mem_mb": [1500.0, 0.0],
                                "runtime_min": [10.0, 0.0], "from": "by hand"}
    with pytest.raises(SystemExit, match="paper's width"):
        rule_costs.equate_trained_rules(old, data)
    rules = rule_costs.equate_trained_rules(old, paper_width(data))
    assert set(rules) == set(old)
    for architecture, found in data["architectures"].items():
        entry = rules[f"equate_train_baseline[{architecture}]"]
        assert entry["unit"] is None
        assert entry["mem_mb"] == [round(found["paper"]["peak_rss_mb"], 1), 0.0]
        assert entry["runtime_min"] == [round(found["paper"]["job_wall_s"] / 60, 3), 0.0]
        assert entry["from"].startswith(rule_costs_equate.EQUATE_TRAINED_FROM)
    vocabulary = rules["equate_vocabulary"]
    assert "CPU measurement benchmarks/equate_trained.py, extrapolated" in vocabulary["from"]
    assert vocabulary["from"].startswith("default run not given")
    # With the default run's job, it is the floor.
    run = {"jobs": 1, "wall_s": 1.0, "max_wall_s": 1.0, "max_rss_mb": 99_999.0}
    floored = rule_costs.equate_trained_rules(old, paper_width(data), run, "2026-11-29")
    assert floored["equate_vocabulary"]["mem_mb"] == [99_999.0, 0.0]
    assert floored["equate_vocabulary"]["from"].startswith("default run 2026-11-29: 1 jobs")


def test_rule_costs_alone_rewrites_only_the_trained_entries(
        tiny_run: tuple[dict[str, Any], str], tmp_path: Path) -> None:
    costs = json.loads((REPO / "workflow" / "reprobe" / "costs.json").read_text("utf-8"))
    path, measured = tmp_path / "costs.json", tmp_path / "equate_trained.json"
    path.write_text(json.dumps(costs), encoding="utf-8")
    measured.write_text(json.dumps(paper_width(tiny_run[0])), encoding="utf-8")
    assert rule_costs.main(["--equate-trained", str(measured), "--costs", str(path),
                            "--write"]) == 0
    written = json.loads(path.read_text(encoding="utf-8"))
    changed = {rule for rule, entry in written["rules"].items()
               if entry != costs["rules"].get(rule)}
    trained = {f"equate_train_baseline[{a}]" for a in equate_trained.ARCHITECTURES}
    assert changed <= trained | {"equate_vocabulary"}
    assert set(written["rules"]) == set(costs["rules"])
    assert {k: v for k, v in written.items() if k != "rules"} == \
        {k: v for k, v in costs.items() if k != "rules"}


def test_a_full_rule_costs_run_keeps_the_trained_entries() -> None:
    old = {"unit": None, "mem_mb": [8000.0, 0.0], "runtime_min": [1440.0, 0.0], "from": "x"}
    other = {"unit": None, "mem_mb": [1.0, 0.0], "runtime_min": [1.0, 0.0], "from": "y"}
    costs = {"rules": {"equate_train_baseline[cbow]": old, "equate_score[other]": other,
                       "equate_score[fetched]": other}}
    run = {"date": "2026-11-29", "rules": {}}
    rules = rule_costs.new_rules(costs, run, ({}, {}))
    assert rules["equate_train_baseline[cbow]"] == old


# --- the GPU measurement (benchmarks/equate_gpu_check.py --json) -------------------------------

EPOCHS = {"align": 5, "ssen": 6, "infersent": 20}  # the recipes' caps; the others: assumed 10


def gpu_json(device: str = "cuda", width: float = 1.0) -> dict[str, Any]:
    """A hand-made equate_gpu_check.py JSON: every architecture at 2,000 pairs/s, its dev pass
    at 10,000 (1,250 pairs in 0.125 s), a 1 s checkpoint, a 30 s call of a 25 s epoch."""
    figures = {"status": "ok", "pairs": 50_000, "epoch_s": 25.0, "pairs_s": 2_000.0,
               "dev_pairs": 1_250, "dev_s": 0.125, "dev_pairs_s": 10_000.0, "save_s": 1.0,
               "call_s": 30.0, "build_s": 0.5, "peak_gpu_mb": 3_000.0, "peak_rss_mb": 900.0}
    return {"date": "2026-11-30 08:00 UTC", "device": device, "device_name": "NVIDIA H200",
            "torch": "2.9.0", "precision": "fp32", "width": width, "pairs": 50_000,
            "startup_s": 10.0,
            "architectures": {a: dict(figures) for a in equate_trained.ARCHITECTURES}}


def cpu_entries() -> dict[str, Any]:
    """costs.json's trained entries as the CPU measurement left them (memory 1,000 MB + k)."""
    return {f"equate_train_baseline[{a}]": {
        "unit": None, "mem_mb": [1000.0 + k, 0.0], "runtime_min": [1440.0, 0.0],
        "from": rule_costs_equate.EQUATE_TRAINED_FROM}
        for k, a in enumerate(equate_trained.ARCHITECTURES)}


def test_the_gpu_measurement_gives_the_run_times_and_keeps_the_cpus_memory() -> None:
    old = cpu_entries()
    rules = rule_costs_equate.gpu_baselines(old, gpu_json())
    assert set(rules) == set(old)
    for architecture in equate_trained.ARCHITECTURES:
        rule = f"equate_train_baseline[{architecture}]"
        epochs = EPOCHS.get(architecture, 10)
        # An epoch: 392,702 pairs at 2,000/s, 9,815 dev pairs at 10,000/s, the checkpoint;
        # start-up: the process (10 s), the model (0.5 s), the call's rest (30-25-0.125-1 s).
        seconds = epochs * (392_702 / 2_000 + 9_815 / 10_000 + 1.0) + 10.0 + 0.5 + 3.875
        assert rules[rule]["runtime_min"] == [round(seconds / 60, 3), 0.0], rule
        assert rules[rule]["mem_mb"] == old[rule]["mem_mb"] and rules[rule]["unit"] is None
        assert rules[rule]["from"].startswith("GPU measurement benchmarks/equate_gpu_check.py "
                                              "on NVIDIA H200, 2026-11-30, extrapolated")
        assert f"x {epochs} epochs" in rules[rule]["from"]
        assert "host memory: the CPU measurement's" in rules[rule]["from"]
    # An architecture that failed on the GPU keeps its entry.
    failed = gpu_json()
    failed["architectures"]["ssen"] = {"status": "failed", "pairs": 50_000, "error": "OOM"}
    assert "equate_train_baseline[ssen]" not in rule_costs_equate.gpu_baselines(old, failed)


@pytest.mark.parametrize(("data", "message"), [
    (gpu_json(device="cpu"), "no GPU measurement"), (gpu_json(width=0.05), "paper's width"),
    (gpu_json() | {"precision": "bf16"}, "trains in fp32")])
def test_a_measurement_not_on_a_gpu_at_the_papers_width_is_refused(
        data: dict[str, Any], message: str, tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=message):
        rule_costs_equate.gpu_baselines(cpu_entries(), data)
    measured, costs = tmp_path / "gpu.json", tmp_path / "costs.json"
    measured.write_text(json.dumps(data), encoding="utf-8")
    costs.write_text(json.dumps({"rules": cpu_entries()}), encoding="utf-8")
    with pytest.raises(SystemExit, match=message):
        rule_costs.main(["--equate-gpu", str(measured), "--costs", str(costs), "--write"])
    assert json.loads(costs.read_text(encoding="utf-8")) == {"rules": cpu_entries()}


def test_rule_costs_takes_the_gpus_time_and_the_cpus_memory(
        tiny_run: tuple[dict[str, Any], str], tmp_path: Path) -> None:
    costs = json.loads((REPO / "workflow" / "reprobe" / "costs.json").read_text("utf-8"))
    path, cpu, gpu = tmp_path / "costs.json", tmp_path / "cpu.json", tmp_path / "gpu.json"
    path.write_text(json.dumps(costs), encoding="utf-8")
    gpu.write_text(json.dumps(gpu_json()), encoding="utf-8")
    trained = {f"equate_train_baseline[{a}]" for a in equate_trained.ARCHITECTURES}
    # Alone: only the trained entries' run time and `from` change, memory stays.
    assert rule_costs.main(["--equate-gpu", str(gpu), "--costs", str(path), "--write"]) == 0
    written = json.loads(path.read_text(encoding="utf-8"))["rules"]
    assert {r for r, e in written.items() if e != costs["rules"][r]} == trained
    expected = rule_costs_equate.gpu_baselines(costs["rules"], gpu_json())
    for rule in trained:
        assert written[rule] == expected[rule]
        assert written[rule]["mem_mb"] == costs["rules"][rule]["mem_mb"]
    # With the CPU JSON too: the GPU's run time, the CPU JSON's memory.
    path.write_text(json.dumps(costs), encoding="utf-8")
    cpu.write_text(json.dumps(paper_width(tiny_run[0])), encoding="utf-8")
    assert rule_costs.main(["--equate-trained", str(cpu), "--equate-gpu", str(gpu), "--costs",
                            str(path), "--write"]) == 0
    both = json.loads(path.read_text(encoding="utf-8"))["rules"]
    from_cpu = rule_costs.equate_trained_rules(costs["rules"], paper_width(tiny_run[0]))
    for rule in trained:
        assert both[rule]["mem_mb"] == from_cpu[rule]["mem_mb"]
        assert both[rule]["runtime_min"] == expected[rule]["runtime_min"]
        assert both[rule]["from"].startswith("GPU measurement")
    assert both["equate_vocabulary"] == from_cpu["equate_vocabulary"]
