"""Numeracy's contrastive tests as Hugging Face dataset folders (reprobe.numeracy.exports),
read back with `datasets` offline and checked against the test TSVs."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from reprobe.cli import main
from reprobe.errors import InputFormatError, ReprobeError
from reprobe.numeracy.contrastive import (
    build_magnitude_tests,
    build_numeration_tests,
    read_tests,
    write_tests,
)
from reprobe.numeracy.exports import export_number_set
from reprobe.numeracy.settings import ContrastiveRules

datasets = pytest.importorskip("datasets")

RULES = ContrastiveRules(tie_break="larger", ova_exclude_equidistant=True)
ARABIC = {"1": 1.0, "2": 2.0, "3": 3.0, "5": 5.0, "1,000": 1000.0, "1000": 1000.0}
ENGLISH = {"one": 1.0, "two": 2.0, "three": 3.0, "thousand": 1000.0, "nine": 9.0}
FEATURES = {"x": "string", "x_value": "float64", "x_plus": "string",
            "x_plus_value": "float64", "x_minus": "string", "x_minus_value": "float64",
            "excluded": "string"}


@pytest.fixture(autouse=True)
def offline(hf_offline: Path) -> None:
    """`datasets` reads local folders only (conftest's hf_offline)."""


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    """Magnitude and numeration test folders written by the workflow's own builders."""
    keywords = RULES.keywords()
    found = {"mag": tmp_path / "tests-mag", "num": tmp_path / "tests-num"}
    write_tests(build_magnitude_tests(ARABIC, **keywords), found["mag"])
    write_tests(build_numeration_tests(ARABIC, ENGLISH, **keywords), found["num"])
    return found


def test_a_number_set_loads_with_a_split_per_test(tmp_path: Path, folders) -> None:
    out = tmp_path / "retrained"
    export_number_set(folders, out, number_set="retrained", scope="retrained",
                      models=["GloVe-Num"], rules=RULES,
                      sources={"dump": {"path": "gensim package: enwiki.bz2", "sha256": "ab"}})
    loaded = datasets.load_dataset(str(out))
    assert list(loaded) == ["ova_mag", "sc_mag", "bc_mag", "ova_num", "sc_num", "bc_num"]
    for prop, folder in folders.items():
        ours = read_tests(folder)
        for kind in ("OVA", "SC", "BC"):
            rows = loaded[f"{kind.lower()}_{prop}"]
            assert {name: feature.dtype for name, feature in rows.features.items()} == FEATURES
            assert rows.num_rows == len(ours[kind])
            assert rows["x"] == ours[kind]["x"].tolist()
            assert rows["x_plus"] == ours[kind]["x_plus"].tolist()
            assert [m or "" for m in rows["x_minus"]] == ours[kind]["x_minus"].tolist()
        candidates = pq.read_table(out / "candidates" / f"{prop}.parquet").to_pandas()
        pd.testing.assert_frame_equal(candidates, ours["candidates"])
    # §2's example with tie_break larger: SC-MAG (3, 2, 5), x's value beside each token.
    sc = loaded["sc_mag"].to_pandas().set_index("x")
    assert sc.loc["3", ["x_plus", "x_minus", "x_minus_value"]].tolist() == ["2", "5", 5.0]
    num = loaded["ova_num"].to_pandas().set_index("x")
    assert num.loc["1000", ["x_value", "x_plus", "x_plus_value"]].tolist() == [
        1000.0, "thousand", 1000.0]
    assert num["x_minus"].isna().all()
    card = (out / "README.md").read_text()
    assert "`numeracy.tie_break: larger`" in card and "{naik-etal-2019" in card
    assert "gensim package: enwiki.bz2" in card and "no released version" in card


def test_the_step_leaves_out_a_kind_without_tests(tmp_path: Path, folders) -> None:
    (folders["num"] / "SC.tsv").write_text("x\tx_plus\tx_minus\n")
    out = tmp_path / "model"
    assert main(["numeracy", "export", "--number-set", "vec", "--scope", "model",
                 "--models", "vec", "--num", str(folders["num"]), "--settings",
                 json.dumps({"tie_break": "larger", "ova_exclude_equidistant": True}),
                 "--sources-json", "{}", "--output", str(out)]) == 0
    loaded = datasets.load_dataset(str(out))
    assert list(loaded) == ["ova_num", "bc_num"]
    assert "No tests of sc_num" in (out / "README.md").read_text()


def test_bad_test_files_name_the_file(tmp_path: Path, folders) -> None:
    (folders["mag"] / "BC.tsv").write_text("x\tx_plus\n1\t2\n")
    with pytest.raises(InputFormatError, match=r"BC\.tsv: header: missing columns"):
        export_number_set({"mag": folders["mag"]}, tmp_path / "out", number_set="s",
                          scope="model", models=["m"], rules=RULES, sources={})
    (folders["num"] / "SC.tsv").write_text("x\tx_plus\tx_minus\n1\tone\tseven\n")
    with pytest.raises(InputFormatError, match=r"SC\.tsv: line 2: 'seven' is neither"):
        export_number_set({"num": folders["num"]}, tmp_path / "out", number_set="s",
                          scope="model", models=["m"], rules=RULES, sources={})
    empty = tmp_path / "empty"
    write_tests(build_magnitude_tests({"1": 1.0}, **RULES.keywords()), empty)
    with pytest.raises(ReprobeError, match="empty: no tests"):
        export_number_set({"mag": empty}, tmp_path / "out", number_set="s", scope="model",
                          models=["m"], rules=RULES, sources={})
    assert not (tmp_path / "out").exists()
