"""Write a table as CSV and Markdown, atomically."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from reprobe.io import atomic_path, atomic_write_text


def write_table(table: pd.DataFrame, csv: Path, md: Path, title: str) -> None:
    """Write `table` to `csv` and, under a heading, to `md`."""
    with atomic_path(csv) as tmp:
        table.to_csv(tmp, index=False)
    atomic_write_text(md, f"# {title}\n\n{table.to_markdown(index=False)}\n")
