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


SUPERSENSE = REPO / "data/samples/wikipse/supersense"


def test_supersense_archive_matches_the_article_folder() -> None:
    with tarfile.open(SUPERSENSE / "supertextwiki.tar.xz") as tar:
        packed = {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}
    folder = SUPERSENSE / "supertextwiki"
    assert packed == {p.relative_to(SUPERSENSE).as_posix(): p.read_bytes()
                      for p in folder.rglob("*") if p.is_file()}


def test_supersense_sample_is_reproducible(tmp_path: Path) -> None:
    """make_sample.py rebuilds the committed archive and embeddings byte for byte."""
    shutil.copytree(SUPERSENSE / "supertextwiki", tmp_path / "supertextwiki")
    shutil.copy(SUPERSENSE / "make_sample.py", tmp_path / "make_sample.py")
    runpy.run_path(str(tmp_path / "make_sample.py"), run_name="__main__")
    for name in ("supertextwiki.tar.xz", "supersense-embeddings.txt"):
        assert (tmp_path / name).read_bytes() == (SUPERSENSE / name).read_bytes(), name


def test_authors_bundle_sample_has_the_bundle_layout() -> None:
    """The stand-in for data.zip: the two corpora at the README's places, two embeddings."""
    with zipfile.ZipFile(REPO / "data/samples/wikipse/authors/wikipse_data_sample.zip") as zip_:
        names = zip_.namelist()
        assert names == sorted(names)
        assert {"corpus.txt", "word_sclass/corpus.txt"} <= set(names)
        word = zip_.read("corpus.txt").decode("utf-8").split()
        sclass = zip_.read("word_sclass/corpus.txt").decode("utf-8").split()
    assert any(t.startswith("@") and t.endswith("@") for t in word)
    assert any(t.startswith("@") and "@-" in t for t in sclass)
