"""Atomic file output: write to a temporary name beside the target, then rename."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from reprobe.errors import ConfigError, InputFormatError, ReprobeError


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
    temporary = target.with_name(f".{target.name}.tmp-{os.getpid()}")
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
    staging = target.with_name(f".{target.name}.tmp-{os.getpid()}")
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
