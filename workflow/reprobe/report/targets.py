"""What the report rule reads, and its pages, arguments, category and labels, from the config.

`workflow/rules/report.smk` only wires: `ReportTargets` is built from the config and from the
table lists the stage rule files set, and its methods take Snakemake's `wildcards` so that the
rule names them directly as input, params and report functions. A paper is a folder of
`results/tables/`; its page reads every table file listed there, and (found on disk by the page
command, since the tables are built after them) the cards under `data/processed/<paper>/`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from reprobe.config import expand_sources, named_sources, source_filename, source_instances

TABLES = "results/tables"
PAGES = "results/report"
DATA = "data/processed"
# How the folders of results/tables/ that are no paper's are named in the report; a paper's
# folder by its stage's title (reprobe.stages, given to ReportTargets), any other by its name.
TITLES = {"corpus": "Wikipedia corpus statistics"}
# The config sections a folder's tables come from (default: the section named like the folder).
SECTIONS = {"corpus": ("wikipedia", "download", "variables")}
# Shown on every page: they bear on every number.
SHARED_SECTIONS = ("seed", "report")


def paper_of(path: str) -> str | None:
    """The folder of results/tables/ a table path is in, None for any other path."""
    parts = Path(path).parts
    prefix = Path(TABLES).parts
    if len(parts) != len(prefix) + 2 or parts[:len(prefix)] != prefix:
        return None
    return parts[len(prefix)]


def tables_by_paper(outputs: Iterable[str]) -> dict[str, list[str]]:
    """The table files of each paper, in the order the stages list them, without repeats."""
    papers: dict[str, list[str]] = {}
    for path in dict.fromkeys(str(output) for output in outputs):
        paper = paper_of(path)
        if paper is not None:
            papers.setdefault(paper, []).append(path)
    return papers


class ReportTargets:
    """The report's pages and each page's inputs and arguments for one configuration."""

    def __init__(self, config: Mapping[str, Any], outputs: Iterable[str],
                 titles: Mapping[str, str]) -> None:
        self.config = config
        self.titles = {**TITLES, **titles}
        self.tables = tables_by_paper(outputs)
        self.papers = list(self.tables)
        self.pages = [f"{PAGES}/{paper}.html" for paper in self.papers]
        self.expanded = expand_sources(dict(config))
        self.sources = {paper: self._paper_sources(paper) for paper in self.papers}

    def sections(self, paper: str) -> tuple[str, ...]:
        """The config sections a paper's tables come from."""
        return SECTIONS.get(paper, (paper,))

    def _named(self, sections: Iterable[str]) -> list[str]:
        """The configured sources the given config sections name."""
        values = [self.config.get(section) for section in sections]
        return named_sources(values, self.config.get("sources", {}))

    def unnamed_sources(self) -> list[str]:
        """The configured sources no section names (shown on the corpus page)."""
        named = set(self._named(key for key in self.config if key != "sources"))
        return [name for name in self.config.get("sources", {}) if name not in named]

    def _paper_sources(self, paper: str) -> list[str]:
        """The sources a paper's sections name; the corpus page also takes those none names."""
        names = self._named(self.sections(paper))
        if paper == "corpus":
            names += [name for name in self.unnamed_sources() if name not in names]
        return [instance for name in names for instance in source_instances(
            dict(self.config), name)]

    def table_files(self, wildcards: Any) -> list[str]:
        """Input: every table file of the page's paper."""
        return self.tables[wildcards.paper]

    def title(self, paper: str) -> str:
        """The paper's name in the report."""
        tier = self.config.get("report", {}).get("tier")
        return self.titles.get(paper, paper) + (f" ({tier})" if tier else "")

    def category(self, wildcards: Any) -> str:
        """The report category of a page: the paper's name."""
        return self.title(wildcards.paper)

    def page_config(self, paper: str) -> dict[str, Any]:
        """The config a page shows: the paper's sections and the shared keys, as run."""
        keys = (*self.sections(paper), *SHARED_SECTIONS)
        return {key: self.config[key] for key in keys if key in self.config}

    def page_sources(self, paper: str) -> dict[str, dict[str, Any]]:
        """The paper's sources as fetched: each spec with the file it is fetched into, and
        `named: false` on one that no config section names."""
        unnamed = {instance for name in self.unnamed_sources()
                   for instance in source_instances(dict(self.config), name)}
        return {name: {**self.expanded[name], "file": f"data/raw/{name}/"
                       f"{source_filename(self.expanded[name])}",
                       **({"named": False} if name in unnamed else {})}
                for name in self.sources[paper]}

    def arguments(self, wildcards: Any) -> list[str]:
        """Params: the `reprobe report page` options for the page, as argument tokens."""
        paper = wildcards.paper
        return [f"--title={self.title(paper)}",
                f"--tolerance={self.config['report']['tolerance']}",
                f"--cards-under={DATA}/{paper}",
                # Not inputs: the page shows the cost of whatever of its jobs has run.
                "--benchmarks-under=logs",
                f"--config-json={json.dumps(self.page_config(paper), ensure_ascii=False)}",
                f"--sources-json={json.dumps(self.page_sources(paper), ensure_ascii=False)}"]

    def labels(self, wildcards: Any) -> dict[str, str]:
        """The report listing's columns for a page: the paper's folder, its tables, how many
        numbers are within tolerance (read from the page's summary once it is written)."""
        labels = {"page": wildcards.paper}
        summary = Path(f"{PAGES}/{wildcards.paper}.json")
        if summary.is_file():
            written = json.loads(summary.read_text(encoding="utf-8"))
            counts = written["counts"]
            labels["tables"] = str(len(written["tables"]))
            labels[f"within {written['tolerance_text']}"] = (
                f"{counts['within']} of {counts['compared']}" + (
                    " (stand-in data)" if counts.get("stand_in") else ""))
        return labels
