"""The lock: the sha256 and size a source's first fetch measured, checked on every later fetch.

A config pins what the publishers published (`sha256:`, `size:`); most sources publish nothing.
The lock, a YAML file beside the config (`config/paper.yaml` -> `config/paper.lock.yaml`), holds
what the first fetch of each such source measured, one entry per source and URL, so that every
later fetch, on any machine, is checked against the same bytes. Users commit it with the config.
Writers take an exclusive `flock` on a side file and replace the lock atomically: parallel fetch
jobs of one run add their entries without losing each other's.
"""

from __future__ import annotations

import datetime
import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reprobe.errors import InputFormatError, SourceError
from reprobe.io import atomic_write_text

HEADER = """\
# reprobe sources lock: the sha256 and size measured at the first fetch of every source whose
# config pins no sha256. Every later fetch is checked against it; commit it with the config.
# Written by `reprobe fetch` and `reprobe sources lock`; an entry applies only to its url.
"""


@dataclass(frozen=True)
class Pin:
    """What one source's bytes must be, and where that was said (config, lock or nothing)."""

    sha256: str | None
    size: int | None
    origin: str  # "config", "lock" or "none"


def lock_path_for(configfile: Path | str) -> Path:
    """The lock beside a config file: `paper.yaml` -> `paper.lock.yaml`."""
    path = Path(configfile)
    return path.with_name(f"{path.stem}.lock.yaml")


def read_lock(path: Path) -> dict[str, dict[str, Any]]:
    """The lock's entries by source name; empty when the file does not exist."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    from reprobe.config_files import parse_yaml  # a duplicate key too is an error

    data = parse_yaml(text, path) or {}
    entries = data.get("sources") if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        raise InputFormatError(path, "top level", "expected a mapping with a `sources:` mapping")
    for name, entry in entries.items():
        if not (isinstance(entry, dict) and isinstance(entry.get("sha256"), str)
                and isinstance(entry.get("size"), int) and isinstance(entry.get("url"), str)):
            raise InputFormatError(path, f"sources.{name}", "expected url, sha256 and size")
    return entries


def pin_for(spec: dict[str, Any], name: str, lock: dict[str, dict[str, Any]]) -> Pin:
    """The checksum a source must have: the config's when pinned, else the lock's for its URL."""
    if spec.get("sha256"):
        return Pin(spec["sha256"].strip().lower(), spec.get("size"), "config")
    entry = lock.get(name)
    if "url" in spec and entry is not None and entry["url"] == spec["url"]:
        return Pin(entry["sha256"], entry["size"], "lock")
    return Pin(None, spec.get("size"), "none")


def lockable(spec: dict[str, Any]) -> bool:
    """Whether a source is recorded in the lock: a URL whose config pins no sha256."""
    # Local `path:` files are the user's own (samples are meant to be edited): not locked.
    return "url" in spec and not spec.get("sha256")


@contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    """Hold an exclusive flock on `<lock>.flock` while the block runs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".flock"), "a") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _render(entries: dict[str, dict[str, Any]]) -> str:
    """The lock file's text: the header, then entries sorted by source name."""
    import yaml

    body = yaml.safe_dump({"sources": dict(sorted(entries.items()))}, sort_keys=False,
                          width=200)
    return HEADER + body


def record(path: Path, name: str, url: str, sha256: str, size: int) -> bool:
    """Add or replace a source's entry; False when the same entry was already there."""
    with _exclusive(path):
        entries = read_lock(path)
        entry = {"url": url, "sha256": sha256, "size": size,
                 "recorded": datetime.date.today().isoformat()}
        old = entries.get(name)
        if old is not None and (old["url"], old["sha256"], old["size"]) == (url, sha256, size):
            return False
        if old is not None and old["url"] == url:
            # The caller checks against the lock first: this would overwrite a pinned hash.
            raise SourceError(f"{name}: {path} already locks {url} to sha256 {old['sha256']}; "
                              f"not replacing it with {sha256}")
        entries[name] = entry
        atomic_write_text(path, _render(entries))
        os.chmod(path, 0o644)
        return True
