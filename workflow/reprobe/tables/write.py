"""Write a table as CSV and Markdown, atomically."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from reprobe.io import atomic_path, atomic_write_text
from reprobe.tables.shape import View, paper_markdown
from reprobe.tables.verdicts import csv_frame


def write_table(
    table: pd.DataFrame, csv: Path, md: Path, title: str, *, view: View | None = None,
    notes: Sequence[str] = (), tolerance: float | None = None,
) -> None:
    """Write `table` to `csv` (a comparison with each cell's verdict, `verdicts.csv_frame`)
    and, under a heading, to `md` (in the paper's shape if `view`)."""
    with atomic_path(csv) as tmp:
        csv_frame(table, tolerance).to_csv(tmp, index=False)
    if view is None:
        notes_text = "".join(f"- {note}\n" for note in notes) + ("\n" if notes else "")
        atomic_write_text(md, f"# {title}\n\n{notes_text}{table.to_markdown(index=False)}\n")
    else:
        atomic_write_text(md, paper_markdown(table, title, view, notes))
