"""A dataset as a Hugging Face dataset folder (reprobe.hf_dataset): the card's header names
each split's file, columns and size; splits must agree on their columns."""

from __future__ import annotations

import re

import pandas as pd
import pyarrow as pa
import pytest
import yaml

from conftest import REPO
from reprobe.hf_dataset import (
    DatasetCard,
    card_header,
    card_path,
    feature,
    write_dataset_folder,
)

CARD = DatasetCard(pretty_name="Toy", summary="A toy set.", license="cc-by-4.0",
                   licence_note="CC BY 4.0.", task_categories=("fill-mask",),
                   citation="@misc{toy}", built=("made by hand",),
                   sources={"s": {"url": "https://example.org/s", "sha256": "00" * 32}})


def test_column_types_are_the_hubs():
    assert feature(pa.string()) == {"dtype": "string"}
    assert feature(pa.int64()) == {"dtype": "int64"}
    assert feature(pa.list_(pa.string())) == {"sequence": "string"}
    with pytest.raises(ValueError, match="no dataset card type"):
        feature(pa.date32())


def test_the_folder_holds_a_parquet_file_per_split_and_a_card(tmp_path):
    splits = {"train": pd.DataFrame({"word": ["a", "b"], "n": [1, 2]}),
              "test": pd.DataFrame({"word": ["c"], "n": [3]})}
    write_dataset_folder(tmp_path / "toy", splits, CARD)
    assert sorted(p.name for p in (tmp_path / "toy/data").iterdir()) == ["test.parquet",
                                                                          "train.parquet"]
    text = (tmp_path / "toy/README.md").read_text(encoding="utf-8")
    header = yaml.safe_load(text.split("---\n")[1])
    assert header["configs"][0]["data_files"] == [
        {"split": "train", "path": "data/train.parquet"},
        {"split": "test", "path": "data/test.parquet"}]
    assert [s["num_examples"] for s in header["dataset_info"]["splits"]] == [2, 1]
    assert header["dataset_info"]["features"] == [{"name": "word", "dtype": "string"},
                                                  {"name": "n", "dtype": "int64"}]
    assert "00" * 32 in text and "@misc{toy}" in text and "- made by hand" in text


def test_splits_with_other_columns_or_none_are_refused(tmp_path):
    with pytest.raises(ValueError, match="split test has columns"):
        write_dataset_folder(tmp_path / "x", {"train": pd.DataFrame({"a": [1]}),
                                              "test": pd.DataFrame({"b": [1]})}, CARD)
    with pytest.raises(ValueError, match="split test has no rows"):
        write_dataset_folder(tmp_path / "z", {"test": pd.DataFrame({"a": []})}, CARD)
    with pytest.raises(ValueError, match="at least one split"):
        write_dataset_folder(tmp_path / "y", {}, CARD)
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_the_header_is_the_cards():
    header = card_header(CARD, {"test": pa.table({"a": ["x"]})})
    assert (header["license"], header["task_categories"]) == ("cc-by-4.0", ["fill-mask"])


def rule_outputs(text: str) -> dict[str, str]:
    """Each rule of a .smk text's `output:` block, by rule name."""
    found = {}
    for match in re.finditer(r"^rule (\w+):\n(.*?)(?=^\S|\Z)", text, re.M | re.S):
        block = re.search(r"^    output:\n((?:        .*\n)+)", match[2], re.M)
        found[match[1]] = block[1] if block else ""
    return found


def test_export_rules_output_the_card_so_no_snakemake_marker_lands_in_a_dataset():
    outputs = {name: block for path in (REPO / "workflow/rules").glob("*.smk")
               for name, block in rule_outputs(path.read_text(encoding="utf-8")).items()
               if name.endswith(("_export", "_harness_tasks"))}
    assert len(outputs) == 7, sorted(outputs)
    for name, block in outputs.items():
        assert "directory(" not in block and "/README.md" in block, (name, block)


def test_card_path_names_the_folders_readme():
    assert card_path("exports/equate/lm_eval") == "exports/equate/lm_eval/README.md"
