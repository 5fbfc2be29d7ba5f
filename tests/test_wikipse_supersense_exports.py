"""Table 8's supersense dataset as a Hugging Face dataset folder
(reprobe.wikipse.supersense_exports), built from the sample corpus, read back with `datasets`
offline and checked against the dataset's own files."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest

from conftest import REPO
from reprobe.cli import main
from reprobe.errors import InputFormatError
from reprobe.sources.checksum import sha256_file
from reprobe.wikipse.exports import CITATION
from reprobe.wikipse.resource.release import ordered, read_split
from reprobe.wikipse.supersense_exports import LICENCE, export_supersense

datasets = pytest.importorskip("datasets")

SAMPLE = REPO / "data/samples/wikipse/supersense"
FEATURES = {"word": "string", "supersenses": ["string"], "freqs": ["int64"],
            "n_supersenses": "int64", "multi_class": "bool"}
SOURCES = {"wikipse_supersense_corpus_sample": {
    "path": "data/samples/wikipse/supersense/supertextwiki.tar.xz",
    "description": "Stand-in for UKP's supertextwiki.tar.xz"}}


@pytest.fixture(autouse=True)
def offline(hf_offline: Path) -> None:
    """`datasets` reads local folders only (conftest's hf_offline)."""


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    """The sample corpus's supersense dataset, as the workflow's step writes it."""
    with tarfile.open(SAMPLE / "supertextwiki.tar.xz") as tar:
        tar.extractall(tmp_path / "corpus", filter="data")
    out = tmp_path / "supersense"
    assert main(["wikipse", "supersense-dataset", "--corpus", str(tmp_path / "corpus"),
                 "--min-frequency", "2", "--seed", "7", "--settings",
                 '{"single_per_split": null, "multi_per_split": null}', "--output-dir",
                 str(out)]) == 0
    return out


def features(loaded: object) -> dict[str, object]:
    """Each column's type as the loaded split has it (a list column as [its item type])."""
    found = {}
    for name, feature in loaded.features.items():
        inner = getattr(feature, "feature", None)
        found[name] = [inner.dtype] if inner is not None else feature.dtype
    return found


def test_the_step_writes_a_folder_with_the_rows_of_the_files(tmp_path: Path, dataset) -> None:
    out = tmp_path / "exports" / "supersense"
    assert main(["wikipse", "supersense-export", "--train", str(dataset / "train.tsv"),
                 "--test", str(dataset / "test.tsv"), "--card", str(dataset / "card.json"),
                 "--sources-json", json.dumps(SOURCES), "--output", str(out)]) == 0
    loaded = datasets.load_dataset(str(out))
    assert set(loaded) == {"train", "test"}
    for split in ("train", "test"):
        rows, ours = loaded[split], read_split(dataset / f"{split}.tsv").classes
        assert features(rows) == FEATURES
        assert rows["word"] == list(ours)
        assert rows["supersenses"] == [[name.lstrip("-") for name, _ in ordered(classes)]
                                       for classes in ours.values()]
        assert rows["freqs"] == [[n for _, n in ordered(classes)] for classes in ours.values()]
        assert rows["n_supersenses"] == [len(classes) for classes in ours.values()]
        assert rows["multi_class"] == [len(classes) > 1 for classes in ours.values()]
        # The paper's selection: as many single- as multi-class words a split.
        assert sum(rows["multi_class"]) * 2 == rows.num_rows
    card = (out / "README.md").read_text(encoding="utf-8")
    built = json.loads((dataset / "card.json").read_text(encoding="utf-8"))
    assert sha256_file(dataset / "train.tsv") in card
    assert SOURCES["wikipse_supersense_corpus_sample"]["path"] in card
    assert "at least 2 annotated noun tokens" in card and "drawn with seed 7" in card
    assert f"{built['corpus']['files']} article files" in card
    assert "{yaghoobzadeh-etal-2019-probing" in card and CITATION.splitlines()[1] in card
    assert LICENCE in card and "license: other" in card


def test_a_bad_line_names_the_file_and_leaves_no_folder(tmp_path: Path, dataset) -> None:
    (dataset / "test.tsv").write_text("bank\tnoun.group=9\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"test\.tsv: line 1"):
        export_supersense({"train": dataset / "train.tsv", "test": dataset / "test.tsv"},
                          tmp_path / "bad", built={}, sources={})
    assert not (tmp_path / "bad").exists()
