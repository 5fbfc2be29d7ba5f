"""Tests for what the NumerSense rules read and which rows, sets and tables a config asks for."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from conftest import option_value, option_values
from reprobe.cli import build_parser
from reprobe.config import CHECKOUT, fill_defaults, schema_errors
from reprobe.errors import ConfigError
from reprobe.numersense.finetune_settings import FinetuneSettings
from reprobe.numersense.settings import (
    TINY_PATH,
    AdversarialSettings,
    BuilderSettings,
    ProbeSettings,
    RunSettings,
    TinySettings,
)
from reprobe.numersense.targets import (
    DATA,
    MODELS,
    TABLES,
    NumerSenseTargets,
    ProbeRow,
    beyond_paper_models,
    evaluation_sets,
    model_type,
    probe_rows,
    slug,
    table_rows,
)
from reprobe.step_settings import read_settings
from reprobe.tables.beyond import paper_models

# The paper's published numbers (the models they name are its rows).
REFERENCE = CHECKOUT / "config/reference/numersense"


def raw_target(name: str) -> str:
    """A stand-in for the workflow's raw_target."""
    return f"data/raw/{name}/{name}.txt"


def config(**numersense: object) -> dict:
    """A numersense config with the schema's defaults filled in."""
    section = {"inputs": {"omcs": {"source": "omcs"}, "conceptnet": {"source": "cn"},
                          "generics": {"source": "gkb"}},
               "models": {"tiny-BERT": {"tiny": {"kind": "bert"}},
                          "GPT-2": {"hub": "gpt2", "type": "causal"}}}
    section.update(copy.deepcopy(numersense))
    filled = {"numersense": section}
    fill_defaults(filled)
    return filled


def wildcards(**values: str) -> SimpleNamespace:
    """Snakemake-like wildcards."""
    return SimpleNamespace(**values)


def test_model_type_comes_from_the_tiny_kind_or_the_spec() -> None:
    assert model_type({"tiny": {"kind": "gpt2"}}) == "causal"
    assert model_type({"tiny": {"kind": "roberta"}}) == "masked"
    assert model_type({"hub": "gpt2", "type": "causal"}) == "causal"
    assert model_type({"path": "models/x", "type": "masked"}) == "masked"


def test_table_rows_list_models_then_fine_tuned_rows_by_slug() -> None:
    section = config(finetune={"rows": {"Ft. tiny-BERT": "tiny-BERT"}})
    rows = table_rows(section["numersense"])
    assert rows == {"tiny-BERT": ("tiny-BERT", "masked"), "GPT-2": ("GPT-2", "causal"),
                    "Ft.-tiny-BERT": ("Ft. tiny-BERT", "masked")}
    assert slug("Ft. RoBERTa-L.") == "Ft.-RoBERTa-L."


def test_evaluation_sets_are_rebuilt_always_and_released_as_configured() -> None:
    raw = {"omcs": {}, "conceptnet": {}}
    assert evaluation_sets({}, raw) == {"rebuilt": ["core", "all"], "released": []}
    # Without the raw inputs (the released-data tier): the released sets only.
    assert evaluation_sets({"core": {}}, {}) == {"rebuilt": [], "released": ["core"]}
    assert evaluation_sets({"validation": {}, "core": {}}, raw) == {
        "rebuilt": ["core", "all"], "released": ["core", "validation"]}


@pytest.mark.parametrize(("change", "message"), [
    ({"finetune": {"rows": {"Ft.": "nobody"}}}, "no model row"),
    ({"finetune": {"rows": {"Ft.": "GPT-2"}}}, "not a masked LM"),
    ({"finetune": {"train_set": "released"}}, "released.train"),
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
                           f"{TABLES}/table2_conventions.csv", f"{TABLES}/figure3.csv",
                           f"{TABLES}/figure3.png", f"{TABLES}/table3.csv"]
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
    assert targets.gold_note() == ""
    validation = targets.probe_reads("released", "validation")
    assert validation["probes"] == validation["gold"]
    rebuilt = targets.probe_reads("rebuilt", "all")
    assert rebuilt["gold"].path == f"{DATA}/rebuilt/test.all.masked.tsv"


def test_configured_gold_labels_score_every_released_test_probe() -> None:
    released = {"core": {"source": "core"}, "all": {"source": "all"}}
    targets = NumerSenseTargets(config(released=released, gold={"core": {"source": "labels"}}),
                                raw_target)
    assert targets.probe_reads("released", "core")["gold"].path == raw_target("labels")
    # all has no gold configured: the builder's re-created labels.
    assert targets.probe_reads("released", "all")["gold"].path == \
        f"{DATA}/released/test.all.labelled.tsv"
    assert targets.released_prediction_gold(wildcards(ns_set="core")) == raw_target("labels")
    # tiny-BERT is no row of the paper's: its rows are marked beyond the paper.
    arguments = targets.table2_arguments(wildcards(ns_variant="released"))
    assert arguments == ["--beyond-paper=tiny-BERT", "--no-zero=none", "--gold=core: labels"]
    assert targets.table2_arguments(wildcards(ns_variant="rebuilt")) == [
        "--beyond-paper=tiny-BERT", "--no-zero=none"]


def test_each_protocol_is_a_row_of_its_own() -> None:
    section = config(protocols=["authors", "clean"],
                     models={"GPT-2": {"hub": "gpt2", "type": "causal", "protocols": ["clean"]},
                             "tiny-BERT": {"tiny": {"kind": "bert"}}},
                     finetune={"rows": {"Ft. tiny-BERT": "tiny-BERT"}})
    rows = probe_rows(section["numersense"])
    assert list(rows) == ["GPT-2-clean", "tiny-BERT", "tiny-BERT-clean", "Ft.-tiny-BERT",
                          "Ft.-tiny-BERT-clean"]
    assert rows["tiny-BERT-clean"] == ProbeRow("tiny-BERT (clean)", "tiny-BERT", "masked",
                                               "clean")
    targets = NumerSenseTargets(section, raw_target)
    # Figure 3 takes each model's first protocol: the authors' where listed.
    assert list(targets.figure_predictions()) == ["GPT-2 (clean)", "tiny-BERT",
                                                   "Ft. tiny-BERT"]
    arguments = targets.probe_arguments(wildcards(ns_row="Ft.-tiny-BERT-clean"))
    assert option_value(arguments, "--protocol") == "clean"
    assert option_value(arguments, "--model") == f"{MODELS}/Ft.-tiny-BERT"


def test_one_probe_job_per_row_scores_every_set() -> None:
    targets = NumerSenseTargets(config(released={"validation": {"source": "val"}}), raw_target)
    assert targets.variant_sets() == [("rebuilt", "core"), ("rebuilt", "all"),
                                      ("released", "validation")]
    assert targets.score_outputs()[0] == "results/numersense/probe/{ns_row}/rebuilt-core.csv"
    tiny = targets.probe_inputs(wildcards(ns_row="tiny-BERT"))
    assert tiny["model"] == f"{MODELS}/tiny-BERT"
    assert tiny["sets"] == [f"{DATA}/rebuilt/test.core.masked.tsv",
                            f"{DATA}/rebuilt/test.all.masked.tsv", raw_target("val")]
    assert "model" not in targets.probe_inputs(wildcards(ns_row="GPT-2"))
    arguments = targets.probe_arguments(wildcards(ns_row="GPT-2"))
    assert option_value(arguments, "--model") == "gpt2"
    assert option_value(arguments, "--type") == "causal"
    assert option_value(arguments, "--protocol") == "authors"
    sets = option_values(arguments, "--probes")
    golds = option_values(arguments, "--gold")
    names = option_values(arguments, "--name")
    assert names == ["rebuilt-core", "rebuilt-all", "released-validation"]
    assert sets[2] == golds[2] == raw_target("val")
    assert targets.probe_folder(wildcards(ns_row="GPT-2")) == "results/numersense/probe/GPT-2"
    options = targets.probe_options()
    assert len(options) == 1
    probe = read_settings(option_value(options, "--settings"), ProbeSettings, "numersense")
    assert probe == ProbeSettings(batch_size=32, device="cpu", precision=None, threads=2,
                                  clean_bos=True)
    # The cores Snakemake gives a probing job are the threads torch is told to use.
    assert targets.job_threads == probe.threads
    # Table 3's templates take no BOS setting.
    run = option_value(targets.run_options(), "--settings")
    assert "clean_bos" not in json.loads(run)
    assert read_settings(run, RunSettings, "numersense").batch_size == 32


def test_the_builders_settings_keep_the_lexicons_order() -> None:
    """The lexicon's first matching category wins: its order survives the JSON."""
    lexicon = {"unit": ["week"], "biology": ["leg"], "animals": ["cat"]}
    targets = NumerSenseTargets(config(builder={"lexicon": lexicon, "min_tokens": 3}),
                                raw_target)
    settings = option_value(targets.builder_arguments(), "--settings")
    builder = read_settings(settings, BuilderSettings, "numersense.builder")
    assert list(builder.lexicon) == ["unit", "biology", "animals"]
    assert (builder.min_tokens, builder.max_tokens) == (3, 25)
    assert list(json.loads(settings)) == sorted(json.loads(settings))


def test_the_adversarial_settings_are_the_section() -> None:
    relations = {"RelatedTo": "adjective", "HasProperty": "any"}
    targets = NumerSenseTargets(config(adversarial={"relations": relations}), raw_target)
    settings = option_value(targets.adversarial_arguments(), "--settings")
    adversarial = read_settings(settings, AdversarialSettings, "numersense.adversarial")
    assert adversarial == AdversarialSettings(relations=relations, min_weight=1.0, variants=2)
    assert list(adversarial.relations) == ["RelatedTo", "HasProperty"]


def test_a_tiny_row_passes_its_kind_and_settings() -> None:
    tiny_gpt2 = {"tiny": {"kind": "gpt2", "steps": 7}, "type": "causal"}
    targets = NumerSenseTargets(config(models={"tiny-GPT-2": tiny_gpt2}), raw_target)
    options = targets.tiny_options(wildcards(ns_model="tiny-GPT-2"))
    assert options[0] == "--kind=gpt2" and len(options) == 2
    tiny = read_settings(option_value(options, "--settings"), TinySettings, TINY_PATH)
    assert tiny == TinySettings(hidden=32, layers=2, heads=2, steps=7, lr=0.003,
                                vocab_size=1000)


def test_fine_tuned_rows_start_from_their_base_folder() -> None:
    section = config(finetune={"rows": {"Ft. tiny-BERT": "tiny-BERT"}})
    targets = NumerSenseTargets(section, raw_target)
    card = wildcards(ns_model="Ft.-tiny-BERT")
    assert targets.base_model(card) == f"{MODELS}/tiny-BERT"
    assert targets.base_input(card) == [f"{MODELS}/tiny-BERT"]
    assert targets.model_location("Ft.-tiny-BERT") == f"{MODELS}/Ft.-tiny-BERT"
    assert targets.train_file() == f"{DATA}/rebuilt/train.masked.tsv"
    arguments = targets.finetune_arguments()
    assert arguments[1:] == ["--device=cpu"]
    assert read_settings(option_value(arguments, "--settings"), FinetuneSettings,
                         "numersense.finetune").lr == 5e-05


def test_the_authors_train_set_is_the_plain_sentence_file() -> None:
    """train_set authors: released.finetune_sentences, read as sentences; no probe file."""
    released = {"core": {"source": "core"}, "finetune_sentences": {"source": "gkb"}}
    finetune = {"rows": {"Ft. tiny-BERT": "tiny-BERT"},
                "train_set": "authors", "procedure": "plain"}
    targets = NumerSenseTargets(config(released=released, finetune=finetune), raw_target)
    assert targets.train_file() == raw_target("gkb")
    settings = read_settings(option_value(targets.finetune_arguments(), "--settings"),
                             FinetuneSettings, "numersense.finetune")
    assert (settings.layout, settings.procedure) == ("sentences", "plain")
    assert targets.released_arguments() == [f"--released-core={raw_target('core')}"]
    assert list(targets.released_reads()) == ["core"]
    with pytest.raises(ConfigError, match="released.finetune_sentences"):
        NumerSenseTargets(config(finetune=finetune), raw_target)


def test_template_rows_default_to_every_masked_lm() -> None:
    assert NumerSenseTargets(config(), raw_target).template_rows == ["tiny-BERT"]


def test_released_prediction_scores_join_the_released_table() -> None:
    predictions = {"BERT-Base": {"core": {"source": "pred"}}}
    targets = NumerSenseTargets(config(released={"core": {"source": "core"}},
                                       released_predictions=predictions), raw_target)
    files = targets.score_files("released")
    assert "results/numersense/scores/released_predictions/core/BERT-Base.csv" in files
    arguments = targets.released_prediction_arguments(
        wildcards(ns_model="BERT-Base", ns_set="core"))
    assert option_value(arguments, "--row") == "BERT-Base (released predictions)"
    assert targets.released_prediction(wildcards(ns_model="BERT-Base", ns_set="core")) == \
        raw_target("pred")


@pytest.mark.parametrize("name", ["config.yaml", "paper.yaml"])
def test_the_shipped_configs_give_every_table(name: str) -> None:
    loaded = yaml.safe_load((CHECKOUT / "config" / name).read_text(encoding="utf-8"))
    assert schema_errors(loaded) == []
    fill_defaults(loaded)  # the schema's defaults, as the Snakefile fills them in
    targets = NumerSenseTargets(loaded, raw_target)
    assert {Path(t).name for t in targets.tables} == {
        "filters.csv", "table2_rebuilt.csv", "table2_released.csv", "table2_conventions.csv",
        "overlap.csv", "table3.csv", "figure3.csv", "figure3.png"}


def test_resources_follow_the_largest_model() -> None:
    from reprobe.numersense.targets import model_units

    tiny = NumerSenseTargets(config(models={"tiny-BERT": {"tiny": {"kind": "bert"}}}), raw_target)
    assert tiny.resources("numersense_finetune")["mem_mb"](None, 1) <= 2048
    assert model_units({"b": {"hub": "bert-base-uncased"}}) == 1
    assert model_units({"b": {"hub": "bert-base-uncased"}, "l": {"hub": "roberta-large"}}) == 3
    large = NumerSenseTargets(config(models={"RoBERTa-Large": {"hub": "roberta-large"}}),
                              raw_target)
    assert large.resources("numersense_finetune")["mem_mb"](None, 1) >= 10000


def test_released_only_scores_the_authors_predictions() -> None:
    tier = NumerSenseTargets(config(
        inputs={}, models={}, released={"core": {"source": "core"}},
        gold={"core": {"source": "gold"}},
        released_predictions={"GPT-2": {"core": {"source": "pred"}}}), raw_target)
    assert tier.tables == [f"{TABLES}/table2_conventions.csv", f"{TABLES}/table2_released.csv"]
    assert tier.input_file("omcs").target == "not-configured/numersense.inputs.omcs"
    with pytest.raises(ConfigError, match=r"numersense\.models\.t\.tiny: .* leaves out"):
        NumerSenseTargets(config(inputs={}, models={"t": {"tiny": {"kind": "bert"}}}),
                          raw_target)


def test_a_released_test_set_without_labels_or_builder_is_an_error() -> None:
    with pytest.raises(ConfigError, match=r"numersense\.released\.all: scoring it needs"):
        NumerSenseTargets(config(inputs={}, models={}, released={"all": {"source": "a"}}),
                          raw_target)


def test_the_papers_rows_are_the_models_its_numbers_name(tmp_path: Path) -> None:
    rows = paper_models(REFERENCE)
    assert {"GPT-2", "BERT-Base", "RoBERTa-Large", "Ft. BERT-L.", "Ft. RoBERTa-L.",
            "Human Bound (closed-book)", "Human (closed-book)"} <= rows
    assert not {"tiny-BERT", "tiny-GPT-2", "tiny-RoBERTa"} & rows
    (tmp_path / "table9.csv").write_text("table,model,setting,metric,value,n\n"
                                         "table9,M,,x,1,\n", encoding="utf-8")
    assert paper_models(tmp_path) == {"M"}


def test_models_the_paper_did_not_test_are_beyond_it_with_their_rows() -> None:
    section = config(protocols=["authors", "clean"],
                     models={"GPT-2": {"hub": "gpt2", "type": "causal"},
                             "BERT-Large": {"hub": "bert-large-uncased"},
                             "tiny-BERT": {"tiny": {"kind": "bert"}}},
                     finetune={"rows": {"Ft. tiny-BERT": "tiny-BERT",
                                        "Ft. BERT-L.": "BERT-Large"}})
    # A fine-tuned row follows its base: Ft. BERT-L. is the paper's, Ft. tiny-BERT is not.
    assert beyond_paper_models(section["numersense"], paper_models(REFERENCE)) == [
        "tiny-BERT", "Ft. tiny-BERT"]
    targets = NumerSenseTargets(section, raw_target)
    beyond = ["tiny-BERT", "Ft. tiny-BERT", "tiny-BERT (clean)", "Ft. tiny-BERT (clean)"]
    assert targets.beyond_paper == beyond
    option = [f"--beyond-paper={row}" for row in beyond]
    assert targets.beyond_paper_option() == option
    # The rows beyond the paper go first: the positional rows of Figure 3 stay last, after --.
    figure = targets.figure_arguments()
    assert figure[:len(option) + 2] == [*option, "--no-zero=none", "--"]
    assert figure[len(option) + 2:] == [f"{name}={path}" for name, path in
                                        targets.figure_predictions().items()]
    assert targets.table2_arguments(wildcards(ns_variant="rebuilt"))[:len(option)] == option
    # As the figure3 rule writes it: the step reads the rows apart from the predictions.
    args = build_parser().parse_args(["numersense", "figure3", "--categories", "c",
                                      "--reference", "r", "--csv", "f.csv", "--png", "f.png",
                                      *figure])
    assert args.beyond_paper == beyond
    assert args.predictions == figure[len(option) + 2:]


def test_a_paper_rows_name_for_a_model_the_paper_did_not_fine_tune_is_an_error() -> None:
    section = config(finetune={"rows": {"Ft. BERT-L.": "tiny-BERT"}})
    with pytest.raises(ConfigError, match=r"numersense\.finetune\.rows\.Ft\. BERT-L\.: a row "
                                          "of the paper's"):
        NumerSenseTargets(section, raw_target)


@pytest.mark.parametrize(("name", "beyond"), [
    ("paper.yaml", []),
    ("released.yaml", []),
    ("config.yaml", ["tiny-GPT-2", "tiny-BERT", "tiny-RoBERTa", "Ft. tiny-BERT",
                     "Ft. tiny-RoBERTa", "tiny-GPT-2 (clean)", "tiny-BERT (clean)",
                     "tiny-RoBERTa (clean)", "Ft. tiny-BERT (clean)",
                     "Ft. tiny-RoBERTa (clean)"]),
])
def test_the_shipped_configs_mark_only_models_the_paper_did_not_test(
        name: str, beyond: list[str]) -> None:
    loaded = yaml.safe_load((CHECKOUT / "config" / name).read_text(encoding="utf-8"))
    fill_defaults(loaded)  # the schema's defaults, as the Snakefile fills them in
    targets = NumerSenseTargets(loaded, raw_target)
    assert targets.beyond_paper == beyond
    assert targets.beyond_paper_option() == [f"--beyond-paper={row}" for row in beyond]
