"""unifΣ and wghtΣ: a word as the sum of its word/S-class vectors (Yaghoobzadeh et al. 2019, §4.1).

"~w = Σ_i α_i ~w_ci where ~w is the aggregated word embedding and the ~w_ci are the word/S-class
embeddings": unifΣ sets α_i = 1, wghtΣ sets α_i = freq(w_ci) / Σ_j freq(w_cj), the relative
frequency of the word/S-class among the word's mentions. A word/S-class without a vector (under
the embedding's min count) takes no part; a word with none gets no aggregate, and is counted.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from gensim.models import KeyedVectors

from reprobe.wikipse.resource.corpora import sclass_token
from reprobe.wikipse.resource.release import WordClasses

KINDS = ("unif", "wght")


def weights(classes: Mapping[str, int], kind: str) -> dict[str, float]:
    """α of each S-class of a word: 1 (unifΣ) or its relative frequency (wghtΣ)."""
    if kind == "unif":
        return dict.fromkeys(classes, 1.0)
    if kind == "wght":
        total = sum(classes.values())
        return {c: n / total for c, n in classes.items()}
    raise ValueError(f"unknown aggregate {kind!r}; use one of {KINDS}")


def aggregate(words: WordClasses, sense_vectors: KeyedVectors, kind: str
              ) -> tuple[KeyedVectors, dict[str, int]]:
    """Aggregated vectors of the words, and counts (words, aggregated, partial, missing)."""
    keys, rows = [], []
    counts = {"words": len(words), "aggregated": 0, "partial": 0, "missing": 0}
    for word in sorted(words):
        alphas = weights(words[word], kind)
        present = {c: a for c, a in alphas.items() if sclass_token(word, c) in sense_vectors}
        if not present:
            counts["missing"] += 1
            continue
        counts["partial"] += len(present) < len(alphas)
        counts["aggregated"] += 1
        # float64 sums, stored as float32 as the vectors themselves are.
        vector = np.zeros(sense_vectors.vector_size, dtype=np.float64)
        for sclass, alpha in present.items():
            vector += alpha * sense_vectors[sclass_token(word, sclass)].astype(np.float64)
        keys.append(word)
        rows.append(vector.astype(np.float32))
    vectors = KeyedVectors(sense_vectors.vector_size, dtype=np.float32)
    if keys:
        vectors.add_vectors(keys, np.vstack(rows))
    return vectors, counts
