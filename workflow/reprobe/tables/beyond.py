"""Rows beyond the paper: a model or embedding the paper did not test, run the paper's way.

One convention for every stage: such a row's label ends in BEYOND (in the CSV, the Markdown and
the report), it sits below the paper's rows, and the table carries a note saying what the rows
are. Which rows are beyond the paper is each stage's decision (its targets name them), made against
the models its published numbers name (`paper_models`).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

BEYOND = "(beyond the paper)"


def beyond_row(name: str) -> str:
    """The label of a row beyond the paper: `lee (beyond the paper)`."""
    return name if is_beyond(name) else f"{name} {BEYOND}"


def is_beyond(label: object) -> bool:
    """Whether a table row's label marks it as beyond the paper."""
    return str(label).endswith(BEYOND)


def beyond_note(what: str) -> str:
    """The table note on its rows beyond the paper: `what` says which rows they are."""
    return (f"Rows marked `{BEYOND}`: {what}; the paper has no number for them, and they sit "
            "below its rows.")


def mark_beyond_paper(frame: pd.DataFrame, names: Iterable[str], column: str = "model",
                      ) -> pd.DataFrame:
    """`frame` with the rows whose `column` is one of `names` labelled as beyond the paper and
    moved after every other row (both groups keep their order)."""
    rows = frame[column].isin(set(names)) | frame[column].map(is_beyond).astype(bool)
    marked = frame.copy()
    marked[column] = marked[column].astype(object)
    marked.loc[rows, column] = marked.loc[rows, column].map(beyond_row)
    return pd.concat([marked[~rows], marked[rows]], ignore_index=True)


def paper_models(reference: Path) -> set[str]:
    """Every model a stage's published numbers name (the `model` column of each long CSV in
    its reference folder, `config/reference/<stage>`): the paper's rows."""
    names: set[str] = set()
    for path in sorted(reference.glob("*.csv")):
        with path.open(encoding="utf-8", newline="") as handle:
            names |= {row["model"] for row in csv.DictReader(handle)}
    return names
