"""A results table as HTML, each number of ours marked against the paper's by the tolerance.

Two layouts carry the paper's numbers: the paper-shaped one (`ours (paper, Δ)` in every cell,
`reprobe.tables.shape`) and a plain one with `value`, `paper` and `delta` columns. In the first
each comparable cell is marked; in the second the row's `value` cell is. Any other table (counts,
word lists, figure data) is shown as it is, unmarked. A number from stand-in data (the whole
table's, or a `tiny-…` row's: `reprobe.report.standins`) is greyed and counted apart.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, fields

import numpy as np
import pandas as pd

from reprobe.report.cells import (
    Comparison,
    Verdict,
    as_float,
    cell_verdict,
    comparison_of,
    parse_cell,
    percent,
)
from reprobe.report.markdown import PipeTable
from reprobe.report.standins import is_stand_in_row

# The mark each verdict carries besides its colour, so that it survives print and colour
# blindness; PAPER_ONLY cells are greyed, not marked.
SYMBOLS = {Verdict.WITHIN: "✓", Verdict.BEYOND: "✗", Verdict.PAPER_ONLY: "", Verdict.STAND_IN: ""}
CODE = re.compile(r"`([^`]+)`")
LONG = 60


@dataclass
class Counts:
    """How many cells of a table (or page) are within, beyond, only the paper's, or from
    stand-in data (beside the paper's, not counted as compared)."""

    within: int = 0
    beyond: int = 0
    paper_only: int = 0
    stand_in: int = 0

    @property
    def compared(self) -> int:
        """Cells with both our number and the paper's."""
        return self.within + self.beyond

    def add(self, verdict: Verdict | None) -> None:
        """Count one cell's verdict (None counts nothing)."""
        if verdict is Verdict.WITHIN:
            self.within += 1
        elif verdict is Verdict.BEYOND:
            self.beyond += 1
        elif verdict is Verdict.PAPER_ONLY:
            self.paper_only += 1
        elif verdict is Verdict.STAND_IN:
            self.stand_in += 1

    def __iadd__(self, other: Counts) -> Counts:
        """Add another tally to this one."""
        for name in (f.name for f in fields(self)):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self

    def as_dict(self) -> dict[str, int]:
        """The counts by name, with `compared`."""
        return {"compared": self.compared, **{f.name: getattr(self, f.name) for f in fields(self)}}


def inline(text: str) -> str:
    """Markdown-ish text as HTML: escaped, with `code` spans kept as code."""
    return CODE.sub(r"<code>\1</code>", html.escape(text))


def explanation(comparison: Comparison, tolerance: float, stand_in: bool = False) -> str:
    """The hover text of a marked cell: |Δ| beside the allowance it was judged by."""
    sign = "≤" if comparison.verdict(tolerance) is Verdict.WITHIN else ">"
    said = (f"|Δ| = {abs(comparison.delta):g} {sign} {percent(tolerance)} of "
            f"{abs(comparison.paper):g} = {comparison.allowed(tolerance):.4g}")
    return f"stand-in data, a plumbing check, not counted: {said}" if stand_in else said


def _verdict(comparison: Comparison | None, tolerance: float, paper_only: bool,
             stand_in: bool) -> Verdict | None:
    """A cell's verdict: judged by the tolerance, unless from stand-in data."""
    if comparison is None:
        return Verdict.PAPER_ONLY if paper_only else None
    return Verdict.STAND_IN if stand_in else comparison.verdict(tolerance)


def cell_html(text: str, comparison: Comparison | None, tolerance: float, right: bool,
              paper_only: bool = False, stand_in: bool = False) -> tuple[str, Verdict | None]:
    """One <td>: the cell's text, and its class and mark when it compares with the paper."""
    verdict = _verdict(comparison, tolerance, paper_only, stand_in)
    classes = [verdict.value] if verdict else []
    classes += ["num"] if right else []
    # Cells stay on one line (the table scrolls sideways) unless they hold a sentence.
    classes += ["long"] if len(text) > LONG else []
    attributes = f' class="{" ".join(classes)}"' if classes else ""
    if comparison is not None:
        hover = explanation(comparison, tolerance, stand_in)
        attributes += f' title="{html.escape(hover)}"'
    symbol = SYMBOLS.get(verdict, "") if verdict else ""
    mark = f'<span class="mark">{symbol}</span> ' if symbol else ""
    return f"<td{attributes}>{mark}{inline(text)}</td>", verdict


def _value_columns(header: list[str]) -> tuple[int, int, int] | None:
    """Indexes of `value`, `paper_value` (or `paper`) and `delta` in a plain table's header,
    None if it lacks one."""
    names = [name.strip().lower() for name in header]
    paper = "paper_value" if "paper_value" in names else "paper"
    if not {"value", paper, "delta"} <= set(names):
        return None
    return names.index("value"), names.index(paper), names.index("delta")


def pipe_table_html(table: PipeTable, tolerance: float,
                    stand_in: bool = False) -> tuple[str, Counts]:
    """The HTML <table> of a parsed table, its cells marked, and the tally of its marks; with
    `stand_in` (or on a `tiny-…` row) a compared cell is greyed and counted apart."""
    counts = Counts()
    columns = _value_columns(table.header)
    head = "".join(f'<th{" class=num" if right else ""}>{inline(name)}</th>'
                   for name, right in zip(table.header, table.right, strict=True))
    body = []
    for row in table.rows:
        row_stand_in = bool(row) and is_stand_in_row(row[0])
        row_comparison = (comparison_of(*(row[i] for i in columns)) if columns else None)
        cells = []
        for index, text in enumerate(row):
            if columns:
                comparison = row_comparison if index == columns[0] else None
                paper_only = (index == columns[0] and row_comparison is None
                              and as_float(row[columns[1]]) is not None)
            else:
                comparison, paper_only = parse_cell(text), _paper_only(text)
            cell, verdict = cell_html(text, comparison, tolerance, table.right[index],
                                      paper_only, stand_in or row_stand_in)
            counts.add(verdict)
            cells.append(cell)
        css = ' class="stand-in-row"' if row_stand_in else ""
        body.append(f"<tr{css}>{''.join(cells)}</tr>")
    return (f"<table><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>"), counts


def _paper_only(text: str) -> bool:
    """True for a cell with only the paper's number (`— (p)`, `NA (…); paper p`)."""
    return cell_verdict(text, 0.0) is Verdict.PAPER_ONLY


def plain_number(value: object) -> str:
    """A CSV value for display: integers whole, other numbers to at most 4 decimals."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if value is None or pd.isna(value):
        return ""
    number = float(value)
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return f"{number:.4f}".rstrip("0").rstrip(".")


def frame_table(frame: pd.DataFrame) -> PipeTable:
    """A CSV table as a pipe table: cells as display text, numeric columns aligned right."""
    types = pd.api.types
    right = [types.is_numeric_dtype(frame[column]) and not types.is_bool_dtype(frame[column])
             for column in frame.columns]
    rows = [[plain_number(value) for value in record] for record in frame.itertuples(index=False)]
    return PipeTable([str(column) for column in frame.columns], rows, right)
