"""The paper-shaped view of a long comparison table, for the Markdown written beside each CSV.

The CSV stays long (one row per model × setting × metric, the columns of
`compare.compare_with_reference`); the Markdown puts it in the shape a paper prints: one row per
model (and setting), one column per test set or metric, each cell `ours (paper, Δ)` with
Δ = ours − paper. Counts (n) are written where they are one number: a count row when each column
has one count, else a count column when each row has one, else in the cells of the columns that
have several. Row keys with one value in every row (the paper version, say) become a note.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pandas as pd

from reprobe.tables.verdicts import BY_CONSTRUCTION

CELL_NOTE = (
    "Each cell: ours (paper, Δ = ours − paper); no parentheses: the paper has no such number; "
    "`NA (…)` says why there is no number of ours; `(by construction)`: true whatever was run "
    "(the baseline's Δ over itself), so not compared.")
CONSTRUCTED = "by construction"


@dataclass(frozen=True)
class View:
    """How to lay a long table out: row keys, column keys, preferred column order, count name."""

    rows: tuple[str, ...] = ("model", "setting")
    columns: tuple[str, ...] = ("metric",)
    order: tuple[str, ...] = ()
    count_label: str = "n"


def _missing(value: object) -> bool:
    """True for None, NaN, pd.NA and the empty string."""
    if value is None or value is pd.NA or (isinstance(value, str) and not value.strip()):
        return True
    return isinstance(value, float) and math.isnan(value)


def _as_number(value: object) -> float | None:
    """A cell as a number, None when it is text (an NA reason) or missing."""
    if _missing(value) or isinstance(value, bool):
        return None
    try:
        return float(str(value).replace("+", "", 1)) if isinstance(value, str) else float(value)
    except (TypeError, ValueError):
        return None


def number_text(value: object, sign: bool = False) -> str:
    """A number to at most two decimals, no trailing zeros (57.8, 7.7, 120); text unchanged."""
    number = _as_number(value)
    if number is None:
        return "" if _missing(value) else str(value)
    # Adding 0.0 turns a rounded -0.0 into 0.0, so no "-0".
    text = f"{round(number, 2) + 0.0:{'+' if sign else ''}.2f}"
    return text.rstrip("0").rstrip(".")


def cell_text(value: object, paper: object, delta: object, reason_said: bool = False,
              constructed: bool = False) -> str:
    """One cell: `ours (paper, Δ)`; `ours` alone without a paper number; without a number of
    ours, `NA (…); paper p`, or `— (p)` when the row label already gives the reason; a number
    true by construction, `ours (by construction)`."""
    ours, published, change = _as_number(value), _as_number(paper), _as_number(delta)
    if constructed and ours is not None:
        return f"{number_text(ours)} ({CONSTRUCTED})"
    if published is None:
        return "—" if reason_said else number_text(value)
    if ours is None:
        if reason_said:
            return f"— ({number_text(published)})"
        # An NA reason already has parentheses: the paper's number follows it, not inside them.
        return f"{number_text(value) or 'NA'}; paper {number_text(published)}"
    if change is None:
        change = ours - published
    return f"{number_text(ours)} ({number_text(published)}, {number_text(change, sign=True)})"


def _flag(value: object) -> bool:
    """An optional boolean cell: missing is False."""
    return not _missing(value) and bool(value)


def count_text(ours: Iterable[object], paper: Iterable[object]) -> str | None:
    """`ours (paper)` when each side has at most one count, None when either has several."""
    mine = {int(n) for n in map(_as_number, ours) if n is not None}
    theirs = {int(n) for n in map(_as_number, paper) if n is not None}
    if len(mine) > 1 or len(theirs) > 1:
        return None
    if not mine and not theirs:
        # Nothing counted on either side (statistics, not scores): no count to show.
        return ""
    text = str(next(iter(mine))) if mine else "—"
    return f"{text} ({next(iter(theirs))})" if theirs else text


def shared_keys(table: pd.DataFrame, view: View) -> dict[str, str]:
    """Row keys with one non-empty value in every row: said once in a note, not per row."""
    shared = {}
    for key in view.rows[1:]:
        values = set(table[key].fillna("").astype(str))
        if len(values) == 1:
            shared[key] = values.pop()
    return shared


def _labelled(table: pd.DataFrame, view: View) -> pd.DataFrame:
    """The table with its row label columns and a `_column` label; counts of NA cells unset."""
    frame = table.copy()
    frame["_column"] = frame[list(view.columns)].fillna("").astype(str).agg(" ".join, axis=1)
    # An NA cell's n (a partial sum, a zero) counts nothing a reader compares.
    scored = frame["value"].map(_as_number).notna()
    frame["n"] = frame["n"].where(scored)
    return frame


def _column_order(labels: Iterable[str], order: Sequence[str]) -> list[str]:
    """Column labels in the given order first, then in order of appearance."""
    seen = list(dict.fromkeys(labels))
    return [label for label in order if label in seen] + [
        label for label in seen if label not in order]


def _row_reason(values: pd.Series) -> str:
    """The one NA text every cell of a row has (a model not run, say), else ""."""
    if values.map(_as_number).notna().any():
        return ""
    texts = {str(value) for value in values if not _missing(value)}
    return texts.pop() if len(texts) == 1 else ""


def _counts(frame: pd.DataFrame, by: str | list[str]) -> dict[object, str | None]:
    """Count text of each group (a column label or a row key), None where n varies."""
    return {key: count_text(group["n"], group.get("paper_n", []))
            for key, group in frame.groupby(by, sort=False, dropna=False)}


def paper_view(table: pd.DataFrame, view: View | None = None) -> pd.DataFrame:
    """Rows = `view.rows` (constant keys dropped), columns = `view.columns`, text cells."""
    view = view or View()
    keys = [key for key in view.rows if key not in shared_keys(table, view)]
    frame = _labelled(table, view)
    columns = _column_order(frame["_column"], view.order)
    by_column = _counts(frame, "_column")
    by_row = _counts(frame, keys)
    # One count per column: a count row; else one per row: a count column; else both rows
    # and cells: the count row for the columns with one count, the cells for the others.
    count_column = (any(text is None for text in by_column.values())
                    and all(text is not None for text in by_row.values()))
    count_row = not count_column and any(text for text in by_column.values())
    lines = []
    for row_key, group in frame.groupby(keys, sort=False, dropna=False):
        label = row_key if isinstance(row_key, tuple) else (row_key,)
        line = {key: "" if _missing(v) else str(v) for key, v in zip(keys, label, strict=True)}
        # A row with one reason for all its cells says it once, in its label.
        reason = _row_reason(group["value"])
        if reason:
            line[keys[0]] += f" — {reason}"
        if count_column:
            line[view.count_label] = by_row[row_key]
        for _, cell in group.iterrows():
            text = cell_text(cell["value"], cell.get("paper"), cell.get("delta"), bool(reason),
                             _flag(cell.get(BY_CONSTRUCTION)))
            if not count_column and by_column[cell["_column"]] is None:
                text += f" n={number_text(cell['n'])}" if _as_number(cell["n"]) else ""
            line[cell["_column"]] = text
        lines.append(line)
    if count_row:
        counts = {key: "" for key in keys} | {keys[0]: view.count_label}
        lines.insert(0, counts | {label: by_column[label] or "" for label in columns})
    counted = [view.count_label] if count_column else []
    return pd.DataFrame(lines, columns=[*keys, *counted, *columns]).fillna("")


def paper_markdown(
    table: pd.DataFrame, title: str, view: View | None = None, notes: Sequence[str] = ()
) -> str:
    """The Markdown of a long table in the paper's shape, under its title and notes."""
    view = view or View()
    shared = [f"All rows: {key} = {value}." for key, value in shared_keys(table, view).items()
              if value]
    lines = [f"# {title}", "", *[f"- {note}" for note in (CELL_NOTE, *shared, *notes)], ""]
    # Cells are text already: tabulate must not re-read "7.70" as a number and print 7.7.
    body = paper_view(table, view).to_markdown(index=False, disable_numparse=True)
    return "\n".join(lines) + "\n" + body + "\n"
