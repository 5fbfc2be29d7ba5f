"""The paper-shaped Markdown view: rows = models, columns = sets, cells `ours (paper, Δ)`."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from reprobe.numeracy.tables import write_numeracy_table
from reprobe.scores import NOT_CONFIGURED, ScoreRow, score_frame, write_scores
from reprobe.tables.compare import compare_with_reference
from reprobe.tables.shape import View, cell_text, count_text, number_text, paper_view
from reprobe.tables.write import write_table

REFERENCE = Path(__file__).resolve().parents[1] / "config/reference"


def scores(*rows: tuple[str, str, str, float, int]) -> pd.DataFrame:
    """Table 2 score rows from (model, setting, metric, value, n)."""
    return score_frame(ScoreRow("numeracy", "table2", *row) for row in rows)


def reference(*rows: tuple[str, str, str, float, int]) -> pd.DataFrame:
    """Published Table 2 rows from (model, setting, metric, value, n)."""
    return pd.DataFrame([("table2", *row) for row in rows],
                        columns=["table", "model", "setting", "metric", "value", "n"])


def shaped(ours: pd.DataFrame, published: pd.DataFrame, **view: object) -> pd.DataFrame:
    """The paper view of a compared table, indexed by its first column."""
    table = compare_with_reference(ours, published, "table2")
    return paper_view(table, View(**view)).set_index("model")


def test_numbers_print_to_two_decimals_without_trailing_zeros():
    assert [number_text(v) for v in (7.7, 7.704, 120.0, "55.62", -0.001)] == [
        "7.7", "7.7", "120", "55.62", "0"]
    assert number_text(0.3, sign=True) == "+0.3" and number_text(-2, sign=True) == "-2"
    assert number_text(NOT_CONFIGURED) == NOT_CONFIGURED and number_text(None) == ""


def test_a_cell_is_ours_then_paper_and_difference():
    assert cell_text(8.0, 7.7, 0.3) == "8 (7.7, +0.3)"
    assert cell_text(7.7, 7.7, 0.0) == "7.7 (7.7, +0)"
    assert cell_text(8.0, None, None) == "8"
    assert cell_text(NOT_CONFIGURED, 7.7, None) == "NA (not configured); paper 7.7"
    assert cell_text(NOT_CONFIGURED, 7.7, None, reason_said=True) == "— (7.7)"


def test_counts_are_ours_then_papers_and_none_when_ours_vary():
    assert count_text([100, 100, None], [117, None]) == "100 (117)"
    assert count_text([None], [117]) == "— (117)"
    assert count_text([5], []) == "5"
    assert count_text([5, 6], [117]) is None and count_text([5], [117, 226]) is None


def test_rows_are_models_and_columns_metrics_in_the_given_order_with_a_count_row():
    ours = scores(("M", "cosine", "SC-MAG", 51.0, 90), ("M", "cosine", "OVA-MAG", 8.0, 90),
                  ("M", "random-choice", "OVA-MAG", 1.1, 90))
    published = reference(("M", "cosine", "OVA-MAG", 7.7, 2260),
                          ("M", "cosine", "SC-MAG", 55.62, 2260),
                          ("P", "cosine", "OVA-MAG", 9.0, 2260))
    view = shaped(ours, published, order=("OVA-MAG", "SC-MAG"), count_label="#tests")
    assert list(view.columns) == ["setting", "OVA-MAG", "SC-MAG"]
    assert view.loc["#tests"].tolist() == ["", "90 (2260)", "90 (2260)"]
    m = view.loc["M"].set_index("setting")
    assert m.loc["cosine"].tolist() == ["8 (7.7, +0.3)", "51 (55.62, -4.62)"]
    assert m.loc["random-choice"].tolist() == ["1.1", ""]
    # A model not run says so once, in its label; its cells keep the paper's numbers.
    assert view.loc[f"P — {NOT_CONFIGURED}"].tolist() == ["cosine", "— (9)", ""]


def test_counts_that_differ_between_models_go_in_a_column():
    ours = scores(("A", "cosine", "OVA-NUM", 1.0, 40), ("A", "cosine", "SC-NUM", 50.0, 40),
                  ("B", "cosine", "OVA-NUM", 2.0, 50), ("B", "cosine", "SC-NUM", 60.0, 50))
    view = shaped(ours, reference(("A", "cosine", "OVA-NUM", 0.85, 117)), count_label="#tests")
    # Every row has one setting: said once in a note, not as a column.
    assert list(view.columns) == ["#tests", "OVA-NUM", "SC-NUM"]
    assert view.loc["A", "#tests"] == "40 (117)" and view.loc["B", "#tests"] == "50"


def test_the_papers_counts_per_model_also_make_a_count_column():
    # Table 3: one numeration set per model; ours may agree by chance, the paper's do not.
    ours = scores(("A", "cosine", "OVA-NUM", 1.0, 4), ("B", "cosine", "OVA-NUM", 2.0, 4))
    published = reference(("A", "cosine", "OVA-NUM", 0.85, 117),
                          ("B", "cosine", "OVA-NUM", 0.44, 226))
    view = shaped(ours, published, count_label="#tests")
    assert view["#tests"].tolist() == ["4 (117)", "4 (226)"]


def test_counts_that_differ_every_way_go_in_the_cells():
    ours = scores(("A", "cosine", "OVA", 1.0, 40), ("A", "cosine", "SC", 50.0, 41),
                  ("B", "cosine", "OVA", 2.0, 50), ("B", "cosine", "SC", 60.0, 41))
    view = shaped(ours, reference())
    assert view.loc["A", "OVA"] == "1 n=40" and view.loc["B", "OVA"] == "2 n=50"
    assert view.loc["A", "SC"] == "50"  # one count per column: in the count row
    assert view.loc["n", "SC"] == "41"


def test_write_table_keeps_the_csv_long_and_shapes_the_markdown(tmp_path):
    ours = scores(("M", "cosine", "OVA-MAG", 8.0, 90), ("M", "cosine", "SC-MAG", 51.0, 90))
    table = compare_with_reference(ours, reference(("M", "cosine", "OVA-MAG", 7.7, 2260)),
                                   "table2")
    write_table(table, tmp_path / "t.csv", tmp_path / "t.md", "T", view=View(),
                notes=["A note."])
    assert len(pd.read_csv(tmp_path / "t.csv")) == 2
    md = (tmp_path / "t.md").read_text()
    assert md.startswith("# T\n") and "- A note." in md and "- All rows: setting = cosine." in md
    assert "| M       | 8 (7.7, +0.3) | 51       |" in md


@pytest.mark.parametrize("tie_break", ["smaller", "larger"])
def test_numeracy_tables_state_the_tie_break_and_the_test_counts(tmp_path, tie_break):
    path = tmp_path / "scores.csv"
    write_scores(scores(("gensim", "cosine", "OVA-MAG", 5.0, 300),
                        ("gensim", "cosine", "SC-MAG", 51.0, 300),
                        ("gensim", "cosine", "BC-MAG", 80.0, 300)), path)
    md = tmp_path / "table2.md"
    write_numeracy_table("table2", [path], REFERENCE / "numeracy/table2.csv",
                         tmp_path / "table2.csv", md, tie_break=tie_break,
                         exclude_equidistant=True, beyond_paper=[])
    text = md.read_text()
    assert f"`numeracy.tie_break: {tie_break}`" in text
    assert "| #tests " in text and "300 (2260)" in text
    header = next(line for line in text.splitlines() if line.startswith("| model"))
    assert header.index("OVA-MAG") < header.index("SC-MAG") < header.index("BC-MAG")
    assert "| gensim " in text and "| 5 " in text


def test_equate_table6_markdown_has_models_as_rows_and_sets_as_columns(tmp_path):
    from reprobe.equate.tables import write_table6

    rows = [ScoreRow("equate", "table6", model, "", name, value, 100)
            for model, values in {"MAJ": [57.8, 50.7], "GPT": [70.0, 65.0]}.items()
            for name, value in zip(["RTE-Q", "NewsNLI"], values, strict=True)]
    path = tmp_path / "scores.csv"
    write_scores(rows, path)
    write_table6([path], REFERENCE / "equate/table6_conll.csv", tmp_path / "t6.csv",
                 tmp_path / "t6.md")
    lines = (tmp_path / "t6.md").read_text().splitlines()
    header = next(line for line in lines if line.startswith("| model"))
    assert [c.strip() for c in header.split("|")[2:5]] == ["RTE-Q", "RTE-Q Δ", "NewsNLI"]
    gpt = next(line for line in lines if line.startswith("| GPT "))
    assert "70 (68.1, +1.9)" in gpt and "12.2 (10.3, +1.9)" in gpt
    assert any(line.startswith("| #pairs ") and "| 100 " in line for line in lines)
    assert any(line.startswith(f"| BERT — {NOT_CONFIGURED}") for line in lines)
    assert len(pd.read_csv(tmp_path / "t6.csv")) > len(lines)  # the CSV stays long


def test_no_count_on_either_side_gives_no_count_row():
    assert count_text([None], [None]) == ""
    table = pd.DataFrame({"model": ["M", "M"], "setting": ["s", "s"], "metric": ["a", "b"],
                          "n": [None, None], "value": [1.0, 2.0], "paper_n": [None, None],
                          "paper": [1.5, None], "delta": [-0.5, None]})
    view = paper_view(table, View(rows=("setting", "metric"), columns=("model",)))
    assert list(view["metric"]) == ["a", "b"]
