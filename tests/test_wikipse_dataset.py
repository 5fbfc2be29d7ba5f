"""Tests for the WIKI-PSE dataset: minimum frequency, the seeded selection, files and card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reprobe.errors import ReprobeError
from reprobe.wikipse.resource.dataset import (
    compare_release,
    frequent,
    read_dataset,
    select,
    summary,
    word_classes,
    write_dataset,
)
from reprobe.wikipse.resource.release import read_release


def corpus_words(single: int, multi: int) -> dict[str, dict[str, int]]:
    """single + multi made-up words with one or two classes."""
    words = {f"@s{i}@": {"-person": 5} for i in range(single)}
    words.update({f"@m{i}@": {"-location": 4, "-art": 2} for i in range(multi)})
    return words


def test_word_classes_and_min_frequency() -> None:
    words = word_classes({("@a@", "-person"): 3, ("@a@", "-art"): 1, ("@b@", "-food"): 2})
    assert words == {"@a@": {"-person": 3, "-art": 1}, "@b@": {"-food": 2}}
    assert frequent(words, {"@a@": 4, "@b@": 2}, 3) == {"@a@": {"-person": 3, "-art": 1}}


def test_selection_is_disjoint_counted_and_seed_stable() -> None:
    words = corpus_words(single=50, multi=30)
    splits = select(words, single_per_split=12, multi_per_split=9, seed=7)
    train, test = set(splits["train"]), set(splits["test"])
    assert not train & test
    for split in (train, test):
        assert sum(len(words[w]) > 1 for w in split) == 9
        assert sum(len(words[w]) == 1 for w in split) == 12
    assert select(words, single_per_split=12, multi_per_split=9, seed=7) == splits
    assert select(words, single_per_split=12, multi_per_split=9, seed=8) != splits


def test_default_selection_halves_multi_and_matches_single() -> None:
    splits = select(corpus_words(single=50, multi=31), single_per_split=None,
                    multi_per_split=None, seed=1)
    assert len(splits["train"]) == len(splits["test"]) == 30


def test_too_many_words_asked_is_an_error() -> None:
    with pytest.raises(ReprobeError, match="multi-class"):
        select(corpus_words(single=50, multi=3), single_per_split=2, multi_per_split=2, seed=0)


def test_written_dataset_reads_back(tmp_path: Path) -> None:
    words = corpus_words(single=10, multi=6)
    splits = select(words, single_per_split=3, multi_per_split=3, seed=0)
    paths = write_dataset(words, splits, tmp_path, {"min_frequency": 2})
    assert set(read_release(paths["train"])) == set(splits["train"])
    assert read_dataset(paths["parquet"]) == words
    card = json.loads(paths["card"].read_text(encoding="utf-8"))
    assert card["splits"]["train"]["multi_class"] == 3
    assert card["annotated_words"]["words"] == 16


def test_summary_counts_pairs_and_means() -> None:
    assert summary({"@a@": {"-x": 1, "-y": 1}, "@b@": {"-x": 2}}) == {
        "words": 2, "pairs": 3, "multi_class": 1, "single_class": 1, "mean_classes": 1.5}


def test_compare_release_counts_words_classes_and_dominant_class() -> None:
    released = {"@a@": {"-x": 5, "-y": 1}, "@b@": {"-x": 2}, "@c@": {"-z": 1}}
    rebuilt = {"@a@": {"-x": 1, "-y": 9}, "@b@": {"-x": 4}}
    assert compare_release(released, rebuilt) == {
        "released_words": 3, "in_rebuilt": 2, "same_classes": 2, "same_dominant_class": 1}
