"""EQUATE's sets as Hugging Face dataset folders (reprobe.equate.exports, export_targets): each
folder loads with `datasets` offline, with the fields and rows of reprobe's own file."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import REPO, option_value, option_values
from reprobe.config import fill_defaults, load_yaml
from reprobe.equate.export_targets import EquateExports
from reprobe.equate.exports import FIELDS, export_set
from reprobe.equate.jsonl import read_pairs
from reprobe.equate.targets import EquateTargets
from reprobe.errors import InputFormatError

SAMPLES = REPO / "data/samples/equate"


def load(folder: Path):
    """The folder read back as the hub's `datasets` reads it."""
    import datasets

    return datasets.load_dataset(str(folder))


def test_a_released_set_loads_with_its_rows_and_features(tmp_path, hf_offline):
    pairs = SAMPLES / "rte_quant.jsonl"
    folder = tmp_path / "released-rte_quant"
    export_set(pairs, folder, variant="released", test_set="rte_quant", recovery=None,
               sources={"rte": {"url": "https://example.org/rte.jsonl", "sha256": "ab" * 32}})
    loaded = load(folder)
    rows = list(read_pairs(pairs))
    assert list(loaded) == ["test"] and loaded["test"].num_rows == len(rows)
    assert list(loaded["test"].features) == list(FIELDS)
    assert [row["gold_label"] for row in loaded["test"]] == [r["gold_label"] for r in rows]
    card = (folder / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\npretty_name: EQUATE rte_quant (released)")
    assert "ab" * 32 in card and "@inproceedings{ravichander" in card


def test_a_rebuilt_set_card_says_how_it_was_built_and_what_it_recovers(tmp_path, hf_offline):
    pairs = tmp_path / "newsnli.jsonl"
    pairs.write_text((SAMPLES / "rte_quant.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    Path(f"{pairs}.card.json").write_text(json.dumps(
        {"parameters": {"seed": 7}, "skipped": {"no number": 2},
         "sources": {"stories": {"path": "cnn.tgz", "sha256": "cd" * 32}}}), encoding="utf-8")
    recovery = tmp_path / "recovery.json"
    recovery.write_text(json.dumps({"released": 10, "recovered_exact": 7,
                                    "recovered_swapped": 1}), encoding="utf-8")
    folder = tmp_path / "rebuilt-newsnli"
    export_set(pairs, folder, variant="rebuilt", test_set="newsnli", recovery=recovery,
               sources={})
    card = (folder / "README.md").read_text(encoding="utf-8")
    assert '"seed": 7' in card and "Skipped 2: no number." in card and "cd" * 32 in card
    assert "Of the 10 released pairs, 7 are recovered exactly and 1 with premise" in card
    assert load(folder)["test"].num_rows == len(list(read_pairs(pairs)))


def test_a_bad_set_names_its_file_and_writes_nothing(tmp_path):
    pairs = tmp_path / "bad.jsonl"
    pairs.write_text('{"sentence1": "A", "sentence2": "B", "gold_label": "maybe"}\n',
                     encoding="utf-8")
    with pytest.raises(InputFormatError, match="bad.jsonl"):
        export_set(pairs, tmp_path / "out", variant="released", test_set="x", recovery=None,
                   sources={})
    assert not (tmp_path / "out").exists()


def test_every_evaluated_set_of_the_default_config_is_one_folder():
    config = load_yaml(REPO / "config/config.yaml")
    fill_defaults(config)
    targets = EquateTargets(config, lambda name: f"data/raw/{name}/extracted",
                            lambda name: f"data/raw/{name}/file")
    exports = EquateExports(targets, config["sources"])
    expected = [f"exports/equate/{variant}-{test_set}"
                for variant, names in targets.sets.items() for test_set in names
                if variant != "mnli"]  # Table 7's MultiNLI dev-matched is not exported
    assert exports.folders == expected and "exports/equate/rebuilt-newsnli" in expected
    rebuilt = exports.arguments(SimpleNamespace(dataset="rebuilt-newsnli"))
    assert option_value(rebuilt, "--recovery") == "data/processed/equate/recovery/newsnli.json"
    released = exports.arguments(SimpleNamespace(dataset="released-rte_quant"))
    assert option_values(released, "--recovery") == []
    assert json.loads(option_value(released, "--sources-json"))
    assert exports.inputs(SimpleNamespace(dataset="rebuilt-awpnli"))["pairs"] == \
        "data/processed/equate/rebuilt/awpnli.jsonl"
