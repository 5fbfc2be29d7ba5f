"""Tests for NumerSense's Table 2, Table 3 and Figure 3 against hand-made numbers."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from reprobe.errors import InputFormatError
from reprobe.numersense.evaluate import PredictionLine
from reprobe.numersense.probes import LabelledProbe
from reprobe.numersense.score import convention_rows
from reprobe.numersense.tables import (
    BEYOND_PAPER_NOTE,
    NO_PROBES,
    NOT_RUN,
    category_rows,
    metric_order,
    one_convention,
    read_categories,
    table2,
    table3,
    write_figure3,
    write_table2,
    write_table2_conventions,
    write_table3,
)
from reprobe.scores import score_frame, write_scores

REFERENCE = pd.DataFrame([
    ("table2", "BERT-Base", "", "core hit@1", 31.98, 1131),
    ("table2", "BERT-Base", "", "all hit@1", 25.24, 3145),
    ("table2", "Human Bound (closed-book)", "", "core hit@1", 89.7, None),
], columns=["table", "model", "setting", "metric", "value", "n"])
RANKED = [("four", 0.5), ("two", 0.3), ("no", 0.1), ("zero", 0.05), ("six", 0.05)]


def hit_rows(row: str, test_set: str, gold: list[LabelledProbe],
             predictions: dict[str, list[tuple[str, float]]], convention: str) -> pd.DataFrame:
    """One row's score rows on one set under one convention, as Table 2 reads them."""
    lines = [PredictionLine(p, r) for p, r in predictions.items()]
    return one_convention(score_frame(convention_rows(row, test_set, gold, lines)), convention)


def test_hit_rows_score_a_set_and_count_its_probes() -> None:
    gold = [LabelledProbe("a <mask> b", "two"), LabelledProbe("c <mask> d", "four")]
    rows = hit_rows("M", "core", gold, {"a <mask> b": RANKED, "c <mask> d": RANKED}, "official")
    assert list(zip(rows["metric"], rows["value"], rows["n"], strict=True)) == [
        ("core hit@1", 50.0, 2), ("core hit@2", 100.0, 2), ("core hit@3", 100.0, 2)]


def test_table2_sets_ours_beside_the_paper_in_column_order() -> None:
    gold = [LabelledProbe("a <mask> b", "four")]
    ours = pd.concat([hit_rows("BERT-Base", "all", gold, {"a <mask> b": RANKED}, "official"),
                      hit_rows("BERT-Base", "core", gold, {"a <mask> b": RANKED}, "official")],
                     ignore_index=True)
    table = table2(ours, REFERENCE)
    bert = table[table["model"] == "BERT-Base"]
    assert list(bert["metric"]) == [m for m in metric_order() if m in set(bert["metric"])]
    core1 = bert[bert["metric"] == "core hit@1"].iloc[0]
    assert (core1["value"], core1["paper"], core1["delta"]) == (100, 31.98, 68.02)
    human = table[table["model"].str.startswith("Human")].iloc[0]
    assert human["value"] == NOT_RUN


def test_a_set_without_labelled_probes_says_so() -> None:
    ours = hit_rows("BERT-Base", "core", [], {}, "official")
    table = table2(ours, REFERENCE)
    cell = table[(table["model"] == "BERT-Base") & (table["metric"] == "core hit@2")]
    assert cell.iloc[0]["value"] == NO_PROBES


def test_table3_keeps_our_top_three_and_the_papers_words() -> None:
    template = "a [x] usually has <mask> legs."
    words = ["four", "two", "three", "six", "no"]
    ours = pd.DataFrame({"model": "BERT-Large", "template": template, "rank": range(1, 6),
                         "word": words, "mean_softmax_percent": [40, 20, 10, 5, 1],
                         "n_words": 50})
    reference = pd.DataFrame([("table3", "BERT-Large", template, "four", 39.3, 1000),
                              ("table3", "BERT-Large", template, "no", 2.0, 1000)],
                             columns=["table", "model", "setting", "metric", "value", "n"])
    table = table3(ours, reference)
    assert list(table["metric"]) == ["four", "two", "three", "no"]
    assert table.iloc[0]["delta"] == 0.7


def test_category_rows_score_each_category_and_leave_empty_ones_nan() -> None:
    categorised = [(LabelledProbe("a <mask> b", "four"), "objects"),
                   (LabelledProbe("c <mask> d", "two"), "objects")]
    rows = category_rows(categorised, {"M": {"a <mask> b": RANKED, "c <mask> d": RANKED}},
                         "official")
    by_category = {r.setting: r for r in rows}
    assert (by_category["objects"].value, by_category["objects"].n) == (50.0, 2)
    assert math.isnan(by_category["math"].value) and by_category["math"].n == 0


def test_figure3_writes_csv_markdown_and_png(tmp_path: Path) -> None:
    categories = tmp_path / "categories.tsv"
    categories.write_text("probe\tlabel\tcategory\na <mask> b\tfour\tobjects\n"
                          "c <mask> d\ttwo\tgeometry\n", encoding="utf-8")
    predictions = tmp_path / "m.jsonl"
    predictions.write_text("".join(json.dumps(
        {"probe": p, "result_list": [{"word": w, "score": s} for w, s in RANKED]}) + "\n"
        for p in ("a <mask> b", "c <mask> d")), encoding="utf-8")
    reference = tmp_path / "reference.csv"
    reference.write_text("table,model,setting,metric,value,n\n"
                         "figure3,Human (closed-book),objects,hit@1,93.88,\n", encoding="utf-8")
    csv, png = tmp_path / "figure3.csv", tmp_path / "figure3.png"
    write_figure3(categories, {"M": predictions}, reference, csv, png, "official",
                  beyond_paper_rows=["M"])
    table = pd.read_csv(csv)
    # M is a model the paper did not test: labelled so, after the paper's human row.
    assert list(dict.fromkeys(table["model"])) == ["Human (closed-book)",
                                                   "M (beyond the paper)"]
    objects = table[(table["model"] == "M (beyond the paper)")
                    & (table["setting"] == "objects")].iloc[0]
    assert float(objects["value"]) == 100
    human = table[table["model"] == "Human (closed-book)"].iloc[0]
    # The CSV: a number or nothing in `value`, the reason in `note`, the paper's as
    # `paper_value`, and no verdict without a number of ours.
    assert pd.isna(human["value"]) and human["note"] == NOT_RUN
    assert human["paper_value"] == 93.88 and pd.isna(human["within_tolerance"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    markdown = (tmp_path / "figure3.md").read_text(encoding="utf-8")
    assert markdown.startswith("# Figure 3") and BEYOND_PAPER_NOTE in markdown


def test_a_malformed_categories_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "categories.tsv"
    path.write_text("probe\tlabel\tcategory\na <mask> b\tfour\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="line 2"):
        read_categories(path)


def scored_rows(tmp_path: Path, rows: list[str]) -> list[Path]:
    """Score files of rows that each rank the one core probe's label first, as the probe job
    writes them (every convention)."""
    gold = [LabelledProbe("a <mask> b", "four")]
    files = []
    for number, row in enumerate(rows):
        path = tmp_path / f"scores{number}.csv"
        write_scores(convention_rows(row, "core", gold, [PredictionLine("a <mask> b", RANKED)]),
                     path)
        files.append(path)
    return files


BEYOND = ["tiny-BERT", "tiny-BERT (clean)", "Ft. tiny-BERT"]


def test_table2_puts_models_beyond_the_paper_last_labelled_with_a_note(tmp_path: Path) -> None:
    scores = scored_rows(tmp_path, ["tiny-BERT", "BERT-Base", "tiny-BERT (clean)",
                                    "Ft. tiny-BERT", "BERT-Base (clean)"])
    reference = tmp_path / "reference.csv"
    REFERENCE.to_csv(reference, index=False)
    csv, md = tmp_path / "table2.csv", tmp_path / "table2.md"
    write_table2(scores, reference, csv, md, "rebuilt", "none", beyond_paper_rows=BEYOND)
    models = list(dict.fromkeys(pd.read_csv(csv)["model"]))
    # The paper's models, their clean rows and its human bound first, as they came; then ours.
    assert models == ["BERT-Base", "BERT-Base (clean)", "Human Bound (closed-book)",
                      "tiny-BERT (beyond the paper)", "tiny-BERT (clean) (beyond the paper)",
                      "Ft. tiny-BERT (beyond the paper)"]
    markdown = md.read_text(encoding="utf-8")
    assert BEYOND_PAPER_NOTE in markdown
    assert markdown.index("| BERT-Base ") < markdown.index("| tiny-BERT (beyond the paper)")

    write_table2_conventions(scores, tmp_path / "c.csv", tmp_path / "c.md",
                             beyond_paper_rows=BEYOND)
    conventions = pd.read_csv(tmp_path / "c.csv")
    assert list(dict.fromkeys(conventions["model"]))[2:] == [
        "tiny-BERT (beyond the paper)", "tiny-BERT (clean) (beyond the paper)",
        "Ft. tiny-BERT (beyond the paper)"]
    assert BEYOND_PAPER_NOTE in (tmp_path / "c.md").read_text(encoding="utf-8")


def test_a_table_of_the_papers_models_has_no_row_beyond_it(tmp_path: Path) -> None:
    reference = tmp_path / "reference.csv"
    REFERENCE.to_csv(reference, index=False)
    csv, md = tmp_path / "table2.csv", tmp_path / "table2.md"
    write_table2(scored_rows(tmp_path, ["BERT-Base"]), reference, csv, md, "rebuilt", "none",
                 beyond_paper_rows=BEYOND)
    assert not pd.read_csv(csv)["model"].str.contains("beyond the paper").any()
    assert BEYOND_PAPER_NOTE not in md.read_text(encoding="utf-8")


def test_table3_puts_models_beyond_the_paper_after_its_rows(tmp_path: Path) -> None:
    template = "a [x] usually has <mask> legs."
    results = []
    for model in ("tiny-BERT", "BERT-Large"):
        path = tmp_path / f"{model}.csv"
        pd.DataFrame({"model": model, "template": template, "rank": [1, 2],
                      "word": ["four", "two"], "mean_softmax_percent": [40, 20],
                      "n_words": 50}).to_csv(path, index=False)
        results.append(path)
    reference = tmp_path / "reference.csv"
    pd.DataFrame([("table3", "BERT-Large", template, "four", 39.3, 1000)],
                 columns=["table", "model", "setting", "metric", "value", "n"]).to_csv(
        reference, index=False)
    csv, md = tmp_path / "table3.csv", tmp_path / "table3.md"
    write_table3(results, reference, csv, md, beyond_paper_rows=BEYOND)
    assert list(dict.fromkeys(pd.read_csv(csv)["model"])) == [
        "BERT-Large", "tiny-BERT (beyond the paper)"]
    markdown = md.read_text(encoding="utf-8")
    assert BEYOND_PAPER_NOTE in markdown
    assert markdown.index("| BERT-Large ") < markdown.index("| tiny-BERT (beyond the paper)")
