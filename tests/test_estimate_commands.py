"""Tests for `reprobe estimate` on the embedded default (one Snakemake dry run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_the_default_config_is_estimated_per_stage_and_in_all(tmp_path: Path) -> None:
    out = tmp_path / "estimate.json"
    done = subprocess.run([sys.executable, "-m", "reprobe", "estimate", "--cores", "2",
                           "--mem-gb", "24", "--json", str(out)],
                          capture_output=True, text=True, check=True)
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert {"numeracy", "wikipse", "numersense", "equate", "download"} <= set(figures["stages"])
    assert figures["wall_h"] > 0 and figures["cannot_run"] == []
    assert "| numeracy |" in done.stdout and "**Total:" in done.stdout
