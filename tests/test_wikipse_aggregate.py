"""Tests for unifΣ and wghtΣ on hand-made word/S-class vectors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from gensim.models import KeyedVectors

from reprobe.wikipse.embedding.aggregate import aggregate, weights
from reprobe.wikipse.embedding.vectors import load_vectors, save_vectors


def senses() -> KeyedVectors:
    """Three word/S-class vectors of two dimensions."""
    vectors = KeyedVectors(2)
    vectors.add_vectors(["@apple@-organization", "@apple@-food", "@marx@-person"],
                        np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 3.0]], dtype=np.float32))
    return vectors


WORDS = {"@apple@": {"-organization": 3, "-food": 1}, "@marx@": {"-person": 5},
         "@ghost@": {"-person": 2}}


def test_unif_sums_the_sense_vectors() -> None:
    vectors, counts = aggregate(WORDS, senses(), "unif")
    assert vectors["@apple@"] == pytest.approx([1.0, 2.0])
    assert vectors["@marx@"] == pytest.approx([3.0, 3.0])
    assert counts == {"words": 3, "aggregated": 2, "partial": 0, "missing": 1}


def test_wght_weights_by_relative_frequency() -> None:
    vectors, _ = aggregate(WORDS, senses(), "wght")
    # 3/4 · (1, 0) + 1/4 · (0, 2)
    assert vectors["@apple@"] == pytest.approx([0.75, 0.5])
    assert weights({"-a": 1, "-b": 3}, "wght") == {"-a": 0.25, "-b": 0.75}


def test_a_sense_without_a_vector_is_left_out_and_counted() -> None:
    words = {"@apple@": {"-organization": 3, "-food": 1, "-art": 4}}
    vectors, counts = aggregate(words, senses(), "unif")
    assert vectors["@apple@"] == pytest.approx([1.0, 2.0])
    assert counts["partial"] == 1


def test_unknown_kind_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown aggregate"):
        weights({"-a": 1}, "max")


def test_vectors_save_and_load_memory_mapped(tmp_path: Path) -> None:
    vectors, _ = aggregate(WORDS, senses(), "unif")
    save_vectors(vectors, tmp_path / "unif", {"counts.json": "{}\n"})
    loaded = load_vectors(tmp_path / "unif")
    assert isinstance(loaded.vectors, np.memmap)
    assert loaded["@apple@"] == pytest.approx([1.0, 2.0])
    assert (tmp_path / "unif/counts.json").is_file()
