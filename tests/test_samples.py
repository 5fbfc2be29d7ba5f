"""The committed sample archives hold exactly the readable sample folders beside them."""

from __future__ import annotations

import runpy
import shutil
import tarfile
import zipfile
from pathlib import Path

from conftest import REPO

SAMPLES = REPO / "data/samples/equate"


def folder_files(folder: Path, prefix: str) -> dict[str, bytes]:
    """A folder's files by their name inside the archive."""
    return {f"{prefix}/{p.name}": p.read_bytes() for p in folder.iterdir() if p.is_file()}


def test_cnn_archive_matches_the_story_folder() -> None:
    with tarfile.open(SAMPLES / "cnn_stories.tgz") as tar:
        packed = {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}
    assert packed == folder_files(SAMPLES / "cnn_stories", "cnn/stories")


def test_wordnet_archive_matches_the_database_folder() -> None:
    with zipfile.ZipFile(SAMPLES / "wordnet.zip") as zf:
        packed = {name: zf.read(name) for name in zf.namelist()}
    assert packed == folder_files(SAMPLES / "wordnet", "wordnet")


def test_packing_is_reproducible(tmp_path: Path) -> None:
    """pack.py rebuilds the committed archives byte for byte."""
    for item in ("cnn_stories", "wordnet", "pack.py"):
        copy = shutil.copytree if (SAMPLES / item).is_dir() else shutil.copy
        copy(SAMPLES / item, tmp_path / item)
    runpy.run_path(str(tmp_path / "pack.py"), run_name="__main__")
    for archive in ("cnn_stories.tgz", "wordnet.zip"):
        assert (tmp_path / archive).read_bytes() == (SAMPLES / archive).read_bytes(), archive
