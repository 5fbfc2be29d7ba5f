"""benchmarks/qreas_released.py runs on the sample's parsed pairs and prints its table."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO


def test_benchmark_times_the_three_rows_on_the_sample() -> None:
    result = subprocess.run([sys.executable, "benchmarks/qreas_released.py", "--repeat", "1"],
                            cwd=REPO, capture_output=True, text=True, timeout=300, check=True)
    assert "6 parsed pairs of rte_quant.jsonl" in result.stdout
    for row in ("released code, every", "released code, pool", "Algorithm 1"):
        assert f"| {row} |" in result.stdout
