"""kNN regression recovers magnitude from vectors that encode it, and not from random ones."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pytest

from reprobe.errors import ReprobeError
from reprobe.numeracy.knn import knn_r2, magnitude_target
from reprobe.numeracy.scoring import random_vectors
from reprobe.numeracy.settings import KnnSettings
from reprobe.step_settings import settings_from_schema

NUMBERS = {str(v): float(v) for v in [*range(0, 300), *range(300, 100000, 997)]}
# k, target and test_size as the schema sets them (numeracy.knn).
KNN = asdict(settings_from_schema(KnnSettings, "numeracy.knn"))


def encoding_vectors(seed: int) -> dict[str, np.ndarray]:
    """Vectors whose first coordinate is the log magnitude, plus a little noise."""
    rng = np.random.default_rng(seed)
    return {token: np.array([np.log10(1 + v), *rng.normal(0, 0.01, 3)])
            for token, v in NUMBERS.items()}


def test_vectors_that_encode_magnitude_score_r2_near_one():
    assert knn_r2(encoding_vectors(0), NUMBERS, seed=1, **KNN) > 0.95


def test_random_vectors_score_r2_at_most_about_zero():
    assert knn_r2(random_vectors(NUMBERS, 50, seed=2), NUMBERS, seed=1, **KNN) < 0.1


def test_the_split_is_seeded():
    vectors = random_vectors(NUMBERS, 10, seed=2)
    assert knn_r2(vectors, NUMBERS, seed=5, **KNN) == knn_r2(vectors, NUMBERS, seed=5, **KNN)
    assert knn_r2(vectors, NUMBERS, seed=5, **KNN) != knn_r2(vectors, NUMBERS, seed=6, **KNN)


def test_the_log_target_keeps_zero_and_negative_numbers():
    assert magnitude_target(np.array([-99.0, 0.0, 9.0]), "log") == pytest.approx([-2, 0, 1])
    assert magnitude_target(np.array([-99.0, 5.0]), "raw").tolist() == [-99.0, 5.0]


def test_missing_vectors_are_an_error():
    with pytest.raises(ReprobeError, match="'299'"):
        knn_r2({t: v for t, v in encoding_vectors(0).items() if t != "299"}, NUMBERS, seed=1, **KNN)
