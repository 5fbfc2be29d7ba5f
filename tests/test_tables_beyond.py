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
