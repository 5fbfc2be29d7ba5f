"""The scale benchmark's shared types: a level (one size of a chain), a step, its paper job,
and the generic chains of generated released-like files (FilesChain) that stage modules
declare (scale_equate, scale_numersense, scale_wikipse_sets) without touching the core chains.

A files chain's level is a folder of generated files in the layout its rules read (a released
set, a dump, a checkpoint), written once and cached by its size; its counts (records, words,
…) are the report's details and its steps' sizes (`files_count`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

FILES_FORMAT_VERSION = 1  # bump when a files chain's writer changes: cached levels are rebuilt
# The whole-dump jobs' memory budget here (wikipedia.gather_memory_mb): the least that DuckDB's
# joins run in (32 MB does not), which the largest sizes fill. Their peak is then bounded by the
# largest size's plus this budget (scale_fit); the rules ask for the paper config's budget on
# top.
SPILL_BUDGET_MB = 64
SHARD_MB = 90.0  # a shard of the paper's dump: 256 shards of ~90 MB bz2 (issue 32)
SHARDS = 256


@dataclass(frozen=True)
class Level:
    """One size of a chain: its folder, its generated input and the run's settings."""

    chain: str
    size: int
    folder: Path
    info: Any  # the chain's info: WikiInfo, CorpusInfo, …, FilesInfo
    settings: dict[str, str]
    cores: int
    shards: int = 1  # shards that make one about the ladder's smallest size (a fixed shard)


def reprobe(*words: str | Path) -> list[str]:
    """`python -m reprobe …` with this interpreter."""
    return [sys.executable, "-m", "reprobe", *(str(word) for word in words)]


@dataclass(frozen=True)
class FilesInfo:
    """A files chain's generated level: its files by role and what they hold."""

    path: str  # the level's folder
    size: int  # the ladder's size (records, pairs, …: the chain says)
    files: dict[str, str]  # role -> path
    counts: dict[str, float]  # what the files hold, by name (the report's details)
    format_version: int = FILES_FORMAT_VERSION
    chain_version: int = 1  # the chain's writer version (FilesChain.version)


Writer = Callable[[Path, int], tuple[dict[str, Path], dict[str, float]]]


@dataclass(frozen=True)
class FilesChain:
    """A chain of generated files: its ladder of sizes by mode and its writer, which makes the
    files of one size in a folder and says what they hold."""

    name: str
    ladders: dict[str, list[int]]  # "tiny", "quick", "default" -> sizes
    write: Writer
    version: int = 1  # bump when the writer changes: its cached levels are rebuilt


def files_level(chain: FilesChain, folder: Path, size: int) -> FilesInfo:
    """A files chain's input at one size, written by its writer or found in the cache."""
    meta = folder / "files.json"
    if meta.is_file():
        found = FilesInfo(**json.loads(meta.read_text(encoding="utf-8")))
        if (found.size == size and found.format_version == FILES_FORMAT_VERSION
                and found.chain_version == chain.version
                and all(Path(p).exists() for p in found.files.values())):
            return found
    folder.mkdir(parents=True, exist_ok=True)
    files, counts = chain.write(folder, size)
    info = FilesInfo(str(folder), size, {role: str(path) for role, path in files.items()},
                     {name: float(value) for name, value in counts.items()},
                     chain_version=chain.version)
    meta.write_text(json.dumps(asdict(info), indent=1) + "\n", encoding="utf-8")
    return info


def files_count(name: str) -> Callable[[Level], float]:
    """A count a files level records (a step's size)."""
    def count(level: Level) -> float:
        """The count at one level."""
        assert isinstance(level.info, FilesInfo), level.chain
        return float(level.info.counts[name])
    return count


def file_of(level: Level, role: str) -> str:
    """The path of one of a files level's generated files."""
    assert isinstance(level.info, FilesInfo), level.chain
    return level.info.files[role]


CHAIN_DETAILS = {
    "wiki": ("XML MB", "pages", "redirects", "links", "sentences", "tokens", "distinct words"),
    "text": ("sentences", "distinct words"), "sskip": ("sentences", "distinct words"),
    "probe": ("dimensions",), "vectors": ("words", "numerals"),
    "stories": ("stories",),
}


@dataclass(frozen=True)
class Paper:
    """One job of a step at the paper's scale."""

    size: float  # in the step's unit
    per: str  # what one job is
    source: str  # where the size comes from
    jobs: int = 1  # jobs of the rule in the paper configuration
    work: float | None = None  # their cost in measured jobs (default: jobs)
    memory_size: float | None = None  # where peak RSS is evaluated, if not at `size`
    vocabulary: float | None = None  # a trainer's vocabulary at the paper's size (its model)


@dataclass(frozen=True)
class Step:
    """A benchmarked step: its rules, unit, command and paper size."""

    name: str
    rules: tuple[str, ...]
    unit: str
    threads: int  # the rule's threads in config/paper.yaml
    chain: str
    argv: Callable[[Level], list[str]]
    size: Callable[[Level], float]
    paper: Paper | None = None  # None: a helper step, run but not benchmarked
    needs: tuple[str, ...] = ()
    vocabulary: str | None = None  # the detail a model's size follows (× dimension)
    whole_input: bool = True  # its job reads the whole input (False: one shard only)
    log_counts: dict[str, str] = field(default_factory=dict)  # detail name -> log regex
    log_sums: dict[str, str] = field(default_factory=dict)  # detail name -> regex, summed
    shows: tuple[str, ...] = ()  # the level's details its report shows (default: its chain's)
    series_of: str | None = None  # another measurement of this step: fixed shard, growing dump
    warm_up: bool = False  # run once untimed first (numba compiles or loads its kernels)
    budget_mb: int | None = None  # the memory budget it keeps to, spilling beyond (DuckDB)
    # Why its memory stops at the budget (the report's verdict says it).
    budget_why: str = "DuckDB spills beyond it, Python holds one batch of rows at a time"
    # Its peak RSS grows linearly on top of a fixed start (a decoder's window filling): the
    # paper's peak is extended along its two largest sizes, not by the power law.
    linear_memory: bool = False

    def details(self, found: dict[str, float]) -> dict[str, float]:
        """The details of a level (and counts from the log) this step's report shows."""
        names = self.shows or CHAIN_DETAILS.get(self.chain) or tuple(found)
        keep = [*names, *([self.vocabulary] if self.vocabulary else []), *self.log_counts,
                *self.log_sums]
        return {name: found[name] for name in dict.fromkeys(keep) if name in found}
