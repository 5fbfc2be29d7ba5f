"""benchmarks/mention_typer.py: it times the typer's training step at the sizes given."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import mention_typer  # noqa: E402


def test_a_small_typer_step_is_timed_and_reported(tmp_path: Path, capsys) -> None:
    out = tmp_path / "typer.json"
    argv = ["--dim", "8", "--context", "2", "--batch", "4", "--steps", "1", "--warm-up", "1",
            "--threads", "1", "--json", str(out)]
    assert mention_typer.main(argv) == 0
    found = json.loads(out.read_text(encoding="utf-8"))
    assert found["dim"] == 8 and found["batch"] == 4 and found["step_s"] > 0
    # Both are rounded from the unrounded seconds: step_s to 0.1 ms, embedding_min to 0.1 min.
    assert abs(found["embedding_min"] - 10_000 * found["step_s"] / 60) <= 0.05 + 0.01
    assert "mentions/s" in capsys.readouterr().out
