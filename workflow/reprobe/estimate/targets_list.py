"""Every table, figure and report page a configuration produces, by name and what it holds
(`reprobe targets`), and the closest of those names to one that is none of them (the workflow's
last-resort rule `unknown_result` says them when a target names no file a rule makes).

The names come from the run's own plan (Snakemake's dry run, reprobe.estimate.plan); what a
table holds from its title: the heading of its Markdown once written, before that the stage's
`TITLES` (each `reprobe.<stage>.…tables` module keeps its tables' titles, keyed by the name's
first part), else the name itself.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from reprobe.errors import ReprobeError

TABLES = "results/tables"
FIGURES = "results/figures"
PAGES = "results/report"
# What a stage's page is called when no stage has that name (reprobe.report.targets.TITLES).
FOLDER_TITLES = {"corpus": "Wikipedia corpus statistics"}
NUMBERED = re.compile(r"^(table|figure)(\d+[a-z]?)(?:_(.+))?$")
# What the last-resort rule's wildcard may match: a file of a results folder named above.
RESULT_FILE = r"(?:tables/[^/]+/[^/]+|figures/.+|report/[^/]+)"


def is_result(path: str) -> bool:
    """Whether a path is a table, a figure or a report page (or a file beside one)."""
    return path.startswith((f"{TABLES}/", f"{FIGURES}/", f"{PAGES}/"))


def stem_of(path: str) -> str:
    """A result's path without its extension: a table's CSV, Markdown and figure share it."""
    folder, _, name = path.rpartition("/")
    return f"{folder}/{name.split('.', 1)[0]}"


def grouped(paths: Iterable[str]) -> dict[str, list[str]]:
    """Result files by stem, each with its extensions, in the order first listed."""
    found: dict[str, list[str]] = {}
    for path in paths:
        if is_result(path):
            extension = path.rpartition("/")[2].partition(".")[2]
            found.setdefault(stem_of(path), [])
            if extension and extension not in found[stem_of(path)]:
                found[stem_of(path)].append(extension)
    return found


def folder_of(stem: str) -> str:
    """The paper folder a result belongs to (`corpus`, `numersense`, …)."""
    if stem.startswith(f"{PAGES}/"):
        return stem.rpartition("/")[2]
    return stem.split("/")[2] if stem.count("/") >= 3 else ""


def kind_of(stem: str, extensions: Iterable[str]) -> str:
    """`page`, `figure` or `table`."""
    if stem.startswith(f"{PAGES}/"):
        return "page"
    name = stem.rpartition("/")[2]
    return "figure" if name.startswith("figure") or "png" in extensions else "table"


@cache
def stage_titles(folder: str) -> dict[str, str]:
    """The titles a stage's `…tables` modules keep (`TITLES`), by the name's first part; none
    for a folder that is no stage. Loaded by name, as reprobe.stages loads stage commands."""
    try:
        package = importlib.import_module(f"reprobe.{folder}")
    except ImportError:
        return {}
    titles: dict[str, str] = {}
    names = [f"reprobe.{folder}.tables"] + sorted(
        info.name for info in pkgutil.walk_packages(getattr(package, "__path__", []),
                                                    f"reprobe.{folder}.")
        if info.name.endswith("tables") and info.name != f"reprobe.{folder}.tables")
    for name in names:
        try:
            found = getattr(importlib.import_module(name), "TITLES", {})
        except ImportError:
            continue
        titles.update({key: value for key, value in found.items()
                       if isinstance(value, str) and key not in titles})
    return titles


@cache
def stage_title(folder: str) -> str:
    """A paper's name in the report: its stage's title, else the folder's."""
    try:
        return importlib.import_module(f"reprobe.{folder}").STAGE.title
    except (ImportError, AttributeError):
        return FOLDER_TITLES.get(folder, folder)


def written_pages(papers: Iterable[str], root: Path = Path()) -> list[str]:
    """The papers whose report page is on disk (the report shows those; the others, when
    written, from the next invocation on)."""
    return [paper for paper in papers if (root / PAGES / f"{paper}.html").is_file()]


def markdown_title(path: Path) -> str | None:
    """The heading a written table's Markdown opens with, None when not written."""
    try:
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    except (OSError, UnicodeDecodeError):
        return None
    return first[2:].strip() if first.startswith("# ") else None


def title_from_name(name: str, titles: Mapping[str, str]) -> str:
    """A table's title from its name: the stage's title for its first part (the rest, the
    variant, in parentheses), else the name in words (`table2_rebuilt`: Table 2 (rebuilt))."""
    keys = [key for key in titles if name == key or name.startswith(f"{key}_")]
    if keys:
        key = max(keys, key=len)
        rest = name[len(key) + 1:].replace("_", " ")
        return titles[key] + (f" ({rest})" if rest else "")
    numbered = NUMBERED.match(name)
    if numbered:
        kind, number, rest = numbered.groups()
        return f"{kind.title()} {number}" + (f" ({rest.replace('_', ' ')})" if rest else "")
    return name.replace("_", " ")


def describe(stem: str, extensions: Iterable[str], root: Path) -> str:
    """What a result holds, in a few words."""
    folder = folder_of(stem)
    if kind_of(stem, extensions) == "page":
        return f"report page: {stage_title(folder)} (every table of {TABLES}/{folder}/)"
    written = markdown_title(root / f"{stem}.md") if "md" in extensions else None
    return written or title_from_name(stem.rpartition("/")[2], stage_titles(folder))


def ordered(found: Mapping[str, list[str]]) -> list[str]:
    """Stems by paper (in the order first listed), each paper's tables and figures in their
    listed order, its page last."""
    folders = list(dict.fromkeys(folder_of(stem) for stem in found))
    return sorted(found, key=lambda stem: (folders.index(folder_of(stem)),
                                           kind_of(stem, found[stem]) == "page"))


def papers_of(paths: Iterable[str]) -> list[str]:
    """The papers (folders of results/tables/) the results belong to, in the order listed."""
    return list(dict.fromkeys(folder_of(stem) for stem in grouped(paths)))


def target_lines(paths: Iterable[str], root: Path, paper: str | None = None) -> list[str]:
    """One line per table, figure and report page (listed as the `all` target lists them):
    its files, its kind and what it holds."""
    rows = []
    found = grouped(paths)
    for stem in ordered(found):
        extensions = found[stem]
        if paper is not None and folder_of(stem) != paper:
            continue
        files = (f"{stem}.{{{','.join(extensions)}}}" if len(extensions) > 1
                 else f"{stem}.{extensions[0]}" if extensions else stem)
        rows.append((files, kind_of(stem, extensions), describe(stem, extensions, root)))
    width = max((len(files) for files, _, _ in rows), default=0)
    return [f"{files:<{width}}  {kind:<6}  {what}" for files, kind, what in rows]


def closest_names(requested: str, known: Iterable[str], count: int = 6) -> list[str]:
    """The known results nearest a requested name: those of its folder whose name begins with
    it (`table2` → `table2_rebuilt.csv`), else the three most alike (difflib)."""
    known = sorted(set(known))
    stem = stem_of(requested)
    extension = requested.rpartition("/")[2].partition(".")[2]
    starting = [path for path in known if stem_of(path).startswith(f"{stem}_")]
    starting = [path for path in starting if path.endswith(f".{extension}")] or starting
    return starting[:count] or difflib.get_close_matches(requested, known, n=3, cutoff=0.6)


def unknown_message(requested: str, known: Iterable[str]) -> str:
    """What to say of a result no rule of this config makes: the closest names, or the
    command that lists them all."""
    near = closest_names(requested, known)
    hint = f"did you mean {', '.join(near)}?" if near else "no name is close"
    return (f"{requested} is no table, figure or report page of this config: {hint} "
            "(`reprobe targets` lists them all, with the same --configfile)")


class UnknownResult:
    """The last-resort rule for results/…: its wildcard matches only what no other target
    names, and its input refuses with the closest names (at plan time, dry runs included)."""

    def __init__(self, known: Iterable[str]) -> None:
        self.known = sorted({str(path) for path in known if is_result(str(path))})

    def constraint(self) -> str:
        """The wildcard's pattern (after `results/`): a result file of no known stem."""
        stems = sorted({re.escape(stem_of(path)[len("results/"):]) for path in self.known})
        taken = f"(?!(?:{'|'.join(stems)})(?:\\.[^/]*)?$)" if stems else ""
        return taken + RESULT_FILE

    def refuse(self, wildcards: Any) -> list[str]:
        """Input: none ever; raises with the closest known names."""
        raise ReprobeError(unknown_message(f"results/{wildcards.result}", self.known))
