"""Download a source over HTTP(S) with resume, retries and verification, or copy a local one."""

from __future__ import annotations

import errno
import hashlib
import logging
import os
import re
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests
import urllib3
from tqdm import tqdm

from reprobe.errors import SourceError, origin_path
from reprobe.io import naming_target, staging_path
from reprobe.sources.checksum import check_sha256, check_size, verify_file
from reprobe.sources.offline import OFFLINE_HINT, is_name_resolution

log = logging.getLogger("reprobe.sources")

# Module-level so tests (or impatient callers) can swap in a fake clock between attempts.
_sleep = time.sleep

# Failures where the bytes already on disk are still good and a later attempt may succeed.
_TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    requests.exceptions.ConnectionError,
    requests.exceptions.Timeout,
    requests.exceptions.ChunkedEncodingError,
    urllib3.exceptions.ProtocolError,
    urllib3.exceptions.ReadTimeoutError,
    ConnectionError,
    TimeoutError,
)


class _Transient(Exception):
    """One attempt failed in a way a later attempt may not: dropped link, timeout, 5xx, 429."""


def part_path(dest: Path) -> Path:
    """Return the partial-download path kept next to dest while it is being fetched."""
    return dest.parent / (dest.name + ".part")


def retry_delay(backoff: float, attempt: int) -> float:
    """Return the wait after failed attempt number `attempt` (0-based): backoff * 2**attempt."""
    return backoff * 2**attempt


def _size_on_disk(path: Path) -> int:
    """Return the size of path, or 0 when it does not exist."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _content_range(value: str | None) -> tuple[int | None, int | None]:
    """Parse 'bytes a-b/N' or 'bytes */N' into (start a, total N); None for what is absent."""
    match = re.fullmatch(r"bytes\s+(?:(\d+)-\d+|\*)/(\d+|\*)", (value or "").strip())
    if match is None:
        return None, None
    start, total = match.groups()
    return (int(start) if start else None), (int(total) if total != "*" else None)


def _content_length(response: requests.Response) -> int | None:
    """Return the response's Content-Length, or None when absent or garbled."""
    try:
        return int(response.headers["Content-Length"])
    except (KeyError, ValueError):
        return None


def _hash_existing(part: Path, chunk_size: int) -> Any:
    """Return a sha256 object fed with the part already on disk, to extend while appending."""
    digest = hashlib.sha256()
    with open(part, "rb") as handle:
        while chunk := handle.read(chunk_size):
            digest.update(chunk)
    return digest


def _write_body(
    response: requests.Response,
    part: Path,
    *,
    append: bool,
    digest: Any,
    offset: int,
    total: int | None,
    chunk_size: int,
    progress: bool,
    desc: str,
) -> int:
    """Stream the response body into part, feeding digest; return the bytes received."""
    received = 0
    bar = tqdm(
        total=total,
        initial=offset,
        unit="B",
        unit_scale=True,
        unit_divisor=1024,
        mininterval=5,  # Snakemake keeps stderr in rule logs: a few lines, not thousands.
        disable=not progress,
        file=sys.stderr,
        desc=desc,
    )
    with bar, open(part, "ab" if append else "wb") as out:
        try:
            # raw.stream without decoding: we want the bytes as the server stores them (a .gz
            # served with Content-Encoding: gzip must stay gzip), and unlike iter_content it
            # hands over every byte received before a dropped connection, so resume loses none.
            for chunk in response.raw.stream(chunk_size, decode_content=False):
                out.write(chunk)
                digest.update(chunk)
                received += len(chunk)
                bar.update(len(chunk))
        except _TRANSIENT_ERRORS as exc:
            raise _Transient(f"transfer cut after {received} new bytes ({exc})") from exc
    return received


def _complete_after_416(
    response: requests.Response, part: Path, offset: int, *, size: int | None, chunk_size: int
) -> str:
    """Accept a 416 answer when the part already has the full length, else drop the part."""
    _, total = _content_range(response.headers.get("Content-Range"))
    expected = size if size is not None else total
    if expected is not None and offset == expected:
        return _hash_existing(part, chunk_size).hexdigest()
    # The part is longer than the file or the server cannot say: it cannot be trusted.
    part.unlink(missing_ok=True)
    raise _Transient(f"HTTP 416 for a {offset}-byte partial file; starting over")


def _attempt(
    session: requests.Session,
    url: str,
    part: Path,
    *,
    source: str,
    size: int | None,
    timeout: float,
    chunk_size: int,
    progress: bool,
) -> str:
    """Make one request, resuming or restarting the part; return the finished part's sha256."""
    offset = _size_on_disk(part)
    # identity: ranges and checksums refer to the stored bytes, not a re-encoded stream.
    headers = {"Accept-Encoding": "identity"}
    if offset:
        headers["Range"] = f"bytes={offset}-"
    try:
        response = session.get(url, headers=headers, stream=True, timeout=timeout)
    except _TRANSIENT_ERRORS as exc:
        raise _Transient(f"{type(exc).__name__}: {exc}") from exc
    except requests.exceptions.RequestException as exc:
        raise SourceError(f"{source}: cannot fetch {url}: {exc}") from exc
    with response:
        status = response.status_code
        if status == 416 and offset:
            return _complete_after_416(response, part, offset, size=size, chunk_size=chunk_size)
        if status == 429 or 500 <= status < 600:
            raise _Transient(f"HTTP {status} {response.reason}")
        if status not in (200, 206):
            raise SourceError(f"{source}: cannot fetch {url}: HTTP {status} {response.reason}")
        append = status == 206 and offset > 0
        if append:
            start, _ = _content_range(response.headers.get("Content-Range"))
            if start != offset:
                # Appending a range other than the one asked for would corrupt the file.
                part.unlink(missing_ok=True)
                raise _Transient(f"server sent a range from byte {start}, not {offset}")
            log.info("%s: resuming %s at byte %d", source, url, offset)
            digest = _hash_existing(part, chunk_size)
        else:
            if offset:
                log.info("%s: server ignored the range request; restarting %s", source, url)
            offset = 0
            digest = hashlib.sha256()
        length = _content_length(response)
        received = _write_body(
            response,
            part,
            append=append,
            digest=digest,
            offset=offset,
            total=offset + length if length is not None else size,
            chunk_size=chunk_size,
            progress=progress,
            desc=source,
        )
    if length is not None and received < length:
        raise _Transient(f"transfer cut after {received} of {length} bytes")
    return digest.hexdigest()


def _download(
    session: requests.Session,
    url: str,
    part: Path,
    *,
    source: str,
    size: int | None,
    retries: int,
    backoff: float,
    timeout: float,
    chunk_size: int,
    progress: bool,
) -> str:
    """Run attempts with exponential backoff until one completes; return the part's sha256."""
    attempts = max(retries, 0) + 1
    attempt = 0
    while True:
        try:
            return _attempt(
                session,
                url,
                part,
                source=source,
                size=size,
                timeout=timeout,
                chunk_size=chunk_size,
                progress=progress,
            )
        except _Transient as exc:
            on_disk = _size_on_disk(part)
            unresolved = is_name_resolution(exc)
            if unresolved and attempt >= 1 or attempt + 1 >= attempts:
                # A name that does not resolve will not a minute later: one retry is enough.
                hint = f"; {OFFLINE_HINT}" if unresolved else ""
                raise SourceError(
                    f"{source}: cannot fetch {url}: {exc}; gave up after {attempt + 1} attempts, "
                    f"{on_disk} bytes kept in {part} for a later resume{hint}"
                ) from exc
            delay = retry_delay(backoff, attempt)
            log.warning(
                "%s: attempt %d of %d for %s failed: %s; %d bytes on disk, retrying in %.1f s",
                source,
                attempt + 1,
                attempts,
                url,
                exc,
                on_disk,
                delay,
            )
            _sleep(delay)
            attempt += 1


def _verify_part(
    part: Path, digest: str, *, source: str, url: str, sha256: str | None, size: int | None
) -> None:
    """Check the finished part's size then sha256; remove it when either is wrong."""
    try:
        check_size(part.stat().st_size, source=source, where=url, size=size)
        check_sha256(digest, source=source, where=url, sha256=sha256)
    except SourceError as exc:
        # A complete but wrong file must not be resumed from next time: start clean.
        part.unlink(missing_ok=True)
        raise SourceError(f"{exc}; removed the download {part}") from exc


def _already_fetched(dest: Path, *, source: str, sha256: str | None, size: int | None) -> bool:
    """Return True when dest exists and verifies; log why it is fetched again otherwise."""
    if not dest.is_file():
        return False
    try:
        verify_file(dest, source=source, sha256=sha256, size=size)
    except SourceError as exc:
        log.warning("%s: existing file does not verify, fetching again: %s", source, exc)
        return False
    return True


def fetch_url(
    url: str,
    dest: Path,
    *,
    source: str,
    sha256: str | None = None,
    size: int | None = None,
    retries: int,
    backoff: float,
    timeout: float,
    chunk_size: int = 1 << 20,
    progress: bool = True,
    session: requests.Session | None = None,
    check: Callable[[Path, str], None] | None = None,
) -> Path:
    """Download url to dest, resuming dest.part and retrying transient failures, then verify.

    `check(part, sha256)` runs on the finished download before it becomes dest (a checksum list,
    the lock); a SourceError from it removes the download, so a wrong file never lands.
    """
    dest = Path(dest)
    if _already_fetched(dest, source=source, sha256=sha256, size=size):
        log.info("%s: %s already present and verified", source, dest)
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = part_path(dest)
    log.info("%s: fetching %s -> %s", source, url, dest)
    http = session if session is not None else requests.Session()
    try:
        with naming_target(dest, part):  # a full disk names dest, not dest.part
            digest = _download(
                http,
                url,
                part,
                source=source,
                size=size,
                retries=retries,
                backoff=backoff,
                timeout=timeout,
                chunk_size=chunk_size,
                progress=progress,
            )
    finally:
        if session is None:
            http.close()
    _verify_part(part, digest, source=source, url=url, sha256=sha256, size=size)
    if check is not None:
        try:
            check(part, digest)
        except SourceError as exc:
            part.unlink(missing_ok=True)
            raise SourceError(f"{exc}; removed the download {part}") from exc
    os.replace(part, dest)
    origin_path(dest).unlink(missing_ok=True)  # downloaded: no longer a copy of a local file
    log.info("%s: fetched %s (%d bytes)", source, dest, dest.stat().st_size)
    return dest


def _copy_file(path: Path, tmp: Path, *, source: str) -> None:
    """Copy path to tmp: by copy_file_range where the OS has it, else by shutil.copyfile."""
    # Never a hard link: Snakemake touches finished outputs, and a link shares its mtime with
    # the source (a file inside an installed package, or a sample another run links too), so a
    # run elsewhere would make this one's outputs look stale. copy_file_range lets XFS or btrfs
    # share the blocks (a reflink) instead of writing them again.
    try:
        _copy_file_range(path, tmp)
    except (AttributeError, OSError) as exc:
        log.info("%s: copy_file_range unavailable (%s); copying by reads and writes", source, exc)
        shutil.copyfile(path, tmp)
    # A short copy (disk full on a quota that does not raise) must not pass as the source.
    check_size(tmp.stat().st_size, source=source, where=tmp, size=path.stat().st_size)
    log.info("%s: copied %s", source, path)


def _copy_file_range(path: Path, tmp: Path) -> None:
    """Copy path to tmp with os.copy_file_range (Linux); AttributeError where it is missing."""
    copy_range = os.copy_file_range
    with open(path, "rb") as src, open(tmp, "wb") as dst:
        left = os.fstat(src.fileno()).st_size
        while left > 0:
            sent = copy_range(src.fileno(), dst.fileno(), left)
            if sent == 0:
                # Some file systems answer 0 instead of an error: fall back to a plain copy.
                raise OSError(errno.EIO, f"copy_file_range stopped with {left} bytes left")
            left -= sent


def copy_local(
    path: Path, dest: Path, *, source: str, sha256: str | None = None, size: int | None = None
) -> Path:
    """Verify a local file, then copy it to dest atomically; return dest."""
    path, dest = Path(path), Path(dest)
    if not path.exists():
        raise SourceError(f"{source}: local file {path} does not exist")
    if not path.is_file():
        raise SourceError(f"{source}: local path {path} is not a regular file")
    verify_file(path, source=source, sha256=sha256, size=size)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = staging_path(dest)
    tmp.unlink(missing_ok=True)
    try:
        with naming_target(dest, tmp):  # a full disk names dest, not the hidden copy
            _copy_file(path, tmp, source=source)
            os.replace(tmp, dest)
            # Errors in the copy name the file people edit, not only data/raw's copy.
            origin_path(dest).write_text(f"{path.resolve()}\n", encoding="utf-8")
    finally:
        tmp.unlink(missing_ok=True)
    return dest
