"""The released-data tier (config/released.yaml): it plans, and it runs offline on a mirror of
samples laid out under the tier's own source names."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from conftest import REPO
from reprobe.config import check_config, local_source_path, source_filename

TIER = REPO / "config/released.yaml"
# Each tier source and the sample of the default config that stands in for it (same format).
STAND_INS = {
    "equate_rte_quant": "equate_rte_quant_sample",
    "equate_newsnli": "equate_newsnli_sample",
    "equate_redditnli": "equate_redditnli_sample",
    "wordnet_nltk_zip": "equate_wordnet_sample",
    "equate_jobs": "equate_jobs_sample",
    "equate_nationalities": "equate_nationalities_sample",
    "numersense_test_core_masked": "numersense_core_sample",
    "numersense_test_core_labels": "numersense_core_labels_sample",
    "numersense_pred_gpt_core": "numersense_gpt_core_sample",
    "numersense_pred_bert_base_core": "numersense_bert_base_core_sample",
    "wikipse_train": "wikipse_train_sample",
    "wikipse_test": "wikipse_test_sample",
    "wikipse_semantic_classes": "wikipse_classes_sample",
}


def load(path: Path) -> dict:
    """A YAML config."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def snakemake(workdir: Path, configfile: Path, *args: str) -> subprocess.CompletedProcess:
    """Snakemake in workdir on a config (targets first: --configfile takes several values)."""
    command = [sys.executable, "-m", "snakemake", *args, "--cores", "2",
               "-s", str(REPO / "Snakefile"), "-d", str(workdir), "--configfile", str(configfile)]
    return subprocess.run(command, capture_output=True, text=True, timeout=900)


def test_the_tier_is_valid_and_plans_every_table(tmp_path):
    check_config(load(TIER))
    result = snakemake(tmp_path, TIER, "-n", "all")
    assert result.returncode == 0, result.stderr[-3000:]
    for table in ("equate/table6_released_conll.csv", "equate/table6_released_arxiv.csv",
                  "numersense/table2_released.csv", "wikipse/stats_released.csv",
                  "wikipse/table2_released.csv"):
        assert f"results/tables/{table}" in result.stdout, table
    # Nothing is rebuilt and no model is trained.
    for rule in ("wikipedia_plan", "equate_awpnli", "equate_train_hyp", "numersense_core",
                 "wikipse_typing", "numeracy_train"):
        assert f"rule {rule}:" not in result.stdout, rule


def test_the_tier_sources_are_the_paper_configs():
    paper = load(REPO / "config/paper.yaml")["sources"]
    for name, spec in load(TIER)["sources"].items():
        assert spec == paper[name], name


@pytest.fixture(scope="module")
def tier_run(tmp_path_factory) -> Path:
    """The tier run offline from a mirror of samples, roles without a sample left out."""
    work = tmp_path_factory.mktemp("tier")
    tier, default = load(TIER), load(REPO / "config/config.yaml")
    sources = {}
    for name, sample in STAND_INS.items():
        spec = {key: value for key, value in tier["sources"][name].items()
                if key not in ("sha256", "size")}  # the samples are other bytes
        target = work / "mirror" / name / source_filename(spec)
        target.parent.mkdir(parents=True)
        shutil.copyfile(local_source_path(default["sources"][sample], sample), target)
        sources[name] = spec
    tier["sources"] = sources
    for role in ("stresstest", "awpnli"):
        del tier["equate"]["released"][role]
    numersense = tier["numersense"]
    del numersense["released"]["all"], numersense["gold"]["all"]
    numersense["released_predictions"] = {"GPT-2": {"core": {"source": "numersense_pred_gpt_core"}},
                                          "BERT-Base": {"core": {
                                              "source": "numersense_pred_bert_base_core"}}}
    tier["download"] = {"mirror": str(work / "mirror"), "offline": True}
    configfile = work / "released.yaml"
    configfile.write_text(yaml.safe_dump(tier, sort_keys=False), encoding="utf-8")
    result = snakemake(work / "run", configfile, "all")
    assert result.returncode == 0, result.stderr[-3000:]
    return work


def test_the_tier_runs_offline_from_a_mirror(tier_run):
    tables = tier_run / "run/results/tables"
    table6 = pd.read_csv(tables / "equate/table6_released_conll.csv")
    assert {"MAJ", "Q-REAS", "Q-REAS (Algorithm 1)", "Q-REAS (strict)"} <= set(table6["model"])
    # No NLI training set in the tier: no HYP row of ours (the paper's HYP cells stay).
    assert not list((tier_run / "run/results/equate").rglob("HYP.csv"))
    table2 = pd.read_csv(tables / "numersense/table2_released.csv")
    assert {"GPT-2", "BERT-Base"} <= set(table2["model"])
    stats = pd.read_csv(tables / "wikipse/stats_released.csv")
    assert set(stats["setting"]) == {"train", "test"}
    assert not (tier_run / "run/data/processed/wikipedia").exists()
    for paper in ("equate", "numersense", "wikipse"):
        assert (tier_run / f"run/results/report/{paper}.html").is_file(), paper
    # Every source came from the mirror and is locked beside the tier's config.
    locked = load(tier_run / "released.lock.yaml")["sources"]
    assert set(locked) == set(STAND_INS)
