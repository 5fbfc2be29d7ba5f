"""Table 3: S-class prediction on the WIKI-PSE words that public embeddings also have.

"We create a subset of the WIKI-PSE dataset by keeping only single-token words that exist in
the two embedding vocabularies" (§5.1): a word `@x@` whose surface form `x` is one token (no
`_`) and, lowercased, in every public vocabulary. Our vectors are looked up as `@x@`, the public
ones as `x`; both are L2-normalised like every probe's features.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from gensim.models import KeyedVectors

from reprobe.wikipse.resource.release import WordClasses


def surface(word: str) -> str | None:
    """`x` of a single-token annotated word `@x@`; None for a multiword or other token."""
    if len(word) < 3 or not (word.startswith("@") and word.endswith("@")):
        return None
    inner = word[1:-1]
    return inner if inner and "_" not in inner and "@" not in inner else None


def shared_subset(data: WordClasses, public: Sequence[KeyedVectors]) -> list[str]:
    """The words of data whose surface form every public vocabulary has, in data's order."""
    kept = []
    for word in data:
        form = surface(word)
        if form is not None and all(form in vectors for vectors in public):
            kept.append(word)
    return kept


def public_features(words: Sequence[str], vectors: KeyedVectors) -> np.ndarray:
    """L2-normalised public vectors of the words' surface forms (all present: see
    shared_subset)."""
    matrix = np.vstack([vectors[surface(w)] for w in words]).astype(np.float64)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


def subset(data: WordClasses, words: Sequence[str]) -> WordClasses:
    """The data restricted to some words."""
    return {w: data[w] for w in words}


def subset_summary(train: Mapping[str, Mapping[str, int]],
                   test: Mapping[str, Mapping[str, int]]) -> dict[str, float]:
    """Words per split and mean S-classes per word of the subset (paper 13,000 and 2.67)."""
    both = {**train, **test}
    return {"train": len(train), "test": len(test),
            "mean_classes": (sum(len(c) for c in both.values()) / len(both)) if both
            else float("nan")}
