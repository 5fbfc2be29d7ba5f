"""A table's Markdown read back: title, notes and the pipe table as tabulate writes it."""

from __future__ import annotations

from reprobe.report.markdown import parse_markdown, parse_pipe_table, read_table_text

TABLE2 = """# Table 2: magnitude tests (cosine, % accuracy)

- Each cell: ours (paper, Δ = ours − paper).
- All rows: setting = conll.

| model   | OVA-MAG            |   n |
|:--------|:-------------------|----:|
| Random  | 6.06 (0.04, +6.02) |  33 |
| GloVe   | — (7.7)            |     |
"""


def test_title_notes_and_table_are_read():
    text = parse_markdown(TABLE2, "table2")
    assert text.title == "Table 2: magnitude tests (cosine, % accuracy)"
    assert text.notes == ["Each cell: ours (paper, Δ = ours − paper).",
                          "All rows: setting = conll."]
    assert text.table.header == ["model", "OVA-MAG", "n"]
    assert text.table.rows == [["Random", "6.06 (0.04, +6.02)", "33"], ["GloVe", "— (7.7)", ""]]


def test_right_aligned_columns_are_known():
    assert parse_markdown(TABLE2, "table2").table.right == [False, False, True]


def test_markdown_without_a_title_falls_back_to_the_given_one():
    text = parse_markdown("| set | shared |\n|:--|--:|\n| core | 15 |\n", "overlap")
    assert text.title == "overlap" and text.table.rows == [["core", "15"]]


def test_a_missing_markdown_file_gives_only_the_fallback_title(tmp_path):
    text = read_table_text(tmp_path / "filters.md", "filters")
    assert (text.title, text.notes, text.table) == ("filters", [], None)


def test_a_row_with_a_stray_pipe_is_no_table():
    # A `|` inside a cell shifts the cells: the caller falls back to the CSV.
    assert parse_pipe_table(["| a | b |", "|:--|:--|", "| x | y | z |"]) is None


def test_lines_after_the_table_are_notes_not_rows():
    text = parse_markdown("# T\n\n| a |\n|:--|\n| 1 |\n\nA closing remark.\n| 2 |\n", "t")
    assert text.table.rows == [["1"]] and text.notes[0] == "A closing remark."
