"""`reprobe numeracy probe --vectors FILE`: any embedding probed in one process, without config,
writing the rows the workflow's steps write for it (reprobe.numeracy.vector_probe)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import gensim
import pandas as pd
import pytest

from reprobe.cli import main
from reprobe.numeracy.settings import ContrastiveRules, KnnSettings, VectorProbeSettings
from reprobe.step_settings import settings_from_schema

GENSIM_DATA = Path(gensim.__file__).parent / "test/test_data"
# Small fastText vectors that ship with gensim: 1,762 words, 33 Arabic and 16 English numerals.
LEE = GENSIM_DATA / "lee_fasttext.vec"
SEED = 7


def rows(path: Path) -> pd.DataFrame:
    """Score rows, sorted, for comparison whatever the order they were written in."""
    frame = pd.read_csv(path, dtype={"model": str, "setting": str, "metric": str})
    return frame.sort_values(["table", "setting", "metric"]).reset_index(drop=True)


@pytest.fixture(scope="module")
def one_command(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The score rows of the one command on gensim's vectors."""
    output = tmp_path_factory.mktemp("probe") / "scores.csv"
    assert main(["numeracy", "probe", "--vectors", str(LEE), "--seed", str(SEED),
                 "--output", str(output)]) == 0
    return output


def test_one_command_scores_every_table_of_an_embedding(one_command):
    scores = rows(one_command)
    assert set(scores["model"]) == {"lee_fasttext"}  # named after the file
    assert set(scores["table"]) == {"table1", "table2", "table3", "table6", "table7", "table8",
                                    "table9"}
    table1 = scores[scores["table"] == "table1"].set_index("metric")["value"]
    assert table1["arabic_count"] == 33 and table1["english_count"] == 16
    mag = scores[(scores["table"] == "table2") & (scores["setting"] == "cosine")]
    assert set(mag["metric"]) == {"OVA-MAG", "SC-MAG", "BC-MAG"} and set(mag["n"]) == {33}
    assert scores[scores["table"] == "table6"]["n"].tolist() == [33]


def test_one_command_writes_the_rows_of_the_workflows_steps(one_command, tmp_path):
    # The workflow's steps for an off-the-shelf model that alone shares its number sets.
    rules = json.dumps(dataclasses.asdict(settings_from_schema(ContrastiveRules, "numeracy")))
    knn = json.dumps(dataclasses.asdict(settings_from_schema(KnnSettings, "numeracy.knn")))
    kv, numerals = tmp_path / "m.kv", tmp_path / "m.tsv"
    steps = [
        ["vectors", "--input", str(LEE), "--output", str(kv)],
        ["numerals", "--vectors", str(kv), "--model", "lee_fasttext", "--output", str(numerals),
         "--scores", str(tmp_path / "t1.csv")],
        ["tests", "--kind", "mag", "--output-dir", str(tmp_path / "mag"), "--settings", rules,
         str(numerals)],
        ["tests", "--kind", "num", "--output-dir", str(tmp_path / "num"), "--settings", rules,
         str(numerals)],
        ["probe", "--vectors", str(kv), "--model", "lee_fasttext", "--role", "off_the_shelf",
         "--mag", str(tmp_path / "mag"), "--num", str(tmp_path / "num"), "--seed", str(SEED),
         "--output", str(tmp_path / "probe.csv")],
        ["knn", "--models", "lee_fasttext", "--vectors", str(kv), "--numerals", str(numerals),
         "--set-numerals", str(numerals), "--settings", knn, "--seed", str(SEED),
         "--output", str(tmp_path / "knn.csv")],
    ]
    for step in steps:
        assert main(["numeracy", *step]) == 0, step
    parts = [pd.read_csv(tmp_path / name) for name in ("t1.csv", "probe.csv", "knn.csv")]
    pd.concat(parts).to_csv(tmp_path / "workflow.csv", index=False)
    pd.testing.assert_frame_equal(rows(one_command), rows(tmp_path / "workflow.csv"))


def test_the_workflows_settings_and_a_kv_file_give_the_same_rows(one_command, tmp_path):
    # The workflow's numeracy_extra: the model's converted .kv, its name, the config's section.
    kv = tmp_path / "lee.kv"
    assert main(["numeracy", "vectors", "--input", str(LEE), "--output", str(kv)]) == 0
    settings = json.dumps(dataclasses.asdict(settings_from_schema(VectorProbeSettings,
                                                                  "numeracy")))
    output = tmp_path / "extra.csv"
    assert main(["numeracy", "probe", "--vectors", str(kv), "--format", "kv", "--model",
                 "lee_fasttext", "--settings", settings, "--seed", str(SEED),
                 "--output", str(output)]) == 0
    pd.testing.assert_frame_equal(rows(one_command), rows(output))
