"""Recover magnitude from the embedding space by kNN regression (Naik et al. 2019, Table 6).

The numbers (one token per value, as in the contrastive tests) are split into training and test
numbers with a seed; a k-nearest-neighbour regressor fitted on the training vectors predicts the
test numbers' magnitude, scored by R². The paper gives neither k nor the target's scale (the
config's `numeracy.knn` sets them and the split): `target="log"` regresses sign(v)·log10(1 + |v|),
a log10 scale that keeps 0 and negative numbers (plain log10 would have to drop them);
`target="raw"` regresses v.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from sklearn.metrics import r2_score
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsRegressor

from reprobe.numeracy.contrastive import canonical_numbers
from reprobe.numeracy.scoring import Vectors, vector_matrix

Target = Literal["log", "raw"]
TARGETS: tuple[Target, ...] = ("log", "raw")


def magnitude_target(values: np.ndarray, target: Target) -> np.ndarray:
    """The regression target for number values: raw, or sign(v)·log10(1 + |v|)."""
    if target == "log":
        return np.sign(values) * np.log10(1.0 + np.abs(values))
    if target == "raw":
        return values
    raise ValueError(f"target must be 'log' or 'raw', not {target!r}")


def knn_r2(
    vectors: Vectors,
    numbers: dict[str, float],
    *,
    k: int,
    target: Target,
    seed: int,
    test_size: float,
    metric: str = "euclidean",
) -> float:
    """R² of a kNN regressor predicting held-out numbers' magnitude from their vectors."""
    canonical = canonical_numbers(numbers)
    tokens = list(canonical)
    features = vector_matrix(vectors, tokens)
    values = magnitude_target(np.fromiter(canonical.values(), dtype=float), target)
    train_x, test_x, train_y, test_y = train_test_split(
        features, values, test_size=test_size, random_state=seed)
    if len(train_x) < k or len(test_x) < 2:
        raise ValueError(f"{len(tokens)} numbers are too few for k={k} and test_size={test_size}")
    model = KNeighborsRegressor(n_neighbors=k, metric=metric)
    model.fit(train_x, train_y)
    return float(r2_score(test_y, model.predict(test_x)))
