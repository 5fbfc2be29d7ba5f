"""Each compared cell's verdict in a table's CSV: numeric `value`, its `note`, the paper's value,
Δ and whether Δ is within the tolerance.

A long comparison table (`compare.compare_with_reference`) keeps the reason a number is missing
in its `value` column (`NA (not configured)`), so that the paper-shaped Markdown can print it.
Its CSV splits them: `value` holds numbers only and `note` the reason; `paper` is written as
`paper_value`; `within_tolerance` is True or False where both numbers exist, empty elsewhere.
A cell true by construction (MAJ's Δ over MAJ) is never judged: its `note` says so.

|Δ| ≤ tolerance × |paper| is within, as the report marks it. The table commands are not given
the config's `report.tolerance` yet, so the CSVs use its schema default while the
report page uses the config's: they differ only in a config that changes it (docs/results.md).
"""

from __future__ import annotations

import pandas as pd

BY_CONSTRUCTION = "by_construction"
CONSTRUCTION_NOTE = "by construction: the baseline's Δ over itself (not a comparison)"
COMPARED = ("value", "paper", "delta")
# Float noise: a Δ printed as exactly the allowance is within it (as reprobe.report.cells).
SLACK = 1e-9


def default_tolerance() -> float:
    """The schema's default of `report.tolerance` (the setting's one home)."""
    from reprobe.step_settings import schema_default

    return float(schema_default("report.tolerance"))


def is_comparison(table: pd.DataFrame) -> bool:
    """Whether a long table carries our value, the paper's and Δ (compare_with_reference)."""
    return set(COMPARED) <= set(table.columns)


def constructed(table: pd.DataFrame) -> pd.Series:
    """Per row, whether its cell is true by construction (the optional `by_construction`)."""
    if BY_CONSTRUCTION not in table.columns:
        return pd.Series(False, index=table.index)
    return table[BY_CONSTRUCTION].fillna(False).astype(bool)


def within_tolerance(table: pd.DataFrame, tolerance: float) -> pd.Series:
    """True/False where our number and the paper's both exist, NA elsewhere and by
    construction."""
    ours = pd.to_numeric(table["value"], errors="coerce")
    paper = pd.to_numeric(table["paper"], errors="coerce")
    delta = pd.to_numeric(table["delta"], errors="coerce").fillna(ours - paper)
    within = (delta.abs() <= tolerance * paper.abs() + SLACK).astype("boolean")
    judged = ours.notna() & paper.notna() & ~constructed(table)
    return within.where(judged, pd.NA)


def notes(table: pd.DataFrame) -> pd.Series:
    """Per row, why `value` has no number (the NA text it held), or that it is by
    construction; empty otherwise."""
    numeric = pd.to_numeric(table["value"], errors="coerce")
    text = table["value"].where(numeric.isna(), "").fillna("").astype(str)
    return text.where(~constructed(table), CONSTRUCTION_NOTE)


def csv_frame(table: pd.DataFrame, tolerance: float | None = None) -> pd.DataFrame:
    """The table as its CSV holds it: a comparison table with numeric `value`, `note`,
    `paper_value`, `delta` and `within_tolerance`; any other table as it is."""
    if not is_comparison(table):
        return table
    tolerance = default_tolerance() if tolerance is None else tolerance
    frame = table.copy()
    frame["within_tolerance"] = within_tolerance(table, tolerance)
    frame["note"] = notes(table)
    frame["value"] = pd.to_numeric(table["value"], errors="coerce")
    frame = frame.drop(columns=[BY_CONSTRUCTION], errors="ignore").rename(
        columns={"paper": "paper_value"})
    ordered: list[str] = []
    for column in frame.columns.drop(["note", "within_tolerance"]):
        ordered += {"value": ["value", "note"], "delta": ["delta", "within_tolerance"]}.get(
            column, [column])
    return frame[ordered]
