"""AwpNLI (Ravichander et al. 2019, §3.6): NLI pairs from Roy & Roth's arithmetic word problems.

A problem builds a world, may update it, then asks a question. The premise is every sentence
but the question; the hypothesis states the answer in a template read off the question:

    Agent  Verb(secondary verb, present tense)  Answer  Unit  rest-of-question
    "How many dollars did Gary have left ?" -> "Gary has 18 dollars left ."

Rules implemented (a question that fits none of them is skipped, counted and logged):
- The question is the last sentence and must start "How many <unit>" or "How much <unit>",
  followed by an auxiliary (do/does/did, modals, have/has/had, or a form of "be").
- Auxiliary + agent + secondary verb: the agent is a pronoun; or a determiner/possessive and
  the nouns after it; or a run of capitalised names (joined by "and"), optionally with "'s" and
  one noun ("Sara 's brother"). The next token must be a verb in lemminflect's lexicon; it is
  lemmatised and inflected to VBZ (singular agent) or VBP (plural: they/we/you/I, "and", or a
  plural noun head) with `lemminflect.getInflection`.
- A form of "be": "How many apples are there in the box ?" -> "There are N apples in the box .";
  "How many apples were eaten ?" -> "N apples are eaten ." (is/are by the answer's number).
- Unit: the words between "How many/much" and the auxiliary ("more apples" included). "money"
  and a missing unit after "How much" with a money verb (spend, pay, earn, ...) become "$ N";
  any other missing unit is skipped.
- Particles right after the verb (up, with, out, away, back, off, down) move before the
  quantity: "How many crayons does Jane end up with ?" -> "Jane ends up with N crayons .".
- Text stays tokenised as in the source (space-separated tokens, " ." at the end).

Labels: the solution gives one entailed hypothesis, a wrong guess one contradiction (2-class,
as in the paper: under event coreference a wrong number contradicts). The wrong guess is drawn
uniformly from [answer - 5, answer + 5], never the answer: an integer when the answer is whole,
otherwise a real rounded to the answer's decimals (at most 3). Guesses are positive (the paper
draws from Z+ or R+), so for answers below 5 the interval is cut at 0 (the paper's footnote 8:
"or 5 for numbers less than 5").
"""

from __future__ import annotations

import json
import logging
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reprobe.equate.jsonl import Pair, tokenize, write_pairs
from reprobe.errors import InputFormatError

log = logging.getLogger(__name__)

GENRE = "awp"
SPREAD = 5
MAX_DECIMALS = 3
AUXILIARIES = frozenset({
    "do", "does", "did", "will", "would", "can", "could", "should", "must", "might", "may",
    "shall", "has", "have", "had"})
BE = frozenset({"is", "are", "was", "were"})
PRONOUNS = {"he": "He", "she": "She", "it": "It", "they": "They", "we": "We", "you": "You",
            "i": "I"}
PLURAL_PRONOUNS = frozenset({"they", "we", "you", "i"})
DETERMINERS = frozenset({
    "the", "his", "her", "their", "its", "my", "our", "your", "a", "an", "each", "every", "this",
    "that", "these", "those"})
# Particles after the verb belong before the quantity: "ends with 99 crayons", "gives away 3".
PARTICLES = frozenset({"up", "with", "out", "away", "back", "off", "down"})
MONEY_VERBS = frozenset({
    "spend", "pay", "cost", "earn", "make", "save", "receive", "get", "lose", "need", "charge",
    "owe", "collect", "raise"})


@dataclass(frozen=True)
class Problem:
    """One arithmetic word problem: its id, text and (single) solution."""

    index: int
    text: str
    solution: float


def read_problems(path: Path) -> list[Problem]:
    """Read Roy & Roth's questions.json (a JSON array), validating each record."""
    try:
        records = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise InputFormatError(path, f"line {error.lineno}", f"not JSON ({error.msg})") from None
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
        for n, line in enumerate(Path(fold).read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                if not line.strip().isdigit():
                    raise InputFormatError(fold, f"line {n}", "expected a problem id")
                ids.add(int(line))
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


def _is_verb(token: str) -> bool:
    """True when lemminflect's lexicon knows the token as a verb form."""
    import lemminflect

    return "VERB" in lemminflect.getAllLemmas(token.lower())


def _is_plural_noun(token: str) -> bool:
    """True when the token is a noun form whose lemma differs from it (a plural)."""
    import lemminflect

    lemmas = lemminflect.getAllLemmas(token.lower()).get("NOUN", ())
    return bool(lemmas) and token.lower() not in lemmas


def _present(verb: str, plural: bool) -> str | None:
    """The secondary verb in present tense agreeing with the agent."""
    import lemminflect

    lemmas = lemminflect.getLemma(verb.lower(), upos="VERB")
    if not lemmas:
        return None
    forms = lemminflect.getInflection(lemmas[0], tag="VBP" if plural else "VBZ")
    return forms[0] if forms else None


def _agent(tokens: list[str], start: int) -> tuple[int, bool] | None:
    """End (exclusive) of the agent starting at `start` and whether it is plural, or None."""
    if start >= len(tokens):
        return None
    first = tokens[start]
    if first.lower() in PRONOUNS:
        return start + 1, first.lower() in PLURAL_PRONOUNS
    end = start
    if first.lower() in DETERMINERS:
        end = start + 1
        # Nouns after the determiner; a verb-capable word ends it once a noun was taken.
        while end < len(tokens) and (end == start + 1 or not _is_verb(tokens[end])):
            end += 1
            if end >= len(tokens) or tokens[end] in {"'s", "?", ","}:
                break
    elif first[:1].isupper():
        while end < len(tokens) and tokens[end][:1].isupper():
            end += 1
            if end + 1 < len(tokens) and tokens[end] == "and" and tokens[end + 1][:1].isupper():
                end += 1
    else:
        return None
    if end + 1 < len(tokens) and tokens[end] == "'s":
        end += 2  # possessor + one noun: "Sara 's brother"
    agent = tokens[start:end]
    plural = "and" in agent or _is_plural_noun(agent[-1])
    return end, plural


def _quantity(answer: str, unit: list[str], verb_lemma: str | None) -> list[str] | None:
    """Answer and unit tokens, money as "$ N"; None when no unit can be found."""
    words = [u.lower() for u in unit]
    if words in (["money"], ["more", "money"]) or (not words and verb_lemma in MONEY_VERBS):
        return ["$", answer] + (["more"] if "more" in words else [])
    return [answer, *unit] if unit else None


def hypothesis(question: str, answer: str) -> str | None:
    """The hypothesis stating `answer` for a "How many/much" question, or None if unhandled."""
    import lemminflect

    tokens = [t for s in tokenize(question) for t in s]
    while tokens and tokens[-1] in {"?", "."}:
        tokens.pop()
    if len(tokens) < 4 or tokens[0].lower() != "how" or tokens[1].lower() not in {"many", "much"}:
        return None
    aux = next((i for i in range(2, len(tokens))
                if tokens[i].lower() in AUXILIARIES | BE), None)
    if aux is None:
        return None
    unit, rest = tokens[2:aux], tokens[aux + 1:]
    if tokens[aux].lower() in BE:
        be = "is" if answer == "1" else "are"
        quantity = _quantity(answer, unit, None)
        if quantity is None:
            return None
        if rest[:1] and rest[0].lower() == "there":
            words = ["There", be, *quantity, *rest[1:]]
        else:
            words = [*quantity, be, *rest]
        return " ".join(words) + " ."
    agent = _agent(tokens, aux + 1)
    if agent is None:
        return None
    end, plural = agent
    if end >= len(tokens) or not _is_verb(tokens[end]):
        return None
    verb = _present(tokens[end], plural)
    lemma = lemminflect.getLemma(tokens[end].lower(), upos="VERB")
    quantity = _quantity(answer, unit, lemma[0] if lemma else None)
    if verb is None or quantity is None:
        return None
    subject = [PRONOUNS.get(t.lower(), t) for t in tokens[aux + 1:end]]
    subject[0] = subject[0][:1].upper() + subject[0][1:]
    after = end + 1
    while after < len(tokens) and tokens[after].lower() in PARTICLES:
        after += 1
    particles = tokens[end + 1:after]
    return " ".join([*subject, verb, *particles, *quantity, *tokens[after:]]) + " ."


def split_problem(text: str) -> tuple[str, str] | None:
    """(premise, question): the question is the last sentence, ending in '?'."""
    sentences = [" ".join(s) for s in tokenize(text)]
    if len(sentences) < 2 or not sentences[-1].endswith("?"):
        return None
    return " ".join(sentences[:-1]), sentences[-1]


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
