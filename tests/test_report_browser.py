"""The offline report in a browser: `snakemake --report` opened in headless Chromium with the
network cut; under each paper, its page shows the title of every table the default run plans,
opens with the banner that says it is made from stand-in data (the default config's samples),
and counts none of its numbers against the paper's.

The tables are hand-made by default, one for each table path the default config plans (each
with its own title), so that the test takes seconds instead of a six-minute run. Pointed at a
finished default run (`REPROBE_REPORT_RUN=<its folder>`), it reads that run's own tables and
saves the screenshot README shows, docs/report.png; otherwise the screenshot goes to a temporary
folder.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import REPO, missing_tool

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAh"
                       "KmMIQAAAABJRU5ErkJggg==")
# One number within 5% of the paper's, one further: both marks show.
CELLS = ("| model | BC-MAG | SC-MAG |\n|:--|:--|:--|\n"
         "| Random | 50.62 (49.71, +0.91) | 6 (1, +5) |\n")


def snakemake(workdir: Path, *args: str) -> str:
    """Run Snakemake on the default config in `workdir`; its standard output."""
    command = [sys.executable, "-m", "snakemake", *args, "--cores", "1",
               "-s", str(REPO / "Snakefile"), "-d", str(workdir),
               "--configfile", str(REPO / "config/config.yaml")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def planned_files(workdir: Path) -> list[str]:
    """Every file the default target plans, from Snakemake's summary."""
    lines = snakemake(workdir, "-n", "all", "--summary").splitlines()
    return [line.split("\t")[0] for line in lines[1:] if "\t" in line]


def write_hand_made_tables(workdir: Path, tables: list[str]) -> None:
    """A stand-in for each planned table file: a titled Markdown table, a CSV, a figure."""
    for name in tables:
        path = workdir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".md":
            path.write_text(f"# Title of {path.parent.name}/{path.stem}\n\n{CELLS}",
                            encoding="utf-8")
        elif path.suffix == ".png":
            path.write_bytes(PNG)
        else:
            path.write_text("model,setting,metric,n,value,paper_n,paper,delta\n"
                            "Random,,BC-MAG,33,50.62,,49.71,0.91\n")


def expected_titles(workdir: Path, tables: list[str]) -> dict[str, list[str]]:
    """Per paper, each planned table's title: its Markdown's `# ` first line, else its stem."""
    titles: dict[str, list[str]] = {}
    for stem in dict.fromkeys(str(Path(name).with_suffix("")) for name in tables):
        md = workdir / f"{stem}.md"
        first = md.read_text(encoding="utf-8").split("\n", 1)[0] if md.is_file() else ""
        title = first[2:].strip() if first.startswith("# ") else Path(stem).name
        titles.setdefault(Path(stem).parent.name, []).append(title)
    return titles


def check_stand_in_page(frame, summary: dict) -> None:
    """The default config is made of samples: the page opens with a banner naming them, and
    none of its numbers is counted (greyed, a plumbing check), though they sit beside the
    paper's; the first column stays in view of a wide table."""
    banner = frame.locator("#stand-in")
    assert banner.is_visible() and "stand-in data" in banner.inner_text()
    assert summary["stand_in"]["sources"], summary["title"]
    counts = summary["counts"]
    assert counts["within"] == counts["beyond"] == counts["compared"] == 0, counts
    assert frame.locator("td.within, td.beyond, .mark").count() == 0
    tally = frame.locator("p.tally").first.inner_text()
    if counts["stand_in"]:
        assert frame.locator("section td.stand-in").count() == counts["stand_in"]
        assert f"{counts['stand_in']} from stand-in data" in tally and "not counted" in tally
        first = frame.locator(".scroll tbody td:first-child").first
        assert first.evaluate("td => getComputedStyle(td).position") == "sticky"


@pytest.fixture
def report(tmp_path: Path) -> Iterator[tuple[Path, Path, dict[str, list[str]], bool]]:
    """The report of the default run's tables: (report, workdir, titles by paper, real run?)."""
    if CHROMIUM is None:
        missing_tool("Chromium is not installed (apt-get install -y --no-install-recommends "
                     "chromium): the report cannot be rendered")
    if importlib.util.find_spec("playwright") is None:
        missing_tool("playwright is not installed (pip install -e '.[test]')")
    run = os.environ.get("REPROBE_REPORT_RUN")
    workdir = Path(run) if run else tmp_path / "run"
    workdir.mkdir(exist_ok=True)
    planned = planned_files(workdir)
    tables = [name for name in planned if name.startswith("results/tables/")]
    pages = [name for name in planned if name.startswith("results/report/")
             and name.endswith(".html")]
    assert tables and pages
    if not run:
        write_hand_made_tables(workdir, tables)
    # Only the pages are built: the tables are there, nothing upstream is to run again.
    snakemake(workdir, *pages, "--allowed-rules", "report_page")
    html = tmp_path / "report.html"
    snakemake(workdir, "--report", str(html))
    yield html, workdir, expected_titles(workdir, tables), bool(run)


def test_every_planned_table_shows_its_title_in_the_report(report, tmp_path):
    from playwright.sync_api import sync_playwright

    html, workdir, titles, real_run = report
    outside: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1600, "height": 1000})

        def offline(route):
            # The report must read nothing but itself: anything else is recorded and refused.
            if route.request.url.startswith(("file:", "data:")):
                route.continue_()
            else:
                outside.append(route.request.url)
                route.abort()

        page.route("**/*", offline)
        # EQUATE's page last: the last page opened is the one pictured.
        for paper in sorted(titles, key=lambda name: name == "equate"):
            summary = json.loads((workdir / f"results/report/{paper}.json").read_text())
            page.goto(html.as_uri())
            page.get_by_role("link", name=summary["title"], exact=True).click()
            page.locator("tbody tr").first.locator("a").first.click()  # the eye: view the page
            frame = page.frame_locator("iframe")
            frame.locator("h1").wait_for()
            shown = frame.locator("h2").all_inner_texts()
            for title in titles[paper]:
                assert any(h == title or h.startswith(f"{title} (") for h in shown), (
                    paper, title, shown)
            check_stand_in_page(frame, summary)
        screenshot = REPO / "docs" / "report.png" if real_run else tmp_path / "report.png"
        screenshot.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(screenshot))
        browser.close()
    assert outside == []
    assert screenshot.stat().st_size > 10_000
