"""Tests for reprobe.sources.extract on archives built in the test's temporary folder."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import random
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
import zstandard

from reprobe.errors import SourceError
from reprobe.sources.extract import archive_kind, extract_archive

FILES = {"top.txt": b"top\n", "sub/deeper/leaf.txt": b"leaf\n", "sub/mid.txt": b"mid\n"}
EXPECTED = sorted(Path(name) for name in FILES)


def add_member(
    tar: tarfile.TarFile,
    name: str,
    data: bytes = b"",
    *,
    kind: bytes = tarfile.REGTYPE,
    linkname: str = "",
) -> None:
    """Add one member of any type to an open tar."""
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    tar.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)


def make_tar(path: Path, files: dict[str, bytes], mode: str = "w:gz") -> Path:
    """Write a tar of regular files at path."""
    with tarfile.open(path, mode) as tar:
        for name, data in files.items():
            add_member(tar, name, data)
    return path


def make_zip(path: Path, files: dict[str, bytes]) -> Path:
    """Write a zip of regular files at path."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return path


def leftovers(folder: Path) -> list[str]:
    """Return the names in folder, to show that no target or temp folder stayed behind."""
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A folder holding the archive and the target, inside tmp_path so escapes land in it."""
    folder = tmp_path / "work"
    folder.mkdir()
    return folder


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("a.tar", "tar"),
        ("a.tar.gz", "tar.gz"),
        ("a.TGZ", "tar.gz"),
        ("a.tar.bz2", "tar.bz2"),
        ("a.tar.xz", "tar.xz"),
        ("a.zip", "zip"),
        ("a.txt.gz", "gz"),
        ("a.bz2", "bz2"),
        ("a.jsonl.zst", "zst"),
        ("a.xz", "xz"),
    ],
)
def test_archive_kind_from_file_name(name: str, kind: str) -> None:
    assert archive_kind(Path(name)) == kind


def test_archive_kind_unknown_is_refused() -> None:
    with pytest.raises(SourceError, match="a.rar"):
        archive_kind(Path("a.rar"))


def test_tar_gz_nested_files_are_extracted(work: Path) -> None:
    archive = make_tar(work / "a.tar.gz", FILES)
    files = extract_archive(archive, work / "out", source="src")
    assert files == EXPECTED
    for name, data in FILES.items():
        assert (work / "out" / name).read_bytes() == data
    assert leftovers(work) == ["a.tar.gz", "out"]


def test_zip_nested_files_are_extracted(work: Path) -> None:
    archive = make_zip(work / "a.zip", FILES)
    assert extract_archive(archive, work / "out", source="src") == EXPECTED
    assert (work / "out" / "sub" / "deeper" / "leaf.txt").read_bytes() == b"leaf\n"
    assert leftovers(work) == ["a.zip", "out"]


def test_tar_symlink_inside_the_target_is_kept(work: Path) -> None:
    archive = work / "a.tar"
    with tarfile.open(archive, "w") as tar:
        add_member(tar, "sub/mid.txt", b"mid\n")
        add_member(tar, "alias.txt", kind=tarfile.SYMTYPE, linkname="sub/mid.txt")
    files = extract_archive(archive, work / "out", source="src")
    assert files == [Path("alias.txt"), Path("sub/mid.txt")]
    assert (work / "out" / "alias.txt").read_bytes() == b"mid\n"


def test_existing_target_is_replaced_by_the_new_extraction(work: Path) -> None:
    (work / "out").mkdir()
    (work / "out" / "old.txt").write_text("old")
    extract_archive(make_tar(work / "a.tar.gz", FILES), work / "out", source="src")
    assert not (work / "out" / "old.txt").exists()
    assert leftovers(work) == ["a.tar.gz", "out"]


def test_failed_extraction_keeps_the_existing_target(work: Path) -> None:
    (work / "out").mkdir()
    (work / "out" / "old.txt").write_text("old")
    archive = work / "a.tar.gz"
    archive.write_bytes(b"not a tar at all")
    with pytest.raises(SourceError):
        extract_archive(archive, work / "out", source="src")
    assert (work / "out" / "old.txt").read_text() == "old"
    assert leftovers(work) == ["a.tar.gz", "out"]


def _evil_tar_members(tmp_path: Path) -> dict[str, Callable[[tarfile.TarFile], None]]:
    """Return, per test id, a function that adds one escaping member (and its name)."""
    absolute = str(tmp_path / "abs-evil")
    return {
        "dotdot": lambda t: add_member(t, "../evil", b"x"),
        "absolute": lambda t: add_member(t, absolute, b"x"),
        "symlink-abs": lambda t: add_member(
            t, "passwd", kind=tarfile.SYMTYPE, linkname="/etc/passwd"
        ),
        "symlink-up": lambda t: add_member(t, "up", kind=tarfile.SYMTYPE, linkname="../.."),
        "hardlink-up": lambda t: add_member(t, "hard", kind=tarfile.LNKTYPE, linkname="../evil"),
        "device": lambda t: add_member(t, "null", kind=tarfile.CHRTYPE),
    }


@pytest.mark.parametrize(
    ("case", "member"),
    [
        ("dotdot", "../evil"),
        ("absolute", "abs-evil"),
        ("symlink-abs", "passwd"),
        ("symlink-up", "up"),
        ("hardlink-up", "hard"),
        ("device", "null"),
    ],
)
def test_tar_member_escaping_the_target_is_refused(
    tmp_path: Path, work: Path, case: str, member: str
) -> None:
    archive = work / "evil.tar"
    with tarfile.open(archive, "w") as tar:
        add_member(tar, "fine.txt", b"fine")
        _evil_tar_members(tmp_path)[case](tar)
        add_member(tar, "after.txt", b"after")
    with pytest.raises(SourceError, match=rf"badsrc: .*evil\.tar.*refusing member '[^']*{member}'"):
        extract_archive(archive, work / "out", source="badsrc")
    assert leftovers(work) == ["evil.tar"]
    assert leftovers(tmp_path) == ["work"]


def test_tar_symlink_then_write_through_it_is_refused(tmp_path: Path, work: Path) -> None:
    archive = work / "evil.tar"
    with tarfile.open(archive, "w") as tar:
        add_member(tar, "inside", kind=tarfile.SYMTYPE, linkname="sub/..")
        add_member(tar, "inside/../../evil", b"x")
    with pytest.raises(SourceError, match="refusing member"):
        extract_archive(archive, work / "out", source="badsrc")
    assert leftovers(work) == ["evil.tar"]
    assert leftovers(tmp_path) == ["work"]


def test_zip_member_escaping_the_target_is_refused(tmp_path: Path, work: Path) -> None:
    archive = make_zip(work / "evil.zip", {"fine.txt": b"fine", "../evil": b"x"})
    with pytest.raises(SourceError, match=r"badsrc: .*evil\.zip.*refusing member '\.\./evil'"):
        extract_archive(archive, work / "out", source="badsrc")
    assert leftovers(work) == ["evil.zip"]
    assert leftovers(tmp_path) == ["work"]


def test_zip_absolute_member_is_refused(work: Path) -> None:
    archive = make_zip(work / "evil.zip", {"/tmp/evil": b"x"})
    with pytest.raises(SourceError, match="absolute path"):
        extract_archive(archive, work / "out", source="badsrc")
    assert leftovers(work) == ["evil.zip"]


COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gz": gzip.compress,
    "bz2": bz2.compress,
    "zst": zstandard.ZstdCompressor().compress,
    "xz": lzma.compress,
}


@pytest.mark.parametrize("suffix", sorted(COMPRESSORS))
def test_single_compressed_file_is_decompressed(work: Path, suffix: str) -> None:
    archive = work / f"data.jsonl.{suffix}"
    archive.write_bytes(COMPRESSORS[suffix](b'{"a": 1}\n' * 1000))
    assert extract_archive(archive, work / "out", source="src") == [Path("data.jsonl")]
    assert (work / "out" / "data.jsonl").read_bytes() == b'{"a": 1}\n' * 1000


@pytest.mark.parametrize("suffix", sorted(COMPRESSORS))
def test_truncated_single_compressed_file_fails_cleanly(work: Path, suffix: str) -> None:
    archive = work / f"data.bin.{suffix}"
    data = COMPRESSORS[suffix](random.Random(1).randbytes(100_000))
    archive.write_bytes(data[: len(data) // 2])
    with pytest.raises(SourceError, match=rf"src: cannot extract .*data\.bin\.{suffix}"):
        extract_archive(archive, work / "out", source="src")
    assert leftovers(work) == [archive.name]


@pytest.mark.parametrize("keep", [0.5, -4])
def test_truncated_tar_gz_fails_cleanly(work: Path, keep: float) -> None:
    files = {f"f{i}.bin": random.Random(i).randbytes(50_000) for i in range(4)}
    archive = make_tar(work / "big.tar.gz", files)
    data = archive.read_bytes()
    # Half the file cuts a member; dropping 4 bytes only cuts the gzip trailer.
    archive.write_bytes(data[: int(len(data) * keep)] if keep > 0 else data[: int(keep)])
    with pytest.raises(SourceError, match=r"src: cannot extract .*big\.tar\.gz"):
        extract_archive(archive, work / "out", source="src")
    assert leftovers(work) == ["big.tar.gz"]


def test_truncated_zip_fails_cleanly(work: Path) -> None:
    archive = make_zip(work / "a.zip", FILES)
    archive.write_bytes(archive.read_bytes()[:-30])
    with pytest.raises(SourceError, match=r"src: cannot extract .*a\.zip"):
        extract_archive(archive, work / "out", source="src")
    assert leftovers(work) == ["a.zip"]


def test_a_missing_member_lists_the_members_the_archive_has(tmp_path: Path) -> None:
    from reprobe.sources.extract import member_file

    folder = tmp_path / "data/raw/bundle/extracted"
    (folder / "word_sclass").mkdir(parents=True)
    (folder / "corpus.txt").write_text("@apple@ pie\n", encoding="utf-8")
    (folder / "word_sclass/corpus.txt").write_text("@apple@-food pie\n", encoding="utf-8")
    assert member_file(folder / "corpus.txt") == folder / "corpus.txt"
    with pytest.raises(SourceError, match=r"no member embeddings/sskip\.txt; it has 2: "
                                          r"corpus\.txt, word_sclass/corpus\.txt"):
        member_file(folder / "embeddings/sskip.txt")
    with pytest.raises(SourceError, match="no such file"):
        member_file(tmp_path / "elsewhere.txt")
