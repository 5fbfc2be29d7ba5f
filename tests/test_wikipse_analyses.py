"""Tests for the WIKI-PSE part 2 analyses: hand-made words with levels worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from reprobe.wikipse.probing.analyses import (
    _nearest,
    accuracy_by_class_count,
    ambiguity_examples,
    class_compatibility,
    dominance,
    level_of,
    neighbour_diversity,
    recall_by_class_count,
    recall_by_dominance,
    recall_by_frequency,
    recall_by_typicality,
    typicality,
)

CLASSES = ["-location", "-person", "-art"]
WORDS = ["@a@", "@b@", "@c@", "@d@"]
DATA = {
    "@a@": {"-location": 90, "-person": 10},
    "@b@": {"-person": 5, "-art": 5},
    "@c@": {"-location": 3},
    "@d@": {"-location": 25, "-person": 14, "-art": 1},
}


def gold() -> np.ndarray:
    """The indicator matrix of DATA."""
    return np.array([[int(c in DATA[w]) for c in CLASSES] for w in WORDS])


def predicted() -> np.ndarray:
    """Hits a-loc, b-per, c-loc, d-loc, d-per; a-art is a false positive (never counted)."""
    return np.array([[1, 0, 1], [0, 1, 0], [1, 0, 0], [1, 1, 0]])


def as_rows(frame: pd.DataFrame, value: str = "recall") -> list[tuple]:
    """(level, value, n) tuples, values rounded for comparison."""
    return [(round(float(level), 6), round(float(v), 6), int(n))
            for level, v, n in zip(frame["level"], frame[value], frame["n"], strict=True)]


def test_dominance_is_the_share_of_occurrences() -> None:
    assert dominance(DATA, "@d@", "-person") == pytest.approx(14 / 40)
    assert dominance(DATA, "@c@", "-location") == 1.0
    assert dominance(DATA, "@c@", "-art") == 0.0


def test_levels_round_half_up() -> None:
    assert level_of([0.25, 0.35, 0.049, 0.05, -0.25, 0.3], 0.1).tolist() == \
        [0.3, 0.4, 0.0, 0.1, -0.2, 0.3]
    assert level_of([4, 5, 14, 15], 10).tolist() == [0, 10, 10, 20]


def test_recall_by_dominance() -> None:
    frame = recall_by_dominance(WORDS, CLASSES, DATA, gold(), predicted())
    assert list(frame.columns) == ["level", "recall", "n"]
    # d-art 1/40 → 0.0, a-per 0.1, d-per 14/40 = 0.35 → 0.4, b's two 0.5, d-loc 0.625 → 0.6.
    assert as_rows(frame) == [(0.0, 0.0, 1), (0.1, 0.0, 1), (0.4, 1.0, 1), (0.5, 0.5, 2),
                              (0.6, 1.0, 1), (0.9, 1.0, 1), (1.0, 1.0, 1)]


def test_recall_by_class_count() -> None:
    frame = recall_by_class_count(WORDS, CLASSES, DATA, gold(), predicted())
    assert as_rows(frame) == [(1, 1.0, 1), (2, 0.5, 4), (3, round(2 / 3, 6), 3)]
    assert pd.api.types.is_integer_dtype(frame["level"])


def test_recall_by_frequency_levels_hold_ten_wide_bins() -> None:
    frame = recall_by_frequency(WORDS, CLASSES, DATA, gold(), predicted())
    # 3 and 1 → 0; 10, 5, 5 and 14 → 10; 25 → 30; 90 → 90.
    assert as_rows(frame) == [(0, 0.5, 2), (10, 0.5, 4), (30, 1.0, 1), (90, 1.0, 1)]
    assert pd.api.types.is_integer_dtype(frame["level"])


def test_a_gold_pair_missing_from_the_data_is_an_error() -> None:
    y_true = gold()
    y_true[2, 2] = 1
    with pytest.raises(ValueError, match="not in the data"):
        recall_by_dominance(WORDS, CLASSES, DATA, y_true, predicted())


def test_a_matrix_of_the_wrong_shape_is_an_error() -> None:
    with pytest.raises(ValueError, match="4 x 3"):
        recall_by_class_count(WORDS, CLASSES, DATA, gold(), predicted()[:, :2])


def test_compatibility_is_pearson_over_training_words() -> None:
    # Columns: A, B (corr 1/sqrt(3) with A), a constant column, and -A.
    y_train = np.array([[1, 1, 1, 0], [1, 0, 1, 0], [0, 0, 1, 1], [0, 0, 1, 1]])
    compatibility = class_compatibility(y_train)
    assert compatibility[0, 1] == pytest.approx(1 / math.sqrt(3))
    assert compatibility[0, 1] == pytest.approx(np.corrcoef(y_train[:, 0], y_train[:, 1])[0, 1])
    assert compatibility[0, 3] == pytest.approx(-1.0)
    assert compatibility[0, 0] == pytest.approx(1.0)
    # The constant column: 0, not NaN.
    assert compatibility[2].tolist() == [0.0] * 4
    assert compatibility[:, 2].tolist() == [0.0] * 4
    assert np.allclose(compatibility, compatibility.T)


COMPATIBILITY = np.array([[1.0, 0.2, -0.4], [0.2, 1.0, 0.6], [-0.4, 0.6, 1.0]])


def test_typicality_is_the_mean_compatibility_with_the_other_classes() -> None:
    assert typicality([0, 1, 2], COMPATIBILITY) == pytest.approx({0: -0.1, 1: 0.4, 2: 0.1})
    assert typicality([1, 2], COMPATIBILITY) == pytest.approx({1: 0.6, 2: 0.6})
    # One class: nothing to be compatible with, no typicality.
    assert typicality([0], COMPATIBILITY) == {}


def test_recall_by_typicality_leaves_single_class_words_out() -> None:
    frame = recall_by_typicality(WORDS, CLASSES, DATA, gold(), predicted(), COMPATIBILITY)
    # a: 0.2, 0.2; b: 0.6, 0.6; d: loc -0.1, per 0.4, art 0.1; c (one class) left out.
    assert as_rows(frame) == [(-0.1, 1.0, 1), (0.1, 0.0, 1), (0.2, 0.5, 2), (0.4, 1.0, 1),
                              (0.6, 0.5, 2)]
    assert frame["n"].sum() == 7


def test_accuracy_by_class_count() -> None:
    frame = accuracy_by_class_count(WORDS, DATA, np.array([1, 1, 0, 1]),
                                    np.array([1, 0, 0, 1]))
    assert list(frame.columns) == ["level", "accuracy", "n"]
    assert as_rows(frame, "accuracy") == [(1, 1.0, 1), (2, 0.5, 2), (3, 1.0, 1)]
    with pytest.raises(ValueError, match="ambiguity labels"):
        accuracy_by_class_count(WORDS, DATA, np.array([1, 1]), np.array([1, 0]))


def test_nearest_breaks_ties_by_position() -> None:
    assert _nearest(np.array([0.5, 0.9, 0.5, 0.5]), 2).tolist() == [1, 0]
    assert _nearest(np.array([0.5, 0.9, 0.5, 0.5]), 3).tolist() == [1, 0, 2]


def unit(degrees: float) -> list[float]:
    """The unit 2-d vector at an angle."""
    return [math.cos(math.radians(degrees)), math.sin(math.radians(degrees))]


def test_neighbour_diversity_pools_the_classes_of_the_nearest_other_words() -> None:
    data = {
        "@w1@": {"-location": 60, "-person": 40},  # minor class 0.4
        "@n1@": {"-person": 3},
        "@n2@": {"-art": 3},
        "@w2@": {"-location": 90, "-art": 10},  # minor class 0.1
        "@n3@": {"-organization": 2},
        "@n4@": {"-organization": 7},
        "@w3@": {"-location": 5, "-person": 5},  # balanced: 0.5
        "@n5@": {"-food": 4},
        "@n6@": {"-art": 3, "-person": 1},  # minor class 0.25 → 0.3
    }
    angles = {"@w1@": 0, "@n1@": 5, "@n2@": -10, "@w2@": 90, "@n3@": 88, "@n4@": 95,
              "@w3@": 180, "@n5@": 178, "@n6@": 184}
    words = list(data)
    matrix = np.array([unit(angles[w]) for w in words])
    frame = neighbour_diversity(words, data, matrix, k=2)
    assert list(frame.columns) == ["level", "unique_classes", "n"]
    # w2: n3, n4 → {organization}; n6: w3, n5 → {location, person, food};
    # w1: n1, n2 → {person, art}; w3: n5, n6 → {food, art, person}.
    assert as_rows(frame, "unique_classes") == [(0.1, 1.0, 1), (0.3, 3.0, 1), (0.4, 2.0, 1),
                                                (0.5, 3.0, 1)]


def test_neighbour_diversity_averages_words_of_a_level() -> None:
    data = {"@x@": {"-a": 1, "-b": 1}, "@y@": {"-a": 1, "-c": 1}, "@z@": {"-d": 1}}
    matrix = np.array([unit(0), unit(1), unit(90)])
    frame = neighbour_diversity(list(data), data, matrix, k=1)
    # x's nearest is y ({a, c}), y's is x ({a, b}): both 2 at level 0.5.
    assert as_rows(frame, "unique_classes") == [(0.5, 2.0, 2)]


def test_ambiguity_examples_order_and_format() -> None:
    words = ["@b@", "@a@", "@d@", "@c@", "@e@"]
    data = {"@a@": {"-person": 3, "-visual_art-color": 7}, "@b@": {"-art": 1, "-location": 2},
            "@c@": {"-person": 4}, "@d@": {"-living_thing": 2}, "@e@": {"-event": 1}}
    frequency = {"@a@": 554, "@b@": 879, "@c@": 47, "@d@": 431, "@e@": 20}
    frame = ambiguity_examples(words, data, frequency, np.array([1.0, 1.0, 0.0, 0.0, 0.5]),
                               top=2)
    assert list(frame.columns) == ["group", "rank", "word", "frequency", "n_classes",
                                   "classes", "likelihood"]
    assert frame["word"].tolist() == ["@a@", "@b@", "@c@", "@d@"]
    assert frame["group"].tolist() == ["ambiguous"] * 2 + ["unambiguous"] * 2
    assert frame["rank"].tolist() == [1, 2, 1, 2]
    assert frame["classes"].tolist() == ["visual art-color, person", "location, art", "person",
                                         "living thing"]
    assert frame["frequency"].tolist() == [554, 879, 47, 431]
    assert frame["likelihood"].tolist() == [1.0, 1.0, 0.0, 0.0]


def test_ambiguity_examples_list_a_word_once() -> None:
    data = {"@a@": {"-person": 1}, "@b@": {"-art": 1}, "@c@": {"-event": 1}}
    frame = ambiguity_examples(list(data), data, {}, np.array([0.9, 0.5, 0.1]), top=2)
    assert frame["word"].tolist() == ["@a@", "@b@", "@c@"]
    assert frame["frequency"].tolist() == [0, 0, 0]
