"""How sources are fetched: retries, the lock, the mirror and the offline switch.

The workflow passes the last three through the environment, not the shell command: a rule's
command is part of what makes Snakemake rerun it, and switching on a mirror must not refetch
every source.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reprobe.sources.lock import lock_path_for

MIRROR_VARIABLE = "REPROBE_MIRROR"
OFFLINE_VARIABLE = "REPROBE_OFFLINE"
LOCK_VARIABLE = "REPROBE_LOCK"


@dataclass(frozen=True)
class FetchSettings:
    """How sources are fetched: transfer retries, the lock, the mirror and the offline switch."""

    retries: int
    backoff: float
    timeout: float
    lock: Path | None
    mirror: Path | None
    offline: bool
    progress: bool = True


def environment_flag(value: str | None) -> bool:
    """An environment switch: 1/true/yes (any case) is on."""
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def settings_from_environment(retries: int, backoff: float, timeout: float,
                              progress: bool) -> FetchSettings:
    """Fetch settings with the lock, mirror and offline switch the workflow exported."""
    lock, mirror = os.environ.get(LOCK_VARIABLE), os.environ.get(MIRROR_VARIABLE)
    return FetchSettings(retries=retries, backoff=backoff, timeout=timeout,
                         lock=Path(lock) if lock else None,
                         mirror=Path(mirror) if mirror else None,
                         offline=environment_flag(os.environ.get(OFFLINE_VARIABLE)),
                         progress=progress)


def workflow_environment(download: Mapping[str, Any], configfile: Path,
                         environ: Mapping[str, str]) -> dict[str, str]:
    """The variables the workflow exports to its fetch jobs: lock, mirror, offline switch."""
    mirror = download.get("mirror") or environ.get(MIRROR_VARIABLE) or ""
    offline = bool(download.get("offline")) or environment_flag(environ.get(OFFLINE_VARIABLE))
    lock = Path(download.get("lock") or lock_path_for(configfile))
    return {MIRROR_VARIABLE: str(Path(mirror).resolve()) if mirror else "",
            OFFLINE_VARIABLE: "1" if offline else "0", LOCK_VARIABLE: str(lock.resolve())}
