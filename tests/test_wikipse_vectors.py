"""WIKI-PSE's vectors folders (reprobe.wikipse.embedding.vectors): the same vectors give the
same bytes, wherever and whenever they are saved, and load back memory-mapped."""

from __future__ import annotations

import numpy as np
from gensim.models import KeyedVectors

from reprobe.wikipse.embedding.vectors import load_vectors, save_vectors


def small_vectors() -> KeyedVectors:
    """Three words in four dimensions."""
    vectors = KeyedVectors(vector_size=4)
    vectors.add_vectors(["@paris@", "@lake@", "the"],
                        np.arange(12, dtype=np.float32).reshape(3, 4))
    return vectors


def test_the_same_vectors_give_the_same_bytes_in_two_folders(tmp_path):
    for folder in ("one", "two"):
        save_vectors(small_vectors(), tmp_path / folder, notes={"README.txt": "x\n"})
    first = {p.name: p.read_bytes() for p in (tmp_path / "one").iterdir()}
    second = {p.name: p.read_bytes() for p in (tmp_path / "two").iterdir()}
    assert first.keys() == second.keys() and "vectors.kv" in first
    assert first == second


def test_saved_vectors_load_back_memory_mapped(tmp_path):
    save_vectors(small_vectors(), tmp_path / "kv")
    loaded = load_vectors(tmp_path / "kv")
    assert loaded.index_to_key == ["@paris@", "@lake@", "the"]
    assert isinstance(loaded.vectors, np.memmap)
    assert loaded["@lake@"].tolist() == [4.0, 5.0, 6.0, 7.0]
