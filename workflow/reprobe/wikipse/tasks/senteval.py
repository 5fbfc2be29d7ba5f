"""Sentence and sentence-pair classification with WIKI-PSE embeddings (Yaghoobzadeh et al. 2019,
§5.3, Table 5): MR, CR, SUBJ and MRPC in SentEval's setup (Conneau and Kiela 2018).

"We average embeddings to encode a sentence": a sentence's vector is the mean of its tokens'
vectors, each looked up by footnote 7's rule (`similarity.lookup_vector`: the mean of `word` and
`@word@` where both exist), zeros when no token has one — as SentEval's bag-of-words example.

MR, CR and SUBJ (SentEval's `InnerKFoldClassifier`): stratified, shuffled, seeded k-fold
cross-validation; in each training fold C of a logistic regression is chosen by an inner
stratified k-fold over that training fold, the model refitted on the whole training fold and
scored on the test fold; the score is the mean test accuracy in percent. MRPC (SentEval's
`KFoldClassifier`): a pair (u, v) becomes [|u − v|, u * v] (mrpc.py: `np.c_[np.abs(A - B), A * B]`,
without u and v themselves), C is chosen by stratified k-fold on train, the model refitted on all
of train; accuracy and F1 of the paraphrase class on test, in percent.

Where this differs from SentEval: sklearn's LogisticRegression on a small C grid (C_VALUES;
SentEval's sklearn grids are SENTEVAL_C_BINARY and SENTEVAL_C_MRPC, to pass for a faithful run);
the config's folds are 10 as the SentEval paper reports (its code defaults to `kfold=5`, used
for the outer and inner folds alike); the seed drives the folds (SentEval fixes 1111 for the binary
tasks' folds and sorts the samples by length first, so its folds differ from ours anyway).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedKFold

from reprobe.errors import InputFormatError
from reprobe.text import numbered_lines, read_text
from reprobe.wikipse.tasks.similarity import lookup_vector

SEED = 1111  # SentEval's default seed
C_VALUES = (0.25, 1.0, 4.0)
SENTEVAL_C_BINARY = tuple(2.0**t for t in range(-2, 4))  # InnerKFoldClassifier's sklearn grid
SENTEVAL_C_MRPC = tuple(2.0**t for t in range(-1, 6))  # KFoldClassifier's sklearn grid
MAX_ITER = 1000  # sklearn's default 100 stops lbfgs short on unscaled averaged vectors

# Files of SentEval's data folders (data/downstream/<TASK>/): positive (label 1) then negative
# (label 0). SUBJ's objective file comes first, as SentEval's SUBJEval passes it.
BINARY_FILES = {"MR": ("rt-polarity.pos", "rt-polarity.neg"),
                "CR": ("custrev.pos", "custrev.neg"),
                "SUBJ": ("subj.objective", "subj.subjective")}
MRPC_FILES = ("msr_paraphrase_train.txt", "msr_paraphrase_test.txt")
MRPC_HEADER = "Quality\t#1 ID\t#2 ID\t#1 String\t#2 String"

# Lowercased tokens close to the PTB-style ones of the Wikipedia corpus (Bling Fire): `n't` and
# `'s`-like clitics split off (from "don't" as from SentEval's pre-tokenized "do n't"),
# abbreviations (`u.s.`) and decimals kept whole, every other punctuation mark a token.
TOKEN = re.compile(r"\w+(?=n't\b)|n't\b|'(?:s|re|ve|ll|d|m)\b|\w+(?:\.\w+)+\.?|\w+|[^\w\s]")

Pair = tuple[str, str]


def read_sentences(path: Path) -> list[str]:
    """A SentEval sentence file's lines (latin-1, as SentEval reads them), blank ones kept."""
    # Blank lines stay as sentences without tokens, as SentEval's loader keeps them: n matches.
    lines = read_text(path, "latin-1").splitlines()
    if not any(line.strip() for line in lines):
        raise InputFormatError(path, "line 1", "no sentences")
    return lines


def read_binary(pos: Path, neg: Path) -> tuple[list[str], np.ndarray]:
    """Sentences of a positive and a negative file, and their labels (1, then 0)."""
    positive, negative = read_sentences(pos), read_sentences(neg)
    return positive + negative, np.array([1] * len(positive) + [0] * len(negative))


def read_binary_task(folder: Path, task: str) -> tuple[list[str], np.ndarray]:
    """Sentences and labels of MR, CR or SUBJ from its SentEval folder."""
    pos, neg = BINARY_FILES[task]
    return read_binary(Path(folder) / pos, Path(folder) / neg)


def _mrpc_row(path: Path, number: int, line: str) -> tuple[Pair, int]:
    """(#1 String, #2 String) and Quality of one MRPC data line."""
    fields = line.split("\t")
    if len(fields) != 5:
        raise InputFormatError(path, f"line {number}", "expected 5 tab-separated fields "
                               f"({MRPC_HEADER.replace(chr(9), ', ')}), found {len(fields)}")
    if fields[0] not in ("0", "1"):
        raise InputFormatError(path, f"line {number}", f"Quality is {fields[0]!r}, not 0 or 1")
    return (fields[3], fields[4]), int(fields[0])


def read_mrpc(path: Path) -> tuple[list[Pair], np.ndarray]:
    """Sentence pairs and labels (1: paraphrase) of an MRPC file: a header, then
    Quality, #1 ID, #2 ID, #1 String, #2 String tab-separated; blank lines skipped."""
    pairs, labels = [], []
    for number, line in numbered_lines(path):
        if number == 1:
            # SentEval drops the first line unread; a data row there means no header.
            if line.split("\t")[0] in ("0", "1"):
                raise InputFormatError(path, "line 1", f"expected the header {MRPC_HEADER!r}")
            continue
        if line.strip():
            pair, label = _mrpc_row(path, number, line)
            pairs.append(pair)
            labels.append(label)
    if not pairs:
        raise InputFormatError(path, "line 2", "no sentence pairs")
    return pairs, np.array(labels)


def tokenize(sentence: str) -> list[str]:
    """Lowercased word and punctuation tokens (simpler than the corpus's Bling Fire tokenizer;
    SentEval itself splits its pre-tokenized files at whitespace)."""
    return TOKEN.findall(sentence.lower())


def _token_vectors(tokens: Sequence[str], vectors: KeyedVectors,
                   cache: dict[str, np.ndarray | None]) -> list[np.ndarray]:
    """The footnote-7 vectors of the tokens that have one (lookups cached per token)."""
    found = []
    for token in tokens:
        if token not in cache:
            cache[token] = lookup_vector(vectors, token)
        if cache[token] is not None:
            found.append(cache[token])
    return found


def sentence_vector(tokens: Sequence[str], vectors: KeyedVectors,
                    cache: dict[str, np.ndarray | None] | None = None) -> np.ndarray:
    """The mean of the tokens' vectors (footnote 7's rule), zeros when none has one."""
    found = _token_vectors(tokens, vectors, {} if cache is None else cache)
    if not found:
        return np.zeros(vectors.vector_size, dtype=np.float64)
    return np.mean(np.asarray(found, dtype=np.float64), axis=0)


def encode(sentences: Sequence[str], vectors: KeyedVectors) -> tuple[np.ndarray, dict[str, float]]:
    """Averaged vectors of the sentences (one row each) and the coverage counts: sentences,
    sentences with no vector, tokens, tokens found and their share."""
    cache: dict[str, np.ndarray | None] = {}
    rows = np.zeros((len(sentences), vectors.vector_size), dtype=np.float64)
    tokens = found = empty = 0
    for row, sentence in enumerate(sentences):
        words = tokenize(sentence)
        hits = _token_vectors(words, vectors, cache)
        tokens, found = tokens + len(words), found + len(hits)
        if hits:
            rows[row] = np.mean(np.asarray(hits, dtype=np.float64), axis=0)
        else:
            empty += 1
    return rows, {"sentences": len(sentences), "no_vector": empty, "tokens": tokens,
                  "tokens_found": found, "token_coverage": found / tokens if tokens else 0.0}


def _folds(folds: int, seed: int) -> StratifiedKFold:
    """The stratified, shuffled, seeded splitter every cross-validation here uses."""
    return StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)


def fold_indices(labels: Sequence[int] | np.ndarray, folds: int, seed: int) -> list[np.ndarray]:
    """The test indices of each fold of the outer cross-validation."""
    y = np.asarray(labels)
    return [test for _, test in _folds(folds, seed).split(np.zeros((len(y), 1)), y)]


def _fit(x: np.ndarray, y: np.ndarray, c: float, seed: int) -> LogisticRegression:
    """A logistic regression with inverse L2 strength c fitted on (x, y)."""
    return LogisticRegression(C=c, max_iter=MAX_ITER, random_state=seed).fit(x, y)


def choose_c(x: np.ndarray, y: np.ndarray, c_values: Sequence[float], folds: int,
             seed: int) -> tuple[float, float]:
    """The C of best mean k-fold validation accuracy (percent, rounded to 2 decimals as
    SentEval does; ties to the first C) and that accuracy."""
    splits = list(_folds(folds, seed).split(x, y))
    scores = [round(100 * float(np.mean([_fit(x[train], y[train], c, seed)
                                         .score(x[test], y[test]) for train, test in splits])), 2)
              for c in c_values]
    best = int(np.argmax(scores))
    return float(c_values[best]), scores[best]


def _check_labels(x: np.ndarray, y: np.ndarray) -> None:
    """Refuse labels that are not one 0/1 label per row with both classes present."""
    if len(x) != len(y) or set(np.unique(y).tolist()) != {0, 1}:
        raise ValueError(f"need one 0/1 label per sample and both classes: {len(x)} samples, "
                         f"{len(y)} labels, classes {np.unique(y).tolist()}")


def cross_validate(x: np.ndarray, y: np.ndarray, *, folds: int, inner_folds: int | None = None,
                   seed: int = SEED, c_values: Sequence[float] = C_VALUES) -> dict[str, object]:
    """SentEval's inner-k-fold protocol on feature rows: mean test accuracy (percent) over
    the outer folds, C chosen in each training fold by an inner k-fold (default: folds)."""
    y = np.asarray(y)
    _check_labels(x, y)
    accuracy, dev, chosen = [], [], []
    for train, test in _folds(folds, seed).split(x, y):
        c, score = choose_c(x[train], y[train], c_values, inner_folds or folds, seed)
        accuracy.append(100 * _fit(x[train], y[train], c, seed).score(x[test], y[test]))
        dev.append(score)
        chosen.append(c)
    return {"accuracy": float(np.mean(accuracy)), "dev_accuracy": float(np.mean(dev)),
            "n": len(y), "folds": folds, "fold_accuracy": accuracy, "fold_c": chosen}


def binary_task(sentences: Sequence[str], labels: Sequence[int] | np.ndarray,
                vectors: KeyedVectors, *, folds: int, inner_folds: int | None = None,
                seed: int = SEED, c_values: Sequence[float] = C_VALUES) -> dict[str, object]:
    """MR, CR or SUBJ: cross-validated LR over averaged sentence vectors, with coverage."""
    x, coverage = encode(sentences, vectors)
    return {**cross_validate(x, np.asarray(labels), folds=folds, inner_folds=inner_folds,
                             seed=seed, c_values=c_values), **coverage}


def pair_features(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """SentEval's MRPC features of sentence vectors u and v: [|u − v|, u * v] per row."""
    return np.concatenate([np.abs(u - v), u * v], axis=-1)


def mrpc_task(train_pairs: Sequence[Pair], train_labels: Sequence[int] | np.ndarray,
              test_pairs: Sequence[Pair], test_labels: Sequence[int] | np.ndarray,
              vectors: KeyedVectors, *, seed: int = SEED, folds: int,
              c_values: Sequence[float] = C_VALUES) -> dict[str, object]:
    """MRPC: LR on pair features, C by stratified k-fold on train, refitted on all of train;
    test accuracy and paraphrase F1 in percent, with coverage over both splits."""
    sentences = [sentence for pair in [*train_pairs, *test_pairs] for sentence in pair]
    x, coverage = encode(sentences, vectors)
    features = pair_features(x[0::2], x[1::2])
    train_x, test_x = features[:len(train_pairs)], features[len(train_pairs):]
    train_y, test_y = np.asarray(train_labels), np.asarray(test_labels)
    _check_labels(train_x, train_y)
    if len(test_x) != len(test_y):
        raise ValueError(f"{len(test_x)} test pairs but {len(test_y)} labels")
    c, dev = choose_c(train_x, train_y, c_values, folds, seed)
    predicted = _fit(train_x, train_y, c, seed).predict(test_x)
    return {"accuracy": 100 * float(np.mean(predicted == test_y)),
            "f1": 100 * float(f1_score(test_y, predicted, pos_label=1, zero_division=0)),
            "dev_accuracy": dev, "c": c, "n_train": len(train_y), "n_test": len(test_y),
            "folds": folds, **coverage}
