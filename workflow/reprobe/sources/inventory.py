"""A config's sources as a whole: fill a mirror, lock what was fetched, verify every file."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reprobe.config import (
    expand_sources,
    loaded_config,
    local_source_path,
    named_sources,
    source_filename,
    source_instances,
)
from reprobe.errors import ConfigError, SourceError
from reprobe.sources.fetch import copy_local
from reprobe.sources.lock import lock_path_for, lockable, pin_for, read_lock, record
from reprobe.sources.materialise import file_digests, materialise_url
from reprobe.sources.settings import FetchSettings

log = logging.getLogger("reprobe.sources")


@dataclass(frozen=True)
class Check:
    """One fetched file checked: its source, file, where its pin came from, and the verdict."""

    source: str
    file: Path
    origin: str  # config, lock, none
    verdict: str  # ok, MISMATCH ..., not fetched, unpinned


def load_config(configfile: Path) -> dict[str, Any]:
    """A config file as the workflow reads it: laid over its `extends` chain, validated and
    with the schema's defaults filled in."""
    return loaded_config([configfile])


def lock_of(config: dict[str, Any], configfile: Path) -> Path:
    """The config's lock file: `download.lock`, else beside the config file."""
    return Path(config["download"].get("lock") or lock_path_for(configfile))


def selected_sources(config: dict[str, Any], sections: Iterable[str]) -> dict[str, dict]:
    """The expanded sources the named config sections mention (all when none is named)."""
    expanded = expand_sources(config)
    sections = list(sections)
    if not sections:
        return expanded
    unknown = [section for section in sections if section not in config]
    if unknown:
        raise ConfigError(f"--only {unknown[0]}: the config has no section of that name "
                          f"(it has {', '.join(key for key in config if key != 'sources')})")
    names = named_sources([config[section] for section in sections], config["sources"])
    return {instance: expanded[instance] for name in names
            for instance in source_instances(config, name)}


def fill_mirror(config: dict[str, Any], lock: Path, to: Path, sections: Iterable[str],
                progress: bool = True) -> list[Path]:
    """Bring every source of the selected sections into `to/<source>/<file>`: URL sources
    downloaded (resumed, locked), local ones copied (verified)."""
    download = config["download"]
    settings = FetchSettings(retries=download["retries"], backoff=download["backoff"],
                             timeout=download["timeout"], lock=lock, mirror=None,
                             offline=False, progress=progress)
    expanded = expand_sources(config)
    selected = selected_sources(config, sections)
    # Checksum lists first: the files they list are checked against them as they arrive.
    listings = {spec["sha1sums"]: expanded[spec["sha1sums"]] for spec in selected.values()
                if spec.get("sha1sums")}
    fetched = []
    for name, spec in {**listings, **selected}.items():
        if "url" not in spec:
            # A local file joins the mirror too: a config can move to a machine without it.
            fetched.append(copy_local(local_source_path(spec, name),
                                      to / name / source_filename(spec), source=name,
                                      sha256=spec.get("sha256"), size=spec.get("size")))
            continue
        listing = spec.get("sha1sums")
        fetched.append(materialise_url(
            name, spec["url"], to / name / source_filename(spec), sha256=spec.get("sha256"),
            size=spec.get("size"), settings=settings,
            sha1_list=to / listing / source_filename(expanded[listing]) if listing else None))
    return fetched


def fetched_file(workdir: Path, name: str, spec: dict[str, Any]) -> Path:
    """Where the workflow keeps a source's fetched file."""
    return workdir / "data" / "raw" / name / source_filename(spec)


def lock_fetched(config: dict[str, Any], lock: Path, workdir: Path) -> list[str]:
    """Record in the lock every fetched URL source the config does not pin; the names added."""
    entries = read_lock(lock)
    added = []
    for name, spec in expand_sources(config).items():
        file = fetched_file(workdir, name, spec)
        if not lockable(spec) or not file.is_file():
            continue
        pin = pin_for(spec, name, entries)
        digest = file_digests(file, ("sha256",))["sha256"]
        if pin.origin == "lock" and digest != pin.sha256:
            raise SourceError(f"{name}: {file}: sha256 mismatch: the lock {lock} says "
                              f"{pin.sha256}, the file has {digest}")
        if record(lock, name, spec["url"], digest, file.stat().st_size):
            added.append(name)
    return added


def verify_fetched(config: dict[str, Any], lock: Path, workdir: Path) -> list[Check]:
    """Check every fetched file of the config against its config or lock pin."""
    entries = read_lock(lock)
    checks = []
    for name, spec in expand_sources(config).items():
        file = fetched_file(workdir, name, spec)
        pin = pin_for(spec, name, entries)
        if not file.is_file():
            checks.append(Check(name, file, pin.origin, "not fetched"))
            continue
        digest = file_digests(file, ("sha256",))["sha256"]
        size = file.stat().st_size
        if pin.sha256 is None:
            verdict = "unpinned (run `reprobe sources lock`)" if lockable(spec) else "unpinned"
        elif digest != pin.sha256 or (pin.size is not None and size != pin.size):
            verdict = f"MISMATCH: expected {pin.sha256} ({pin.size} B), got {digest} ({size} B)"
        else:
            verdict = "ok"
        checks.append(Check(name, file, pin.origin, verdict))
    return checks
