"""WIKI-PSE embeddings on disk: gensim KeyedVectors in a folder, arrays apart so that part 2
(and any reader) can memory-map them (`KeyedVectors.load(path, mmap="r")`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from gensim.models import KeyedVectors

from reprobe.embeddings.train import check_finite
from reprobe.io import atomic_directory

FILE = "vectors.kv"


def save_vectors(vectors: KeyedVectors, folder: Path,
                 notes: Mapping[str, str] | None = None) -> Path:
    """Save vectors into folder (replaced whole, atomically), with text files beside them
    (notes: file name → text); the .kv path."""
    check_finite(vectors, folder)
    # gensim pickles a log of events with their date and the staging folder's name: off, so
    # that the same vectors give the same bytes on every run (as reprobe.embeddings.load does).
    vectors.lifecycle_events = None
    with atomic_directory(folder) as staging:
        # sep_limit=0: every array in its own .npy, so loading can memory-map it.
        vectors.save(str(staging / FILE), sep_limit=0)
        for name, text in (notes or {}).items():
            (staging / name).write_text(text, encoding="utf-8")
    return Path(folder) / FILE


def load_vectors(folder: Path, mmap: str | None = "r") -> KeyedVectors:
    """Vectors saved by save_vectors, memory-mapped by default."""
    return KeyedVectors.load(str(Path(folder) / FILE), mmap=mmap)
