"""Streaming sha256 and size checks for source files."""

from __future__ import annotations

import hashlib
from pathlib import Path

from reprobe.errors import SourceError


def sha256_file(path: Path, chunk_size: int = 1 << 20) -> str:
    """Return the hex sha256 of a file, read in chunks so large files never sit in memory."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(chunk_size):
            digest.update(chunk)
    return digest.hexdigest()


def check_size(actual: int, *, source: str, where: object, size: int | None) -> None:
    """Raise SourceError when a known expected size differs from the actual one."""
    if size is not None and actual != size:
        raise SourceError(
            f"{source}: {where}: size mismatch: expected {size} bytes, got {actual} bytes"
        )


def check_sha256(actual: str, *, source: str, where: object, sha256: str | None) -> None:
    """Raise SourceError when a known expected sha256 differs from the actual one."""
    # Checksums are often pasted in upper case from release pages; hex is case-insensitive.
    if sha256 is not None and actual.lower() != sha256.strip().lower():
        raise SourceError(
            f"{source}: {where}: sha256 mismatch: expected {sha256.strip().lower()}, got {actual}"
        )


def verify_file(path: Path, *, source: str, sha256: str | None, size: int | None) -> None:
    """Check a file's size, then its sha256; None means not known, so that check is skipped."""
    path = Path(path)
    if not path.is_file():
        raise SourceError(f"{source}: {path}: file not found")
    # The size costs one stat, the hash a full read: fail on the cheap check first.
    check_size(path.stat().st_size, source=source, where=path, size=size)
    if sha256 is not None:
        check_sha256(sha256_file(path), source=source, where=path, sha256=sha256)
