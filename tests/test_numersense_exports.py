"""Tests for the NumerSense datasets as Hugging Face dataset folders and harness task files:
which folders a config exports and what each reads, the folders' rows and cards, the task
YAMLs, and every folder of a default run loaded back with `datasets`, offline."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from types import SimpleNamespace

import pyarrow.parquet as pq
import pytest
import yaml

from conftest import REPO, option_value, option_values
from reprobe.config import expand_sources, fill_defaults, load_yaml, raw_target_path
from reprobe.errors import InputFormatError, ReprobeError
from reprobe.numersense import harness_utils
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.causal import filled
from reprobe.numersense.export_targets import HARNESS, NumerSenseExports
from reprobe.numersense.exports import Inputs, export_dataset, read_sentences, split_name
from reprobe.numersense.harness import task_name, task_yaml, write_harness_tasks
from reprobe.numersense.probes import read_masked_tsv
from reprobe.numersense.targets import NumerSenseTargets

SAMPLES = REPO / "data" / "samples" / "numersense"
DEFAULT_SETS = ["rebuilt-core", "rebuilt-all", "rebuilt-train", "released-core",
                "released-all", "released-validation", "released-train", "released-sentences"]


def exports_of(config_name: str) -> NumerSenseExports:
    """The export targets of one of the shipped configs."""
    config = load_yaml(REPO / "config" / config_name)
    fill_defaults(config)
    sources = expand_sources(config)
    targets = NumerSenseTargets(config, lambda name: raw_target_path(name, sources[name]))
    return NumerSenseExports(targets, config["sources"])


class FunctionTagLoader(yaml.SafeLoader):
    """A YAML loader that reads the harness's `!function` tag as its text."""


FunctionTagLoader.add_constructor("!function", lambda loader, node: f"!{node.value}")


# -- what a config exports --------------------------------------------------------------------

def test_the_default_config_exports_every_set_and_the_tasks() -> None:
    exports = exports_of("config.yaml")
    assert list(exports.datasets) == DEFAULT_SETS
    assert exports.folders == [f"exports/numersense/{n}" for n in DEFAULT_SETS] + [HARNESS]
    assert exports.task_folders() == [f"exports/numersense/{n}" for n in (
        "rebuilt-core", "rebuilt-all", "released-core", "released-all", "released-validation")]


def test_the_released_tier_exports_the_released_test_sets_only() -> None:
    exports = exports_of("released.yaml")
    assert list(exports.datasets) == ["released-core", "released-all"]
    arguments = exports.arguments(SimpleNamespace(ns_export="released-all"))
    # Gold labels are configured there: the rows are the gold lines, nothing is compared.
    assert option_value(arguments, "--labels-from") == "gold"
    assert option_values(arguments, "--compare") == []
    sources = json.loads(option_value(arguments, "--sources-json"))
    assert set(sources) == {"numersense_test_all_masked", "numersense_test_all_labels"}
    assert all(spec["url"].startswith("https://") for spec in sources.values())


def test_each_export_reads_its_rows_its_record_and_its_twin() -> None:
    exports = exports_of("config.yaml")
    reads = {name: {option: read.path for option, read in exports.reads(name).items()}
             for name in exports.datasets}
    data = "data/processed/numersense"
    assert reads["rebuilt-core"] == {
        "probes": f"{data}/rebuilt/test.core.masked.tsv",
        "card_json": f"{data}/rebuilt/core.card.json",
        "categories": f"{data}/rebuilt/core.categories.tsv",
        "compare": "data/raw/numersense_core_sample/test.core.masked.txt",
        "compare_labels": "data/raw/numersense_core_labels_sample/test.core.labels.tsv"}
    # No gold for the all stand-in: the builder's labels give the rows.
    assert reads["released-all"]["labels"] == f"{data}/released/test.all.labelled.tsv"
    arguments = exports.arguments(SimpleNamespace(ns_export="released-all"))
    assert option_value(arguments, "--labels-from") == "builder"
    assert reads["released-validation"]["compare"] == f"{data}/rebuilt/test.core.masked.tsv"
    assert reads["released-sentences"]["compare"] == f"{data}/rebuilt/train.masked.tsv"
    inputs = exports.inputs(SimpleNamespace(ns_export="rebuilt-all"))
    assert "data/raw/numersense_conceptnet_sample/conceptnet_sample.csv" in inputs


def test_a_dataset_name_is_a_variant_and_a_set() -> None:
    assert split_name("released-sentences") == ("released", "sentences")
    for bad in ("rebuilt", "authors-core", "rebuilt-test"):
        with pytest.raises(ReprobeError, match="--dataset"):
            split_name(bad)
    assert task_name("released-core") == "numersense_core"
    assert task_name("rebuilt-all") == "numersense_rebuilt_all"
    with pytest.raises(ReprobeError, match="probe sets"):
        task_name("released-train")


# -- the folders ------------------------------------------------------------------------------

def test_a_released_set_has_one_row_per_gold_line(tmp_path: Path) -> None:
    probes = SAMPLES / "released/test.core.masked.txt"
    gold = SAMPLES / "released/test.core.labels.tsv"
    rows = export_dataset("released-core", Inputs(probes, gold, "gold"), tmp_path / "out",
                          {"core": {"file": str(probes), "path": "samples/core.txt"}})
    table = pq.read_table(tmp_path / "out/data/test.parquet")
    expected = read_masked_tsv(gold, frozenset(CANDIDATES))
    assert rows == table.num_rows == len(expected)
    assert table.column("probe").to_pylist() == [p.probe for p in expected]
    assert table.column("label").to_pylist() == [p.label for p in expected]
    card = (tmp_path / "out/README.md").read_text(encoding="utf-8")
    assert "license: mit" in card and "numersense.gold" in card and "EMNLP" in card
    assert "samples/core.txt" in card and "local paths" in card


def test_fine_tuning_rows_get_their_sentence_and_plain_sentences_a_train_split(
        tmp_path: Path) -> None:
    train = SAMPLES / "released/train.masked.tsv"
    export_dataset("released-train", Inputs(train), tmp_path / "train", {})
    table = pq.read_table(tmp_path / "train/data/train.parquet")
    assert table.column_names == ["probe", "label", "sentence"]
    first = table.slice(0, 1).to_pylist()[0]
    assert first["sentence"] == filled(first["probe"], first["label"])
    sentences = SAMPLES / "released/gkb_best_filtered.txt"
    rebuilt = tmp_path / "rebuilt.tsv"
    rebuilt.write_text("A tricycle rolls on <mask> wheels.\tthree\n", encoding="utf-8")
    export_dataset("released-sentences", Inputs(sentences, compare=rebuilt),
                   tmp_path / "sentences", {})
    assert pq.read_table(tmp_path / "sentences/data/train.parquet").num_rows == len(
        read_sentences(sentences))
    assert "1 are also among the 1 distinct" in (tmp_path / "sentences/README.md").read_text()


def test_a_set_without_labelled_rows_is_an_error_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "none.tsv").write_text("", encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"none\.tsv: whole file: no labelled probe"):
        export_dataset("released-all", Inputs(SAMPLES / "released/test.all.masked.txt",
                                              tmp_path / "none.tsv", "builder"),
                       tmp_path / "out", {})
    assert not (tmp_path / "out").exists()


def test_bad_input_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("a car has <mask> wheels.\tfour\na cat has <mask> legs.\tdozen\n")
    with pytest.raises(InputFormatError, match=r"bad\.tsv: line 2"):
        export_dataset("released-validation", Inputs(bad), tmp_path / "out", {})
    categories = tmp_path / "categories.tsv"
    categories.write_text("probe\tlabel\tcategory\n", encoding="utf-8")
    good = tmp_path / "good.tsv"
    good.write_text("a car has <mask> wheels.\tfour\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="categories.tsv: whole file: 0 categories"):
        export_dataset("rebuilt-core", Inputs(good, categories=categories), tmp_path / "o", {})


# -- the harness tasks ------------------------------------------------------------------------

def test_harness_utils_is_standalone_and_holds_reprobe_s_candidates() -> None:
    assert harness_utils.CANDIDATES == CANDIDATES
    tree = ast.parse(Path(harness_utils.__file__).read_text(encoding="utf-8"))
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names]
    imported += [node.module or "" for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom)]
    # `datasets` only inside the task's loader: the harness needs it anyway.
    assert sorted(imported) == ["__future__", "datasets", "pathlib"]
    probe = "<mask> wheels make a car stable. "
    doc = {"probe": probe, "label": "four"}
    assert harness_utils.sentence_choices(doc) == [filled(probe, w) for w in CANDIDATES]
    # Ties keep the candidates' order; hit@k counts the gold among the top k.
    results = [(-1.0, False)] * 12
    assert harness_utils.process_results({"probe": probe, "label": "zero"}, results) == {
        "hit@1": 0.0, "hit@2": 1.0, "hit@3": 1.0}


def test_a_task_yaml_names_its_folder_relative_to_the_task_folder(tmp_path: Path) -> None:
    text = task_yaml("numersense_core", tmp_path / "released-core", tmp_path / "lm_eval")
    task = yaml.load(text, Loader=FunctionTagLoader)  # noqa: S506 (a SafeLoader subclass)
    assert "dataset_path" not in task
    assert task["dataset_kwargs"] == {"dataset_folder": "../released-core"}
    assert task["custom_dataset"] == "!utils.exported_dataset"
    assert task["target_delimiter"] == "" and task["output_type"] == "multiple_choice"
    assert task["doc_to_choice"] == "!utils.sentence_choices"
    assert [m["metric"] for m in task["metric_list"]] == ["hit@1", "hit@2", "hit@3"]


def test_tasks_are_written_with_utils_and_a_readme(tmp_path: Path) -> None:
    gold = SAMPLES / "released/test.core.labels.tsv"
    export_dataset("released-core", Inputs(SAMPLES / "released/test.core.masked.txt", gold,
                                           "gold"), tmp_path / "released-core", {})
    export_dataset("released-validation", Inputs(SAMPLES / "released/validation.masked.tsv"),
                   tmp_path / "released-validation", {})
    names = write_harness_tasks([tmp_path / "released-core", tmp_path / "released-validation"],
                                tmp_path / "tasks")
    assert names == ["numersense_core", "numersense_validation"]
    assert sorted(p.name for p in (tmp_path / "tasks").iterdir()) == [
        "README.md", "numersense_core.yaml", "numersense_validation.yaml", "utils.py"]
    assert (tmp_path / "tasks/utils.py").read_text() == Path(harness_utils.__file__).read_text()
    with pytest.raises(ReprobeError, match="rebuilt-core: no data/test.parquet"):
        write_harness_tasks([tmp_path / "rebuilt-core"], tmp_path / "t2")


# -- a default run's folders, read back with `datasets` ---------------------------------------

def expected_rows(workdir: Path, reads: dict[str, str], set_name: str) -> dict[str, list]:
    """A dataset's columns as reprobe's own readers give them from the workflow's files."""
    if set_name == "sentences":
        return {"sentence": read_sentences(workdir / reads["probes"])}
    source = workdir / reads.get("labels", reads["probes"])
    probes = read_masked_tsv(source, frozenset(CANDIDATES), may_be_empty=True)
    columns = {"probe": [p.probe for p in probes], "label": [p.label for p in probes]}
    if set_name == "train":
        columns["sentence"] = [filled(p.probe, p.label) for p in probes]
    if "categories" in reads:
        lines = (workdir / reads["categories"]).read_text(encoding="utf-8").splitlines()[1:]
        columns["category"] = [line.split("\t")[2] for line in lines if line.strip()]
    return columns


def test_every_exported_folder_loads_offline_with_datasets(
        default_run: Path, hf_offline: Path) -> None:
    datasets = pytest.importorskip("datasets")
    exports = exports_of("config.yaml")
    for name, (_, set_name) in exports.datasets.items():
        folder = default_run / "exports/numersense" / name
        loaded = datasets.load_dataset(str(folder), cache_dir=str(hf_offline))
        split = "train" if set_name in ("train", "sentences") else "test"
        assert list(loaded) == [split], name
        reads = {option: read.path for option, read in exports.reads(name).items()}
        expected = expected_rows(default_run, reads, set_name)
        assert {k: v.dtype for k, v in loaded[split].features.items()} == dict.fromkeys(
            expected, "string"), name
        assert loaded[split].num_rows == len(next(iter(expected.values()))) > 0, name
        assert loaded[split].to_dict() == expected, name
    tasks = default_run / HARNESS
    assert sorted(p.name for p in tasks.glob("*.yaml")) == [
        "numersense_all.yaml", "numersense_core.yaml", "numersense_rebuilt_all.yaml",
        "numersense_rebuilt_core.yaml", "numersense_validation.yaml"]
    task = yaml.load((tasks / "numersense_core.yaml").read_text(), Loader=FunctionTagLoader)  # noqa: S506
    released_core = default_run / "exports/numersense/released-core"
    assert (tasks / task["dataset_kwargs"]["dataset_folder"]).resolve() == released_core.resolve()
