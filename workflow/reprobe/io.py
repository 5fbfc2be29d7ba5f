"""Atomic file output: write to a temporary name beside the target, then rename."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from reprobe.errors import ConfigError, InputFormatError, ReprobeError

# A file or folder being written: `.NAME.tmp-PID` beside NAME, PID the writing process.
STAGING = re.compile(r"\.(?P<name>.+)\.tmp-(?P<pid>\d+)")


def pid_alive(pid: int) -> bool:
    """Whether a process with this id runs on this machine."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def is_stale_staging(path: Path) -> bool:
    """Whether `path` is a staging name whose writer is gone (a killed job's leftover)."""
    match = STAGING.fullmatch(path.name)
    return match is not None and not pid_alive(int(match["pid"]))


def remove_path(path: Path) -> None:
    """Remove a file, link or folder tree; nothing if it is gone already."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def staging_path(target: Path) -> Path:
    """The staging name of `target` for this process, after removing the ones of the same
    target that a killed run left (`.NAME.tmp-PID` with no such process)."""
    with contextlib.suppress(FileNotFoundError):
        for sibling in target.parent.glob(f".{glob_escape(target.name)}.tmp-*"):
            if is_stale_staging(sibling):
                remove_path(sibling)
    return target.with_name(f".{target.name}.tmp-{os.getpid()}")


def glob_escape(name: str) -> str:
    """A file name with glob's special characters matched literally."""
    return re.sub(r"([*?\[])", r"[\1]", name)


def stale_staging_under(root: Path) -> list[Path]:
    """Every stale staging file or folder under `root` (not looking inside those found)."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            if is_stale_staging(Path(folder, name)):
                found.append(Path(folder, name))
        dirs[:] = [d for d in dirs if not STAGING.fullmatch(d)]
    return sorted(found)


@contextlib.contextmanager
def naming_target(target: Path, temporary: Path) -> Iterator[None]:
    """An OSError of no file or of the temporary one (a full disk, say: pyarrow names no
    path) becomes an error naming the target being written."""
    try:
        yield
    except OSError as error:
        named = [str(name) for name in (error.filename, error.filename2) if name]
        if any(not name.startswith(str(temporary)) for name in named):
            raise  # it names another file: its own message says which
        reason = error.strerror or str(error)
        raise ReprobeError(f"{target}: failed while writing it ({reason})") from error


@contextlib.contextmanager
def atomic_path(path: Path | str) -> Iterator[Path]:
    """Yield a temporary path beside `path`; rename it onto `path` only if the block succeeds."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = staging_path(target)
    try:
        with naming_target(target, temporary):
            yield temporary
            os.replace(temporary, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()


@contextlib.contextmanager
def atomic_directory(path: Path | str) -> Iterator[Path]:
    """Yield an empty folder beside `path`; it replaces `path` only if the block succeeds."""
    # A model folder is many files: building it aside means a crash never leaves half of one.
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = staging_path(target)
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        with naming_target(target, staging):
            yield staging
            shutil.rmtree(target, ignore_errors=True)
            staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def atomic_write_text(path: Path | str, text: str) -> None:
    """Write a text file atomically (UTF-8)."""
    with atomic_path(path) as temporary:
        temporary.write_text(text, encoding="utf-8")


def iter_json_objects(path: Path | str, lines: Iterable[str]) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each non-blank line of a JSON-lines text; a line that is not
    a JSON object raises InputFormatError naming the file and the line."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as error:  # JSONDecodeError, and UnicodeDecodeError of raw bytes
            raise InputFormatError(path, f"line {number}", f"not JSON ({error})") from None
        if not isinstance(record, dict):
            raise InputFormatError(path, f"line {number}", "expected a JSON object")
        yield number, record


def stats_path(shard_parquet: Path) -> Path:
    """Where a shard's counts go: a JSON file beside its Parquet table, same stem."""
    return Path(shard_parquet).with_suffix(".json")


def json_object(text: str, option: str) -> dict[str, Any]:
    """A JSON object given on the command line, naming the option when it is not one."""
    try:
        value = json.loads(text)
    except ValueError as error:
        raise ConfigError(f"{option}: not JSON ({error})") from None
    if not isinstance(value, dict):
        raise ConfigError(f"{option}: expected a JSON object")
    return value
