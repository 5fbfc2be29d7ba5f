"""Rows beyond the paper: one label, one place, one note for every stage."""

import pandas as pd

from reprobe.tables.beyond import BEYOND, beyond_note, beyond_row, is_beyond, mark_beyond_paper


def test_a_row_is_labelled_once():
    assert beyond_row("lee") == f"lee {BEYOND}"
    assert beyond_row(beyond_row("lee")) == f"lee {BEYOND}"
    assert is_beyond(beyond_row("lee")) and not is_beyond("lee")


def test_marked_rows_move_below_the_papers_rows_in_their_order():
    frame = pd.DataFrame({"model": ["mine", "BERT", "yours", "GPT"], "value": [1, 2, 3, 4]})
    marked = mark_beyond_paper(frame, ["yours", "mine"])
    assert list(marked["model"]) == ["BERT", "GPT", f"mine {BEYOND}", f"yours {BEYOND}"]
    assert list(marked["value"]) == [2, 4, 1, 3]
    assert list(frame["model"]) == ["mine", "BERT", "yours", "GPT"]


def test_a_row_already_labelled_also_moves_down():
    frame = pd.DataFrame({"model": [beyond_row("x"), "BERT"]})
    assert list(mark_beyond_paper(frame, [])["model"]) == ["BERT", beyond_row("x")]


def test_the_note_says_which_rows_and_that_the_paper_has_no_number():
    note = beyond_note("a person's models")
    assert note.startswith(f"Rows marked `{BEYOND}`: a person's models;")
    assert "no number" in note


def test_the_papers_models_are_every_model_its_long_csvs_name(tmp_path):
    from reprobe.tables.beyond import paper_models

    header = "table,model,setting,metric,value,n\n"
    (tmp_path / "table1.csv").write_text(header + "table1,A,,x,1,\ntable1,B,,x,2,\n")
    (tmp_path / "table2.csv").write_text(header + "table2,B,,y,3,\ntable2,C,,y,4,\n")
    (tmp_path / "README.md").write_text("not a table")
    assert paper_models(tmp_path) == {"A", "B", "C"}
    assert paper_models(tmp_path / "none") == set()
