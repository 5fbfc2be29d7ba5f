"""Tables, figures and report pages by name: the listing `reprobe targets` prints, and the
closest names the workflow gives for a target no rule makes (at plan time, dry runs too)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from reprobe.cli import main
from reprobe.estimate.targets_list import (
    UnknownResult,
    closest_names,
    grouped,
    markdown_title,
    target_lines,
    title_from_name,
    unknown_message,
    written_pages,
)

KNOWN = ["results/tables/numersense/table2_rebuilt.csv",
         "results/tables/numersense/table2_released.csv",
         "results/tables/numersense/table3.csv",
         "results/tables/equate/table6_released_conll.csv",
         "results/tables/equate/table6_rebuilt_arxiv.csv",
         "results/report/numersense.html"]


def test_a_tables_files_are_one_entry_by_stem() -> None:
    found = grouped(["results/tables/numersense/figure3.csv", "data/x.csv",
                     "results/tables/numersense/figure3.png", "results/report/numersense.html",
                     "results/report/numersense.json"])
    assert found == {"results/tables/numersense/figure3": ["csv", "png"],
                     "results/report/numersense": ["html", "json"]}


def test_a_title_comes_from_the_stage_titles_else_the_name() -> None:
    titles = {"table2": "Table 2: hit@k", "s5.1": "§5.1"}
    assert title_from_name("table2_rebuilt", titles) == "Table 2: hit@k (rebuilt)"
    assert title_from_name("table2", titles) == "Table 2: hit@k"
    assert title_from_name("figure3a_authors_corpus", {}) == "Figure 3a (authors corpus)"
    assert title_from_name("wikipedia_stats", {}) == "wikipedia stats"


def test_a_written_tables_heading_is_its_title(tmp_path: Path) -> None:
    table = tmp_path / "results/tables/numersense/table3"
    table.parent.mkdir(parents=True)
    table.with_suffix(".md").write_text("# Table 3: as written\n\n| a |\n", encoding="utf-8")
    assert markdown_title(table.with_suffix(".md")) == "Table 3: as written"
    lines = target_lines([f"{'results/tables/numersense/table3'}.{ext}" for ext in ("csv", "md")]
                         + ["results/report/numersense.html", "results/tables/equate/t.csv"],
                         tmp_path, paper="numersense")
    assert len(lines) == 2
    assert re.match(r"results/tables/numersense/table3\.\{csv,md\} +table +Table 3: as written$",
                    lines[0])
    assert lines[1].startswith("results/report/numersense.html")
    assert "page" in lines[1] and "NumerSense" in lines[1]


def test_the_closest_names_begin_with_the_one_asked_for() -> None:
    assert closest_names("results/tables/numersense/table2.csv", KNOWN) == KNOWN[:2]
    assert closest_names("results/tables/equate/table6.csv", KNOWN) == [KNOWN[4], KNOWN[3]]
    assert closest_names("results/tables/numersense/tabel3.csv", KNOWN)[0] == KNOWN[2]
    assert "did you mean results/report/numersense.html" in unknown_message(
        "results/report/numersens.html", KNOWN)


def test_the_last_resort_matches_only_what_no_target_names() -> None:
    unknown = UnknownResult([*KNOWN, "data/processed/x.csv"])
    pattern = re.compile(unknown.constraint())
    for known in ("tables/numersense/table2_rebuilt.csv", "tables/numersense/table2_rebuilt.md",
                  "report/numersense.html", "report/numersense.json", "equate/scores/x.csv"):
        assert not pattern.fullmatch(known), known
    for unknown_name in ("tables/numersense/table2.csv", "tables/equate/table6.csv",
                         "report/numersens.html", "figures/numersense/figure3.png"):
        assert pattern.fullmatch(unknown_name), unknown_name
    with pytest.raises(Exception, match="did you mean results/tables/numersense/table2_rebuilt"):
        unknown.refuse(type("Wildcards", (), {"result": "tables/numersense/table2.csv"})())


def test_only_the_pages_on_disk_are_listed_in_the_report(tmp_path: Path) -> None:
    (tmp_path / "results/report").mkdir(parents=True)
    (tmp_path / "results/report/corpus.html").write_text("<html/>", encoding="utf-8")
    assert written_pages(["corpus", "numersense"], tmp_path) == ["corpus"]


def snakemake(tmp: Path, *arguments: str) -> subprocess.CompletedProcess:
    """Snakemake on the default config in a scratch folder."""
    return subprocess.run([sys.executable, "-m", "snakemake", *arguments, "-s",
                           str(REPO / "Snakefile"), "-d", str(tmp)],
                          capture_output=True, text=True, timeout=180, cwd=REPO)


def test_a_wrong_table_name_fails_the_dry_run_with_the_closest(tmp_path: Path) -> None:
    done = snakemake(tmp_path, "-n", "results/tables/numersense/table2.csv")
    assert done.returncode != 0
    said = done.stdout + done.stderr
    assert "MissingRuleException" not in said
    assert re.search(r"results/tables/numersense/table2\.csv is no table, figure or report "
                     r"page of this config: did you mean .*table2_rebuilt\.csv", said), said[-2000:]


def test_the_report_of_a_partial_run_shows_what_exists(tmp_path: Path) -> None:
    # One page written, the others not: the report shows that one (it failed on the first
    # page missing).
    (tmp_path / "results/report").mkdir(parents=True)
    (tmp_path / "results/report/corpus.html").write_text("<p>corpus page</p>", encoding="utf-8")
    done = snakemake(tmp_path, "--report", "results/report.html")
    assert done.returncode == 0, (done.stdout + done.stderr)[-2000:]
    assert "marked for report but does not exist" not in done.stdout + done.stderr
    report = (tmp_path / "results/report.html").read_text(encoding="utf-8")
    assert "corpus.html" in report and "numersense.html" not in report


def test_reprobe_targets_lists_a_papers_tables_and_page(capsys) -> None:
    assert main(["targets", "--paper", "numersense"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("results/tables/numersense/table2_rebuilt.{csv,md} ")
               and "Table 2" in line for line in lines)
    assert lines[-1].startswith("results/report/numersense.{html,json} ")
    assert not [line for line in lines if "numersense" not in line.split()[0]]
