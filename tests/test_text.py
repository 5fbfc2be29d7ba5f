"""The ground floor's text reader: BOMs, CRLF, compression, and decoding errors that name
the file, the line and the byte offset."""

from __future__ import annotations

import bz2
import codecs
import gzip

import pytest
import zstandard

from reprobe.errors import InputFormatError
from reprobe.text import (
    decode_text,
    numbered_lines,
    read_json,
    read_text,
    require_rows,
)

COMPRESSORS = [gzip.compress, bz2.compress,
               lambda data: zstandard.ZstdCompressor().compress(data)]


def test_a_bom_and_crlf_are_dropped_but_a_stray_carriage_return_stays(tmp_path):
    path = tmp_path / "f.tsv"
    path.write_bytes(codecs.BOM_UTF8 + b"a\tb\r\nc\rd\n\ne")
    assert list(numbered_lines(path)) == [(1, "a\tb"), (2, "c\rd"), (3, ""), (4, "e")]
    assert read_text(path) == "a\tb\nc\rd\n\ne"


@pytest.mark.parametrize("compress", COMPRESSORS)
def test_compressed_files_are_read_by_their_magic_bytes(tmp_path, compress):
    path = tmp_path / "f.txt"  # the name says nothing: real releases misname their files
    path.write_bytes(compress(codecs.BOM_UTF8 + b"x\r\ny\n"))
    assert list(numbered_lines(path)) == [(1, "x"), (2, "y")]





def test_a_bad_byte_names_its_line_and_offset_across_read_chunks(tmp_path):
    path = tmp_path / "f.txt"
    # A three-byte character split by the 1 MiB chunk boundary, then a bad byte.
    path.write_bytes(b"a" * ((1 << 20) - 1) + "€".encode() + b"\n\xff\n")
    with pytest.raises(InputFormatError,
                       match=r"f\.txt: line 2, byte offset 1048579: byte ff is not utf-8"):
        list(numbered_lines(path))


def test_a_character_cut_at_the_end_names_its_offset(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(b"ab\xe2\x82")
    with pytest.raises(InputFormatError, match="line 1, byte offset 2: byte e2"):
        read_text(path)


def test_utf16_is_named_as_such(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes("words\n".encode("utf-16"))
    with pytest.raises(InputFormatError, match="looks like UTF-16"):
        read_text(path)


def test_latin1_reading_drops_a_utf8_bom_too(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(codecs.BOM_UTF8 + "café\r\n".encode("latin-1"))
    assert read_text(path, "latin-1") == "café\n"


def test_archive_member_bytes_decode_as_files_do():
    assert decode_text(codecs.BOM_UTF8 + b"a\r\nb", "x.tar: m") == "a\nb"
    with pytest.raises(InputFormatError, match=r"x\.tar: m: line 2, byte offset 8: byte ff"):
        decode_text(codecs.BOM_UTF8 + b"ab\r\nc\xff", "x.tar: m")


def test_json_errors_name_line_and_column(tmp_path):
    path = tmp_path / "f.json"
    path.write_text('[1,\n 2,\n oops]', encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"f\.json: line 3, column 2: not JSON"):
        read_json(path)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(InputFormatError, match="nothing.txt: file: cannot be read"):
        read_text(tmp_path / "nothing.txt")


def test_no_rows_is_an_error_naming_the_file():
    require_rows("f.tsv", 3, "probes")
    with pytest.raises(InputFormatError, match="f.tsv: whole file: holds no probes"):
        require_rows("f.tsv", 0, "probes")


@pytest.mark.parametrize("compress", COMPRESSORS)
def test_a_cut_compressed_stream_names_the_file(tmp_path, compress):
    path = tmp_path / "f.z"
    path.write_bytes(compress(b"".join(b"line %d\n" % i for i in range(5000)))[:-20])
    with pytest.raises(InputFormatError, match=r"f\.z: line \d+: unreadable"):
        list(numbered_lines(path))


def test_every_zstd_frame_is_read(tmp_path):
    path = tmp_path / "dump.zst"
    frame = zstandard.ZstdCompressor()
    path.write_bytes(frame.compress(b"a\n" * 300_000) + frame.compress(b"b\n"))
    lines = [text for _, text in numbered_lines(path)]
    assert len(lines) == 300_001 and lines[-1] == "b"


def test_require_readable_says_why_a_file_cannot_be_read(tmp_path):
    from reprobe.text import require_readable

    with pytest.raises(InputFormatError, match=r"absent.vec: file: cannot be read \(no such file"):
        require_readable(tmp_path / "absent.vec")
    with pytest.raises(InputFormatError, match=r"cannot be read \(is a directory\)"):
        require_readable(tmp_path)
    assert require_readable(__file__).is_file()


def test_an_unreadable_file_says_permission_denied(tmp_path, monkeypatch):
    from pathlib import Path

    from reprobe.text import require_readable

    locked = tmp_path / "locked.vec"
    locked.write_text("a 1\n")
    real_open = Path.open

    def refuse(self: Path, *args: object, **kwargs: object) -> object:
        """The OS's answer for a file without read permission (root reads any file)."""
        if self == locked:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(InputFormatError, match=r"locked.vec: file: cannot be read "
                       r"\(permission denied\)"):
        require_readable(locked)


def test_error_line_of_a_bare_file_not_found_gives_the_reason():
    from reprobe.errors import error_line

    assert error_line(FileNotFoundError("/nonexistent.vec")) == "/nonexistent.vec: no such file"
