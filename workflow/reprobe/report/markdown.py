"""Read back a table's Markdown (`reprobe.tables.write`): its title, notes and pipe table.

The Markdown is the paper-shaped view each stage chose for its table, so the report shows that
view rather than laying the long CSV out again: `# title`, `- note` lines, then one pipe table
as tabulate writes it (header, alignment row, body).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class PipeTable:
    """A pipe table's header and rows as cell texts, and which columns align right."""

    header: list[str]
    rows: list[list[str]]
    right: list[bool]


@dataclass(frozen=True)
class TableText:
    """What a table's Markdown says: title, notes and its table (None when it has none)."""

    title: str
    notes: list[str] = field(default_factory=list)
    table: PipeTable | None = None


def split_row(line: str) -> list[str]:
    """The cells of one pipe-table line, stripped."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [cell.strip() for cell in inner.split("|")]


def is_alignment(cells: list[str]) -> bool:
    """True for the `|:---|---:|` row under a header."""
    return bool(cells) and all(cell and set(cell) <= set(":-") for cell in cells)


def parse_pipe_table(lines: list[str]) -> PipeTable | None:
    """The table of consecutive `|` lines; None when they are not one well-formed table."""
    if len(lines) < 2:
        return None
    header, alignment = split_row(lines[0]), split_row(lines[1])
    if not is_alignment(alignment) or len(alignment) != len(header):
        return None
    rows = [split_row(line) for line in lines[2:]]
    # A `|` inside a cell would shift every cell after it: better the CSV than a wrong table.
    if any(len(row) != len(header) for row in rows):
        return None
    right = [cell.endswith(":") and not cell.startswith(":") for cell in alignment]
    return PipeTable(header, rows, right)


def parse_markdown(text: str, fallback_title: str) -> TableText:
    """Title, notes and pipe table of a table's Markdown; `fallback_title` without a `# ` line."""
    title, notes, table_lines = fallback_title, [], []
    table_done = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("|") and not table_done:
            table_lines.append(stripped)
            continue
        # Only the first table counts: whatever follows it is a note.
        table_done = table_done or bool(table_lines)
        if stripped.startswith("# ") and title == fallback_title and not notes:
            title = stripped[2:].strip() or fallback_title
        elif stripped:
            notes.append(stripped[2:] if stripped.startswith("- ") else stripped)
    return TableText(title, notes, parse_pipe_table(table_lines))


def read_table_text(md: Path, fallback_title: str) -> TableText:
    """The parsed Markdown beside a table, or only the fallback title when there is none."""
    if not md.is_file():
        return TableText(fallback_title)
    return parse_markdown(md.read_text(encoding="utf-8"), fallback_title)
