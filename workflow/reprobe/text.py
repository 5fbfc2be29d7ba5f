"""Reading text inputs: UTF-8 with or without a BOM, LF or CRLF, the same rows either way.

Every stage's reader of a raw or released text file opens it here, so that a file saved by
an editor that adds a BOM or Windows line ends reads as the original does, and a byte that is
not UTF-8 is one error naming the file, the line and the byte offset.
"""

from __future__ import annotations

import bz2
import codecs
import contextlib
import errno
import gzip
import io
import json
import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import zstandard

from reprobe.errors import InputFormatError

GZIP_MAGIC = b"\x1f\x8b"
BZIP2_MAGIC = b"BZh"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
ZSTD_MAX_WINDOW = 2**31  # Pushshift compressed with --long=31; the default decoder refuses it
CHUNK = 1 << 20
# What a cut or corrupt compressed stream raises while it is read.
STREAM_ERRORS = (OSError, EOFError, zlib.error, zstandard.ZstdError)
# Byte-order marks of encodings people save text in by mistake, to say which one a file is.
FOREIGN_BOMS = {codecs.BOM_UTF16_LE: "UTF-16 (little endian)",
                codecs.BOM_UTF16_BE: "UTF-16 (big endian)"}


# Why a file cannot be opened, in words, by the OS's error number.
UNREADABLE = {errno.ENOENT: "no such file", errno.EACCES: "permission denied",
              errno.EPERM: "permission denied", errno.EISDIR: "is a directory",
              errno.ENOTDIR: "a folder on its path is a file"}


def unreadable_reason(error: OSError) -> str:
    """Why an OSError says a file cannot be opened: no such file, permission denied, …"""
    return UNREADABLE.get(error.errno or 0) or error.strerror or str(error)


def require_readable(path: Path | str) -> Path:
    """The path, or an InputFormatError saying why it cannot be read: no such file, permission
    denied, is a directory."""
    path = Path(path)
    if path.is_dir():
        raise InputFormatError(path, "file", "cannot be read (is a directory)")
    try:
        with path.open("rb"):
            pass
    except OSError as error:
        raise InputFormatError(path, "file", f"cannot be read ({unreadable_reason(error)})"
                               ) from None
    if not os.path.isfile(path):
        raise InputFormatError(path, "file", "cannot be read (not a regular file)")
    return path


def _open_bytes(path: Path) -> IO[bytes]:
    """The file's bytes, decompressed on the fly (gzip, bzip2, zstd) when its magic bytes say."""
    kind = compression(path)
    if kind == "gzip":
        return gzip.open(path, "rb")
    if kind == "bzip2":
        return bz2.open(path, "rb")
    if kind == "zstd":
        return io.BufferedReader(ZstdFrames(path.open("rb")), CHUNK)
    return path.open("rb")


class ZstdFrames(io.RawIOBase):
    """The decompressed bytes of every zstd frame of a file, one after another; a file cut
    inside a frame raises ZstdError (zstandard's stream_reader ends there without a word)."""

    def __init__(self, source: IO[bytes]) -> None:
        self.source = source
        self.decompressor = zstandard.ZstdDecompressor(max_window_size=ZSTD_MAX_WINDOW)
        self.frame = self.decompressor.decompressobj()
        self.started = False  # whether the current frame has had any input
        self.pending, self.offset = b"", 0  # decompressed bytes not yet handed out

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        """Fill `buffer` with decompressed bytes; 0 at the end of the last whole frame."""
        while self.offset == len(self.pending):
            self.pending, self.offset = b"", 0
            data = self.source.read(CHUNK)
            if not data:
                if self.started and not self.frame.eof:
                    raise zstandard.ZstdError("the file ends inside a zstd frame")
                return 0
            while data:
                if self.frame.eof:
                    self.frame, self.started = self.decompressor.decompressobj(), False
                self.started = True
                self.pending += self.frame.decompress(data)
                data = self.frame.unused_data if self.frame.eof else b""
        size = min(len(buffer), len(self.pending) - self.offset)
        buffer[:size] = memoryview(self.pending)[self.offset:self.offset + size]
        self.offset += size
        return size

    def close(self) -> None:
        self.source.close()
        super().close()


def _decoding_error(path: Path, encoding: str) -> InputFormatError:
    """The error naming the line and byte offset of the first byte that does not decode."""
    decoder = codecs.getincrementaldecoder(encoding)()
    offset, line = 0, 1
    with _open_bytes(path) as handle:
        head = handle.read(2)
        foreign = next((name for bom, name in FOREIGN_BOMS.items() if head.startswith(bom)), "")
        chunk = head + handle.read(CHUNK)
        while True:
            held = decoder.getstate()[0]
            try:
                decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as error:
                # The error's buffer starts with the bytes held back from the chunk before.
                start = offset - len(held) + error.start
                line += (held + chunk)[:error.start].count(b"\n") - held.count(b"\n")
                hint = f"; the file looks like {foreign}, save it as UTF-8" if foreign else ""
                return InputFormatError(path, f"line {line}, byte offset {start}",
                                        f"byte {error.object[error.start:][:1].hex()} is not "
                                        f"{encoding} ({error.reason}){hint}")
            if not chunk:
                break
            offset += len(chunk)
            line += chunk.count(b"\n")
            chunk = handle.read(CHUNK)
    return InputFormatError(path, f"byte offset {offset}", f"not {encoding} text")


def compression(path: Path) -> str:
    """The compression a file's magic bytes name (gzip, bzip2, zstd), or "" for none."""
    with path.open("rb") as probe:
        magic = probe.read(4)
    return ("gzip" if magic.startswith(GZIP_MAGIC) else "bzip2" if magic.startswith(BZIP2_MAGIC)
            else "zstd" if magic == ZSTD_MAGIC else "")


def _unreadable(path: Path, line: int, error: BaseException) -> InputFormatError:
    """The error of a stream that cannot be read on: cut, or corrupt."""
    kind = compression(path)
    return InputFormatError(path, f"line {line}",
                            f"unreadable {kind + ' stream' if kind else 'file'} ({error})")


def _lines(path: Path, handle: IO[str], encoding: str) -> Iterator[str]:
    """The handle's lines, each "\\r\\n" read as "\\n"; a decoding error names where."""
    number = 0  # lines read so far, for the error of a stream cut after them
    try:
        for line in handle:
            number += 1
            yield line[:-2] + "\n" if line.endswith("\r\n") else line
    except UnicodeDecodeError:
        raise _decoding_error(path, encoding) from None
    except STREAM_ERRORS as error:
        raise _unreadable(path, number + 1, error) from None


@contextlib.contextmanager
def open_text(path: Path | str, encoding: str = "utf-8") -> Iterator[Iterator[str]]:
    """The file's lines, each ending in "\\n" but maybe the last (CRLF read as LF, a leading
    BOM dropped, gzip, bzip2 or zstd by magic bytes); a byte that does not decode is an
    InputFormatError naming the line and the byte offset."""
    path = Path(path)
    try:
        raw = _open_bytes(path)
    except OSError as error:
        raise InputFormatError(path, "file", f"cannot be read ({unreadable_reason(error)})"
                               ) from None
    codec = "utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding
    try:
        if codec != "utf-8-sig" and raw.peek(3)[:3] == codecs.BOM_UTF8:  # type: ignore
            raw.read(3)  # a UTF-8 BOM before latin-1 text: an editor's mark, never "ï»¿"
    except STREAM_ERRORS as error:
        raw.close()
        raise _unreadable(path, 1, error) from None
    # newline="\n": only a line feed ends a line, so a stray "\r" inside a field stays there.
    with io.TextIOWrapper(raw, encoding=codec, newline="\n") as handle:
        yield _lines(path, handle, encoding)


def decode_text(data: bytes, where: Path | str, encoding: str = "utf-8") -> str:
    """Bytes read from an archive member as text, as `read_text` reads a file; `where`
    names the member in an error."""
    codec = "utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as error:
        # utf-8-sig reports offsets after the BOM it dropped.
        start = error.start + (len(data) - len(error.object))
        line = data[:start].count(b"\n") + 1
        raise InputFormatError(where, f"line {line}, byte offset {start}",
                               f"byte {data[start:start + 1].hex()} is not {encoding} "
                               f"({error.reason})") from None
    return text.replace("\r\n", "\n")


def numbered_lines(path: Path | str, encoding: str = "utf-8") -> Iterator[tuple[int, str]]:
    """(line number, text without its line end) of every line of a text file."""
    with open_text(path, encoding) as lines:
        for number, line in enumerate(lines, start=1):
            yield number, line.rstrip("\n")


def read_text(path: Path | str, encoding: str = "utf-8") -> str:
    """A whole text file as one string, line ends as "\\n" and no BOM."""
    with open_text(path, encoding) as lines:
        return "".join(lines)


def read_json(path: Path | str) -> Any:
    """A JSON document; a syntax error names its line and column."""
    try:
        return json.loads(read_text(path))
    except json.JSONDecodeError as error:
        raise InputFormatError(path, f"line {error.lineno}, column {error.colno}",
                               f"not JSON ({error.msg})") from None


def require_rows(path: Path | str, rows: int, what: str) -> None:
    """An error naming the file when it holds no `what` (an empty input is never a zero row)."""
    if rows == 0:
        raise InputFormatError(path, "whole file", f"holds no {what}; an empty file here "
                               "would only give a table row of zeros")
