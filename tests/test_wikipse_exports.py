"""WIKI-PSE's datasets as Hugging Face dataset folders (reprobe.wikipse.exports), read back
with `datasets` offline and checked against reprobe's own files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import REPO
from reprobe.cli import main
from reprobe.errors import InputFormatError
from reprobe.sources.checksum import sha256_file
from reprobe.wikipse.exports import export_variant, plain_word
from reprobe.wikipse.resource.release import read_split

datasets = pytest.importorskip("datasets")

RELEASED = {split: REPO / f"data/samples/wikipse/released/{split}.tsv"
            for split in ("train", "test")}
FEATURES = {"word": "string", "token": "string", "classes": ["string"], "freqs": ["int64"],
            "n_classes": "int64", "n_entries": "int64"}
CARD = {"min_frequency": 3, "seed": 7, "selection": {"multi_per_split": None,
                                                     "single_per_split": None},
        "corpus": {"sentences": 10}, "annotated_words": {"words": 5, "multi_class": 2},
        "splits": {"train": {"words": 3, "multi_class": 1, "single_class": 2, "pairs": 4},
                   "test": {"words": 2, "multi_class": 1, "single_class": 1, "pairs": 3}}}


@pytest.fixture(autouse=True)
def offline(hf_offline: Path) -> None:
    """`datasets` reads local folders only (conftest's hf_offline)."""


@pytest.fixture
def rebuilt(tmp_path: Path) -> dict[str, Path]:
    """A hand-made rebuild: two small splits in the released format and its card.json."""
    folder = tmp_path / "dataset"
    folder.mkdir()
    (folder / "train.tsv").write_text(
        "@agostinho_neto@\t-person=5 -art=2\n@paris@\t-location=9\n@avicenna@\t-person=3\n")
    (folder / "test.tsv").write_text("@apple@\t-organization=4 -food=4\n@ulm@\t-location=3\n")
    (folder / "card.json").write_text(json.dumps(CARD))
    return {"train": folder / "train.tsv", "test": folder / "test.tsv"}


def features(folder: Path) -> dict[str, object]:
    """Each column's type as the loaded dataset has it (a list column as [its item type])."""
    loaded = datasets.load_dataset(str(folder))
    found = {}
    for name, feature in loaded["train"].features.items():
        inner = getattr(feature, "feature", None)
        found[name] = [inner.dtype] if inner is not None else feature.dtype
    return found


def test_both_variants_load_with_their_rows_and_compare(tmp_path: Path, rebuilt) -> None:
    out = tmp_path / "exports"
    export_variant(rebuilt, out / "rebuilt", variant="rebuilt", built=CARD,
                   sources={"dump": {"url": "https://example.org/d.bz2", "sha256": "ab" * 32}},
                   compare=("released", RELEASED))
    export_variant(RELEASED, out / "released", variant="released", built={}, sources={},
                   compare=("rebuilt", rebuilt))
    for variant, paths in (("rebuilt", rebuilt), ("released", RELEASED)):
        loaded = datasets.load_dataset(str(out / variant))
        assert set(loaded) == {"train", "test"}
        assert features(out / variant) == FEATURES
        for split, path in paths.items():
            ours = read_split(path)
            rows = loaded[split]
            assert rows.num_rows == len(ours.classes)
            assert rows["token"] == list(ours.classes)
            assert rows["word"] == [plain_word(token) for token in ours.classes]
            assert [sum(freqs) for freqs in rows["freqs"]] == [
                sum(c.values()) for c in ours.classes.values()]
            assert rows["n_entries"] == list(ours.entries.values())
    first = datasets.load_dataset(str(out / "rebuilt"))["train"][0]
    assert first == {"word": "agostinho_neto", "token": "@agostinho_neto@",
                     "classes": ["person", "art"], "freqs": [5, 2], "n_classes": 2,
                     "n_entries": 2}
    card = (out / "rebuilt" / "README.md").read_text()
    # The sample's @agostinho_neto@ is in the released train split with the same classes.
    assert "| train | 3 | 23 | 1 | 1 | 1 |" in card
    assert sha256_file(rebuilt["train"]) in card and "https://example.org/d.bz2" in card
    assert "at least 3 corpus mentions" in card and "{yaghoobzadeh-etal-2019" in card
    assert "CC BY-SA" in (out / "released" / "README.md").read_text()


def test_the_step_writes_a_folder_and_a_bad_line_names_the_file(tmp_path: Path,
                                                                rebuilt) -> None:
    out = tmp_path / "released"
    assert main(["wikipse", "export", "--variant", "released", "--train",
                 str(RELEASED["train"]), "--test", str(RELEASED["test"]), "--sources-json",
                 "{}", "--output", str(out)]) == 0
    assert datasets.load_dataset(str(out))["test"].num_rows == len(
        read_split(RELEASED["test"]).classes)
    rebuilt["test"].write_text("@apple@\t-organization=4 food\n")
    with pytest.raises(InputFormatError, match=r"test\.tsv: line 1: expected -class=freq"):
        export_variant(rebuilt, tmp_path / "bad", variant="rebuilt", built=CARD, sources={},
                       compare=None)
    assert not (tmp_path / "bad").exists()
