"""Materialise a URL source: from data/raw if it verifies, else the mirror, else the URL.

What a file must be comes from the config (`sha256:`), else from the lock (what the first fetch
measured), else nothing, in which case the bytes this fetch brings are recorded in the lock. A
Wikimedia-style checksum list (`sha1sums:`) is checked as well. A file that verifies against
none of these never reaches data/raw.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from pathlib import Path

import requests

from reprobe.errors import SourceError
from reprobe.sources.checksum import check_size
from reprobe.sources.fetch import copy_local, fetch_url
from reprobe.sources.lock import Pin, pin_for, read_lock, record
from reprobe.sources.mirror import find_in_mirror, offline_message
from reprobe.sources.settings import FetchSettings

log = logging.getLogger("reprobe.sources")


def file_digests(path: Path, algorithms: tuple[str, ...],
                 chunk_size: int = 1 << 20) -> dict[str, str]:
    """Hex digests of a file in one streamed pass, by algorithm name."""
    digests = {name: hashlib.new(name) for name in algorithms}
    with open(path, "rb") as handle:
        while chunk := handle.read(chunk_size):
            for digest in digests.values():
                digest.update(chunk)
    return {name: digest.hexdigest() for name, digest in digests.items()}


def listed_sha1(listing: Path, filename: str) -> str:
    """The sha1 a checksum list (`<hex>  <file name>` lines, as Wikimedia publishes) gives."""
    for number, line in enumerate(listing.read_text(encoding="utf-8").splitlines(), 1):
        fields = line.split()
        if len(fields) == 2 and fields[1].lstrip("*") == filename:
            if len(fields[0]) != 40:
                raise SourceError(f"{listing}: line {number}: {fields[0]!r} is not a sha1")
            return fields[0].lower()
    raise SourceError(f"{listing}: lists no checksum for {filename}")


def check_listed_sha1(path: Path, listing: Path, filename: str, source: str) -> None:
    """Raise SourceError when a file's sha1 differs from its checksum list's."""
    expected = listed_sha1(listing, filename)
    actual = file_digests(path, ("sha1",))["sha1"]
    if actual != expected:
        raise SourceError(f"{source}: {path}: sha1 mismatch: {listing} lists {expected}, "
                          f"got {actual}")


def _pin_text(pin: Pin, lock: Path | None) -> str:
    """Where an expected checksum came from, for messages."""
    return f"the lock {lock}" if pin.origin == "lock" else "the config"


def _verify_against(path: Path, pin: Pin, *, source: str, where: str,
                    lock: Path | None) -> str:
    """Check a file's size and sha256 against a pin; return its sha256."""
    check_size(path.stat().st_size, source=source, where=where, size=pin.size)
    actual = file_digests(path, ("sha256",))["sha256"]
    if pin.sha256 is not None and actual != pin.sha256:
        raise SourceError(f"{source}: {where}: sha256 mismatch: {_pin_text(pin, lock)} says "
                          f"{pin.sha256}, the file has {actual}")
    return actual


def _from_mirror(found: Path, dest: Path, pin: Pin, *, source: str, url: str,
                 settings: FetchSettings) -> str:
    """Copy a verified mirror file to dest; return its sha256."""
    digest = _verify_against(found, pin, source=source, lock=settings.lock,
                             where=f"mirror file {found} (for {url})")
    copy_local(found, dest, source=source, size=found.stat().st_size)
    log.info("%s: copied from the mirror: %s", source, found)
    return digest


def materialise_url(name: str, url: str, dest: Path, *, sha256: str | None, size: int | None,
                    settings: FetchSettings, sha1_list: Path | None = None,
                    session: requests.Session | None = None) -> Path:
    """Bring a URL source to dest, verified against config or lock, and lock what was new."""
    lock = read_lock(settings.lock) if settings.lock is not None else {}
    pin = pin_for({"url": url, "sha256": sha256, "size": size}, name, lock)
    log.info("%s: sha256 from %s", name, {"config": "the config", "lock": f"the lock "
             f"{settings.lock}", "none": "nowhere yet (this fetch records it)"}[pin.origin])

    def checked(path: Path) -> None:
        """The checksum list, where the source names one."""
        if sha1_list is not None:
            check_listed_sha1(path, sha1_list, dest.name, name)

    found = find_in_mirror(settings.mirror, name, dest.name)
    present = _verified_digest(dest, pin, name, settings, checked) if dest.is_file() else None
    if present is not None:
        digest = present
        log.info("%s: %s already present and verified", name, dest)
    elif found is not None:
        checked(found)
        digest = _from_mirror(found, dest, pin, source=name, url=url, settings=settings)
    elif settings.offline:
        raise SourceError(offline_message(name, url, dest, settings.mirror))
    else:
        measured: list[str] = []
        try:
            fetch_url(url, dest, source=name, sha256=pin.sha256, size=pin.size,
                      retries=settings.retries, backoff=settings.backoff,
                      timeout=settings.timeout, progress=settings.progress, session=session,
                      check=lambda part, digest: (checked(part), measured.append(digest)))
        except SourceError as exc:
            if pin.origin == "lock":
                raise SourceError(f"{exc} (expected per the lock {settings.lock})") from exc
            raise
        digest = measured[0] if measured else file_digests(dest, ("sha256",))["sha256"]
    locked = pin.origin == "none" and settings.lock is not None
    if locked and record(settings.lock, name, url, digest, dest.stat().st_size):
        log.info("%s: locked sha256 %s in %s", name, digest, settings.lock)
    return dest


def _verified_digest(dest: Path, pin: Pin, name: str, settings: FetchSettings,
                     checked: Callable[[Path], None]) -> str | None:
    """The sha256 of a file already in data/raw that matches its pin and checksum list; None
    (logged) if not, so that it is fetched again."""
    try:
        checked(dest)
        return _verify_against(dest, pin, source=name, where=str(dest), lock=settings.lock)
    except SourceError as exc:
        log.warning("%s: existing file does not verify, fetching again: %s", name, exc)
        return None
