"""Config files laid over one another: a small file over the embedded default, files that stand
alone, `extends`, Snakemake's `--config` typed by the schema, and duplicate keys refused; each
route also run through Snakemake itself (dry runs)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from reprobe.config import loaded_config
from reprobe.config_files import assembled_config, load_yaml, typed_overrides
from reprobe.errors import ConfigError

OVERLAY = "numeracy:\n  knn:\n    k: 3\n"


def write(path: Path, text: str) -> Path:
    """A file with this text."""
    path.write_text(text, encoding="utf-8")
    return path


def test_a_small_file_changes_what_it_names_and_keeps_the_default(tmp_path):
    config = loaded_config([write(tmp_path / "my.yaml", OVERLAY)])
    default = loaded_config([])
    assert config["numeracy"]["knn"]["k"] == 3
    assert config["numeracy"]["knn"]["target"] == default["numeracy"]["knn"]["target"]
    assert config["sources"] == default["sources"] and "extends" not in config


def test_a_file_that_stands_alone_keeps_nothing_of_the_default(tmp_path):
    config = assembled_config([write(tmp_path / "alone.yaml", "extends: null\nseed: 1\n")])
    assert config == {"seed": 1}
    paper = assembled_config([REPO / "config/paper.yaml"])
    assert not set(paper["sources"]) & {"enwiki_excerpt"}  # no sample of the default's


def test_extends_names_a_file_beside_it_or_in_the_checkout(tmp_path):
    write(tmp_path / "base.yaml", "extends: null\nseed: 5\nreport: {tolerance: 0.5}\n")
    near = write(tmp_path / "near.yaml", "extends: base.yaml\nseed: 6\n")
    assert assembled_config([near]) == {"seed": 6, "report": {"tolerance": 0.5}}
    on_paper = write(tmp_path / "p.yaml", "extends: config/paper.yaml\nnumeracy: {knn: {k: 9}}\n")
    config = assembled_config([on_paper])
    assert config["numeracy"]["knn"]["k"] == 9 and "wikipedia" in config


def test_a_later_file_is_laid_over_the_first_and_may_not_extend(tmp_path):
    overlay = write(tmp_path / "my.yaml", OVERLAY)
    config = assembled_config([REPO / "config/paper.yaml", overlay])
    assert config["numeracy"]["knn"]["k"] == 3 and "enwiki_excerpt" not in config["sources"]
    with pytest.raises(ConfigError, match=r"paper\.yaml: extends is read only in the first"):
        assembled_config([overlay, REPO / "config/paper.yaml"])


def test_extends_in_a_circle_or_to_nothing_is_named(tmp_path):
    write(tmp_path / "a.yaml", "extends: b.yaml\n")
    write(tmp_path / "b.yaml", "extends: a.yaml\n")
    with pytest.raises(ConfigError, match="goes round in a circle"):
        assembled_config([tmp_path / "a.yaml"])
    with pytest.raises(ConfigError, match="extends: no config file missing.yaml"):
        assembled_config([write(tmp_path / "c.yaml", "extends: missing.yaml\n")])


def test_a_duplicate_key_names_the_key_and_both_lines(tmp_path):
    path = write(tmp_path / "d.yaml", "wikipedia:\n  shards: 2\n  block_pages: 5\n  shards: 4\n")
    with pytest.raises(ConfigError) as caught:
        load_yaml(path)
    assert str(caught.value) == (f"{path}:4: duplicate key 'shards' at lines 2 and 4 "
                                 f"(only one may stay)")


def test_config_values_snakemake_leaves_as_text_are_typed_by_the_schema():
    typed = typed_overrides({"numeracy": {"knn": {"k": "3", "target": "log"},
                                          "pmi": {"lambdas": ["10", "20.5"]}},
                             "numersense": {"models": {"x": {"tiny": {"kind": "bert",
                                                                      "heads": "4"}}}}})
    assert typed["numeracy"]["knn"] == {"k": 3, "target": "log"}
    assert typed["numeracy"]["pmi"]["lambdas"] == [10, 20.5]
    assert typed["numersense"]["models"]["x"]["tiny"]["heads"] == 4
    assert typed_overrides({"numeracy": {"knn": {"k": "three"}}})["numeracy"]["knn"]["k"] == \
        "three"  # left as text, for the schema to refuse by name


def snakemake_plan(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """A dry run of numeracy's Table 6 with its commands printed."""
    return subprocess.run(
        [sys.executable, "-m", "snakemake", "results/tables/numeracy/table6.csv", "-n", "-p",
         "--cores", "1", "-s", str(REPO / "Snakefile"), "-d", str(tmp_path / "work"), *args],
        capture_output=True, text=True, timeout=300)


def knn_values(result: subprocess.CompletedProcess) -> set[int]:
    """The `k` the planned kNN jobs are given."""
    found = set()
    for line in result.stdout.splitlines():
        if "numeracy knn" in line and "--settings=" in line:
            text = line.split("--settings=", 1)[1].split("' ", 1)[0].strip("'")
            found.add(json.loads(text)["k"])
    return found


def test_snakemake_takes_a_three_line_overlay(tmp_path):
    result = snakemake_plan(tmp_path, "--configfile", str(write(tmp_path / "my.yaml", OVERLAY)))
    assert result.returncode == 0, result.stderr[-2000:]
    assert knn_values(result) == {3}


def test_snakemake_types_nested_config_values_by_the_schema(tmp_path):
    result = snakemake_plan(tmp_path, "--config", "numeracy={knn: {k: 4}}")
    assert result.returncode == 0, result.stderr[-2000:]
    assert knn_values(result) == {4}
    wrong = snakemake_plan(tmp_path, "--config", "numeracy={knn: {k: four}}")
    assert wrong.returncode != 0
    assert "numeracy.knn.k: 'four' is not of type 'integer'" in wrong.stdout + wrong.stderr


def test_snakemake_refuses_a_duplicate_key_in_a_configfile(tmp_path):
    duplicated = write(tmp_path / "dup.yaml", "numeracy:\n  knn: {k: 2}\n  knn: {k: 4}\n")
    result = snakemake_plan(tmp_path, "--configfile", str(duplicated))
    assert result.returncode != 0
    assert "dup.yaml:3: duplicate key 'knn' at lines 2 and 3" in result.stdout + result.stderr


def test_config_check_shows_the_section_a_run_would_use(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "reprobe", "config-check", str(write(tmp_path / "my.yaml", OVERLAY)),
         "--show", "numeracy.knn"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert load_yaml(write(tmp_path / "shown.yaml", result.stdout)) == {
        "k": 3, **{key: value for key, value in loaded_config([])["numeracy"]["knn"].items()
                   if key != "k"}}
