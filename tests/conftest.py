"""Shared fixtures: the gensim Wikipedia excerpt, hand-written MediaWiki dumps, offline
Hugging Face libraries."""

from __future__ import annotations

import bz2
import importlib.util
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn
from xml.sax.saxutils import escape, quoteattr

import pytest
import requests

REPO = Path(__file__).resolve().parents[1]


def missing_tool(reason: str) -> NoReturn:
    """Skip a quality check whose tool is not installed; under CI (`CI` set) fail it instead,
    so that CI can never pass by skipping one."""
    if os.environ.get("CI", "") not in ("", "0", "false"):
        pytest.fail(f"{reason}; CI is set, where a quality check may not be skipped")
    pytest.skip(reason)
EXCERPT = "test/test_data/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
HEADER = """<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="en">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <namespaces>
      <namespace key="0" case="first-letter" />
      <namespace key="6" case="first-letter">File</namespace>
      <namespace key="10" case="first-letter">Template</namespace>
      <namespace key="14" case="first-letter">Category</namespace>
    </namespaces>
  </siteinfo>
"""
FOOTER = "</mediawiki>\n"


@dataclass(frozen=True)
class Page:
    """A page to write into a test dump."""

    page_id: int
    title: str
    text: str | None = ""
    redirect: str | None = None
    namespace: int = 0


def page_xml(page: Page) -> str:
    """One <page> element as a dump writes it."""
    redirect = f"    <redirect title={quoteattr(page.redirect)} />\n" if page.redirect else ""
    text = (
        "" if page.text is None
        else f'      <text xml:space="preserve">{escape(page.text)}</text>\n'
    )
    return (
        f"  <page>\n    <title>{escape(page.title)}</title>\n    <ns>{page.namespace}</ns>\n"
        f"    <id>{page.page_id}</id>\n{redirect}    <revision>\n      <id>{page.page_id + 9000}"
        f"</id>\n{text}    </revision>\n  </page>\n"
    )


def write_dump(path: Path, pages: list[Page]) -> Path:
    """Write a plain (single-stream) .xml.bz2 dump."""
    xml = HEADER + "".join(page_xml(page) for page in pages) + FOOTER
    path.write_bytes(bz2.compress(xml.encode("utf-8")))
    return path


def write_multistream_dump(
    path: Path, index: Path, pages: list[Page], pages_per_stream: int
) -> tuple[Path, Path]:
    """Write a multistream dump (header, page streams, footer) and its bz2 index."""
    blocks = [bz2.compress(HEADER.encode("utf-8"))]
    lines = []
    offset = len(blocks[0])
    for start in range(0, len(pages), pages_per_stream):
        group = pages[start:start + pages_per_stream]
        lines += [f"{offset}:{page.page_id}:{page.title}\n" for page in group]
        block = bz2.compress("".join(page_xml(page) for page in group).encode("utf-8"))
        blocks.append(block)
        offset += len(block)
    blocks.append(bz2.compress(FOOTER.encode("utf-8")))
    path.write_bytes(b"".join(blocks))
    index.write_bytes(bz2.compress("".join(lines).encode("utf-8")))
    return path, index


@pytest.fixture(scope="session")
def excerpt() -> Path:
    """The real Wikipedia excerpt that ships in gensim's test data."""
    spec = importlib.util.find_spec("gensim")
    assert spec is not None and spec.submodule_search_locations
    return Path(list(spec.submodule_search_locations)[0]) / EXCERPT


ARTICLE = """{{Infobox country|capital=[[Paris]]}}
'''Freedonia''' is a [[country]] in [[Europe|western Europe]] with {{convert|12|km}} of coast.<ref>See [[Hidden source]].</ref> It has 1,000 [[lake]]s.
[[File:Flag.png|thumb|The [[flag]]]]
{| class="wikitable"
| [[Table link]] || 42
|}
== History ==
In 1999 the [[Freedonian Party|party]] won. See [[Old Name]].
[[Category:Countries]]
[[de:Freedonien]]
"""


@pytest.fixture
def small_pages() -> list[Page]:
    """A handful of pages: an article with every kind of markup, redirects, other namespaces."""
    return [
        Page(1, "Freedonia", ARTICLE),
        Page(2, "Old Name", redirect="Freedonia"),
        Page(3, "Older Name", redirect="Old Name"),
        Page(4, "Template:Infobox country", "{{{capital}}}", namespace=10),
        Page(5, "Empty page", None),
        Page(6, "Lake", "A '''lake''' is a body of water. It is not the [[sea]]."),
        Page(7, "Loop A", redirect="Loop B"),
        Page(8, "Loop B", redirect="Loop A"),
    ]


@pytest.fixture
def session() -> Iterator[requests.Session]:
    """An HTTP session that ignores proxy settings from the environment (loopback stays local)."""
    with requests.Session() as http:
        http.trust_env = False
        yield http


@pytest.fixture
def hf_offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Hugging Face libraries read local folders only, caching under tmp_path (returned)."""
    for variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(variable, "1")
    cache = tmp_path / "hf-cache"
    monkeypatch.setenv("HF_DATASETS_CACHE", str(cache))
    if importlib.util.find_spec("datasets") is not None:
        import datasets

        # `datasets` reads these when first imported: another test may have imported it.
        monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
        monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True, raising=False)
        monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", cache, raising=False)
    return cache


# The one whole default run of the suite, shared by every end-to-end check; CI names its folder
# (REPROBE_DEFAULT_RUN) so that tests/cluster/run.sh compares the SLURM run with the same run.
DEFAULT_RUN_VARIABLE = "REPROBE_DEFAULT_RUN"


def default_run_report(workdir: Path) -> Path:
    """The figures benchmarks/default_run.py writes beside a finished run's folder."""
    return workdir.with_name(workdir.name + ".json")


@pytest.fixture(scope="session")
def default_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished default run: README's run command in a fresh copy of the project, timed by
    benchmarks/default_run.py. A folder named by REPROBE_DEFAULT_RUN that holds a finished run
    is read as it is; otherwise the run is made there (or in a temporary folder)."""
    named = os.environ.get(DEFAULT_RUN_VARIABLE)
    workdir = Path(named) if named else tmp_path_factory.mktemp("default-run") / "reprobe"
    report = default_run_report(workdir)
    if workdir.is_dir() and report.is_file():
        return workdir
    report.unlink(missing_ok=True)
    command = [sys.executable, str(REPO / "benchmarks/default_run.py"), "--cores",
               str(len(os.sched_getaffinity(0))), "--workdir", str(workdir), "--json",
               str(report)]
    # The run takes minutes (docs/benchmarks.md); the limit leaves room for a busy machine.
    result = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    workdir.with_name(workdir.name + ".md").write_text(result.stdout, encoding="utf-8")
    assert json.loads(report.read_text(encoding="utf-8"))["wall_s"] > 0
    return workdir


def freebase_kinds(types: Path, titles: Path, only: list[str] | None = None,
                   tmp: Path | None = None) -> dict[str, list[str]]:
    """Title -> its Freebase types (distinct, sorted) as typing joins them
    (`typing_spilled.freebase_source`), for the titles `only` names (every title of the titles
    table when None)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from reprobe.wikipedia.spilled import duckdb_within
    from reprobe.wikipse.resource.typing_spilled import freebase_source

    wanted = only if only is not None else pq.read_table(titles)["title"].to_pylist()
    with duckdb_within(64, tmp or titles.parent) as connection:
        connection.register("wanted", pa.table({"target": pa.array(wanted, pa.string())}))
        connection.execute("CREATE TEMP TABLE targets AS SELECT DISTINCT target FROM wanted")
        freebase_source(connection, types, titles)
        found = connection.execute(
            "SELECT s.title, list_sort(list_distinct(list(s.kind))) FROM source s "
            "JOIN targets t ON t.target = s.title GROUP BY s.title ORDER BY s.title").fetchall()
    return {title: list(kinds) for title, kinds in found}


def rule_options(rule: str) -> tuple[list[str], set[str]]:
    """The `reprobe` subcommand and the options a rule's shell names literally (the scale
    benchmark's tests check that each step runs its rule's command)."""
    text = "\n".join(path.read_text(encoding="utf-8")
                     for path in (REPO / "workflow" / "rules").glob("*.smk"))
    block = re.search(rf"^rule {rule}:\n(.*?)(?=^\S|\Z)", text, re.M | re.S)
    assert block, rule
    shell = " ".join(re.findall(r'"([^"]*)"', block[1].split("shell:", 1)[1]))
    words = shell.split("python -m reprobe ", 1)[1].split()
    # An option and its value are one word, `--output={output:q}`; `--` alone ends the options.
    return words[:2], {word.split("=", 1)[0] for word in words
                       if word.startswith("--") and word != "--"}


def option_values(arguments: list[str], option: str) -> list[str]:
    """The values a step's argument tokens give `option`, in order: the workflow writes each as
    one token, `--option=VALUE` (a value may begin with -), an option of several values once
    per value."""
    prefix = f"{option}="
    return [token.removeprefix(prefix) for token in arguments if token.startswith(prefix)]


def option_value(arguments: list[str], option: str) -> str:
    """The one value a step's argument tokens give `option` (`--option=VALUE`)."""
    values = option_values(arguments, option)
    assert len(values) == 1, f"{option}: {values} in {arguments}"
    return values[0]
