"""benchmarks/gpu_check.sh runs on the CPU (a tiny model, a few pairs at a small width) and
prints the NumerSense table, then the EQUATE trained baselines' table (and writes their JSON)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import rule_costs_equate  # noqa: E402

SCORERS = ("authors (score_probes_authors)", "clean (mlm.score_probes)")
PRECISIONS = ("fp32", "bf16")
EQUATE_MODELS = ("ALIGN", "CBOW", "BiLSTM", "CH", "InferSent", "SSEN", "ESIM")
# The EQUATE check at toy size: 64 pairs, every hidden size x 0.05, one thread.
EQUATE_TINY = ["--equate-pairs", "64", "--equate-width", "0.05", "--equate-threads", "1",
               "--equate-vocabulary-words=5000"]


def table_rows(markdown: str) -> dict[tuple[str, str], list[str]]:
    """The table's body rows by (measurement, precision), each as its cells."""
    rows = {}
    for line in markdown.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 7 and cells[0] != "measurement":
            rows[(cells[0], cells[2])] = cells
    return rows


def test_gpu_check_runs_on_the_cpu_and_prints_every_row(tmp_path: Path) -> None:
    out, figures = tmp_path / "gpu_check.md", tmp_path / "equate_gpu.json"
    # --tiny (hidden) shrinks bert-base to two layers so that a 2-core CI runs this in seconds.
    command = ["bash", "benchmarks/gpu_check.sh", "--device", "cpu", "--limit", "50", "--tiny",
               "--out", str(out), *EQUATE_TINY, "--equate-json", str(figures)]
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PYTHON": sys.executable})
    assert result.returncode == 0, result.stderr[-3000:]
    markdown = out.read_text(encoding="utf-8")
    assert markdown in result.stdout
    assert "torch " in markdown and "transformers " in markdown and "device `cpu`" in markdown
    rows = table_rows(markdown)
    assert len(rows) == len(SCORERS) * len(PRECISIONS) * 3 + 1
    for scorer in SCORERS:
        for precision in PRECISIONS:
            one = rows[(f"{scorer}, one at a time (batch 1)", precision)]
            batched = rows[(f"{scorer}, batched (batch 128)", precision)]
            diff = rows[(f"{scorer}, max abs score diff, batched vs one at a time", precision)]
            assert one[1] == batched[1] == "cpu" and one[3] == batched[3] == "50"
            assert one[5].endswith("probes/s") and batched[5].endswith("probes/s")
            assert "x (target >= 20x: " in batched[6]
            if precision == "fp32":
                assert diff[6].endswith("(< 1e-05: met)"), diff
    tune = rows[("fine-tuning, 1 epoch (authors procedure, batch 64, max_length 64)", "fp32")]
    assert tune[3] == "150" and tune[5].endswith("examples/s")
    # The EQUATE table follows NumerSense's, in the output file as on stdout.
    numersense, equate = markdown.split("### EQUATE trained baselines, one epoch each")
    assert "torch " in equate and "device `cpu`" in equate and "width 0.05" in equate
    models = equate_rows(equate)
    assert sorted(models) == sorted(EQUATE_MODELS)
    for cells in models.values():
        assert cells[1:4] == ["cpu", "fp32", "64"]
        assert float(cells[6].replace(",", "")) > 0 and float(cells[8].replace(",", "")) > 0
    # --equate-json: the same figures for a program (rule_costs.py --equate-gpu), which refuses
    # a measurement on the CPU.
    data = json.loads(figures.read_text(encoding="utf-8"))
    assert data["device"] == "cpu" and data["precision"] == "fp32" and data["width"] == 0.05
    assert data["pairs"] == 64 and data["dev_pairs"] == 8 and data["torch"] in equate
    assert data["device_name"] and data["date"] and data["startup_s"] > 0
    assert [name.lower() for name in EQUATE_MODELS] == list(data["architectures"])
    for name, found in data["architectures"].items():
        assert found["status"] == "ok" and found["pairs"] == 64 and found["dev_pairs"] == 8, name
        assert found["pairs_s"] == pytest.approx(64 / found["epoch_s"])
        assert found["dev_pairs_s"] == pytest.approx(8 / found["dev_s"])
        assert found["call_s"] >= found["epoch_s"] + found["dev_s"] + found["save_s"]
        assert found["peak_gpu_mb"] is None and found["peak_rss_mb"] > 50
    with pytest.raises(SystemExit, match="no GPU measurement"):
        rule_costs_equate.gpu_baselines({}, data)


def equate_rows(markdown: str) -> dict[str, list[str]]:
    """The EQUATE table's body rows by model, each as its cells."""
    rows = {}
    for line in markdown.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 9 and cells[0] != "model":
            rows[cells[0]] = cells
    return rows


def test_the_equate_check_alone_runs_on_the_cpu(tmp_path: Path) -> None:
    out = tmp_path / "equate.md"
    out.write_text("stale\n", encoding="utf-8")  # replaced, not appended to, when run alone
    command = ["bash", "benchmarks/gpu_check.sh", "--skip-numersense", "--device=cpu",
               "--out", str(out), "--equate-architectures", "cbow", *EQUATE_TINY]
    result = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHON": sys.executable})
    assert result.returncode == 0, result.stderr[-3000:]
    markdown = out.read_text(encoding="utf-8")
    assert markdown.startswith("### EQUATE trained baselines") and markdown in result.stdout
    assert list(equate_rows(markdown)) == ["CBOW"]
    assert "NumerSense" not in result.stderr


def test_the_equate_check_fails_on_a_bad_option() -> None:
    result = subprocess.run(["bash", "benchmarks/gpu_check.sh", "--skip-numersense", "--device",
                             "cpu", "--equate-pairs", "0"],
                            cwd=REPO, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHON": sys.executable})
    assert result.returncode != 0
    assert "--pairs" in result.stderr


def test_gpu_check_fails_when_a_step_fails() -> None:
    result = subprocess.run(["bash", "benchmarks/gpu_check.sh", "--device", "cpu", "--limit", "0"],
                            cwd=REPO, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHON": sys.executable})
    assert result.returncode != 0
    assert "--limit" in result.stderr
