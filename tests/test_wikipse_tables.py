"""Tests for reprobe.wikipse.tables: the released splits' statistics beside the paper's."""

from __future__ import annotations

import pandas as pd

from reprobe.config import CHECKOUT
from reprobe.wikipse.resource.release import read_split
from reprobe.wikipse.tables import released_stats_rows, write_released_stats_table


def test_released_stats_count_each_reading(tmp_path):
    train = tmp_path / "train.tsv"
    # `a` lists one class twice (two entries, one class): multi-class for the authors only.
    train.write_text("a\t-person=3 -person=1\nb\t-location=2\nc\t-person=1 -location=1\n")
    split = read_split(train)
    authors = {(r.setting, r.metric): r.value for r in released_stats_rows({"train": split},
                                                                          "authors")}
    paper = {(r.setting, r.metric): r.value for r in released_stats_rows({"train": split},
                                                                        "paper")}
    assert authors[("train", "words")] == 3 and authors[("train", "multi-class words")] == 2
    assert paper[("train", "multi-class words")] == 1
    assert paper[("train", "mean S-classes per word")] == 4 / 3


def test_the_table_keeps_the_split_rows_of_the_paper(tmp_path):
    train = tmp_path / "train.tsv"
    train.write_text("a\t-person=3\n")
    rows = released_stats_rows({"train": read_split(train)}, "authors")
    csv, md = tmp_path / "t.csv", tmp_path / "t.md"
    write_released_stats_table(rows, "authors", CHECKOUT / "config/reference/wikipse/stats.csv",
                               csv, md)
    table = pd.read_csv(csv)
    assert set(table["setting"]) == {"train"} and "ambiguity reading `authors`" in md.read_text()
