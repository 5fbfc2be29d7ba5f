"""One paper's page: every table beside the paper's numbers, figures, cards, sources, config.

The page is one self-contained HTML file (styles inline, figures as base64), readable offline on
its own and inside Snakemake's report. A JSON summary beside it gives each table's title and
tally, for the report's listing and for scripts. A page made from stand-in data (samples, `tiny-`
models: `reprobe.report.standins`) says so in a banner at its top, and its numbers are not
counted against the paper's.
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from reprobe.io import atomic_write_text
from reprobe.report.cells import percent
from reprobe.report.costs import RuleCost, costs_html
from reprobe.report.costs import summary as cost_rows
from reprobe.report.markdown import PipeTable, read_table_text
from reprobe.report.provenance import cards_html, config_html, sources_html
from reprobe.report.standins import banner_html, is_stand_in_row, stand_in_sources
from reprobe.report.style import STYLE, legend_html, tally_text
from reprobe.report.table_html import Counts, frame_table, inline, pipe_table_html


@dataclass(frozen=True)
class TableFiles:
    """The files of one table: CSV, Markdown and figure, each None when not written."""

    stem: Path
    csv: Path | None
    md: Path | None
    png: Path | None

    @property
    def fallback_title(self) -> str:
        """The title of a table without Markdown: its file name, less the extension."""
        return self.stem.name

    def names(self) -> list[str]:
        """The paths of the files that exist."""
        return [str(path) for path in (self.csv, self.md, self.png) if path is not None]


@dataclass(frozen=True)
class RenderedTable:
    """A table's section of the page, with its title and tally."""

    title: str
    anchor: str
    html: str
    counts: Counts
    files: list[str]
    stand_in_rows: list[str]


def group_table_files(paths: Sequence[Path]) -> list[TableFiles]:
    """The given table files grouped by stem, in order; a sibling .md or .png is found on disk."""
    stems = list(dict.fromkeys(path.with_suffix("") for path in paths))

    def existing(stem: Path, suffix: str) -> Path | None:
        path = stem.with_suffix(suffix)
        return path if path.is_file() else None

    return [TableFiles(stem, existing(stem, ".csv"), existing(stem, ".md"),
                       existing(stem, ".png")) for stem in stems]


def anchor_of(stem: Path) -> str:
    """An HTML id for a table: its file stem, letters, digits and dashes only."""
    return "table-" + re.sub(r"[^A-Za-z0-9]+", "-", stem.name).strip("-")


def figure_html(png: Path, title: str) -> str:
    """A PNG embedded as a data URI."""
    data = base64.b64encode(png.read_bytes()).decode("ascii")
    return (f'<figure><img alt="{html.escape(title)}" src="data:image/png;base64,{data}">'
            f"<figcaption><code>{html.escape(str(png))}</code></figcaption></figure>")


def read_csv(path: Path) -> pd.DataFrame:
    """A table's CSV; an empty file is an empty table, not an error."""
    try:
        return pd.read_csv(path)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()


def table_title(files: TableFiles) -> str:
    """The title a table's Markdown gives it, else its file name."""
    return read_table_text(files.md, files.fallback_title).title if files.md else (
        files.fallback_title)


def stand_in_rows(table: PipeTable) -> list[str]:
    """The labels of a table's rows that name stand-in models (`tiny-…`)."""
    return [row[0] for row in table.rows if row and is_stand_in_row(row[0])]


def render_table(files: TableFiles, tolerance: float, title: str,
                 stand_in: bool = False) -> RenderedTable:
    """One table's section: title, notes, the table with its marks, its figure and data (its
    numbers from stand-in data with `stand_in`)."""
    text = read_table_text(files.md, files.fallback_title) if files.md else None
    counts, parts, rows = Counts(), [], []
    if text and text.notes:
        parts.append("<ul class=notes>" + "".join(
            f"<li>{inline(note)}</li>" for note in text.notes) + "</ul>")
    if text and text.table:
        table_html, counts = pipe_table_html(text.table, tolerance, stand_in)
        rows = stand_in_rows(text.table)
        parts.append(f'<div class="scroll">{table_html}</div>')
    if files.png:
        parts.append(figure_html(files.png, title))
    if files.csv and not (text and text.table):
        plain = frame_table(read_csv(files.csv))
        table_html, counts = pipe_table_html(plain, tolerance, stand_in)
        rows = stand_in_rows(plain)
        # A figure's data is secondary to the figure: folded under it.
        wrapper = ("<details><summary>data</summary>{}</details>" if files.png
                   else '<div class="scroll">{}</div>')
        parts.append(wrapper.format(table_html))
    anchor = anchor_of(files.stem)
    tally = f'<p class="tally">{tally_text(counts, tolerance)}</p>' if (
        counts.compared or counts.paper_only or counts.stand_in) else ""
    listed = " · ".join(f"<code>{html.escape(name)}</code>" for name in files.names())
    section = (f'<section id="{anchor}"><h2>{html.escape(title)}</h2>'
               f'<p class="files">{listed}</p>{tally}{"".join(parts)}</section>')
    return RenderedTable(title, anchor, section, counts, files.names(), rows)


def _count_cell(count: int, css: str) -> str:
    """A tally cell of the contents: coloured only when it counts something."""
    return f'<td class="num {css if count else ""}">{count or ""}</td>'


def contents_html(tables: Sequence[RenderedTable]) -> str:
    """The page's table of contents: each table's title and tally (and a column of the
    numbers from stand-in data, where there are any)."""
    stand_in = any(t.counts.stand_in for t in tables)
    rows = "".join(
        f'<tr><td><a href="#{t.anchor}">{html.escape(t.title)}</a></td>'
        f"{_count_cell(t.counts.compared, '')}{_count_cell(t.counts.within, 'within')}"
        f"{_count_cell(t.counts.beyond, 'beyond')}"
        f"{_count_cell(t.counts.paper_only, 'paper-only')}"
        f"{_count_cell(t.counts.stand_in, 'stand-in') if stand_in else ''}</tr>"
        for t in tables)
    head = ("<tr><th>table</th><th class=num>compared</th><th class=num>✓ within</th>"
            "<th class=num>✗ beyond</th><th class=num>paper only</th>"
            f"{'<th class=num>stand-in (not counted)</th>' if stand_in else ''}</tr>")
    return f'<table class="contents"><thead>{head}</thead><tbody>{rows}</tbody></table>'


def distinct_titles(tables: Sequence[TableFiles], titles: Sequence[str]) -> list[str]:
    """Titles that name one table each: a title several tables share gets its file stem."""
    # Table 6 of EQUATE, say, is written four times (released/rebuilt × two paper versions)
    # under one title; the file tells them apart.
    return [f"{title} ({files.stem.name})" if titles.count(title) > 1 else title
            for files, title in zip(tables, titles, strict=True)]


def paper_page(title: str, tables: Sequence[TableFiles], cards: Sequence[Path],
               sources: Mapping[str, Mapping[str, Any]], config: Mapping[str, Any],
               tolerance: float, costs: Mapping[str, RuleCost] | None = None
               ) -> tuple[str, dict[str, Any]]:
    """The page's HTML and its JSON summary."""
    titles = distinct_titles(tables, [table_title(files) for files in tables])
    samples = stand_in_sources(sources)
    rendered = [render_table(files, tolerance, title, bool(samples))
                for files, title in zip(tables, titles, strict=True)]
    total = Counts()
    for table in rendered:
        total += table.counts
    rows = list(dict.fromkeys(row for table in rendered for row in table.stand_in_rows))
    body = (f"<h1>{html.escape(title)}</h1>{banner_html(samples, rows)}"
            f'<p class="tally">{tally_text(total, tolerance)}</p>{legend_html(tolerance)}'
            f"{contents_html(rendered)}{''.join(t.html for t in rendered)}"
            f'<section id="cards"><h2>Dataset cards</h2>{cards_html(cards)}</section>'
            f'<section id="sources"><h2>Sources</h2>{sources_html(sources)}</section>'
            f'<section id="config"><h2>Config</h2>{config_html(config)}</section>'
            f"{costs_html(costs) if costs is not None else ''}")
    page = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
            f"<body>{body}</body></html>\n")
    summary = {"title": title, "tolerance": tolerance, "tolerance_text": percent(tolerance),
               "counts": total.as_dict(),
               "stand_in": {"sources": samples, "rows": rows},
               "tables": [{"title": t.title, "files": t.files, "counts": t.counts.as_dict()}
                          for t in rendered]}
    if costs is not None:
        summary["costs"] = cost_rows(costs)
    return page, summary


def write_paper_page(output: Path, summary_path: Path, title: str, table_paths: Sequence[Path],
                     cards: Sequence[Path], sources: Mapping[str, Mapping[str, Any]],
                     config: Mapping[str, Any], tolerance: float,
                     costs: Mapping[str, RuleCost] | None = None) -> dict[str, Any]:
    """Write a paper's page and its JSON summary, atomically; returns the summary."""
    page, summary = paper_page(title, group_table_files(table_paths), cards, sources, config,
                               tolerance, costs)
    atomic_write_text(output, page)
    atomic_write_text(summary_path, json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    return summary
