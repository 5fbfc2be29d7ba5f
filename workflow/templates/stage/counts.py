"""The stage's one computation: the lines of a text input, as a table."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from reprobe.tables.write import write_table
from reprobe.text import numbered_lines, require_rows


def count_lines(path: Path) -> int:
    """How many non-blank lines a text file holds; an empty file is an error naming it."""
    lines = sum(1 for _, text in numbered_lines(path) if text.strip())
    require_rows(path, lines, "lines")
    return lines


def write_counts(path: Path, csv: Path, md: Path, title: str) -> None:
    """The counts table of one input."""
    table = pd.DataFrame([{"input": Path(path).name, "lines": count_lines(path)}])
    write_table(table, csv, md, title)
