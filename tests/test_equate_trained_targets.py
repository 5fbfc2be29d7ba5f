"""The trained baselines' rows, rules and Table 7 as the config decides them
(reprobe.equate.targets, reprobe.equate.trained_targets)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from conftest import option_value
from reprobe.equate.trained_targets import VOCABULARY, TrainedTargets
from reprobe.errors import ConfigError
from test_equate_targets import targets

TRAINED = {"ESIM": {"architecture": "esim", "width": 1.0, "max_epochs": None,
                    "classifier": "paper", "unaligned": 0.5, "batch_size": 64},
           "tiny-CBOW": {"architecture": "cbow", "width": 0.05, "max_epochs": 4,
                         "classifier": "paper", "unaligned": 0.5, "batch_size": 64}}
INPUTS = {"wordnet": {"source": "wn", "member": "wordnet"}, "jobs": {"source": "jobs"},
          "nationalities": {"source": "nat"}, "nli_train": {"source": "mnli", "member": "t"},
          "nli_dev": {"source": "mnli", "member": "d"}, "word_vectors": {"source": "glove"},
          "arithmetic_folds": []}


def trained_targets(**changes):
    """Targets of the test config with two trained rows and their inputs."""
    return targets(trained=TRAINED, inputs=INPUTS, **changes)


def test_trained_rows_sit_after_hyp_and_before_the_checkpoints():
    rows = [name for name, _ in trained_targets().rows.values()]
    assert rows[:5] == ["MAJ", "HYP", "ESIM", "tiny-CBOW", "BERT"]
    assert trained_targets().rows["ESIM"] == ("ESIM", "trained")


def test_stand_ins_are_beyond_the_paper_and_the_papers_rows_are_not():
    beyond = trained_targets().beyond_paper
    assert "tiny-CBOW" in beyond and "ESIM" not in beyond


def test_table7_scores_every_row_trained_on_multinli():
    equate = trained_targets()
    assert equate.sets["mnli"] == ["mnli_dev_matched"]
    assert equate.variant_rows("mnli") == ["HYP", "ESIM", "tiny-CBOW", "BERT", "tiny-BERT"]
    assert "results/tables/equate/table7.csv" in equate.tables
    assert equate.pairs("mnli", "mnli_dev_matched").path.endswith("/d")
    files = TrainedTargets(equate).table7_scores()
    assert files[0] == "results/equate/scores/mnli/mnli_dev_matched/HYP.csv"


def test_no_table7_without_multinli_dev():
    inputs = {k: v for k, v in INPUTS.items() if k != "nli_dev"}
    equate = targets(inputs=inputs)
    assert equate.sets["mnli"] == [] and not any("table7" in t for t in equate.tables)


@pytest.mark.parametrize("missing", ["nli_train", "nli_dev", "word_vectors"])
def test_a_trained_row_without_its_inputs_names_the_key(missing):
    inputs = {k: v for k, v in INPUTS.items() if k != missing}
    with pytest.raises(ConfigError, match=f"equate.inputs.{missing}"):
        targets(trained=TRAINED, inputs=inputs)


def test_a_training_job_reads_its_row_and_the_shared_vocabulary():
    trained = TrainedTargets(trained_targets())
    job = SimpleNamespace(model="tiny-CBOW")
    assert trained.train_inputs(job)["vocabulary"] == VOCABULARY
    settings = trained.row_settings(job)
    row = json.loads(option_value(settings, "--settings"))
    assert row == {"architecture": "cbow", "width": 0.05, "max_epochs": 4,
                   "classifier": "paper", "unaligned": 0.5}
    assert json.loads(option_value(settings, "--training")) == {
        "device": "cpu", "precision": None}
    assert trained.gpus == 0 and trained.model_pattern() == "ESIM|tiny\\-CBOW"


def test_a_training_job_asks_for_its_architectures_measured_costs():
    trained = TrainedTargets(trained_targets())
    assert trained.train_mem_mb(SimpleNamespace(model="ESIM")) > 0
    assert trained.train_runtime(SimpleNamespace(model="tiny-CBOW")) > 0


def test_a_trained_row_is_scored_with_its_folder_and_batch_size():
    arguments = trained_targets().row_arguments("ESIM", [])
    assert arguments[:2] == ["--kind=trained", "--model=ESIM"]
    assert "--trained-model=data/models/equate/trained/ESIM" in arguments
    assert arguments[-1:] == ["--batch-size=64"]


def test_a_trained_row_is_scored_with_at_least_its_training_memory():
    from reprobe.resources import requested, rule_scale

    equate = trained_targets()
    training = requested(rule_scale("equate_train_baseline[esim]"), 0)[0]
    job = SimpleNamespace(model="ESIM", variant="released", test_set="newsnli")
    assert equate.score_mem_mb(job) >= training > equate.score_mem_mb(
        SimpleNamespace(model="HYP", variant="released", test_set="newsnli"))
