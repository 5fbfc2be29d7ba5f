"""FIGER mention classification data in NFGEC's layout, and its scores (Yaghoobzadeh et al.
2019, §5.3, Table 5's MC column).

"For mention classification, we adapt Shimaoka et al. (2017)'s setup: training, evaluation
(FIGER dataset) and implementation. [...] We lowercase the dataset to match the vocabularies of
GLOVE(6B), FASTTEXT(Wiki) and our embeddings."

A line of NFGEC's `corpus/Wiki/{train,dev,test}.txt` is `start<TAB>end<TAB>tokens<TAB>labels
<TAB>features`: the mention is tokens[start:end] of the space-separated sentence, labels are
FIGER types (`/person /person/artist`). The hand-made features are not read (the paper compares
embeddings, so the model sees words only). Files are read streaming into integer arrays: a
word's id is its first sighting across the splits, id 0 is padding.

Scores follow NFGEC's evaluation: a mention's prediction is its best-scoring type plus every
other type scoring above 0.5; strict accuracy counts exact matches, loose macro and loose micro
average precision and recall per mention and over all decisions (Ling and Weld 2012).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from reprobe.errors import InputFormatError
from reprobe.text import open_text
from reprobe.wikipse.tasks.similarity import lookup_vector

PAD = "<pad>"  # id 0: the zero vector that fills short contexts
FIELDS = 5


@dataclass(frozen=True)
class Mentions:
    """One split as arrays: the context windows, the mention's token ids and its types."""

    left: np.ndarray  # (n, context) ids of the words before the mention, padded on the left
    right: np.ndarray  # (n, context) ids of the words after it, padded on the right
    mention_ids: np.ndarray  # all mentions' token ids end to end
    mention_starts: np.ndarray  # (n + 1,) offsets of each mention's ids in mention_ids
    labels: list[list[int]]  # type ids of each mention

    def __len__(self) -> int:
        return len(self.labels)


def _parse(path: Path, number: int, line: str, lowercase: bool
           ) -> tuple[list[str], int, int, list[str]]:
    """Tokens, mention start and end, and types of one NFGEC line; an error naming the line."""
    fields = line.rstrip("\r\n").split("\t")
    if len(fields) != FIELDS:
        raise InputFormatError(path, f"line {number}",
                               f"expected {FIELDS} tab-separated fields, found {len(fields)}")
    try:
        start, end = int(fields[0]), int(fields[1])
    except ValueError:
        raise InputFormatError(path, f"line {number}", "start and end must be integers") from None
    tokens = (fields[2].lower() if lowercase else fields[2]).split()
    if not 0 <= start < end <= len(tokens):
        raise InputFormatError(path, f"line {number}",
                               f"mention span {start}:{end} outside its {len(tokens)} tokens")
    labels = fields[3].split()
    if not labels:
        raise InputFormatError(path, f"line {number}", "no type")
    return tokens, start, end, labels


def _ids(words: list[str], vocabulary: dict[str, int]) -> list[int]:
    """Each word's id, new words added at the end."""
    return [vocabulary.setdefault(word, len(vocabulary)) for word in words]


def read_mentions(path: Path, vocabulary: dict[str, int], types: dict[str, int], *,
                  context: int, lowercase: bool) -> Mentions:
    """A split of NFGEC's FIGER files as arrays; vocabulary and types grow with new entries."""
    vocabulary.setdefault(PAD, 0)
    left, right, mention_ids, starts, labels = [], [], [], [0], []
    with open_text(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            tokens, start, end, names = _parse(Path(path), number, line, lowercase)
            before = _ids(tokens[max(0, start - context):start], vocabulary)
            after = _ids(tokens[end:end + context], vocabulary)
            left.append([0] * (context - len(before)) + before)
            right.append(after + [0] * (context - len(after)))
            mention_ids += _ids(tokens[start:end], vocabulary)
            starts.append(len(mention_ids))
            labels.append(sorted({types.setdefault(name, len(types)) for name in names}))
    if not labels:
        raise InputFormatError(Path(path), "line 1", "no mention")
    return Mentions(np.asarray(left, dtype=np.int64).reshape(-1, context),
                    np.asarray(right, dtype=np.int64).reshape(-1, context),
                    np.asarray(mention_ids, dtype=np.int64), np.asarray(starts, dtype=np.int64),
                    labels)


def embedding_matrix(vocabulary: Mapping[str, int], vectors: KeyedVectors
                     ) -> tuple[np.ndarray, float]:
    """(words × dim) float32 vectors by footnote 7's lookup, zeros for padding and unknown
    words, and the share of words (padding aside) that have a vector."""
    matrix = np.zeros((len(vocabulary), vectors.vector_size), dtype=np.float32)
    found = 0
    for word, index in vocabulary.items():
        vector = None if word == PAD else lookup_vector(vectors, word)
        if vector is not None:
            matrix[index] = vector
            found += 1
    return matrix, found / max(1, len(vocabulary) - 1)


def mention_vectors(mentions: Mentions, matrix: np.ndarray) -> np.ndarray:
    """(n × dim) mean of each mention's word vectors (Shimaoka et al.'s mention encoder)."""
    sums = np.add.reduceat(matrix[mentions.mention_ids], mentions.mention_starts[:-1], axis=0)
    lengths = np.diff(mentions.mention_starts)[:, None]
    return (sums / lengths).astype(np.float32)


def indicator(labels: list[list[int]], types: int) -> np.ndarray:
    """(n × types) 0/1 matrix of each mention's types."""
    matrix = np.zeros((len(labels), types), dtype=np.float32)
    for row, ids in enumerate(labels):
        matrix[row, ids] = 1.0
    return matrix


def predicted_types(probabilities: np.ndarray, threshold: float = 0.5) -> np.ndarray:
    """NFGEC's decision: the best type of each mention, and every other type above threshold."""
    chosen = probabilities > threshold
    chosen[np.arange(len(probabilities)), np.argmax(probabilities, axis=1)] = True
    return chosen


def _f1(precision: float, recall: float) -> float:
    """Harmonic mean (0 when both are 0)."""
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def typing_scores(gold: np.ndarray, predicted: np.ndarray) -> dict[str, float]:
    """Strict accuracy, loose macro F1 and loose micro F1, in percent."""
    gold, predicted = gold.astype(bool), predicted.astype(bool)
    overlap = (gold & predicted).sum(axis=1)
    n_gold, n_pred = gold.sum(axis=1), predicted.sum(axis=1)
    strict = float(np.mean((gold == predicted).all(axis=1)))
    macro = _f1(float(np.mean(overlap / np.maximum(n_pred, 1))),
                float(np.mean(overlap / np.maximum(n_gold, 1))))
    micro = _f1(overlap.sum() / max(1, n_pred.sum()), overlap.sum() / max(1, n_gold.sum()))
    return {"strict": 100 * strict, "loose_macro": 100 * macro, "loose_micro": 100 * micro}
