"""The mirror: a folder of sources looked in before any URL (air-gapped machines, shared dumps)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reprobe.config import raw_target_path, source_filename


def mirror_candidates(mirror: Path, name: str, filename: str) -> list[Path]:
    """Where a source may sit in a mirror: `<source>/<file>` (as `sources fetch --to` writes),
    then `<file>` (a lab's flat folder of dumps)."""
    return [mirror / name / filename, mirror / filename]


def find_in_mirror(mirror: Path | None, name: str, filename: str) -> Path | None:
    """The mirror's copy of a source, or None."""
    if mirror is None:
        return None
    return next((path for path in mirror_candidates(mirror, name, filename) if path.is_file()),
                None)


def offline_message(name: str, url: str, dest: Path, mirror: Path | None) -> str:
    """Why an offline run cannot have a source: where it was looked for."""
    looked = [str(dest)] + ([str(path) for path in mirror_candidates(mirror, name, dest.name)]
                            if mirror is not None else [])
    return (f"{name}: offline, and {url} is not here (looked in {', '.join(looked)}); "
            f"fill a mirror with `reprobe sources fetch --to DIR` where there is internet")


def missing_offline(sources: dict[str, dict[str, Any]], mirror: Path | None,
                    workdir: Path) -> list[str]:
    """Every URL source an offline run cannot have: in neither data/raw nor the mirror."""
    missing = []
    for name, spec in sources.items():
        if "url" not in spec:
            continue
        filename = source_filename(spec)
        fetched = workdir / f"data/raw/{name}/{filename}"
        if ((workdir / raw_target_path(name, spec)).exists() or fetched.is_file()
                or find_in_mirror(mirror, name, filename) is not None):
            continue
        missing.append(f"{name}: {filename} ({spec['url']})")
    return missing


def offline_report(missing: list[str], mirror: Path | None) -> str:
    """The one message an offline run stops with: every missing source, and what to do."""
    where = (f"not in the mirror {mirror}" if mirror is not None
             else "no mirror is set (download.mirror or REPROBE_MIRROR)")
    return (f"offline: {len(missing)} sources are not in data/raw/, and {where}:\n  "
            + "\n  ".join(missing) + "\nFill a mirror where there is internet: "
            "reprobe sources fetch --configfile CONFIG --to DIR")
