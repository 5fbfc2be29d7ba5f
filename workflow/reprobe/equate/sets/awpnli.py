"""AwpNLI (Ravichander et al. 2019, §3.6): NLI pairs from Roy & Roth's arithmetic word problems.

A problem builds a world, may update it, then asks a question. The premise is every sentence
but the question, with the question's conditions ("If Sam gives 3 apples to Tom , how ...")
lifted into it (`reprobe.equate.sets.awp_question`); the hypothesis states the answer in a template
read off the question (`reprobe.equate.sets.awp_template`):

    Agent  Verb(secondary verb, present tense)  Answer  Unit  rest-of-question
    "How many dollars did Gary have left ?" -> "Gary has 18 dollars left ."

A problem whose question fits no rule is skipped, counted by reason in the card and logged.
By default every problem of questions.json is a candidate (the released AwpNLI draws on
problems outside allArith's 831); fold files restrict the build to the ids they list.

Labels: the solution gives one entailed hypothesis, a wrong guess one contradiction (2-class,
as in the paper: under event coreference a wrong number contradicts). The wrong guess is drawn
uniformly from [answer - 5, answer + 5], never the answer: an integer when the answer is whole,
otherwise a real rounded to the answer's decimals (at most 3). Guesses are positive (the paper
draws from Z+ or R+), so for answers below 5 the interval is cut at 0 (the paper's footnote 8:
"or 5 for numbers less than 5").
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reprobe.equate.jsonl import Pair, write_pairs
from reprobe.equate.sets.awp_question import split_problem
from reprobe.equate.sets.awp_template import hypothesis
from reprobe.errors import InputFormatError
from reprobe.text import numbered_lines, read_json, require_rows

__all__ = ["build_awpnli", "hypothesis", "read_problems", "split_problem", "wrong_guess"]

log = logging.getLogger(__name__)

GENRE = "awp"
SPREAD = 5
MAX_DECIMALS = 3


@dataclass(frozen=True)
class Problem:
    """One arithmetic word problem: its id, text and (single) solution."""

    index: int
    text: str
    solution: float


def read_problems(path: Path) -> list[Problem]:
    """Read Roy & Roth's questions.json (a JSON array), validating each record."""
    records = read_json(path)
    if not isinstance(records, list):
        raise InputFormatError(path, "top level", "expected a JSON array of problems")
    problems = []
    for n, record in enumerate(records, start=1):
        where = f"record {n}"
        if not isinstance(record, dict):
            raise InputFormatError(path, where, "expected a JSON object")
        text, solutions, index = record.get("sQuestion"), record.get("lSolutions"), \
            record.get("iIndex")
        if not isinstance(text, str) or not text.strip():
            raise InputFormatError(path, where, "expected a non-empty string in 'sQuestion'")
        if not isinstance(index, int):
            raise InputFormatError(path, where, "expected an integer 'iIndex'")
        if (not isinstance(solutions, list) or not solutions
                or not all(isinstance(s, int | float) for s in solutions)):
            raise InputFormatError(path, f"{where} (iIndex {index})",
                                   "expected a non-empty list of numbers in 'lSolutions'")
        problems.append(Problem(index, text, float(solutions[0])))
    return problems


def read_fold_ids(folds: Sequence[Path]) -> set[int]:
    """The iIndex values listed in allArith fold files (one integer per line)."""
    ids: set[int] = set()
    for fold in folds:
        for n, line in numbered_lines(fold):
            if line.strip():
                if not line.strip().isdigit():
                    raise InputFormatError(fold, f"line {n}", "expected a problem id")
                ids.add(int(line))
        require_rows(fold, len(ids), "problem ids")
    return ids


def decimals(value: float) -> int:
    """How many decimals render a value exactly (0 for whole numbers, at most MAX_DECIMALS)."""
    for places in range(MAX_DECIMALS + 1):
        if round(value, places) == value:
            return places
    return MAX_DECIMALS


def render(value: float, places: int) -> str:
    """A number with a fixed number of decimals; whole answers print without '.0'."""
    return str(int(round(value))) if places == 0 else f"{value:.{places}f}"


def wrong_guess(answer: float, rng: random.Random) -> float:
    """A positive wrong answer drawn uniformly within ±5 of the answer, never the answer."""
    places = decimals(answer)
    if places == 0:
        whole = int(round(answer))
        candidates = [g for g in range(whole - SPREAD, whole + SPREAD + 1) if g != whole and g > 0]
        return float(rng.choice(candidates))
    low, high = max(answer - SPREAD, 0.0), answer + SPREAD
    while True:
        guess = round(rng.uniform(low, high), places)
        # Rounding can land on the answer or on 0: draw again rather than bias the interval.
        if guess > 0 and guess != round(answer, places) and abs(guess - answer) <= SPREAD:
            return guess


def problem_pairs(problem: Problem, rng: random.Random) -> list[Pair] | str:
    """The entailed and contradicting pairs of one problem, or the reason it is skipped."""
    parts = split_problem(problem.text)
    if parts is None:
        return "no final question"
    premise, question = parts
    places = decimals(problem.solution)
    right = hypothesis(question, render(problem.solution, places))
    if right is None:
        return "question outside the template"
    wrong = hypothesis(question, render(wrong_guess(problem.solution, rng), places))
    assert wrong is not None  # same question, same template: only the number differs
    return [Pair(premise, right, "entailment"), Pair(premise, wrong, "contradiction")]


def iter_pairs(problems: Sequence[Problem], seed: int, skipped: Counter[str]) -> Iterator[Pair]:
    """All pairs in source order; one seeded generator so the output is reproducible."""
    rng = random.Random(seed)
    for problem in problems:
        result = problem_pairs(problem, rng)
        if isinstance(result, str):
            skipped[result] += 1
            log.info("AwpNLI: skipping problem %d (%s): %s", problem.index, result, problem.text)
            continue
        yield from result


def build_awpnli(
    problems_json: Path, out_jsonl: Path, *, seed: int, folds: Sequence[Path] = ()
) -> dict[str, Any]:
    """Build AwpNLI from questions.json (optionally only the allArith folds); return stats."""
    problems = read_problems(problems_json)
    if folds:
        keep = read_fold_ids(folds)
        problems = [p for p in problems if p.index in keep]
    skipped: Counter[str] = Counter()
    sources = {"problems": Path(problems_json)}
    sources.update({f"fold{i}": Path(f) for i, f in enumerate(folds)})
    card = write_pairs(
        iter_pairs(problems, seed, skipped),
        out_jsonl,
        genre=GENRE,
        sources=sources,
        parameters={"seed": seed, "spread": SPREAD, "folds": len(folds)},
        extra={"skipped": skipped},  # a dict filled while the pairs stream, dumped after
    )
    stats = {
        "problems": len(problems),
        "used": len(problems) - sum(skipped.values()),
        "skipped": sum(skipped.values()),
        "skipped_by_reason": dict(sorted(skipped.items())),
        "pairs": card["rows"],
        "labels": card["labels"],
    }
    log.info("AwpNLI: %s", stats)
    return stats
