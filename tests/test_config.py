"""Config validation names the key; sources expand; both shipped configs are valid."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import REPO
from reprobe.config import (
    check_config,
    expand_sources,
    fetch_arguments,
    fetch_inputs,
    fill_defaults,
    load_yaml,
    local_source_path,
    month_range,
    reference_errors,
    source_filename,
    source_instances,
)
from reprobe.errors import ConfigError


@pytest.fixture
def default_config() -> dict:
    return load_yaml(REPO / "config/config.yaml")


@pytest.mark.parametrize("name", ["config.yaml", "paper.yaml"])
def test_shipped_configs_are_valid(name):
    check_config(load_yaml(REPO / "config" / name))


@pytest.mark.parametrize("name", ["config.yaml", "paper.yaml"])
def test_defaults_are_filled_as_snakemake_validate_fills_them(name):
    from snakemake.utils import validate

    ours, snakemakes = load_yaml(REPO / "config" / name), load_yaml(REPO / "config" / name)
    fill_defaults(ours)
    validate(snakemakes, str(REPO / "workflow/schemas/config.schema.yaml"))
    assert ours == snakemakes


def test_an_absent_setting_takes_the_schema_default(default_config):
    default_config["download"] = {"retries": 9}
    fill_defaults(default_config)
    assert default_config["download"]["retries"] == 9
    assert default_config["download"]["backoff"] == 2.0


def test_misspelled_key_is_named(default_config):
    default_config["wikipedia"]["shardz"] = 3
    with pytest.raises(ConfigError, match=r"unknown key wikipedia\.shardz"):
        check_config(default_config)


def test_wrong_type_is_named(default_config):
    default_config["wikipedia"]["shards"] = "four"
    with pytest.raises(ConfigError, match=r"wikipedia\.shards: 'four' is not of type 'integer'"):
        check_config(default_config)


def test_missing_source_reference_is_named(default_config):
    default_config["wikipedia"]["dump"] = "no_such_dump"
    with pytest.raises(ConfigError, match=r"wikipedia\.dump: no source named 'no_such_dump'"):
        check_config(default_config)


def test_bad_sha256_is_named(default_config):
    default_config["sources"]["enwiki_excerpt"]["sha256"] = "abc"
    with pytest.raises(ConfigError, match=r"sources\.enwiki_excerpt\.sha256"):
        check_config(default_config)


def test_source_needs_exactly_one_of_url_and_path(default_config):
    default_config["sources"]["both"] = {"url": "https://example.org/a", "path": "a"}
    with pytest.raises(ConfigError, match=r"sources\.both: a source needs exactly one"):
        check_config(default_config)


def test_months_expand_to_one_source_a_month():
    config = {"variables": {"host": "https://example.org"}, "sources": {"rs": {
        "url": "{host}/RS_{month}.zst", "months": {"first": "2017-11", "last": "2018-02"}}}}
    sources = expand_sources(config)
    assert list(sources) == ["rs_2017_11", "rs_2017_12", "rs_2018_01", "rs_2018_02"]
    assert sources["rs_2018_01"]["url"] == "https://example.org/RS_2018-01.zst"
    assert source_filename(sources["rs_2018_01"]) == "RS_2018-01.zst"
    assert "months" not in sources["rs_2018_01"]


def test_undefined_placeholder_is_named():
    config = {"sources": {"dump": {"url": "https://x.org/{date}/d.bz2"}}}
    with pytest.raises(ConfigError, match=r"sources\.dump\.url: undefined placeholder \{date\}"):
        expand_sources(config)


def test_month_range_crosses_years():
    assert month_range("2019-12", "2020-01") == ["2019-12", "2020-01"]


def test_package_path_is_found_in_the_installed_package(default_config):
    spec = default_config["sources"]["enwiki_excerpt"]
    assert local_source_path(spec, "enwiki_excerpt").is_file()
    with pytest.raises(ConfigError, match="not installed"):
        local_source_path({"path": "x", "package": "no_such_package_xyz"}, "s")


def test_fetch_arguments_carry_checksum_and_retry_settings():
    spec = {"url": "https://x.org/a.gz", "sha256": "0" * 64, "size": 10}
    args = fetch_arguments(spec, {"retries": 3, "backoff": 1.0, "timeout": 5}, "a")
    assert args[0] == "--url=https://x.org/a.gz"
    assert f"--sha256={'0' * 64}" in args and "--size=10" in args and "--retries=3" in args
    assert fetch_arguments({"path": "-train.tsv"}, {}, "a") == ["--path=-train.tsv"]


def test_snakemake_rejects_a_typo_before_any_rule(tmp_path, default_config):
    broken = copy.deepcopy(default_config)
    broken["wikipedia"]["shardz"] = 3
    configfile = tmp_path / "broken.yaml"
    configfile.write_text(yaml.safe_dump(broken))
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "-s", str(REPO / "Snakefile"),
         "-d", str(tmp_path / "work"), "--configfile", str(configfile)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "shardz" in result.stdout + result.stderr
    assert not (tmp_path / "work" / "data").exists()


BROKEN_YAML = "seed: 1\nsources:\n  a: {path: x\n  b: 2\n"  # the flow mapping is never closed


def test_yaml_syntax_error_names_file_line_and_column(tmp_path):
    configfile = tmp_path / "broken.yaml"
    configfile.write_text(BROKEN_YAML)
    with pytest.raises(ConfigError) as error:
        load_yaml(configfile)
    message = str(error.value)
    assert message == (f"{configfile}:4:4: not valid YAML: expected ',' or '}}', but got ':' "
                       "(while parsing a flow mapping at line 3, column 6)")


def test_snakemake_names_file_line_and_column_of_a_yaml_error_in_the_config(tmp_path):
    # The embedded default, config/config.yaml of the working directory, as a new user edits it.
    work = tmp_path / "work"
    (work / "config").mkdir(parents=True)
    (work / "config/config.yaml").write_text(BROKEN_YAML)
    result = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "-s", str(REPO / "Snakefile"), "-d", str(work)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    lines = (result.stdout + result.stderr).splitlines()
    assert "config/config.yaml:4:4: not valid YAML: expected ',' or '}', but got ':' " \
        "(while parsing a flow mapping at line 3, column 6)" in lines


def test_the_sources_page_lists_every_paper_source():
    page = (REPO / "docs/sources.md").read_text(encoding="utf-8")
    for name in load_yaml(REPO / "config/paper.yaml")["sources"]:
        assert f"`{name}`" in page, name


def test_off_the_shelf_model_must_name_an_extracted_source(default_config):
    default_config["numeracy"]["off_the_shelf"]["X"] = {"source": "nope", "format": "glove_txt"}
    with pytest.raises(ConfigError, match=r"numeracy\.off_the_shelf\.X\.source"):
        check_config(default_config)
    default_config["numeracy"]["off_the_shelf"]["X"] = {
        "source": "gensim_lee_fasttext", "member": "a.txt", "format": "glove_txt"}
    with pytest.raises(ConfigError, match="is not extracted"):
        check_config(default_config)


def test_equate_inputs_must_name_defined_and_extracted_sources(default_config):
    equate = default_config["equate"]
    equate["inputs"]["aqua"] = {"source": "nope"}
    equate["inputs"]["jobs"] = {"source": "equate_jobs_sample", "member": "a.txt"}
    equate["inputs"]["reddit"] = ["equate_reddit_sample", "gone"]
    equate["neural"]["BERT"] = {"files": {"config.json": "missing_config"}}
    with pytest.raises(ConfigError) as error:
        check_config(default_config)
    message = str(error.value)
    for key in ("equate.inputs.aqua.source", "equate.inputs.jobs.member",
                "equate.inputs.reddit[1]", "equate.neural.BERT.files.config.json"):
        assert key in message, key


def test_neural_row_is_either_fetched_files_or_a_tiny_model(default_config):
    default_config["equate"]["neural"]["X"] = {"label_map": {"0": "entailment"}}
    with pytest.raises(ConfigError, match=r"equate\.neural\.X"):
        check_config(default_config)


def test_monthly_source_stands_for_all_its_months():
    config = {"sources": {"rs": {"url": "https://h/RS_{month}.zst",
                                 "months": {"first": "2018-11", "last": "2019-01"}},
                          "one": {"url": "https://h/one.zst"}}}
    assert source_instances(config, "rs") == ["rs_2018_11", "rs_2018_12", "rs_2019_01"]
    assert source_instances(config, "one") == ["one"]


def test_relative_sample_path_resolves_against_the_checkout(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = {"path": "data/samples/equate/jobs.txt"}
    assert local_source_path(spec) == REPO / "data/samples/equate/jobs.txt"
    (tmp_path / "data/samples/equate").mkdir(parents=True)
    (tmp_path / "data/samples/equate/jobs.txt").write_text("own copy\n")
    assert local_source_path(spec) == Path("data/samples/equate/jobs.txt")


def test_numeracy_needs_the_wikipedia_section(default_config):
    del default_config["wikipedia"]
    with pytest.raises(ConfigError, match=r"numeracy: its Num/All corpora .* no `wikipedia`"):
        check_config(default_config)
    del default_config["numeracy"]
    check_config(default_config)


def test_a_missing_config_file_is_one_line(tmp_path, caplog):
    from reprobe.cli import main

    assert main(["config-check", str(tmp_path / "MISSING.yaml")]) == 1
    assert [record.getMessage() for record in caplog.records] == [
        f"{tmp_path / 'MISSING.yaml'}: no such config file"]


def test_source_references_are_found_from_the_schema_in_every_section():
    # With no source defined, every key the schema marks `x-source` is named: no section needs
    # a hand-written check.
    config = load_yaml(REPO / "config/paper.yaml")
    fill_defaults(config)
    named = [problem.split(":")[0] for problem in reference_errors({**config, "sources": {}})]
    for key in ("wikipedia.dump", "wikipedia.index", "numeracy.off_the_shelf.GloVe-6B-50D.source",
                "equate.inputs.reddit[0]", "equate.released.rte_quant.source",
                "numersense.inputs.omcs.source", "numersense.gold.core.source",
                "wikipse.released.train.source", "wikipse.senteval.tasks.MR.pos.source"):
        assert key in named, key
    assert {key.split(".")[0] for key in named} == {"wikipedia", "numeracy", "equate",
                                                    "numersense", "wikipse"}
    assert any(key.startswith("equate.neural.") and ".files." in key for key in named)


def test_a_member_of_an_unextracted_source_is_named(default_config):
    fill_defaults(default_config)
    name = default_config["numersense"]["inputs"]["omcs"]["source"]
    default_config["numersense"]["inputs"]["omcs"]["member"] = "x.tsv"
    default_config["sources"][name].pop("extract", None)
    assert f"numersense.inputs.omcs.member: source {name!r} is not extracted (extract: true)" \
        in reference_errors(default_config)


def test_a_fetch_reads_the_local_file_or_the_checksum_list(tmp_path):
    local = tmp_path / "a.txt"
    local.write_text("x", encoding="utf-8")
    sources = {"local": {"path": str(local)},
               "dump": {"url": "https://x/d.bz2", "sha1sums": "sums"},
               "sums": {"url": "https://x/sha1sums.txt"}}
    assert fetch_inputs(sources, "local", "a.txt") == [str(local)]
    assert fetch_inputs(sources, "dump", "d.bz2") == ["data/raw/sums/sha1sums.txt"]
    assert fetch_inputs(sources, "sums", "sha1sums.txt") == []
    with pytest.raises(ConfigError, match="source local is stored as a.txt, not b.txt"):
        fetch_inputs(sources, "local", "b.txt")
