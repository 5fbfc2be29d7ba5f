"""Any embedding a person names (`wikipse.extra_vectors`, `reprobe wikipse probe --vectors
FILE`): read in the embedding loader's formats (gensim KeyedVectors among them), and looked up
by WIKI-PSE's words.

Memory: gensim KeyedVectors (`kv`, and this stage's own vectors folders) are memory-mapped; a
text or binary file is read whole, once: the workflow converts it to a vectors folder
(`wikipse import-vectors`) that every probe then memory-maps.

Lookup: WIKI-PSE probes `@x@` tokens of its own annotated corpus (lowercased, `_` between the
words of a name), and an outside embedding has plain words, cased or not. A word is looked up
as `@x@` (an embedding trained on WIKI-PSE's corpus has it), else `x`, else `x` title-cased
(`ada_lovelace` → `Ada_Lovelace`, word2vec's phrase spelling of a name), else upper-cased
(`bbc` → `BBC`): the first spelling the vocabulary has. Only the vocabulary counts: a fastText
model's n-grams make no vector for a word it lacks, so its .bin and .vec give the same rows. A
word with no spelling in the vocabulary is left out and counted (the probe logs how many; the
tables' n is the test words found).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from reprobe.errors import InputFormatError
from reprobe.wikipse.embedding.vectors import FILE, load_vectors


def read_embedding(path: Path, fmt: str | None) -> KeyedVectors:
    """The word vectors of a vectors folder of this stage (memory-mapped) or of a file in a
    format `reprobe.embeddings.load` reads (fmt None: auto, detected; kv: memory-mapped)."""
    from reprobe.embeddings.load import load_vectors as load_file
    from reprobe.embeddings.load import plain_vectors

    path = Path(path)
    if path.is_dir():
        if not (path / FILE).is_file():
            raise InputFormatError(path, "folder", f"no {FILE}: a folder is read as a vectors "
                                                   "folder of `wikipse import-vectors`")
        return load_vectors(path)
    # Probes look words up by name: a fastText model's n-gram tables are dropped.
    return plain_vectors(load_file(path, fmt or "auto"))


def checked_dimension(vectors: KeyedVectors, dim: str | None, path: Path) -> str:
    """The vectors' dimension (a table's setting); an error naming the file when a dimension
    was expected and the vectors have another."""
    if dim is not None and int(dim) != vectors.vector_size:
        raise InputFormatError(path, "vectors", f"{vectors.vector_size} dimensions, expected "
                                                f"{dim}")
    return str(vectors.vector_size)


def spellings(word: str) -> list[str]:
    """The spellings a WIKI-PSE word is looked up as in an outside vocabulary, in order."""
    inner = word[1:-1] if len(word) > 2 and word[0] == word[-1] == "@" else word
    return list(dict.fromkeys([word, inner, inner.title(), inner.upper()]))


def vocabulary_keys(words: Sequence[str], vectors: KeyedVectors) -> list[str | None]:
    """Each word's key in the vocabulary (its first spelling there), None when it has none."""
    index = vectors.key_to_index
    return [next((s for s in spellings(w) if s in index), None) for w in words]


def outside_features(words: Sequence[str], vectors: KeyedVectors
                     ) -> tuple[np.ndarray, np.ndarray]:
    """L2-normalised rows of the words found in an outside vocabulary (`features` of their
    keys), and the mask of those words."""
    from reprobe.wikipse.probing.probes import features

    keys = vocabulary_keys(words, vectors)
    found = [k for k in keys if k is not None]
    kept = np.array([k is not None for k in keys], dtype=bool)
    if not found:
        return np.zeros((0, vectors.vector_size), dtype=np.float32), kept
    return features(found, vectors)[0], kept
