"""WIKI-PSE part 2 figures (Yaghoobzadeh et al. 2019, Figures 3–6): a line per series over the
levels of one factor, as PNG, with the CSV behind it.

The PNG bytes depend only on the data: the figure is drawn on its own Agg canvas (no pyplot
state) and saved without the "Software" stamp, so two writes of the same frames are identical.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from reprobe.io import atomic_path

if TYPE_CHECKING:
    from matplotlib.figure import Figure

CSV_COLUMNS = ["series", "level", "value", "n"]
DPI = 120


def long_frame(frames: Mapping[str, pd.DataFrame], x: str, y: str) -> pd.DataFrame:
    """series, level, value, n: the series in the order given, each by ascending level."""
    parts = []
    for name, frame in frames.items():
        for column in (x, y):
            if column not in frame.columns:
                raise ValueError(f"series {name!r} has no column {column!r}")
        part = pd.DataFrame({"series": name, "level": frame[x].to_numpy(),
                             "value": frame[y].to_numpy(),
                             "n": frame["n"].to_numpy() if "n" in frame.columns else pd.NA})
        parts.append(part.sort_values("level", kind="stable"))
    if not parts:
        return pd.DataFrame(columns=CSV_COLUMNS)
    return pd.concat(parts, ignore_index=True)[CSV_COLUMNS]


def draw_levels(table: pd.DataFrame, title: str, xlabel: str, ylabel: str) -> Figure:
    """A line with markers per series of a long table."""
    # matplotlib loads with the first figure, not with every table of the module that draws.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(5.5, 4))
    FigureCanvasAgg(figure)
    axes = figure.subplots()
    for name, rows in table.groupby("series", sort=False):
        axes.plot(rows["level"].astype(float), rows["value"].astype(float), marker="o",
                  label=str(name))
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.grid(True, alpha=0.3)
    if len(table):
        axes.legend(fontsize="small")
    figure.tight_layout()
    return figure


def plot_levels(frames: Mapping[str, pd.DataFrame], x: str, y: str, title: str, xlabel: str,
                ylabel: str, csv: Path, png: Path) -> pd.DataFrame:
    """Write one line per series (e.g. word, wghtΣ, unifΣ) of y over x as PNG, and the long
    table behind it (series, level, value, n) as CSV; the table."""
    table = long_frame(frames, x, y)
    with atomic_path(csv) as tmp:
        table.to_csv(tmp, index=False, lineterminator="\n")
    figure = draw_levels(table, title, xlabel, ylabel)
    with atomic_path(png) as tmp:
        # No "Software" entry: the PNG carries no version stamp, only the drawing.
        figure.savefig(tmp, format="png", dpi=DPI, metadata={"Software": None})
    return table
