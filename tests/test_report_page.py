"""A paper's page built from a small hand-made results folder: every table, figure, card,
source and the config on one self-contained page, with a JSON tally beside it."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest

from reprobe.report.page import group_table_files, write_paper_page

# A 1×1 PNG: the page embeds whatever figure the stage drew.
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAh"
                       "KmMIQAAAABJRU5ErkJggg==")
TABLE2_MD = """# Table 2: magnitude tests (cosine, % accuracy)

- Each cell: ours (paper, Δ = ours − paper).

| model                      | OVA-MAG            | BC-MAG              |
|:---------------------------|:-------------------|:--------------------|
| Random                     | 6.06 (0.04, +6.02) | 50.62 (49.71, +0.91) |
| GloVe — NA (not configured) | — (7.7)           | — (82.48)           |
"""
TABLE6_MD = "# Table 6: accuracy on EQUATE\n\n| model | RTE-Q |\n|:--|:--|\n| MAJ | 57.14 |\n"


@pytest.fixture
def results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """A working folder with one paper's tables, a figure and a card; returns the table list."""
    monkeypatch.chdir(tmp_path)
    tables = Path("results/tables/demo")
    tables.mkdir(parents=True)
    (tables / "table2.md").write_text(TABLE2_MD, encoding="utf-8")
    (tables / "table2.csv").write_text("model,setting,metric,n,value,paper_n,paper,delta\n")
    (tables / "filters.csv").write_text("rule,dropped\nno_number_word,16\n")
    (tables / "figure3a.csv").write_text("series,level,value,n\nSSKIP word,0.1,0.5,2\n")
    (tables / "figure3a.png").write_bytes(PNG)
    for variant in ("released", "rebuilt"):
        (tables / f"table6_{variant}.md").write_text(TABLE6_MD, encoding="utf-8")
        (tables / f"table6_{variant}.csv").write_text("model,value\nMAJ,57.14\n")
    card = Path("data/processed/demo/rebuilt/core.card.json")
    card.parent.mkdir(parents=True)
    card.write_text(json.dumps({"probes": 83}))
    return [tables / name for name in ("table2.csv", "filters.csv", "figure3a.csv",
                                       "table6_released.csv", "table6_rebuilt.csv")]


# The paper's data, fetched: its numbers are judged against the paper's.
FETCHED = {"demo_data": {"url": "https://example.org/demo.txt", "sha256": "0" * 64, "size": 10,
                         "file": "data/raw/demo_data/demo.txt"}}
# A sample shipped with the project: a stand-in, its numbers a plumbing check.
SAMPLE = {"demo_sample": {"path": "data/samples/demo.txt", "sha256": "0" * 64, "size": 10,
                          "file": "data/raw/demo_sample/demo.txt"}}


def build(tables: list[Path], tolerance: float = 0.05,
          sources: dict | None = None) -> tuple[str, dict]:
    """Write the demo page (from the fetched source unless told); its HTML and summary."""
    summary = write_paper_page(
        Path("results/report/demo.html"), Path("results/report/demo.json"), "Demo et al. 2024",
        tables, [Path("data/processed/demo/rebuilt/core.card.json")],
        FETCHED if sources is None else sources,
        {"seed": 1, "report": {"tolerance": tolerance}}, tolerance)
    return Path("results/report/demo.html").read_text(encoding="utf-8"), summary


def headings(html: str) -> list[str]:
    """The text of every <h2>."""
    return re.findall(r"<h2>(.*?)</h2>", html)


def test_every_table_appears_under_its_title(results):
    html, summary = build(results)
    assert headings(html)[:5] == [
        "Table 2: magnitude tests (cosine, % accuracy)", "filters", "figure3a",
        "Table 6: accuracy on EQUATE (table6_released)",
        "Table 6: accuracy on EQUATE (table6_rebuilt)"]
    assert [t["title"] for t in summary["tables"]] == headings(html)[:5]


def test_the_page_tallies_what_is_within_the_tolerance(results):
    html, summary = build(results)
    assert summary["counts"] == {"compared": 2, "within": 1, "beyond": 1, "paper_only": 2,
                                 "stand_in": 0}
    assert "2 numbers beside the paper's: 1 within 5% (✓), 1 further (✗)" in html
    assert json.loads(Path("results/report/demo.json").read_text()) == summary
    assert 'id="stand-in"' not in html and summary["stand_in"] == {"sources": [], "rows": []}


def test_a_page_from_samples_says_so_and_counts_none_of_its_numbers(results):
    html, summary = build(results, sources=SAMPLE)
    banner = html.index('id="stand-in"')
    assert banner < html.index('<p class="tally">') and "<code>demo_sample</code>" in html
    assert summary["counts"] == {"compared": 0, "within": 0, "beyond": 0, "paper_only": 2,
                                 "stand_in": 2}
    assert summary["stand_in"]["sources"] == ["demo_sample"]
    assert "No number here is counted against the paper's; 2 from stand-in data" in html
    assert '<span class="mark">' not in html and html.count('<td class="stand-in') == 2


def test_a_stricter_tolerance_marks_more(results):
    _, summary = build(results, tolerance=0.01)
    assert summary["counts"]["beyond"] == 2


def test_figures_cards_sources_and_config_are_on_the_page(results):
    html, _ = build(results)
    assert f"data:image/png;base64,{base64.b64encode(PNG).decode()}" in html
    assert "<summary>data</summary>" in html  # the figure's numbers, folded under it
    assert "data/processed/demo/rebuilt/core.card.json" in html and "<td>83</td>" in html
    assert "0" * 64 in html and "not fetched" in html and "example.org/demo.txt" in html
    assert "report:\n  tolerance: 0.05" in html


def test_the_page_needs_nothing_but_itself(results):
    html, _ = build(results)
    assert "<script" not in html and "<link" not in html
    assert re.findall(r'src="([^"]{5})', html) == ["data:"]


def test_the_same_inputs_write_the_same_bytes(results):
    first, _ = build(results)
    second, _ = build(results)
    assert first == second


def test_a_listed_markdown_and_its_csv_are_one_table(results):
    files = group_table_files([Path("results/tables/demo/table2.csv"),
                               Path("results/tables/demo/table2.md")])
    assert len(files) == 1 and files[0].md is not None and files[0].png is None


def test_an_empty_csv_is_an_empty_table(results):
    Path("results/tables/demo/filters.csv").write_text("")
    html, _ = build(results)
    assert "<h2>filters</h2>" in html
