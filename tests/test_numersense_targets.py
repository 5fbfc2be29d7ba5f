"""Tests for what the NumerSense rules read and which rows, sets and tables a config asks for."""

from __future__ import annotations

import copy
import shlex
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from reprobe.config import CHECKOUT, fill_defaults, schema_errors
from reprobe.errors import ConfigError
from reprobe.numersense.targets import (
    DATA,
    MODELS,
    TABLES,
    NumerSenseTargets,
    evaluation_sets,
    model_type,
    slug,
    table_rows,
)

DEFAULTS = {"released": {}, "released_predictions": {},
            "builder": {"min_tokens": 4, "max_tokens": 25, "non_numeric_phrases": ["no one"],
                        "lexicon": {}},
            "adversarial": {"relations": {"HasProperty": "any"}, "min_weight": 1.0,
                            "variants": 2},
            "finetune": {"rows": {}, "train_set": "rebuilt", "epochs": 3, "batch_size": 64,
                         "max_length": 64, "lr": 5e-5, "seed": 42},
            "templates": {"words": 1000, "models": None},
            "no_zero": "official", "batch_size": 32, "device": "cpu", "precision": None}


def raw_target(name: str) -> str:
    """A stand-in for the workflow's raw_target."""
    return f"data/raw/{name}/{name}.txt"


def config(**numersense: object) -> dict:
    """A numersense config with the schema's defaults filled in."""
    section = copy.deepcopy(DEFAULTS)
    section.update({"inputs": {"omcs": {"source": "omcs"}, "conceptnet": {"source": "cn"},
                               "generics": {"source": "gkb"}},
                    "models": {"tiny-BERT": {"tiny": {"kind": "bert"}},
                               "GPT-2": {"hub": "gpt2", "type": "causal"}}})
    section.update(numersense)
    return {"numersense": section}


def wildcards(**values: str) -> SimpleNamespace:
    """Snakemake-like wildcards."""
    return SimpleNamespace(**values)


def test_model_type_comes_from_the_tiny_kind_or_the_spec() -> None:
    assert model_type({"tiny": {"kind": "gpt2"}}) == "causal"
    assert model_type({"tiny": {"kind": "roberta"}}) == "masked"
    assert model_type({"hub": "gpt2", "type": "causal"}) == "causal"
    assert model_type({"path": "models/x"}) == "masked"


def test_table_rows_list_models_then_fine_tuned_rows_by_slug() -> None:
    section = config(finetune={**DEFAULTS["finetune"], "rows": {"Ft. tiny-BERT": "tiny-BERT"}})
    rows = table_rows(section["numersense"])
    assert rows == {"tiny-BERT": ("tiny-BERT", "masked"), "GPT-2": ("GPT-2", "causal"),
                    "Ft.-tiny-BERT": ("Ft. tiny-BERT", "masked")}
    assert slug("Ft. RoBERTa-L.") == "Ft.-RoBERTa-L."


def test_evaluation_sets_are_rebuilt_always_and_released_as_configured() -> None:
    assert evaluation_sets({}) == {"rebuilt": ["core", "all"], "released": []}
    assert evaluation_sets({"validation": {}, "core": {}}) == {
        "rebuilt": ["core", "all"], "released": ["core", "validation"]}


@pytest.mark.parametrize(("change", "message"), [
    ({"finetune": {**DEFAULTS["finetune"], "rows": {"Ft.": "nobody"}}}, "no model row"),
    ({"finetune": {**DEFAULTS["finetune"], "rows": {"Ft.": "GPT-2"}}}, "not a masked LM"),
    ({"finetune": {**DEFAULTS["finetune"], "train_set": "released"}}, "released.train"),
    ({"templates": {"words": 10, "models": ["GPT-2"]}}, "not a masked-LM row"),
    ({"models": {"a b": {"hub": "x"}, "a-b": {"hub": "y"}}}, "clash"),
    ({"models": {"t": {"tiny": {"kind": "gpt2"}, "type": "masked"}}}, "is causal"),
])
def test_bad_model_settings_name_the_key(change: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        NumerSenseTargets(config(**change), raw_target)


def test_tables_follow_what_is_configured() -> None:
    bare = NumerSenseTargets(config(), raw_target)
    assert bare.tables == [f"{TABLES}/filters.csv", f"{TABLES}/table2_rebuilt.csv",
                           f"{TABLES}/figure3.csv", f"{TABLES}/figure3.png",
                           f"{TABLES}/table3.csv"]
    released = NumerSenseTargets(config(released={"core": {"source": "core"}}), raw_target)
    assert f"{TABLES}/table2_released.csv" in released.tables
    assert f"{TABLES}/overlap.csv" in released.tables
    no_templates = NumerSenseTargets(config(templates={"words": 5, "models": []}), raw_target)
    assert f"{TABLES}/table3.csv" not in no_templates.tables


def test_released_core_is_scored_against_the_recovered_labels() -> None:
    targets = NumerSenseTargets(config(released={"core": {"source": "core"},
                                                 "validation": {"source": "val"}}), raw_target)
    core = targets.probe_reads("released", "core")
    assert core["probes"].path == raw_target("core")
    assert core["gold"].path == f"{DATA}/released/test.core.labelled.tsv"
    validation = targets.probe_reads("released", "validation")
    assert validation["probes"] == validation["gold"]
    rebuilt = targets.probe_reads("rebuilt", "all")
    assert rebuilt["gold"].path == f"{DATA}/rebuilt/test.all.masked.tsv"


def test_one_probe_job_per_row_scores_every_set() -> None:
    targets = NumerSenseTargets(config(released={"validation": {"source": "val"}}), raw_target)
    assert targets.variant_sets() == [("rebuilt", "core"), ("rebuilt", "all"),
                                      ("released", "validation")]
    assert targets.score_outputs()[0] == "results/numersense/scores/rebuilt/core/{ns_model}.csv"
    tiny = targets.probe_inputs(wildcards(ns_model="tiny-BERT"))
    assert tiny["model"] == f"{MODELS}/tiny-BERT"
    assert tiny["sets"] == [f"{DATA}/rebuilt/test.core.masked.tsv",
                            f"{DATA}/rebuilt/test.all.masked.tsv", raw_target("val")]
    assert "model" not in targets.probe_inputs(wildcards(ns_model="GPT-2"))
    arguments = shlex.split(targets.probe_arguments(wildcards(ns_model="GPT-2")))
    assert arguments[arguments.index("--model") + 1] == "gpt2"
    assert arguments[arguments.index("--type") + 1] == "causal"
    tasks = [arguments[i + 1:i + 6] for i, a in enumerate(arguments) if a == "--task"]
    assert [t[0] for t in tasks] == ["core", "all", "validation"]
    assert tasks[2][1] == tasks[2][2] == raw_target("val")
    assert tasks[1][4] == "results/numersense/scores/rebuilt/all/GPT-2.csv"


def test_fine_tuned_rows_start_from_their_base_folder() -> None:
    section = config(finetune={**DEFAULTS["finetune"], "rows": {"Ft. tiny-BERT": "tiny-BERT"}})
    targets = NumerSenseTargets(section, raw_target)
    card = wildcards(ns_model="Ft.-tiny-BERT")
    assert targets.base_model(card) == f"{MODELS}/tiny-BERT"
    assert targets.base_input(card) == [f"{MODELS}/tiny-BERT"]
    assert targets.model_location("Ft.-tiny-BERT") == f"{MODELS}/Ft.-tiny-BERT"
    assert targets.train_file() == f"{DATA}/rebuilt/train.masked.tsv"
    assert "--lr 5e-05" in targets.finetune_arguments()


def test_template_rows_default_to_every_masked_lm() -> None:
    assert NumerSenseTargets(config(), raw_target).template_rows == ["tiny-BERT"]


def test_released_prediction_scores_join_the_released_table() -> None:
    predictions = {"BERT-Base": {"core": {"source": "pred"}}}
    targets = NumerSenseTargets(config(released={"core": {"source": "core"}},
                                       released_predictions=predictions), raw_target)
    files = targets.score_files("released")
    assert "results/numersense/scores/released_predictions/core/BERT-Base.csv" in files
    arguments = shlex.split(targets.released_prediction_arguments(
        wildcards(ns_model="BERT-Base", ns_set="core")))
    assert arguments[arguments.index("--row") + 1] == "BERT-Base (released predictions)"
    assert targets.released_prediction(wildcards(ns_model="BERT-Base", ns_set="core")) == \
        raw_target("pred")


@pytest.mark.parametrize("name", ["config.yaml", "paper.yaml"])
def test_the_shipped_configs_give_every_table(name: str) -> None:
    loaded = yaml.safe_load((CHECKOUT / "config" / name).read_text(encoding="utf-8"))
    assert schema_errors(loaded) == []
    fill_defaults(loaded)  # the schema's defaults, as the Snakefile fills them in
    targets = NumerSenseTargets(loaded, raw_target)
    assert {Path(t).name for t in targets.tables} == {
        "filters.csv", "table2_rebuilt.csv", "table2_released.csv", "overlap.csv",
        "table3.csv", "figure3.csv", "figure3.png"}


def test_resources_follow_the_largest_model() -> None:
    from reprobe.numersense.targets import model_units

    tiny = NumerSenseTargets(config(models={"tiny-BERT": {"tiny": {"kind": "bert"}}}), raw_target)
    assert tiny.resources("numersense_finetune")["mem_mb"](None, 1) == 2048
    assert model_units({"b": {"hub": "bert-base-uncased"}}) == 1
    assert model_units({"b": {"hub": "bert-base-uncased"}, "l": {"hub": "roberta-large"}}) == 3
    large = NumerSenseTargets(config(models={"RoBERTa-Large": {"hub": "roberta-large"}}),
                              raw_target)
    assert large.resources("numersense_finetune")["mem_mb"](None, 1) >= 16000
