"""Tables as HTML: a number beyond the tolerance is marked, one within is not, others plain."""

from __future__ import annotations

import re

import pandas as pd

from reprobe.report.cells import Verdict
from reprobe.report.markdown import PipeTable
from reprobe.report.table_html import Counts, frame_table, inline, pipe_table_html


def cells(html: str, css: str) -> list[str]:
    """The text of every <td> of the given class."""
    return [re.sub(r"<[^>]+>", "", td) for td in
            re.findall(rf'<td class="{css}[^"]*"[^>]*>(.*?)</td>', html)]


def paper_shaped(*rows: list[str]) -> PipeTable:
    """A paper-shaped table: a model column and two metric columns."""
    return PipeTable(["model", "BC-MAG", "SC-MAG"], list(rows), [False, False, False])


def test_a_cell_beyond_the_tolerance_is_marked():
    html, counts = pipe_table_html(paper_shaped(["Random", "66.67 (49.34, +17.33)", "x"]), 0.05)
    assert cells(html, "beyond") == ["✗ 66.67 (49.34, +17.33)"]
    assert 'title="|Δ| = 17.33 &gt; 5% of 49.34' in html
    assert (counts.beyond, counts.within) == (1, 0)


def test_a_cell_within_the_tolerance_is_not_marked_beyond():
    html, counts = pipe_table_html(paper_shaped(["MAJ", "57.14 (57.8, -0.66)", "x"]), 0.05)
    assert cells(html, "beyond") == [] and cells(html, "within") == ["✓ 57.14 (57.8, -0.66)"]
    assert (counts.beyond, counts.within) == (0, 1)


def test_the_same_cell_is_judged_by_the_tolerance_given():
    row = ["MAJ", "57.14 (57.8, -0.66)", "x"]
    assert pipe_table_html(paper_shaped(row), 0.01)[1].beyond == 1


def test_a_papers_number_without_ours_is_greyed_not_marked():
    html, counts = pipe_table_html(paper_shaped(["GloVe — NA (not configured)", "— (82.48)",
                                                 "NA (not scored); paper 33.3"]), 0.05)
    assert cells(html, "paper-only") == ["— (82.48)", "NA (not scored); paper 33.3"]
    assert "✗" not in html and "✓" not in html and counts.paper_only == 2


def test_a_table_without_paper_values_renders_unmarked():
    table = frame_table(pd.DataFrame({"rule": ["no_number_word", "too_short"],
                                      "dropped": [16, 6], "kept_after": [120, 114]}))
    html, counts = pipe_table_html(table, 0.05)
    assert "<th>rule</th>" in html and "<td class=\"num\">120</td>" in html
    assert counts == Counts() and "within" not in html and "beyond" not in html


def test_a_plain_table_with_value_paper_delta_marks_the_value_cell():
    table = PipeTable(["metric", "value", "paper", "delta"],
                      [["words", "36", "44250", "-44214"], ["mean", "1.7", "1.757", "-0.06"],
                       ["sentences", "4002", "nan", "nan"]], [False, True, True, True])
    html, counts = pipe_table_html(table, 0.05)
    assert cells(html, "beyond") == ["✗ 36"] and cells(html, "within") == ["✓ 1.7"]
    assert counts.as_dict() == {"compared": 2, "within": 1, "beyond": 1, "paper_only": 0,
                                "stand_in": 0}


def test_the_csv_layout_with_paper_value_marks_the_value_cell():
    table = PipeTable(["metric", "value", "note", "paper_value", "delta", "within_tolerance"],
                      [["words", "36", "", "44250", "-44214", "False"]],
                      [False, True, False, True, True, False])
    html, counts = pipe_table_html(table, 0.05)
    assert cells(html, "beyond") == ["✗ 36"] and counts.beyond == 1


def test_stand_in_numbers_are_greyed_and_counted_apart():
    html, counts = pipe_table_html(paper_shaped(["MAJ", "57.14 (57.8, -0.66)", "x"]), 0.05,
                                   stand_in=True)
    assert cells(html, "within") == [] and "✓" not in html
    assert cells(html, "stand-in") == ["57.14 (57.8, -0.66)"]
    assert "plumbing check" in html
    assert counts.as_dict() == {"compared": 0, "within": 0, "beyond": 0, "paper_only": 0,
                                "stand_in": 1}


def test_a_tiny_row_is_a_stand_in_on_any_page():
    html, counts = pipe_table_html(paper_shaped(["tiny-ESIM (beyond the paper)",
                                                 "57.14 (57.8, -0.66)", "x"]), 0.05)
    assert '<tr class="stand-in-row">' in html and (counts.within, counts.stand_in) == (0, 1)


def test_a_cell_by_construction_is_never_counted():
    html, counts = pipe_table_html(paper_shaped(["MAJ", "0 (by construction)", "x"]), 0.05)
    assert counts == Counts() and "✓" not in html


def test_cell_text_is_escaped_and_code_spans_kept():
    assert inline("`NA (…)` <b>") == "<code>NA (…)</code> &lt;b&gt;"
    html, _ = pipe_table_html(paper_shaped(["<script>", "1", "2"]), 0.05)
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_csv_values_display_as_people_read_them():
    table = frame_table(pd.DataFrame({"level": [0.1, 2.0], "value": [0.0882352941, 3.0],
                                      "in_paper_top": [True, False], "word": ["a", None]}))
    assert table.rows == [["0.1", "0.0882", "True", "a"], ["2", "3", "False", ""]]
    assert table.right == [True, True, False, False]


def test_counts_add_up():
    total = Counts(within=1)
    total += Counts(within=2, beyond=3, paper_only=1)
    total.add(Verdict.BEYOND)
    total.add(None)
    total.add(Verdict.STAND_IN)
    assert total.as_dict() == {"compared": 7, "within": 3, "beyond": 4, "paper_only": 1,
                               "stand_in": 1}
