"""The quantifier Stress Test (Ravichander et al. 2019, §3.5; Naik et al. 2018's numerical
reasoning test) built from AQuA-RAT problems.

Input: AQuA-RAT files, one JSON object per line with `question`, `options`, `rationale` and
`correct`; only `question` is used (the test never asks for the problem's answer).

Premises. Each question is split into sentences (blingfire). A sentence is a premise when it is
a statement (does not end in "?", does not start with a question word or an instruction such as
"Find"), has at least 4 tokens, contains no formula characters (= < > ^ √) and contains at least
one eligible quantity. Identical premises are kept once. Eligible quantity: an Arabic numeral
(commas and decimals allowed, a unit glued on allowed: "750m") that is not part of a ratio,
fraction, time, power, ordinal or arithmetic expression, not preceded by a letter or a digit
group, and not already bounded ("more than", "at least", "about", ...). Naik et al. found
quantities with a named-entity tagger (CARDINAL); number words are not used here.

Hypotheses. For each premise one quantity x is drawn uniformly; then, with y a new value
(integers if x is written as an integer, else reals with x's decimals; larger: uniform in
(x, x + max(10, x)]; smaller: uniform in (0, x)):
- entailment: "less than y" with y > x, or "more than y" with y < x (equal probability;
  only the first when no smaller positive value exists);
- contradiction: with equal probability, x replaced by y != x; "more than y" with y > x; or
  "less than y" with y < x (the last dropped when no smaller positive value exists);
- neutral: the entailed pair reversed (premise and hypothesis swapped): a bound does not
  determine the exact number (Naik et al.'s rule).
So each premise yields one pair per class and the classes are equal in number. A currency sign
before x stays with the number ("less than $ 600"). Randomness: one generator seeded by `seed`
(drawn first for the optional premise sample, then premise by premise).
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reprobe.equate.jsonl import Pair, write_pairs
from reprobe.errors import InputFormatError
from reprobe.io import iter_json_objects
from reprobe.text import open_text, require_rows

log = logging.getLogger(__name__)

GENRE = "aqua"
MIN_TOKENS = 4
_NUMBER = re.compile(r"(?<![\w.,/:^])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?")
_CURRENCY = re.compile(r"(?:\$|£|€|₹|\bRs\.?|\bINR)\s?$", re.IGNORECASE)
_BOUNDED = re.compile(
    r"\b(?:more|less|fewer|greater|larger|smaller|higher|lower) than\s*$|"
    r"\b(?:at least|at most|up to|over|under|about|around|approximately|nearly|almost|"
    r"roughly|exactly|only)\s*$", re.IGNORECASE)
_FORMULA = re.compile(r"[=<>^√]")
_QUESTION_START = re.compile(
    r"^(?:what|which|who|whom|whose|when|where|why|how|find|calculate|determine|compute|"
    r"evaluate|estimate|solve|simplify|if)\b", re.IGNORECASE)
_ORDINAL = re.compile(r"(?:st|nd|rd|th)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Quantity:
    """A numeral in a sentence: its span, value and written form."""

    start: int
    end: int
    value: float
    places: int
    commas: bool


def read_questions(path: Path) -> Iterator[str]:
    """Stream the `question` texts of an AQuA-RAT file (one JSON object per line)."""
    rows = 0
    with open_text(path) as handle:
        for n, record in iter_json_objects(path, handle):
            if not isinstance(record.get("question"), str):
                raise InputFormatError(path, f"line {n}", "expected an object with a 'question'")
            rows += 1
            yield record["question"]
    require_rows(path, rows, "questions")


def sentences(text: str) -> list[str]:
    """Sentences of a problem text (blingfire's splitter keeps "Rs. 500" together)."""
    import blingfire

    return [s.strip() for s in blingfire.text_to_sentences(text.strip()).split("\n") if s.strip()]


def _eligible(sentence: str, match: re.Match[str]) -> bool:
    """True when the numeral is a plain quantity (no ratio, formula, ordinal or bound)."""
    before, after = sentence[:match.start()], sentence[match.end():]
    if re.match(r"[/:^%]?\d|[/:^]|[.,]\d", after) or _ORDINAL.match(after):
        return False
    if re.match(r"\s*[-+*/×÷:]\s*\d", after) or re.search(r"\d\s*[-+*/×÷:]\s*$", before):
        return False
    return not _BOUNDED.search(before)


def quantities(sentence: str) -> list[Quantity]:
    """The eligible quantities of a sentence, left to right."""
    found = []
    for match in _NUMBER.finditer(sentence):
        if not _eligible(sentence, match):
            continue
        whole, fraction = match.group(1), match.group(2) or ""
        value = float(whole.replace(",", "") + fraction)
        found.append(Quantity(match.start(), match.end(), value, max(len(fraction) - 1, 0),
                              "," in whole))
    return found


def is_premise(sentence: str) -> bool:
    """True when a sentence is a statement fit to be a premise."""
    return (not sentence.rstrip().endswith("?") and not _QUESTION_START.match(sentence)
            and len(sentence.split()) >= MIN_TOKENS and not _FORMULA.search(sentence)
            and bool(quantities(sentence)))


def render(value: float, quantity: Quantity) -> str:
    """A new value written like the original (decimals, thousands commas)."""
    if quantity.places == 0:
        return f"{int(round(value)):,}" if quantity.commas else str(int(round(value)))
    return f"{value:,.{quantity.places}f}" if quantity.commas else f"{value:.{quantity.places}f}"


def larger(q: Quantity, rng: random.Random) -> float:
    """A value above x, uniform in (x, x + max(10, x)], written with x's decimals."""
    step = 10.0 ** -q.places
    while True:
        y = round(rng.uniform(q.value, q.value + max(10.0, q.value)), q.places)
        if y >= q.value + step / 2:  # rounding may fall back onto x
            return y


def smaller(q: Quantity, rng: random.Random) -> float | None:
    """A positive value below x, uniform in (0, x), or None when there is none."""
    step = 10.0 ** -q.places
    if q.value - step < step / 2:
        return None
    while True:
        y = round(rng.uniform(0.0, q.value), q.places)
        if step / 2 <= y <= q.value - step / 2:
            return y


def rewrite(sentence: str, q: Quantity, value: float, bound: str | None) -> str:
    """The sentence with x replaced by value, wrapped in a bound ("more than") if given."""
    before, after = sentence[:q.start], sentence[q.end:]
    if bound is None:
        return before + render(value, q) + after
    currency = _CURRENCY.search(before)
    cut = currency.start() if currency else len(before)
    return before[:cut] + bound + " " + before[cut:] + render(value, q) + after


def premise_pairs(sentence: str, rng: random.Random) -> list[Pair]:
    """One entailment, one contradiction and one neutral pair for a premise sentence."""
    q = rng.choice(quantities(sentence))
    below = smaller(q, rng)
    if below is not None and rng.random() < 0.5:
        entailed = rewrite(sentence, q, below, "more than")
    else:
        entailed = rewrite(sentence, q, larger(q, rng), "less than")
    rule = rng.choice(("change", "more", "less") if below is not None else ("change", "more"))
    if rule == "change":
        other = smaller(q, rng) if below is not None and rng.random() < 0.5 else None
        contradicted = rewrite(sentence, q, other if other is not None else larger(q, rng), None)
    elif rule == "more":
        contradicted = rewrite(sentence, q, larger(q, rng), "more than")
    else:
        contradicted = rewrite(sentence, q, smaller(q, rng) or 0.0, "less than")
    return [Pair(sentence, entailed, "entailment"), Pair(sentence, contradicted, "contradiction"),
            Pair(entailed, sentence, "neutral")]


def premises(aqua_json: Path) -> list[str]:
    """Premise sentences of an AQuA file, in file order, each kept once."""
    seen: dict[str, None] = {}
    for question in read_questions(aqua_json):
        for sentence in sentences(question):
            if sentence not in seen and is_premise(sentence):
                seen[sentence] = None
    return list(seen)


def build_stress_test(aqua_json: Path, out_jsonl: Path, *, seed: int,
                      max_premises: int | None = None) -> dict[str, Any]:
    """Build the quantifier Stress Test from an AQuA-RAT file; return stats.

    `max_premises` keeps a seeded uniform sample of that many premises, in file order (the
    paper's 7,596 pairs are 2,532 premises; all of AQuA-RAT train has far more).
    """
    found = premises(aqua_json)
    rng = random.Random(seed)
    available = len(found)
    if max_premises is not None and max_premises < available:
        keep = set(rng.sample(range(available), max_premises))
        found = [sentence for i, sentence in enumerate(found) if i in keep]

    def pairs() -> Iterator[Pair]:
        """Pairs premise by premise, in file order."""
        for sentence in found:
            yield from premise_pairs(sentence, rng)

    card = write_pairs(pairs(), out_jsonl, genre=GENRE, sources={"aqua": Path(aqua_json)},
                       parameters={"seed": seed, "min_tokens": MIN_TOKENS,
                                   "max_premises": max_premises})
    stats = {"premises_found": available, "premises": len(found), "pairs": card["rows"],
             "labels": card["labels"]}
    log.info("Stress Test: %s", stats)
    return stats
