"""A comparison table's CSV: numeric `value`, the reason in `note`, the paper's value, Δ and
whether Δ is within the tolerance; a cell true by construction never judged."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from reprobe.tables.verdicts import BY_CONSTRUCTION, CONSTRUCTION_NOTE, csv_frame
from reprobe.tables.write import write_table

LONG = pd.DataFrame({
    "model": ["A", "B", "C", "MAJ", "D"], "setting": "", "metric": "m",
    "n": [10, 10, 0, 10, 10], "value": [50.0, 60.0, "NA (not configured)", 0.0, 7.0],
    "paper_n": pd.NA, "paper": [51.0, 50.0, 40.0, 0.0, None],
    "delta": [-1.0, 10.0, None, 0.0, None],
    BY_CONSTRUCTION: [False, False, False, True, False]})


def test_the_csv_has_numbers_notes_and_a_verdict_per_cell():
    frame = csv_frame(LONG, 0.05)
    assert list(frame.columns) == ["model", "setting", "metric", "n", "value", "note",
                                   "paper_n", "paper_value", "delta", "within_tolerance"]
    assert pd.api.types.is_float_dtype(frame["value"])
    assert frame["within_tolerance"].tolist()[:2] == [True, False]
    assert pd.isna(frame.loc[2, "value"]) and frame.loc[2, "note"] == "NA (not configured)"
    assert pd.isna(frame.loc[2, "within_tolerance"])  # no number of ours: no verdict
    assert pd.isna(frame.loc[4, "within_tolerance"])  # no number of the paper's
    assert frame.loc[0, "note"] == ""


def test_a_cell_true_by_construction_is_never_judged():
    frame = csv_frame(LONG, 0.05)
    assert frame.loc[3, "value"] == 0 and frame.loc[3, "paper_value"] == 0
    assert pd.isna(frame.loc[3, "within_tolerance"]) and frame.loc[3, "note"] == CONSTRUCTION_NOTE


def test_the_tolerance_defaults_to_the_schemas():
    # 0.05 in the schema: |−1| ≤ 0.05 × 51, |10| > 0.05 × 50.
    assert csv_frame(LONG)["within_tolerance"].tolist()[:2] == [True, False]
    assert csv_frame(LONG, 0.5)["within_tolerance"].tolist()[:2] == [True, True]


def test_a_table_without_the_papers_numbers_is_written_as_it_is(tmp_path: Path):
    plain = pd.DataFrame({"rule": ["no number"], "dropped": [16]})
    assert csv_frame(plain) is plain
    write_table(plain, tmp_path / "t.csv", tmp_path / "t.md", "Filters")
    assert pd.read_csv(tmp_path / "t.csv").equals(plain)


def test_write_table_writes_the_verdicts_and_a_variant_column_stays_last(tmp_path: Path):
    write_table(LONG.drop(columns=BY_CONSTRUCTION).assign(variant="rebuilt"),
                tmp_path / "t.csv", tmp_path / "t.md", "T", tolerance=0.05)
    written = pd.read_csv(tmp_path / "t.csv")
    assert list(written.columns)[-3:] == ["delta", "within_tolerance", "variant"]
    assert written.loc[3, "within_tolerance"]  # without the flag, 0 against 0 is judged
