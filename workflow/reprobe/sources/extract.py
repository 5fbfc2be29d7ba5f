"""Unpack a source archive into a folder, atomically and without letting members escape it."""

from __future__ import annotations

import bz2
import gzip
import logging
import lzma
import os
import shutil
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import zstandard

from reprobe.errors import SourceError
from reprobe.io import staging_path

log = logging.getLogger("reprobe.sources")

# File-name suffix -> archive kind; longest suffixes first so ".tar.gz" wins over ".gz".
# A ".tar.zst" is not a kind of its own: it decompresses to the ".tar" file.
ARCHIVE_SUFFIXES: dict[str, str] = {
    ".tar.gz": "tar.gz",
    ".tar.bz2": "tar.bz2",
    ".tar.xz": "tar.xz",
    ".tgz": "tar.gz",
    ".tbz2": "tar.bz2",
    ".txz": "tar.xz",
    ".tar": "tar",
    ".zip": "zip",
    ".gz": "gz",
    ".bz2": "bz2",
    ".zst": "zst",
    ".xz": "xz",
}

_TAR_MODES = {"tar": "r:", "tar.gz": "r:gz", "tar.bz2": "r:bz2", "tar.xz": "r:xz"}
_SINGLE_FILE_KINDS = ("gz", "bz2", "zst", "xz")
_CHUNK = 1 << 20

# What a damaged archive raises from the standard library and zstandard while being read.
_CORRUPT_ERRORS: tuple[type[BaseException], ...] = (
    tarfile.TarError,
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    EOFError,
    zlib.error,
    lzma.LZMAError,
    zstandard.ZstdError,
    OSError,
)


def archive_kind(path: Path) -> str:
    """Return the archive kind of path from its file name; SourceError when unknown."""
    name = Path(path).name.lower()
    for suffix, kind in ARCHIVE_SUFFIXES.items():
        if name.endswith(suffix) and len(name) > len(suffix):
            return kind
    known = ", ".join(ARCHIVE_SUFFIXES)
    raise SourceError(f"{path}: unknown archive type (known suffixes: {known})")


def _refuse(source: str, archive: Path, member: str, why: str) -> SourceError:
    """Build the error for an archive member that would land outside the target."""
    return SourceError(f"{source}: {archive}: refusing member {member!r}: {why}")


def _is_inside(path: str, root: str) -> bool:
    """Return True when path, with symlinks already on disk resolved, stays inside root."""
    resolved = os.path.realpath(path)
    return os.path.commonpath([resolved, root]) == root


def _check_name(name: str, *, source: str, archive: Path) -> None:
    """Refuse member names that are absolute or climb with '..', whatever the separator."""
    parts = name.replace("\\", "/").split("/")
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise _refuse(source, archive, name, "absolute path")
    if ".." in parts:
        raise _refuse(source, archive, name, "'..' path component")


def _check_tar_member(member: tarfile.TarInfo, root: str, *, source: str, archive: Path) -> None:
    """Refuse a tar member that is special or whose path or link target escapes root."""
    name = member.name
    _check_name(name, source=source, archive=archive)
    if not (member.isreg() or member.isdir() or member.issym() or member.islnk()):
        raise _refuse(source, archive, name, "device, fifo or other special file")
    # realpath follows links extracted earlier, so 'dir -> ..' then 'dir/x' is caught too.
    if not _is_inside(os.path.join(root, name), root):
        raise _refuse(source, archive, name, "resolves outside the target folder")
    if member.issym() or member.islnk():
        link = member.linkname
        if os.path.isabs(link) or link.startswith("\\"):
            raise _refuse(source, archive, name, f"link to absolute path {link!r}")
        # Symlink targets are relative to the member's folder, hard links to the archive root.
        base = os.path.dirname(name) if member.issym() else ""
        if not _is_inside(os.path.join(root, base, link), root):
            raise _refuse(source, archive, name, f"link target {link!r} escapes the target")


def _checked_members(
    tar: tarfile.TarFile, root: str, *, source: str, archive: Path
) -> Iterator[tarfile.TarInfo]:
    """Yield tar members one by one, each checked just before it is extracted."""
    for member in tar:
        _check_tar_member(member, root, source=source, archive=archive)
        yield member


def _drain(handle: BinaryIO) -> None:
    """Read a stream to its end so a compressed trailer (CRC, length) gets checked."""
    while handle.read(_CHUNK):
        pass


def _extract_tar(archive: Path, tmp: Path, kind: str, *, source: str) -> None:
    """Extract a (compressed) tar into tmp, member by member, refusing escaping members."""
    root = os.path.realpath(tmp)
    with tarfile.open(archive, _TAR_MODES[kind]) as tar:
        try:
            # filter="data" is the second line of defence behind our own member checks.
            tar.extractall(
                tmp,
                members=_checked_members(tar, root, source=source, archive=archive),
                filter="data",
            )
        except tarfile.FilterError as exc:
            member = exc.tarinfo.name if exc.tarinfo is not None else "?"
            raise _refuse(source, archive, member, str(exc)) from exc
        # tarfile stops at the end-of-archive blocks; a cut gzip/bz2/xz trailer hides after.
        if tar.fileobj is not None:
            _drain(tar.fileobj)


def _extract_zip(archive: Path, tmp: Path, *, source: str) -> None:
    """Extract a zip into tmp member by member, refusing escaping members, checking CRCs."""
    root = os.path.realpath(tmp)
    with zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            name = info.filename
            _check_name(name, source=source, archive=archive)
            dest = os.path.join(root, name)
            if not _is_inside(dest, root):
                raise _refuse(source, archive, name, "resolves outside the target folder")
            if info.is_dir():
                os.makedirs(dest, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            # Symlinks stored in a zip come out as small text files: nothing to follow.
            try:
                with zf.open(info) as src, open(dest, "wb") as out:
                    shutil.copyfileobj(src, out, _CHUNK)
            except (RuntimeError, NotImplementedError) as exc:
                # zipfile's words for an encrypted member or an unsupported compression method.
                raise SourceError(f"{source}: {archive}: cannot extract {name!r}: {exc}") from exc


def _decompressed_name(archive: Path, kind: str) -> str:
    """Return the archive's file name without its compression suffix (kept when absent)."""
    name = archive.name
    for suffix, suffix_kind in ARCHIVE_SUFFIXES.items():
        if suffix_kind == kind and name.lower().endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def _copy_zstd(src: BinaryIO, out: BinaryIO) -> None:
    """Decompress zstd frames from src into out, raising EOFError on a truncated frame."""
    # zstandard's stream_reader returns short output for a cut frame without complaint;
    # decompressobj() streams just the same and its eof flag tells a finished frame.
    dctx = zstandard.ZstdDecompressor()
    dobj = None
    while chunk := src.read(_CHUNK):
        while chunk:
            if dobj is None or dobj.eof:
                dobj = dctx.decompressobj()
            out.write(dobj.decompress(chunk))
            chunk = dobj.unused_data if dobj.eof else b""
    if dobj is None or not dobj.eof:
        raise EOFError("zstd stream ended before the end of its frame")


def _decompress_single(archive: Path, tmp: Path, kind: str) -> None:
    """Stream-decompress a single compressed file into tmp under its name minus the suffix."""
    dest = tmp / _decompressed_name(archive, kind)
    if kind == "zst":
        with open(archive, "rb") as src, open(dest, "wb") as out:
            _copy_zstd(src, out)
        return
    opener = {"gz": gzip.open, "bz2": bz2.open, "xz": lzma.open}[kind]
    # These readers raise EOFError on a truncated stream and check the CRC at the end.
    with opener(archive, "rb") as src, open(dest, "wb") as out:
        shutil.copyfileobj(src, out, _CHUNK)


def _remove(path: Path) -> None:
    """Delete a file or a folder tree if it exists."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def _listing(root: Path) -> list[Path]:
    """Return every non-folder entry under root (symlinks included), relative and sorted."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):
        base = Path(folder)
        entries = files + [d for d in dirs if (base / d).is_symlink()]
        found.extend((base / entry).relative_to(root) for entry in entries)
    return sorted(found)


def _swap_into_place(tmp: Path, target: Path) -> None:
    """Rename the finished tmp folder onto target, replacing an old target only now."""
    if not target.exists() and not target.is_symlink():
        os.replace(tmp, target)
        return
    old = target.parent / f".{target.name}.old-{os.getpid()}"
    _remove(old)
    os.replace(target, old)
    try:
        os.replace(tmp, target)
    except OSError:
        os.replace(old, target)
        raise
    _remove(old)


def _unpack(archive: Path, tmp: Path, kind: str, *, source: str) -> None:
    """Dispatch to the extractor for kind, writing into tmp."""
    if kind in _TAR_MODES:
        _extract_tar(archive, tmp, kind, source=source)
    elif kind == "zip":
        _extract_zip(archive, tmp, source=source)
    else:
        _decompress_single(archive, tmp, kind)


def extract_archive(
    archive: Path, target: Path, *, source: str, kind: str | None = None
) -> list[Path]:
    """Extract archive into target atomically; return extracted files relative to target."""
    archive, target = Path(archive), Path(target)
    kind = kind if kind is not None else archive_kind(archive)
    if kind not in _TAR_MODES and kind not in ("zip", *_SINGLE_FILE_KINDS):
        raise SourceError(f"{source}: {archive}: unknown archive kind {kind!r}")
    if not archive.is_file():
        raise SourceError(f"{source}: archive {archive} does not exist")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = staging_path(target)  # removes the ones killed runs left
    _remove(tmp)  # left by a crashed run that had the same pid
    tmp.mkdir()
    try:
        log.info("%s: extracting %s (%s) -> %s", source, archive, kind, target)
        _unpack(archive, tmp, kind, source=source)
        files = _listing(tmp)
        _swap_into_place(tmp, target)
    except _CORRUPT_ERRORS as exc:
        _remove(tmp)
        raise SourceError(f"{source}: cannot extract {archive} ({kind}): {exc}") from exc
    except BaseException:
        _remove(tmp)
        raise
    log.info("%s: extracted %d files into %s", source, len(files), target)
    return files


EXTRACTED = "extracted"  # the folder an archive source is unpacked into (data/raw/<source>/…)
LISTED_MEMBERS = 40  # members named in the error for a missing one; the rest are counted


def member_file(path: Path) -> Path:
    """path itself when it exists; for a missing member of an unpacked archive, a SourceError
    that lists the members the archive has (its config names a member it does not hold)."""
    path = Path(path)
    if path.exists():
        return path
    folder = next((p for p in path.parents if p.name == EXTRACTED), None)
    if folder is None or not folder.is_dir():
        raise SourceError(f"{path}: no such file")
    members = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    shown = ", ".join(members[:LISTED_MEMBERS])
    more = f" and {len(members) - LISTED_MEMBERS} more" if len(members) > LISTED_MEMBERS else ""
    raise SourceError(f"{path}: the archive unpacked in {folder} has no member "
                      f"{path.relative_to(folder)}; it has {len(members)}: {shown}{more}")
