"""Tests for the EQUATE target lists a configuration asks for (reprobe.equate.targets)."""

from __future__ import annotations

import copy
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from conftest import option_value, option_values
from reprobe.cli import build_parser
from reprobe.config import load_yaml
from reprobe.equate.evaluation_sets import evaluation_sets
from reprobe.equate.settings import QreasSettings, TinyNliSettings
from reprobe.equate.targets import (
    KIND_FILES,
    KIND_SETTINGS,
    EquateTargets,
    beyond_paper_rows,
    option_flag,
    paper_rows,
    qreas_arguments,
    slug,
    stage_tables,
    table_rows,
)
from reprobe.errors import ConfigError
from reprobe.step_settings import read_settings

# An `equate` section as the schema leaves it (defaults filled in), with every row kind.
CONFIG: dict[str, Any] = {
    "sources": {"wn": {}, "jobs": {}, "nat": {}, "reddit": {"months": {"first": "2017-11",
                                                                       "last": "2018-01"}}},
    "equate": {
        "inputs": {"arithmetic": {"source": "awp"}, "aqua": {"source": "aqua"},
                   "cnn_stories": {"source": "cnn", "member": "cnn/stories"},
                   "reddit": ["reddit"], "wordnet": {"source": "wn", "member": "wordnet"},
                   "jobs": {"source": "jobs"}, "nationalities": {"source": "nat"},
                   "nli_train": {"source": "mnli"}, "arithmetic_folds": []},
        "released": {"newsnli": {"source": "equate", "member": "NewsNLI.jsonl"},
                     "stresstest": {"source": "equate", "member": "Stress.jsonl"}},
        "newsnli": {"shards": 2}, "stresstest": {"max_premises": None},
        "redditnli": {"top": 300, "days": 3},
        "hyp": {"epochs": 5, "dim": 100, "lr": 0.1, "word_ngrams": 1},
        "neural": {"BERT": {"files": {"config.json": "bert_config", "model.bin": "bert_model"},
                            "label_map": {"LABEL_0": "contradiction"}, "batch_size": 32},
                   "tiny BERT": {"tiny": {"hidden": 32, "layers": 2, "steps": 30, "lr": 0.003},
                                 "batch_size": 32}},
        "trained": {}, "training": {"device": "cpu", "precision": None, "threads": 1},
        "score_shards": {"newsnli": 3},
        "qreas": {"max_depth": 3, "max_solutions": 50, "years": "date",
                  "released_code": {"Q-REAS": {"solutions": "every",
                                               "mismatch": "contradiction"}},
                  "variants": {"Q-REAS (strict)": {"strict_bounds": True}}},
        "versions": ["conll", "arxiv"],
    },
}
EXTRACTED = {"wn", "equate"}
REPO = Path(__file__).resolve().parents[1]


def raw_target(name: str) -> str:
    """A stand-in for the workflow's raw_target: an extracted folder or a fetched file."""
    return f"data/raw/{name}/extracted" if name in EXTRACTED else f"data/raw/{name}/{name}.txt"


def targets(**equate: Any) -> EquateTargets:
    """The targets of CONFIG, some `equate` keys replaced."""
    config = copy.deepcopy(CONFIG)
    config["equate"].update(equate)
    return EquateTargets(config, raw_target, lambda name: f"data/raw/{name}/file")


def job(model: str, variant: str = "rebuilt", test_set: str = "awpnli") -> SimpleNamespace:
    """Wildcards of one score job."""
    return SimpleNamespace(model=model, variant=variant, test_set=test_set)


def test_row_names_become_file_names() -> None:
    assert slug("GPT-2 (MNLI)") == "GPT-2-MNLI"
    assert slug("Q-REAS") == "Q-REAS" and slug("tiny-BERT") == "tiny-BERT"


def test_table_rows_in_table_order_with_their_kinds() -> None:
    rows = table_rows({"BERT": {}, "GPT-2 (MNLI)": {}}, released_code={"Q-REAS": {}})
    assert list(rows) == ["MAJ", "HYP", "BERT", "GPT-2-MNLI", "Q-REAS", "Q-REAS-Algorithm-1"]
    assert rows["Q-REAS"] == ("Q-REAS", "qreas_authors")
    assert rows["Q-REAS-Algorithm-1"] == ("Q-REAS (Algorithm 1)", "qreas")
    assert rows["GPT-2-MNLI"] == ("GPT-2 (MNLI)", "neural") and rows["MAJ"][1] == "majority"
    with pytest.raises(ConfigError, match="clash"):
        table_rows({"a b": {}, "a-b": {}})


RAW = dict.fromkeys(["arithmetic", "aqua", "cnn_stories", "reddit", "nli_train"], {})


def test_evaluation_sets_follow_the_released_files() -> None:
    everything = evaluation_sets(dict.fromkeys(
        ["rte_quant", "newsnli", "redditnli", "stresstest", "awpnli"], {}), RAW)
    assert everything["released"] == ["rte_quant", "newsnli", "redditnli", "stresstest", "awpnli"]
    assert everything["rebuilt"] == ["newsnli", "redditnli", "stresstest", "awpnli"]
    assert everything["perturbation"] == ["unperturbed", "perturbed"]
    # Without released files: only the synthetic sets can be scored, and no §5.1 study.
    assert evaluation_sets({}, RAW) == {"released": [], "rebuilt": ["stresstest", "awpnli"],
                                        "perturbation": [], "mnli": []}


def test_a_set_whose_raw_input_is_left_out_is_not_rebuilt() -> None:
    released = dict.fromkeys(["rte_quant", "newsnli", "redditnli"], {})
    sets = evaluation_sets(released, {"aqua": {}, "reddit": ["x"]})
    assert sets["rebuilt"] == ["redditnli", "stresstest"]
    # The released-data tier: no raw input at all, the released sets only.
    tier = evaluation_sets(released, {})
    assert tier["rebuilt"] == [] and tier["released"] == ["rte_quant", "newsnli", "redditnli"]
    assert stage_tables(["conll"], tier, []) == [
        "results/tables/equate/table6_released_conll.csv",
        "results/tables/equate/perturbation.csv"]


def test_no_nli_training_set_no_hyp_row() -> None:
    assert "HYP" not in table_rows({}, hyp=False) and "HYP" in table_rows({})


def test_qreas_variants_are_rows_after_the_algorithm_1_one():
    rows = table_rows({}, {"Q-REAS (strict)": {"strict_bounds": True}},
                      {"Q-REAS": {}, "Q-REAS (pool of 50)": {}})
    assert list(rows.values())[-4:] == [
        ("Q-REAS", "qreas_authors"), ("Q-REAS (pool of 50)", "qreas_authors"),
        ("Q-REAS (Algorithm 1)", "qreas"), ("Q-REAS (strict)", "qreas")]
    assert "Q-REAS-strict" in rows


def test_qreas_arguments_switch_on_only_the_variant_readings():
    qreas = {"max_depth": 3, "max_solutions": 50, "years": "date",
             "released_code": {"Q-REAS": {"solutions": "pool", "mismatch": "neutral"}},
             "variants": {"Q-REAS (strict)": {"strict_bounds": True, "cross_units": True}}}
    def settings(row: str) -> QreasSettings:
        arguments = qreas_arguments(row, qreas)
        assert len(arguments) == 1
        return read_settings(option_value(arguments, "--settings"), QreasSettings,
                             "equate.qreas")

    algorithm1 = settings("Q-REAS (Algorithm 1)")
    assert (algorithm1.max_depth, algorithm1.max_solutions, algorithm1.years) == (3, 50, "date")
    assert algorithm1.variant_readings("Q-REAS (Algorithm 1)") == {}
    # Each row carries its own entry only: changing one row's readings reruns that row alone.
    assert (algorithm1.variants, algorithm1.released_code) == ({}, {})
    strict = settings("Q-REAS (strict)")
    assert strict.variants == {"Q-REAS (strict)": {"strict_bounds": True, "cross_units": True}}
    assert strict.released_code == {}
    released = settings("Q-REAS")
    assert released.released_code_reading("Q-REAS") == {"solutions": "pool",
                                                        "mismatch": "neutral"}
    assert released.variants == {}


def test_table6_reads_the_qreas_predictions_of_its_variant() -> None:
    eq = targets()
    options = eq.table_options(SimpleNamespace(variant="rebuilt"))
    # Its rows beyond the paper first, then each Q-REAS row's predictions on each set.
    assert options[0] == "--beyond-paper=tiny BERT"
    assert len(option_values(options, "--qreas-predictions")) == len(options) - 1
    assert ("--qreas-predictions=awpnli/Q-REAS (Algorithm 1)="
            "results/equate/predictions/rebuilt/awpnli/Q-REAS-Algorithm-1.jsonl") in options
    # Three rebuilt sets (NewsNLI is labelled by its released file) x three Q-REAS rows.
    assert len(eq.table_predictions(SimpleNamespace(variant="rebuilt"))) == 3 * 3


def test_each_row_kind_reads_what_its_options_name() -> None:
    eq = targets()
    for model, reads in {"MAJ": [], "HYP": ["hyp_model"], "BERT": ["checkpoint"],
                         "Q-REAS": ["wordnet", "jobs", "nationalities"],
                         "Q-REAS-Algorithm-1": ["wordnet", "jobs", "nationalities"]}.items():
        inputs = eq.score_inputs(job(model))
        assert list(inputs) == ["pairs", *reads]
        arguments = eq.score_arguments(job(model))
        # Every input is passed as the option of its name (a member inside a folder).
        for option, target in inputs.items():
            path = option_value(arguments, option_flag(option))
            assert path == target or path.startswith(f"{target}/")
    assert eq.score_inputs(job("HYP"))["hyp_model"] == "data/models/equate/hyp.bin"
    assert "--wordnet=data/raw/wn/extracted/wordnet" in eq.score_arguments(job("Q-REAS"))


def test_score_arguments_carry_the_row_settings() -> None:
    eq = targets()
    bert = eq.score_arguments(job("BERT"))
    assert bert[:2] == ["--kind=neural", "--model=BERT"]
    assert bert[-2:] == ["--batch-size=32", '--label-map={"LABEL_0": "contradiction"}']
    strict = eq.score_arguments(job("Q-REAS-strict"))
    assert strict[1] == "--model=Q-REAS (strict)"
    assert strict[-1:] == qreas_arguments("Q-REAS (strict)", CONFIG["equate"]["qreas"])
    assert eq.score_arguments(job("MAJ")) == [
        "--kind=majority", "--model=MAJ", "--pairs=data/processed/equate/rebuilt/awpnli.jsonl"]


def test_released_pairs_are_read_inside_their_source() -> None:
    eq = targets()
    wildcards = job("MAJ", "released", "newsnli")
    assert eq.score_inputs(wildcards) == {"pairs": "data/raw/equate/extracted"}
    arguments = eq.score_arguments(wildcards)
    assert option_value(arguments, "--pairs") == "data/raw/equate/extracted/NewsNLI.jsonl"
    assert eq.released_target(wildcards) == "data/raw/equate/extracted"
    released = SimpleNamespace(released="data/raw/equate/extracted")
    assert eq.released_file(wildcards, released) == "data/raw/equate/extracted/NewsNLI.jsonl"


def test_every_kind_option_is_a_score_option() -> None:
    score = build_parser().parse_args(["equate", "score", "--kind", "majority", "--model", "M",
                                       "--test-set", "awpnli", "--variant", "rebuilt",
                                       "--pairs", "p", "--predictions", "q"])
    for kind, options in KIND_FILES.items():
        for option in [*options, *KIND_SETTINGS.get(kind, ())]:
            assert getattr(score, option) is None, (kind, option)


def test_fetched_checkpoints_score_with_more_memory_and_time() -> None:
    eq = targets()
    assert eq.score_mem_mb(job("BERT")) > 2 * eq.score_mem_mb(job("tiny-BERT"))
    assert eq.score_runtime(job("BERT")) >= eq.score_runtime(job("tiny-BERT"))
    assert eq.fetched == ["BERT"] and eq.tiny == ["tiny-BERT"]


def test_checkpoint_files_by_hub_name() -> None:
    eq = targets()
    assert eq.checkpoint_files(job("BERT")) == {"config.json": "data/raw/bert_config/file",
                                                "model.bin": "data/raw/bert_model/file"}
    assert eq.checkpoint_arguments(job("BERT")) == [
        "config.json=data/raw/bert_config/file", "model.bin=data/raw/bert_model/file"]


def test_training_steps_read_their_settings_as_one_json_option() -> None:
    eq = targets()
    tiny = eq.tiny_arguments(job("tiny-BERT"))
    assert len(tiny) == 1
    assert read_settings(option_value(tiny, "--settings"), TinyNliSettings,
                         "$defs.neural_model.tiny").hidden == 32
    assert eq.hyp_arguments() == [
        '--settings={"dim": 100, "epochs": 5, "lr": 0.1, "word_ngrams": 1}']
    assert eq.redditnli_arguments() == ['--settings={"days": 3, "top": 300}']


def test_sharded_sets_gather_their_shards() -> None:
    eq = targets()
    shards = eq.score_shards(job("HYP", "released", "newsnli"))
    assert shards == [f"results/equate/shards/released/newsnli/HYP/{k}of3.jsonl" for k in range(3)]
    gather = eq.gather_options(job("HYP", "released", "newsnli"))
    assert gather == ["--from-shards", *shards]
    assert eq.score_shards(job("HYP")) == [] and eq.gather_options(job("HYP")) == []


def test_perturbation_study_without_maj_and_only_with_released_newsnli() -> None:
    eq = targets()
    assert "MAJ" not in eq.perturbation_rows and "HYP" in eq.perturbation_rows
    assert eq.variant_scores("perturbation")[0] == (
        "results/equate/scores/perturbation/unperturbed/HYP.csv")
    # Rebuilt: NewsNLI (labelled from its released file), Stress Test, AwpNLI.
    assert len(eq.table_scores(SimpleNamespace(variant="rebuilt"))) == 3 * len(eq.rows)
    assert eq.perturbation_source() == ["data/raw/equate/extracted"]
    newsnli = eq.perturbation_param()(None, eq.perturbation_source())
    assert newsnli == "data/raw/equate/extracted/NewsNLI.jsonl"
    assert "results/tables/equate/perturbation.csv" in eq.tables
    none = targets(released={})
    assert none.perturbation_source() == []
    # No released file: no released Table 6 (it would have no set).
    assert none.tables == [f"results/tables/equate/table6_rebuilt_{version}.csv"
                           for version in ("conll", "arxiv")]


def test_stage_inputs_and_options() -> None:
    eq = targets()
    assert eq.input_target("cnn_stories") == "data/raw/cnn/cnn.txt"
    # Parameters read an input inside the rule's input, as Snakemake's lint asks.
    assert eq.input_param("wordnet")(None, [eq.input_target("wordnet")]) == (
        "data/raw/wn/extracted/wordnet")
    assert eq.input_param("jobs")(None, ["data/raw/jobs/jobs.txt"]) == "data/raw/jobs/jobs.txt"
    assert eq.reddit_dumps == ["reddit_2017_11", "reddit_2017_12", "reddit_2018_01"]
    assert eq.reddit_dump(SimpleNamespace(dump="reddit_2017_11")) == (
        "data/raw/reddit_2017_11/reddit_2017_11.txt")
    assert eq.news_shards == [f"data/processed/equate/shards/newsnli/{k}.parquet"
                              for k in range(2)]
    assert eq.recovery_files == ["data/processed/equate/recovery/newsnli.json",
                                 "data/processed/equate/recovery/stresstest.json"]
    assert eq.stresstest_options() == []
    assert targets(stresstest={"max_premises": 7}).stresstest_options() == ["--max-premises=7"]


def test_paper_rows_are_the_rows_of_both_published_tables_one_name_each() -> None:
    # The arXiv version's OpenAI, IS and NB are the CoNLL version's GPT, InferSent and SSEN.
    assert paper_rows() == {"MAJ", "HYP", "ALIGN", "CBOW", "BiLSTM", "CH", "InferSent", "SSEN",
                            "ESIM", "GPT", "BERT", "Q-REAS"}


@pytest.mark.parametrize(("name", "beyond"), [
    ("config.yaml", ["tiny-BERT"]),
    # The paper config's BERT stands in for the paper's row; GPT-2 is named apart from its GPT.
    ("paper.yaml", ["GPT-2 (MNLI)"]),
])
def test_neural_rows_not_named_as_the_papers_are_beyond_it(name: str, beyond: list[str]) -> None:
    neural = load_yaml(REPO / "config" / name)["equate"]["neural"]
    assert beyond_paper_rows(neural) == beyond


def test_a_paper_row_under_the_other_versions_name_is_not_beyond_it() -> None:
    assert beyond_paper_rows(dict.fromkeys(["OpenAI", "IS", "BERT", "RoBERTa"], {})) == [
        "RoBERTa"]


def test_both_table_steps_get_the_rows_beyond_the_paper() -> None:
    eq = targets()
    assert eq.beyond_paper == ["tiny BERT"]
    assert eq.beyond_paper_option() == ["--beyond-paper=tiny BERT"]
    for step in (["table6", "--reference", "r"], ["perturbation-table"]):
        args = build_parser().parse_args(["equate", *step, "--csv", "c", "--md", "m",
                                          *eq.beyond_paper_option(), "s.csv"])
        assert args.beyond_paper == ["tiny BERT"] and args.scores == ["s.csv"]
    assert targets(neural={"BERT": CONFIG["equate"]["neural"]["BERT"]}).beyond_paper_option() == []
