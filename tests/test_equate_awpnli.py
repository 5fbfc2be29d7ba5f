"""Tests for AwpNLI built from arithmetic word problems."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from reprobe.equate.awpnli import build_awpnli, hypothesis, read_problems, wrong_guess
from reprobe.equate.jsonl import read_pairs
from reprobe.errors import InputFormatError

SAMPLE = Path(__file__).resolve().parents[1] / "data/samples/equate/arithmetic_questions.json"


@pytest.mark.parametrize(("question", "answer", "expected"), [
    ("How many apples does Tom have now ?", "19", "Tom has 19 apples now ."),
    ("How many dollars did Gary have left ?", "18", "Gary has 18 dollars left ."),
    ("How many stamps did Priya end up with ?", "40", "Priya ends up with 40 stamps ."),
    ("How many pears did they pick in all ?", "30", "They pick 30 pears in all ."),
    ("How many ducks are there on the pond now ?", "5", "There are 5 ducks on the pond now ."),
    ("How much money does Omar have left ?", "3.25", "Omar has $ 3.25 left ."),
    ("How far did Ravi run ?", "7.3", None),
])
def test_hypothesis_template(question: str, answer: str, expected: str | None) -> None:
    """Agent, present-tense secondary verb, answer, unit, rest; unhandled questions give None."""
    assert hypothesis(question, answer) == expected


@pytest.mark.parametrize("answer", [1.0, 3.0, 17.0, 308.0])
def test_integer_wrong_guess(answer: float) -> None:
    """Integer answers get positive integer guesses within ±5, never the answer."""
    rng = random.Random(0)
    for _ in range(200):
        guess = wrong_guess(answer, rng)
        assert guess.is_integer() and guess > 0 and guess != answer and abs(guess - answer) <= 5


@pytest.mark.parametrize("answer", [0.5, 3.25, 17.75, 7.3])
def test_real_wrong_guess(answer: float) -> None:
    """Real answers get positive real guesses within ±5, never the answer, with its decimals."""
    rng = random.Random(0)
    guesses = [wrong_guess(answer, rng) for _ in range(200)]
    assert all(0 < g != answer and abs(g - answer) <= 5 for g in guesses)
    assert any(not g.is_integer() for g in guesses)
    places = len(repr(answer).split(".")[1])
    assert all(round(g, places) == g for g in guesses)


def test_build_balanced_and_deterministic(tmp_path: Path) -> None:
    """One entailment and one contradiction per used problem; same seed, same bytes."""
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    stats = build_awpnli(SAMPLE, a, seed=7)
    build_awpnli(SAMPLE, b, seed=7)
    build_awpnli(SAMPLE, c, seed=8)
    assert a.read_bytes() == b.read_bytes() != c.read_bytes()
    assert stats["problems"] == 12 and stats["skipped"] == 1  # "How far ..." has no template
    assert stats["labels"] == {"entailment": 11, "contradiction": 11} and stats["pairs"] == 22
    rows = list(read_pairs(a))
    assert rows[0]["sentence1"] == "Tom had 12.0 apples . He bought 7.0 more apples at the market ."
    assert rows[0]["sentence2"] == "Tom has 19 apples now ."
    assert rows[0]["gold_label"] == "entailment"
    card = json.loads((tmp_path / "a.jsonl.card.json").read_text())
    assert card["skipped"] == {"question outside the template": 1}


def test_folds_restrict_problems(tmp_path: Path) -> None:
    """Fold files keep only the listed problem ids."""
    fold = tmp_path / "fold0.txt"
    fold.write_text("1\n2\n", encoding="utf-8")
    stats = build_awpnli(SAMPLE, tmp_path / "f.jsonl", seed=1, folds=[fold])
    assert stats["problems"] == 2 and stats["pairs"] == 4


def test_bad_record_is_named(tmp_path: Path) -> None:
    """A record without a solution list raises an error naming the record."""
    path = tmp_path / "q.json"
    path.write_text('[{"iIndex": 1, "sQuestion": "How many ?", "lSolutions": [1.0]},'
                    ' {"iIndex": 2, "sQuestion": "How many ?"}]', encoding="utf-8")
    with pytest.raises(InputFormatError) as error:
        read_problems(path)
    assert error.value.where == "record 2 (iIndex 2)"
