"""WIKI-PSE part 2 analyses (Yaghoobzadeh et al. 2019, §5.1.1, §5.2, Appendices A–C).

S-class prediction is looked at per (test word, S-class) decision: `y_true` and `y_pred` are 0/1
matrices, one row per word of `words` and one column per class of `classes`. Each factor
(dominance, number of S-classes, frequency, typicality) gives a level to every gold pair, and a
level's recall is the share of its gold pairs the S-class probe predicted positive. Precision has
no meaning per level (the paper's footnote 6): a false positive has no dominance or frequency.

Levels are rounded half up to the nearest step, so a level x holds [x − step/2, x + step/2)
("each level in x includes [x − 5, x + 5]", Appendix A, read with the upper end open).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from reprobe.wikipse.resource.release import WordClasses, ordered

LEVEL_COLUMNS = ["level", "recall", "n"]
# Rows of the neighbour search at once: bounds the (rows × words) similarity block in memory.
BATCH = 1024


def level_of(values: np.ndarray | Sequence[float], step: float) -> np.ndarray:
    """Values rounded half up to the nearest multiple of step (x holds [x − step/2, x + step/2))."""
    # Rounding the quotient first keeps 0.25 / 0.1 = 2.4999… on the upper side of its half.
    units = np.floor(np.round(np.asarray(values, dtype=float) / step, 9) + 0.5)
    return np.round(units * step, 10) + 0.0  # + 0.0 turns -0.0 into 0.0


def _check(words: Sequence[str], classes: Sequence[str], *matrices: np.ndarray) -> None:
    """Every matrix is words × classes."""
    for matrix in matrices:
        if np.shape(matrix) != (len(words), len(classes)):
            raise ValueError(f"expected a {len(words)} x {len(classes)} matrix (words x "
                             f"classes), found {np.shape(matrix)}")


def gold_pairs(words: Sequence[str], classes: Sequence[str], data: WordClasses,
               y_true: np.ndarray) -> list[tuple[int, int]]:
    """(word row, class column) of each gold pair; a gold pair missing from data is an error."""
    rows, cols = np.nonzero(np.asarray(y_true))
    pairs = list(zip(rows.tolist(), cols.tolist(), strict=True))
    for row, col in pairs:
        if classes[col] not in data.get(words[row], {}):
            raise ValueError(f"gold pair ({words[row]}, {classes[col]}) is not in the data")
    return pairs


def recall_frame(levels: Sequence[float], hits: Sequence[bool]) -> pd.DataFrame:
    """level, recall (share of hits) and n (gold pairs) per level, by ascending level."""
    frame = pd.DataFrame({"level": list(levels), "hit": np.asarray(hits, dtype=float)})
    if frame.empty:
        return pd.DataFrame({c: pd.Series(dtype=float) for c in LEVEL_COLUMNS})
    grouped = frame.groupby("level", sort=True)["hit"]
    return pd.DataFrame({"recall": grouped.mean(), "n": grouped.size()}).reset_index()


def _recall_by(words: Sequence[str], classes: Sequence[str], data: WordClasses,
               y_true: np.ndarray, y_pred: np.ndarray,
               level: Callable[[int, int], float | None]) -> pd.DataFrame:
    """Recall per level, level(row, column) giving each gold pair's level (None: left out)."""
    _check(words, classes, y_true, y_pred)
    y_pred = np.asarray(y_pred)
    levels, hits = [], []
    for row, col in gold_pairs(words, classes, data, y_true):
        value = level(row, col)
        if value is not None:
            levels.append(value)
            hits.append(bool(y_pred[row, col]))
    return recall_frame(levels, hits)


def dominance(data: WordClasses, word: str, sclass: str) -> float:
    """Share of the word's annotated occurrences labelled with sclass."""
    freqs = data[word]
    return freqs.get(sclass, 0) / sum(freqs.values())


def recall_by_dominance(words: Sequence[str], classes: Sequence[str], data: WordClasses,
                        y_true: np.ndarray, y_pred: np.ndarray, step: float = 0.1
                        ) -> pd.DataFrame:
    """Recall by the dominance of the S-class for the word (Figure 3a)."""
    return _recall_by(words, classes, data, y_true, y_pred,
                      lambda r, c: float(level_of(dominance(data, words[r], classes[c]), step)))


def recall_by_class_count(words: Sequence[str], classes: Sequence[str], data: WordClasses,
                          y_true: np.ndarray, y_pred: np.ndarray) -> pd.DataFrame:
    """Recall by the word's number of S-classes (Figure 3b)."""
    return _recall_by(words, classes, data, y_true, y_pred,
                      lambda r, c: len(data[words[r]]))


def recall_by_frequency(words: Sequence[str], classes: Sequence[str], data: WordClasses,
                        y_true: np.ndarray, y_pred: np.ndarray, width: int = 10
                        ) -> pd.DataFrame:
    """Recall by the S-class's absolute frequency among the word's occurrences (Figure 5a)."""
    return _recall_by(words, classes, data, y_true, y_pred,
                      lambda r, c: int(level_of(data[words[r]][classes[c]], width)))


def class_compatibility(y_train: np.ndarray) -> np.ndarray:
    """Pearson correlation between the S-class indicator columns over the training words.

    A class constant over the training words (never or always present) correlates with none:
    its row and column are 0 instead of NaN."""
    matrix = np.asarray(y_train, dtype=float)
    centred = matrix - matrix.mean(axis=0)
    spread = np.sqrt((centred ** 2).sum(axis=0))
    covariance = centred.T @ centred
    with np.errstate(divide="ignore", invalid="ignore"):
        correlation = covariance / np.outer(spread, spread)
    correlation[~np.isfinite(correlation)] = 0.0
    constant = spread == 0
    correlation[constant, :] = 0.0
    correlation[:, constant] = 0.0
    return np.clip(correlation, -1.0, 1.0)


def typicality(word_classes_idx: Sequence[int], compatibility: np.ndarray) -> dict[int, float]:
    """Each class's mean compatibility with the word's other classes (Appendix A).

    A single-class word has no other class, so no typicality: the result is empty and its pair
    drops out of the typicality figure."""
    indices = list(dict.fromkeys(int(i) for i in word_classes_idx))
    if len(indices) < 2:
        return {}
    return {c: float(np.mean([compatibility[c, o] for o in indices if o != c]))
            for c in indices}


def recall_by_typicality(words: Sequence[str], classes: Sequence[str], data: WordClasses,
                         y_true: np.ndarray, y_pred: np.ndarray, compatibility: np.ndarray,
                         step: float = 0.1) -> pd.DataFrame:
    """Recall by the typicality of the S-class for the word; single-class words left out
    (Figure 5b). compatibility: class_compatibility of the training words."""
    by_row = {row: typicality(np.flatnonzero(np.asarray(y_true)[row]), compatibility)
              for row in range(len(words))}

    def level(row: int, col: int) -> float | None:
        """The pair's typicality level; None for a single-class word."""
        value = by_row[row].get(col)
        return None if value is None else float(level_of(value, step))

    return _recall_by(words, classes, data, y_true, y_pred, level)


def accuracy_by_class_count(words: Sequence[str], data: WordClasses, a_true: np.ndarray,
                            a_pred: np.ndarray) -> pd.DataFrame:
    """Ambiguity accuracy (level, accuracy, n) by the word's number of S-classes (Figure 4);
    the same for a classifier on word vectors and for FREQUENCY."""
    a_true, a_pred = np.asarray(a_true).ravel(), np.asarray(a_pred).ravel()
    if not len(words) == len(a_true) == len(a_pred):
        raise ValueError(f"{len(words)} words, {len(a_true)} gold and {len(a_pred)} predicted "
                         f"ambiguity labels")
    frame = pd.DataFrame({"level": [len(data[w]) for w in words],
                          "correct": (a_true.astype(bool) == a_pred.astype(bool))})
    grouped = frame.groupby("level", sort=True)["correct"]
    return pd.DataFrame({"accuracy": grouped.mean(), "n": grouped.size()}).reset_index()


def _nearest(similarity: np.ndarray, k: int) -> np.ndarray:
    """Column indices of the k largest values of a row, ties by lower index."""
    k = min(k, similarity.size)
    if k == 0:
        return np.empty(0, dtype=int)
    # argpartition picks among ties arbitrarily: take every value tied with the k-th, then sort.
    threshold = np.partition(similarity, similarity.size - k)[similarity.size - k]
    candidates = np.flatnonzero(similarity >= threshold)
    order = np.lexsort((candidates, -similarity[candidates]))
    return candidates[order[:k]]


def neighbour_diversity(words: Sequence[str], data: WordClasses, vectors_matrix: np.ndarray,
                        k: int = 5, step: float = 0.1) -> pd.DataFrame:
    """Mean number of unique S-classes among the k nearest other words of two-class words, by
    dominance level (Figure 6, Appendix B): level, unique_classes, n.

    Rows of vectors_matrix are the words' L2-normalised vectors, so cosine is a dot product;
    the neighbours are the k most similar of the other words given (ties by position) and their
    S-classes are pooled. The level is the dominance of the word's minor class, so 0.5 is two
    equally frequent classes: our reading of the paper's "dominance level", whose diversity
    "increases as the dominance level increases" towards balanced classes."""
    matrix = np.asarray(vectors_matrix, dtype=float)
    if matrix.shape[0] != len(words):
        raise ValueError(f"{len(words)} words but {matrix.shape[0]} vector rows")
    rows = [i for i, w in enumerate(words) if len(data[w]) == 2]
    levels, counts = [], []
    for start in range(0, len(rows), BATCH):
        batch = rows[start:start + BATCH]
        block = matrix[batch] @ matrix.T
        for row, similarity in zip(batch, block, strict=True):
            similarity[row] = -np.inf  # a word is not its own neighbour
            neighbours = _nearest(similarity, min(k, len(words) - 1))
            pooled = set().union(*(data[words[j]] for j in neighbours))
            levels.append(min(data[words[row]].values()) / sum(data[words[row]].values()))
            counts.append(len(pooled))
    frame = pd.DataFrame({"level": level_of(levels, step) if levels else [],
                          "unique": np.asarray(counts, dtype=float)})
    grouped = frame.groupby("level", sort=True)["unique"]
    return pd.DataFrame({"unique_classes": grouped.mean(), "n": grouped.size()}).reset_index()


def class_names(classes: Mapping[str, int]) -> str:
    """A word's classes as Table 7 prints them: by descending frequency, no leading "-", "_"
    as a space."""
    return ", ".join(name.removeprefix("-").replace("_", " ") for name, _ in ordered(classes))


def ambiguity_examples(words: Sequence[str], data: WordClasses, frequency: Mapping[str, int],
                       proba: np.ndarray, top: int = 10) -> pd.DataFrame:
    """The top words predicted ambiguous, then the top predicted unambiguous (Table 7).

    Columns: group, rank, word, frequency (corpus), n_classes, classes, likelihood (of being
    ambiguous). Ties by word; a word listed as ambiguous is not listed again."""
    proba = np.asarray(proba, dtype=float).ravel()
    if len(proba) != len(words):
        raise ValueError(f"{len(words)} words but {len(proba)} likelihoods")
    most = sorted(range(len(words)), key=lambda i: (-proba[i], words[i]))[:top]
    taken = set(most)
    least = [i for i in sorted(range(len(words)), key=lambda i: (proba[i], words[i]))
             if i not in taken][:top]
    rows = [(group, rank, words[i], int(frequency.get(words[i], 0)), len(data[words[i]]),
             class_names(data[words[i]]), float(proba[i]))
            for group, chosen in (("ambiguous", most), ("unambiguous", least))
            for rank, i in enumerate(chosen, start=1)]
    return pd.DataFrame(rows, columns=["group", "rank", "word", "frequency", "n_classes",
                                       "classes", "likelihood"])
