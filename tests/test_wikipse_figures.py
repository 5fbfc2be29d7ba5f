"""Tests for the WIKI-PSE part 2 figures: the CSV behind a figure and byte-identical PNGs."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from reprobe.wikipse.probing.figures import plot_levels

FRAMES = {
    "word": pd.DataFrame({"level": [0.5, 0.1], "recall": [0.9, 0.4], "n": [20, 5]}),
    "wghtΣ": pd.DataFrame({"level": [0.1, 0.5], "recall": [0.2, 0.8], "n": [5, 20]}),
    "unifΣ": pd.DataFrame({"level": [0.1], "recall": [0.7], "n": [5]}),
}


def draw(folder: Path, frames: dict[str, pd.DataFrame] = FRAMES) -> tuple[Path, Path]:
    """Write the figure and its CSV into folder."""
    csv, png = folder / "figure3a.csv", folder / "figure3a.png"
    plot_levels(frames, "level", "recall", "S-class recall by dominance", "dominance",
                "recall", csv, png)
    return csv, png


def test_the_csv_is_long_series_by_level(tmp_path: Path) -> None:
    csv, png = draw(tmp_path)
    table = pd.read_csv(csv)
    assert list(table.columns) == ["series", "level", "value", "n"]
    assert table.to_dict("records") == [
        {"series": "word", "level": 0.1, "value": 0.4, "n": 5},
        {"series": "word", "level": 0.5, "value": 0.9, "n": 20},
        {"series": "wghtΣ", "level": 0.1, "value": 0.2, "n": 5},
        {"series": "wghtΣ", "level": 0.5, "value": 0.8, "n": 20},
        {"series": "unifΣ", "level": 0.1, "value": 0.7, "n": 5},
    ]
    assert png.read_bytes().startswith(b"\x89PNG")
    assert not list(tmp_path.glob(".*tmp*"))


def test_two_writes_are_byte_identical(tmp_path: Path) -> None:
    first = draw(tmp_path / "one")
    second = draw(tmp_path / "two")
    assert first[1].read_bytes() == second[1].read_bytes()
    assert first[0].read_bytes() == second[0].read_bytes()
    assert b"Software" not in first[1].read_bytes()


def test_other_columns_and_no_counts(tmp_path: Path) -> None:
    frames = {"word": pd.DataFrame({"level": [1, 2], "accuracy": [0.6, 0.9]}),
              "FREQUENCY": pd.DataFrame({"level": [1, 2], "accuracy": [0.5, 0.7]})}
    csv, png = tmp_path / "figure4.csv", tmp_path / "figure4.png"
    table = plot_levels(frames, "level", "accuracy", "Ambiguity accuracy", "S-classes",
                        "accuracy", csv, png)
    assert table["series"].tolist() == ["word", "word", "FREQUENCY", "FREQUENCY"]
    assert pd.read_csv(csv)["n"].isna().all()
    with pytest.raises(ValueError, match="no column 'recall'"):
        plot_levels(frames, "level", "recall", "t", "x", "y", csv, png)
