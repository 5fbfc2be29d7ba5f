"""What the report rule reads: each paper's tables, its sources and config, its labels."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from types import SimpleNamespace

import pytest
from snakemake.utils import format as snakemake_format

from reprobe.cli import build_parser
from reprobe.config import CHECKOUT, load_yaml, named_sources
from reprobe.report.targets import ReportTargets, paper_of, tables_by_paper
from reprobe.stages import titles

OUTPUTS = ["results/tables/corpus/wikipedia_stats.csv", "results/tables/corpus/wikipedia_stats.md",
           "results/tables/numeracy/table1.csv", "results/tables/numeracy/table1.csv",
           "data/models/wikipse/skip-word-16", "results/tables/wikipse/figure3a.csv"]


def config() -> dict:
    """A small config: a monthly source, a source nobody names, and the report section."""
    return {
        "seed": 7, "report": {"tolerance": 0.05},
        "sources": {"dump": {"url": "https://example.org/dump.xml.bz2", "sha256": "ab" * 32},
                    "monthly": {"url": "https://example.org/RS_{month}.zst",
                                "months": {"first": "2005-11", "last": "2006-01"}},
                    "vectors": {"path": "data/samples/vectors.vec"},
                    "spare": {"path": "data/samples/spare.txt"}},
        "wikipedia": {"dump": "dump", "index": None},
        "numeracy": {"off_the_shelf": {"lee": {"source": "vectors", "format": "fasttext_vec"}}},
        "wikipse": {"reddit": ["monthly"], "note": "not a source"},
    }


def test_a_table_path_names_its_paper():
    assert paper_of("results/tables/equate/table6_released_conll.csv") == "equate"
    assert paper_of("data/models/wikipse/skip-word-16") is None
    assert paper_of("results/tables/equate/deeper/x.csv") is None


def test_tables_are_grouped_by_paper_in_order_without_repeats():
    assert tables_by_paper(OUTPUTS) == {
        "corpus": ["results/tables/corpus/wikipedia_stats.csv",
                   "results/tables/corpus/wikipedia_stats.md"],
        "numeracy": ["results/tables/numeracy/table1.csv"],
        "wikipse": ["results/tables/wikipse/figure3a.csv"]}


def test_one_page_per_paper():
    targets = ReportTargets(config(), OUTPUTS, titles())
    assert targets.pages == ["results/report/corpus.html", "results/report/numeracy.html",
                             "results/report/wikipse.html"]
    assert targets.table_files(SimpleNamespace(paper="numeracy")) == [
        "results/tables/numeracy/table1.csv"]


def test_sources_named_anywhere_in_a_value_are_found_once():
    value = [{"a": {"source": "x"}, "b": ["y", "x"]}, "z", 3]
    assert named_sources(value, ["x", "y"]) == ["x", "y"]


def test_a_paper_shows_the_sources_its_section_names_each_month_expanded():
    targets = ReportTargets(config(), OUTPUTS, titles())
    assert targets.sources["numeracy"] == ["vectors"]
    assert targets.sources["wikipse"] == ["monthly_2005_11", "monthly_2005_12",
                                          "monthly_2006_01"]


def test_the_corpus_page_also_shows_the_sources_no_section_names():
    targets = ReportTargets(config(), OUTPUTS, titles())
    assert targets.sources["corpus"] == ["dump", "spare"]
    shown = targets.page_sources("corpus")
    assert "named" not in shown["dump"] and shown["spare"]["named"] is False


def test_the_arguments_give_the_page_command_everything_it_shows():
    targets = ReportTargets(config(), OUTPUTS, titles())
    words = targets.arguments(SimpleNamespace(paper="wikipse"))
    # The rule passes them as {params.arguments:q}: each token quoted, the JSON's quotes kept.
    assert shlex.split(snakemake_format("{words:q}", words=words)) == words
    args = build_parser().parse_args(["report", "page", *words, "--output", "p.html",
                                      "--summary", "p.json", "t.csv"])
    assert args.title == "Yaghoobzadeh et al. 2019, Probing for Semantic Classes (WIKI-PSE)"
    assert args.tolerance == 0.05 and args.cards_under == "data/processed/wikipse"
    assert json.loads(args.config_json) == {
        "wikipse": config()["wikipse"], "seed": 7, "report": {"tolerance": 0.05}}
    sources = json.loads(args.sources_json)
    assert sources["monthly_2005_12"] == {"url": "https://example.org/RS_2005-12.zst",
                                          "file": "data/raw/monthly_2005_12/RS_2005-12.zst"}


def test_an_unknown_folder_is_named_by_itself():
    targets = ReportTargets(config(), ["results/tables/newpaper/table1.csv"], titles())
    assert targets.category(SimpleNamespace(paper="newpaper")) == "newpaper"
    assert targets.page_config("newpaper") == {"seed": 7, "report": {"tolerance": 0.05}}


def test_labels_carry_the_tally_once_the_page_is_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    targets = ReportTargets(config(), OUTPUTS, titles())
    paper = SimpleNamespace(paper="numeracy")
    assert targets.labels(paper) == {"page": "numeracy"}
    Path("results/report").mkdir(parents=True)
    Path("results/report/numeracy.json").write_text(json.dumps({
        "tolerance_text": "5%", "tables": [{}, {}],
        "counts": {"compared": 78, "within": 7, "beyond": 71, "paper_only": 3}}))
    assert targets.labels(paper) == {"page": "numeracy", "tables": "2", "within 5%": "7 of 78"}
    # A page from stand-in data: nothing counted, and the listing says why.
    Path("results/report/numeracy.json").write_text(json.dumps({
        "tolerance_text": "5%", "tables": [{}],
        "counts": {"compared": 0, "within": 0, "beyond": 0, "paper_only": 3, "stand_in": 9}}))
    assert targets.labels(paper)["within 5%"] == "0 of 0 (stand-in data)"


@pytest.mark.parametrize("name", ["config.yaml", "paper.yaml"])
def test_every_paper_section_of_the_shipped_configs_names_its_sources(name):
    shipped = load_yaml(CHECKOUT / "config" / name)
    outputs = [f"results/tables/{paper}/table.csv" for paper in
               ("corpus", "numeracy", "equate", "numersense", "wikipse")]
    targets = ReportTargets(shipped, outputs, titles())
    for paper in ("numeracy", "equate", "numersense", "wikipse"):
        assert targets.sources[paper], paper
    assert shipped["wikipedia"]["dump"] in targets.sources["corpus"]
    assert targets.page_config("equate")["report"] == {"tolerance": 0.05}


def test_a_tier_name_follows_each_page_title():
    tiered = config()
    tiered["report"] = {**tiered.get("report", {}), "tier": "released-data tier"}
    targets = ReportTargets(tiered, OUTPUTS, titles())
    assert targets.title("equate") == (
        "Ravichander et al. 2019, EQUATE (released-data tier)")
    assert ReportTargets(config(), OUTPUTS, titles()).title("equate") == \
        "Ravichander et al. 2019, EQUATE"
