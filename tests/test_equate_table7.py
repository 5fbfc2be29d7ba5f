"""Table 7: every row trained on MultiNLI beside the paper's dev-matched accuracy
(reprobe.equate.table7)."""

from __future__ import annotations

import pandas as pd
import pytest

from conftest import REPO
from reprobe.equate.evaluate import MNLI_METRIC, score_rows
from reprobe.equate.table7 import table7, write_table7
from reprobe.scores import write_scores
from reprobe.tables.compare import read_reference

REFERENCE = REPO / "config/reference/equate/table7.csv"


def scores(rows: dict[str, float]) -> pd.DataFrame:
    """Score rows of the `mnli` variant, one per model."""
    return pd.DataFrame([{"paper": "equate", "table": "table7", "model": model, "setting": "",
                          "metric": MNLI_METRIC, "value": value, "n": 9815}
                         for model, value in rows.items()])


def test_the_published_table_has_the_appendix_ten_rows():
    published = read_reference(REFERENCE, "table7").set_index("model")["value"]
    assert list(published.index) == ["HYP", "ALIGN", "CBOW", "BiLSTM", "CH", "SSEN",
                                     "InferSent", "ESIM", "GPT", "BERT"]
    assert published["ESIM"] == 76.2 and published["HYP"] == 53.18


def test_ours_sit_beside_the_papers_and_other_spellings_join():
    frame = table7(scores({"ESIM": 75.0, "NB": 74.0, "tiny-CBOW": 40.0}),
                   read_reference(REFERENCE, "table7"), beyond_paper=["tiny-CBOW"])
    rows = frame.set_index("model")
    assert rows.loc["ESIM", "value"] == 75 and rows.loc["ESIM", "delta"] == pytest.approx(-1.2)
    assert rows.loc["SSEN", "paper"] == pytest.approx(74.2)  # NB is SSEN
    assert rows.loc["CBOW", "value"] == "NA (not configured)"
    assert frame["model"].iloc[-1] == "tiny-CBOW (beyond the paper)"


def test_a_dev_score_row_is_a_table7_row():
    row, = score_rows(["entailment", "neutral"], ["entailment", "contradiction"],
                      model="ESIM", test_set="mnli_dev_matched", variant="mnli")
    assert (row.table, row.metric, row.value, row.n) == ("table7", MNLI_METRIC, 50.0, 2)


def test_written_in_the_papers_shape(tmp_path):
    path = tmp_path / "ESIM.csv"
    write_scores(score_rows(["neutral"], ["neutral"], model="ESIM",
                            test_set="mnli_dev_matched", variant="mnli"), path)
    write_table7([path], REFERENCE, tmp_path / "t7.csv", tmp_path / "t7.md")
    markdown = (tmp_path / "t7.md").read_text(encoding="utf-8")
    assert "Table 7" in markdown and "| ESIM" in markdown and "100 (76.2, +23.8)" in markdown
