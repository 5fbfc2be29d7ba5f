"""Scoring: strict comparisons in embedding space, OVA as a matrix, seeded random baselines."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reprobe.errors import ReprobeError
from reprobe.numeracy import scoring
from reprobe.numeracy.contrastive import build_magnitude_tests, build_numeration_tests
from reprobe.numeracy.scoring import random_choice_accuracy, random_vectors, score_tests
from reprobe.numeracy.settings import ContrastiveRules
from reprobe.step_settings import settings_from_schema


def frame(*rows: tuple[str, str, str]) -> pd.DataFrame:
    """Tests from (x, x+, x-) rows."""
    return pd.DataFrame(rows, columns=["x", "x_plus", "x_minus"])


def rules(**changes: object) -> dict[str, object]:
    """The test builders' rules: the schema's (numeracy.tie_break, …), but for `changes`."""
    return {**settings_from_schema(ContrastiveRules, "numeracy").keywords(), **changes}


def vec(*values: float) -> np.ndarray:
    """A vector."""
    return np.array(values, dtype=float)


def test_a_pairwise_test_passes_when_x_plus_is_strictly_closer():
    vectors = {"3": vec(1, 0), "4": vec(1, 0.1), "9": vec(0, 1), "5": vec(1, 0.1)}
    assert score_tests(frame(("3", "4", "9")), None, vectors) == (100.0, 1)
    assert score_tests(frame(("3", "9", "4")), None, vectors) == (0.0, 1)
    # Equal distances fail: closer must be strictly closer.
    assert score_tests(frame(("3", "4", "5")), None, vectors) == (0.0, 1)


def test_an_ova_test_passes_only_if_x_plus_is_nearest_among_all_other_candidates():
    vectors = {"1": vec(1, 0), "2": vec(1, 0.2), "3": vec(1, 0.5), "4": vec(-1, 0)}
    candidates = ["1", "2", "3", "4"]
    tests = frame(("1", "2", ""), ("2", "1", ""), ("3", "1", ""), ("4", "3", ""))
    # x=1 → 2 nearest ✓; x=2 → 1 (0.2) vs 3 (0.3) ✓; x=3 → 2 is nearer than 1 ✗; x=4 → 3 ✗.
    assert score_tests(tests, candidates, vectors, "euclidean") == (50.0, 4)


def test_an_ova_test_ignores_its_excluded_candidate():
    # x = 3, x+ = 2; 4 is as close to 3 as 2 (footnote 4) and nearer in the embedding.
    vectors = {"1": vec(-1, 0), "2": vec(1, 0.3), "3": vec(1, 0), "4": vec(1, 0.1)}
    candidates = ["1", "2", "3", "4"]
    kept = frame(("3", "2", ""))
    excluded = kept.assign(excluded=["4"])
    assert score_tests(kept, candidates, vectors, "euclidean") == (0.0, 1)
    assert score_tests(excluded, candidates, vectors, "euclidean") == (100.0, 1)
    with pytest.raises(ValueError, match="excluded"):
        score_tests(kept.assign(excluded=["9"]), candidates, {**vectors, "9": vec(0, 0)})


def test_ova_in_blocks_gives_the_same_answer_as_in_one(monkeypatch):
    tokens = [str(i) for i in range(60)]
    vectors = random_vectors(tokens, 8, seed=3)
    tests = build_magnitude_tests({t: float(t) for t in tokens}, **rules())
    whole = score_tests(tests["OVA"], tokens, vectors, "euclidean")
    monkeypatch.setattr(scoring, "_BLOCK_CELLS", 7)
    assert score_tests(tests["OVA"], tokens, vectors, "euclidean") == whole


def test_cosine_and_euclidean_can_disagree():
    # x+ points the same way but is far; x- is near but at an angle.
    vectors = {"x": vec(1, 0), "plus": vec(10, 0.5), "minus": vec(0.9, 0.5)}
    tests = frame(("x", "plus", "minus"))
    assert score_tests(tests, None, vectors, "cosine") == (100.0, 1)
    assert score_tests(tests, None, vectors, "euclidean") == (0.0, 1)


def test_numeration_tests_pass_when_numerals_of_equal_value_share_a_vector():
    arabic = {"1": 1.0, "2": 2.0, "3": 3.0, "10": 10.0}
    english = {"one": 1.0, "two": 2.0, "three": 3.0, "ten": 10.0}
    base = random_vectors(arabic, 16, seed=0)
    vectors = {**base, **{word: base[str(int(v))] for word, v in english.items()}}
    tests = build_numeration_tests(arabic, english, **rules())
    candidates = tests["candidates"]["token"]
    assert score_tests(tests["OVA"], candidates, vectors) == (100.0, 4)
    assert score_tests(tests["SC"], None, vectors) == (100.0, 4)
    assert score_tests(tests["BC"], None, vectors) == (100.0, 4)


def test_missing_vectors_are_an_error_naming_the_tokens():
    with pytest.raises(ReprobeError, match="'4'.*'9'|'9'.*'4'"):
        score_tests(frame(("3", "4", "9")), None, {"3": vec(1, 0)})


def test_kinds_and_candidates_must_match():
    vectors = {"3": vec(1, 0), "4": vec(1, 0.1), "9": vec(0, 1)}
    with pytest.raises(ValueError, match="OVA"):
        score_tests(frame(("3", "4", "")), None, vectors)
    with pytest.raises(ValueError, match="SC or BC"):
        score_tests(frame(("3", "4", "9")), ["3", "4", "9"], vectors)


def test_no_tests_score_nan_with_n_zero():
    accuracy, n = score_tests(frame(), None, {})
    assert np.isnan(accuracy) and n == 0


def test_random_vectors_are_seeded_and_independent_of_token_order():
    one = random_vectors(["a", "b", "c"], 5, seed=7)
    two = random_vectors(["c", "a", "b"], 5, seed=7)
    other = random_vectors(["a", "b", "c"], 5, seed=8)
    assert all(np.array_equal(one[t], two[t]) for t in one)
    assert not np.array_equal(one["a"], other["a"])
    assert one["a"].shape == (5,)


def test_the_random_embedding_baseline_is_reproducible():
    tests = build_magnitude_tests({str(i * i): float(i * i) for i in range(100)}, **rules())
    scores = [score_tests(tests["SC"], None, random_vectors(tests["candidates"]["token"], 50, 1))
              for _ in range(2)]
    assert scores[0] == scores[1] and scores[0][1] == 100
    assert 30 < scores[0][0] < 70


def test_random_choice_is_one_in_n_for_ova_and_a_coin_for_sc_and_bc():
    assert random_choice_accuracy("OVA", 117) == pytest.approx(100 / 117)
    assert random_choice_accuracy("SC", 117) == random_choice_accuracy("BC", 3) == 50.0
