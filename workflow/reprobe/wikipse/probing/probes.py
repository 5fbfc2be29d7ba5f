"""The probing classifiers of WIKI-PSE (Yaghoobzadeh et al. 2019, §4.2–5.2).

S-class prediction (Table 2): for each S-class an independent binary classifier (LR, KNN or
MLP, scikit-learn) takes a word's L2-normalised vector and predicts membership; the score is
micro F1 over all test words and S-classes. The random baseline assigns each S-class to a test
word with the class's train prior. Ambiguity prediction (Table 4): one binary classifier, one
S-class (0) or more (1), scored by accuracy in percent, beside FREQUENCY: LR on the log word
frequency alone.

The MLP is sklearn's `MLPClassifier` with ONE hidden ReLU layer and its logistic output unit:
our reading of "one hidden and a final ReLU layer" with the paper's "We train classifiers with
Scikit-learn". The paper gives no size; the config's default is sklearn's own (100 units).
"""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from reprobe.wikipse.resource.release import Split, WordClasses
from reprobe.wikipse.settings import CLASSIFIERS, ProbeSettings

if TYPE_CHECKING:  # scikit-learn and gensim load with the first probe: tables need neither
    from gensim.models import KeyedVectors
    from sklearn.base import ClassifierMixin

log = logging.getLogger("reprobe.wikipse")

KINDS = CLASSIFIERS
SEARCH_CHUNK = 512  # test rows per block: 512 × 44,250 similarities (float32) and indices
LR_MAX_ITER = 1000  # iterations of LogisticRegression's lbfgs at most
MLP_ALPHA = 1e-4  # L2 penalty of the MLP (sklearn's)


@dataclass(frozen=True)
class ClassFit:
    """What one binary classifier cost: seconds to fit and to predict, and its iterations."""

    fit_s: float
    predict_s: float
    n_iter: int  # 0 for a class predicted as a constant


@dataclass
class KindCost:
    """Where one classifier kind's time went over both tasks."""

    sclass_s: float = 0.0
    ambiguity_s: float = 0.0
    search_s: float = 0.0  # KNN: the neighbour search both tasks share (within sclass_s)
    fits: list[ClassFit] = field(default_factory=list)  # per S-class (LR, MLP)
    ambiguity_fit: ClassFit | None = None


# --- labels and features ----------------------------------------------------------------------


def class_order(train: WordClasses, test: WordClasses) -> list[str]:
    """Every S-class of train or test, by descending number of train words, then name."""
    counts: dict[str, int] = {}
    for classes in test.values():
        for sclass in classes:
            counts.setdefault(sclass, 0)
    for classes in train.values():
        for sclass in classes:
            counts[sclass] = counts.get(sclass, 0) + 1
    return sorted(counts, key=lambda c: (-counts[c], c))


def indicator(words: Sequence[str], data: WordClasses, classes: Sequence[str]) -> np.ndarray:
    """n_words × n_classes 0/1 int8 matrix of the words' S-classes."""
    column = {sclass: j for j, sclass in enumerate(classes)}
    matrix = np.zeros((len(words), len(classes)), dtype=np.int8)
    for i, word in enumerate(words):
        for sclass in data[word]:
            if sclass not in column:
                raise ValueError(f"{word} has S-class {sclass}, which is not in the class list")
            matrix[i, column[sclass]] = 1
    return matrix


def features(words: Sequence[str], vectors: KeyedVectors) -> tuple[np.ndarray, np.ndarray]:
    """L2-normalised float32 rows of the words that have a vector, and the mask of those words."""
    kept = np.array([w in vectors.key_to_index for w in words], dtype=bool)
    index = [vectors.key_to_index[w] for w, k in zip(words, kept, strict=True) if k]
    matrix = np.asarray(vectors.vectors[index], dtype=np.float32).reshape(len(index), -1)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    # A zero vector stays zero rather than becoming NaN.
    matrix /= np.maximum(norms, np.finfo(np.float32).tiny)
    return matrix, kept


def ambiguity_labels(words: Sequence[str], data: WordClasses | Split,
                     reading: str = "paper") -> np.ndarray:
    """1 for a multi-class word, else 0 (int8): more than one distinct S-class (the paper's
    reading; a plain word → classes map has only this one), or, on a Split, more than one
    entry on its line (`reading="authors"`, the release's own split counts)."""
    if isinstance(data, Split):
        return np.array([data.multi_class(w, reading) for w in words], dtype=np.int8)
    if reading != "paper":
        raise ValueError(f"the {reading!r} reading needs the file's entries (a Split)")
    return np.array([len(data[w]) > 1 for w in words], dtype=np.int8)


def word_frequency(data: WordClasses) -> dict[str, int]:
    """A word's frequency as the sum of its S-class frequencies (its annotated mentions)."""
    return {word: sum(classes.values()) for word, classes in data.items()}


def frequency_features(words: Sequence[str], frequency: Mapping[str, int]) -> np.ndarray:
    """One column: log(1 + frequency) of each word; a word without a frequency is an error."""
    missing = [w for w in words if w not in frequency]
    if missing:
        raise ValueError(f"{len(missing)} words have no frequency, e.g. {missing[:3]}")
    return np.log1p(np.array([frequency[w] for w in words], dtype=np.float64))[:, None]


# --- classifiers ------------------------------------------------------------------------------


def make_classifier(kind: str, settings: ProbeSettings) -> ClassifierMixin:
    """An unfitted, seeded binary classifier of a kind (LR, KNN or MLP)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.neural_network import MLPClassifier

    if kind == "LR":
        return LogisticRegression(C=settings.lr_c, max_iter=LR_MAX_ITER,
                                  random_state=settings.seed)
    if kind == "KNN":
        return KNeighborsClassifier(n_neighbors=settings.knn_k, metric="cosine",
                                    algorithm="brute")
    if kind == "MLP":
        return MLPClassifier(hidden_layer_sizes=(settings.mlp_hidden,), activation="relu",
                             alpha=MLP_ALPHA, max_iter=settings.mlp_max_iter,
                             early_stopping=settings.mlp_early_stopping,
                             random_state=settings.seed)
    raise ValueError(f"unknown classifier {kind!r}; use one of {KINDS}")


def fit_predict_binary(x_train: np.ndarray, y: np.ndarray, x_test: np.ndarray, kind: str,
                       settings: ProbeSettings) -> tuple[np.ndarray, ClassFit]:
    """P(positive) of the test rows from one binary classifier (LR or MLP), and its cost."""
    model = make_classifier(kind, settings)
    if kind == "MLP" and settings.mlp_early_stopping and np.bincount(y).min() < 2:
        # The stratified validation split needs two examples of each label.
        model.set_params(early_stopping=False)
    return fit_proba(model, x_train, y, x_test)


def fit_proba(model: ClassifierMixin, x_train: np.ndarray, y: np.ndarray, x_test: np.ndarray
              ) -> tuple[np.ndarray, ClassFit]:
    """P(positive) of the test rows from an unfitted binary classifier, and its cost."""
    if y.min() == y.max():
        # sklearn refuses one-class targets; the only label seen is the prediction.
        return np.full(len(x_test), float(y[0])), ClassFit(0.0, 0.0, 0)
    from sklearn.exceptions import ConvergenceWarning

    start = time.perf_counter()
    with warnings.catch_warnings():
        # Hitting max_iter is reported through n_iter, not once per class and process.
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(x_train, y)
    fitted = time.perf_counter()
    proba = model.predict_proba(x_test)[:, list(model.classes_).index(1)]
    done = time.perf_counter()
    return proba, ClassFit(fitted - start, done - fitted, int(np.max(model.n_iter_)))


def nearest_neighbours(x_train: np.ndarray, x_test: np.ndarray, k: int) -> np.ndarray:
    """Indices of each test row's k most cosine-similar train rows (unit rows), nearest first.

    One search for all S-classes: voting over these neighbours per class predicts what one
    KNeighborsClassifier(metric="cosine") a class does, bar exact similarity ties at the k-th
    neighbour, which either may break its own way."""
    k = min(k, len(x_train))
    out = np.empty((len(x_test), k), dtype=np.int64)
    for start in range(0, len(x_test), SEARCH_CHUNK):
        # On unit vectors the dot product orders neighbours as cosine (and euclidean) does.
        # Negated in place: the k smallest are the k most similar, without a copy.
        dist = x_test[start:start + SEARCH_CHUNK] @ x_train.T
        np.negative(dist, out=dist)
        top = np.argpartition(dist, k - 1, axis=1)[:, :k]
        order = np.argsort(np.take_along_axis(dist, top, axis=1), axis=1, kind="stable")
        out[start:start + len(top)] = np.take_along_axis(top, order, axis=1)
    return out


def neighbour_share(neighbours: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Share of each test row's neighbours with label 1, per column of a 0/1 label matrix."""
    return labels[neighbours].sum(axis=1, dtype=np.int64) / neighbours.shape[1]


def _by_vote(share: np.ndarray) -> np.ndarray:
    """A strict majority of neighbours: a tie goes to 0, as KNeighborsClassifier breaks it."""
    return (share > 0.5).astype(np.int8)


def fit_predict_sclasses(x_train: np.ndarray, y_train: np.ndarray, x_test: np.ndarray,
                         kind: str, settings: ProbeSettings,
                         neighbours: np.ndarray | None = None
                         ) -> tuple[np.ndarray, list[ClassFit]]:
    """0/1 test predictions of one binary classifier per S-class, and each one's cost (LR, MLP;
    none for KNN, whose neighbour search, given or done here, serves every class)."""
    if kind == "KNN":
        if neighbours is None:
            neighbours = nearest_neighbours(x_train, x_test, settings.knn_k)
        return _by_vote(neighbour_share(neighbours, y_train)), []
    if kind not in KINDS:
        raise ValueError(f"unknown classifier {kind!r}; use one of {KINDS}")
    from joblib import Parallel, delayed

    y_train = np.asarray(y_train)
    results = Parallel(n_jobs=settings.n_jobs)(
        delayed(fit_predict_binary)(x_train, y_train[:, c], x_test, kind, settings)
        for c in range(y_train.shape[1]))
    pred = np.zeros((len(x_test), y_train.shape[1]), dtype=np.int8)
    for c, (proba, _) in enumerate(results):
        pred[:, c] = proba > 0.5
    return pred, [cost for _, cost in results]


def predict_sclasses(x_train: np.ndarray, y_train: np.ndarray, x_test: np.ndarray, kind: str,
                     settings: ProbeSettings) -> np.ndarray:
    """0/1 test predictions (n_test × n_classes) of one binary classifier per S-class."""
    return fit_predict_sclasses(x_train, y_train, x_test, kind, settings)[0]


def predict_ambiguity(x_train: np.ndarray, a_train: np.ndarray, x_test: np.ndarray, kind: str,
                      settings: ProbeSettings, neighbours: np.ndarray | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Ambiguity predictions (1 = more than one S-class) and P(ambiguous); KNN: neighbour share."""
    a_train = np.asarray(a_train, dtype=np.int8)
    if kind == "KNN":
        if neighbours is None:
            neighbours = nearest_neighbours(x_train, x_test, settings.knn_k)
        share = neighbour_share(neighbours, a_train[:, None])[:, 0]
        return _by_vote(share), share
    if kind not in KINDS:
        raise ValueError(f"unknown classifier {kind!r}; use one of {KINDS}")
    proba, _ = fit_predict_binary(x_train, a_train, x_test, kind, settings)
    return (proba > 0.5).astype(np.int8), proba


def frequency_baseline(freq_train: np.ndarray, a_train: np.ndarray, freq_test: np.ndarray,
                       settings: ProbeSettings | None = None) -> tuple[np.ndarray, np.ndarray]:
    """FREQUENCY: LR on the one log-frequency column alone; predictions and P(ambiguous).
    Without settings the LR is sklearn's as it comes (seed 0): the baseline is no configured
    probe."""
    freq_train, freq_test = (np.asarray(f, dtype=np.float64).reshape(len(f), -1)
                             for f in (freq_train, freq_test))
    if freq_train.shape[1] != 1 or freq_test.shape[1] != 1:
        raise ValueError("the frequency baseline takes exactly one feature column")
    from sklearn.linear_model import LogisticRegression

    model = make_classifier("LR", settings) if settings is not None else LogisticRegression(
        max_iter=LR_MAX_ITER, random_state=0)
    proba, _ = fit_proba(model, freq_train, np.asarray(a_train, dtype=np.int8), freq_test)
    return (proba > 0.5).astype(np.int8), proba


# --- scores -----------------------------------------------------------------------------------


def micro_f1(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Micro F1 over every (word, S-class) cell of two 0/1 matrices; 0 when nothing is positive.

    The same as sklearn's f1_score(average="micro", zero_division=0) on indicator matrices,
    computed from the counts so that a one-column matrix is not read as a binary target.
    """
    y_true, y_pred = np.asarray(y_true, dtype=bool), np.asarray(y_pred, dtype=bool)
    if y_true.shape != y_pred.shape:
        raise ValueError(f"shapes differ: {y_true.shape} and {y_pred.shape}")
    tp = int(np.sum(y_true & y_pred))
    wrong = int(np.sum(y_true ^ y_pred))  # false positives and false negatives
    return 2 * tp / (2 * tp + wrong) if tp or wrong else 0.0


def accuracy(a_true: np.ndarray, a_pred: np.ndarray) -> float:
    """Share of equal labels, in percent."""
    a_true, a_pred = np.asarray(a_true), np.asarray(a_pred)
    return 100.0 * float(np.mean(a_true == a_pred)) if len(a_true) else float("nan")


def random_baseline_expected(y_train: np.ndarray, y_test: np.ndarray) -> float:
    """Micro F1 of the expected counts when each S-class goes to a test word with its train
    prior p_c: 2E[TP] / (2E[TP] + E[FP] + E[FN]), with E[TP] = Σ p_c n_c, E[FP] = Σ p_c (N − n_c)
    and E[FN] = Σ (1 − p_c) n_c (n_c test words of class c, N test words). The mean F1 of
    random draws approaches it as N grows."""
    prior = np.asarray(y_train, dtype=np.float64).mean(axis=0)
    n_c = np.asarray(y_test, dtype=np.float64).sum(axis=0)
    n = len(y_test)
    tp, fp, fn = prior @ n_c, prior @ (n - n_c), (1 - prior) @ n_c
    return float(2 * tp / (2 * tp + fp + fn)) if tp + fp + fn else 0.0


def random_baseline_draw(y_train: np.ndarray, y_test: np.ndarray, seed: int) -> float:
    """Micro F1 of one seeded random assignment of each S-class with its train prior."""
    prior = np.asarray(y_train, dtype=np.float64).mean(axis=0)
    draw = np.random.default_rng(seed).random(np.shape(y_test)) < prior
    return micro_f1(y_test, draw)


# --- the grid for one embedding ---------------------------------------------------------------


def probe_kind(kind: str, x_train: np.ndarray, y_train: np.ndarray, x_test: np.ndarray,
               y_test: np.ndarray, settings: ProbeSettings,
               ambiguity: tuple[np.ndarray, np.ndarray] | None = None
               ) -> tuple[list[dict], KindCost, dict[str, np.ndarray]]:
    """S-class micro F1 and ambiguity accuracy of one classifier kind, where its time went, and
    its test predictions (y_pred, a_pred, a_proba) for the analyses. `ambiguity` gives the
    train and test labels (ambiguity_labels); without it a word is multi-class when its
    indicator row has more than one S-class (the paper's reading)."""
    a_train, a_test = ambiguity if ambiguity is not None else (
        np.asarray(y).sum(axis=1) > 1 for y in (y_train, y_test))
    cost, neighbours = KindCost(), None
    start = time.perf_counter()
    if kind == "KNN":
        neighbours = nearest_neighbours(x_train, x_test, settings.knn_k)
        cost.search_s = time.perf_counter() - start
    pred, cost.fits = fit_predict_sclasses(x_train, y_train, x_test, kind, settings, neighbours)
    cost.sclass_s = time.perf_counter() - start
    start = time.perf_counter()
    a_pred, a_proba = predict_ambiguity(x_train, a_train, x_test, kind, settings, neighbours)
    cost.ambiguity_s = time.perf_counter() - start
    n = len(x_test)
    rows = [{"task": "sclass", "classifier": kind, "value": micro_f1(y_test, pred), "n": n},
            {"task": "ambiguity", "classifier": kind, "value": accuracy(a_test, a_pred),
             "n": n}]
    return rows, cost, {"y_pred": pred, "a_pred": a_pred, "a_proba": a_proba}


def probe_grid(x_train: np.ndarray, y_train: np.ndarray, x_test: np.ndarray, y_test: np.ndarray,
               settings: ProbeSettings, kinds: Sequence[str] = KINDS,
               freq_train: np.ndarray | None = None, freq_test: np.ndarray | None = None
               ) -> list[dict]:
    """Rows {task, classifier, value, n} of one embedding: S-class micro F1 and ambiguity
    accuracy (%) per classifier kind, the random S-class baseline (expected value) and, given
    the log frequencies (frequency_features), the FREQUENCY ambiguity baseline."""
    rows = []
    for kind in kinds:
        kind_rows, cost, _ = probe_kind(kind, x_train, y_train, x_test, y_test, settings)
        log.info("%s: S-classes %.1f s, ambiguity %.1f s%s", kind, cost.sclass_s,
                 cost.ambiguity_s,
                 f" (of which the shared neighbour search {cost.search_s:.1f} s)"
                 if kind == "KNN" else "")
        rows += kind_rows
    n = len(x_test)
    rows.append({"task": "sclass", "classifier": "random",
                 "value": random_baseline_expected(y_train, y_test), "n": n})
    if freq_train is not None and freq_test is not None:
        a_train, a_test = (np.asarray(y).sum(axis=1) > 1 for y in (y_train, y_test))
        a_pred, _ = frequency_baseline(freq_train, a_train, freq_test, settings)
        rows.append({"task": "ambiguity", "classifier": "FREQUENCY",
                     "value": accuracy(a_test, a_pred), "n": n})
    return rows
