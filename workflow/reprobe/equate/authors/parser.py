"""NUMSETs from a quantity mention and the CoreNLP annotations, as the released parser reads them.

Follows `numerical_parser.py` (NumericalParser: extract_value ≈ lines 20-185, extract_units
≈ 187-222, extract_entities ≈ 224-252, extract_approx ≈ 254-281, extract_location ≈ 283-315,
extract_verb ≈ 317-341, extract_adj ≈ 343-366, extract_frequency ≈ 368-386, extract_change
≈ 388-413, logic_parse ≈ 415-456, get_numsets ≈ 458-467) and `utils_parser.py`
(preprocess_number). What this gives, kept on purpose (the EQUATE paper's numbers come from it):
- a unit is whatever word governs the number by `nummod` or `nmod` anywhere in the side, so in
  "$ 15" or "in 2005" the unit is often the verb or noun above, not "$" or a date;
- "m"/"b" suffixes keep the first digit only ("190m" is 1,000,000), "k" and "trillion" are no
  scales, a number word word2number cannot read stays a string;
- range words are substrings of the mention's words ("over" in "turnover" counts), and words
  outside the noun phrase ("fell below 8 %") are not seen; "at least" is never seen either
  (`strip_parse` turns "(JJS least)" into "S least", `trees.UPENN_TAGS`);
- the approximator test looks at the relation the wrong way round, so it never fires.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from typing import Any

from word2number import w2n

from reprobe.equate.authors.numset import Numset
from reprobe.equate.authors.trees import segment, strip_parse

Arc = dict[str, Any]
INCREASE_KEYWORDS = ("increasing", "rising", "decreasing", "falling", "rose from", "increas",
                     "fell from")
SCALES = {"million": 1000000, "m": 1000000, "mn": 1000000, "billion": 1000000000,
          "b": 1000000000, "hundred": 100, "thousand": 1000}
LESS_KEYWORDS = ("less than", "lesser than", "below", "under", "lesser", "lower than", "fewer",
                 "not as many as", "up to")
MORE_KEYWORDS = ("greater than", "more than", "exceeding", "beyond", "over", "in excess of",
                 "at least")
APPROXIMATORS = ("roughly", "approximately", "about", "nearly", "roundabout", "around", "circa",
                 "almost", "approaching", "pushing")
FREQUENCY_WORDS = ("per", "every")
CHANGE_UP = ("increasing", "rising", "rose")
CHANGE_DOWN = ("decreasing", "falling", "fell", "drop")


class NotANumber(Exception):
    """word2number could not read a word (the released code catches and prints it)."""


def word_to_number(word: Any) -> Any:
    """w2n.word_to_num(preprocess_number(word)): hyphens become spaces (utils_parser.py)."""
    try:
        return w2n.word_to_num(str(word).replace("-", " "))
    except Exception as error:  # noqa: BLE001 - word2number raises ValueError, KeyError, …
        raise NotANumber(str(word)) from error


def is_decimal(text: str) -> bool:
    """`text.replace('.', '', 1).isdigit()`."""
    return text.replace(".", "", 1).isdigit()


def number_words(mention: Sequence[str]) -> list[str]:
    """The words that follow a CD tag in a mention (the word_value loop of every extractor)."""
    return [word for i, word in enumerate(mention) if i > 0 and mention[i - 1] == "CD"]


def _explicit_range(mention: Sequence[str], indexed: list[tuple[int, str]]) -> list[Any] | None:
    """extract_value's "to"/"between" case: both words as the range, unconverted when they
    are neither decimal nor alphabetic ("1,000" stays a string); [] when a word fails."""
    bounds: list[Any] = []
    for _, word in indexed:
        if is_decimal(word):
            bounds.append(float(word))
        elif word.isalpha():
            try:
                bounds.append(word_to_number(word))
            except NotANumber:
                return []
        else:
            bounds.append(word)
    return [indexed[0][0], bounds]


def _several_words(words: list[str], first: int) -> list[Any]:
    """extract_value on three or more number words: a scale word last, or a sum of places."""
    if words[-1] in SCALES:
        try:
            return [first, [word_to_number(" ".join(words[:-1])) * SCALES[words[-1]]]]
        except NotANumber:
            return []
    try:
        numbers = [word_to_number(word) for word in words]
    except NotANumber:
        return []
    for i, number in enumerate(numbers):
        if number < 10:
            numbers[i] = number * 10 ** (len(numbers) - i - 1)
    return [first, [sum(numbers)]]


def _two_words(words: list[str], first: int) -> list[Any] | None:
    """extract_value on two number words ("two hundred", "2.3 million", "twenty five");
    None where the released code returns [] at once (a "/" in the first word)."""
    if words[1] in SCALES:
        try:
            base = float(words[0]) if is_decimal(words[0]) else word_to_number(words[0])
            return [first, [base * SCALES[words[1]]]]
        except (NotANumber, ValueError):
            return []
    if "/" in words[0]:
        return None
    try:
        leading = float(word_to_number(words[0]))
        if leading < 10:
            return []
        second = float(words[1]) if is_decimal(words[0]) else float(word_to_number(words[1]))
        return [first, [leading + second]]
    except (NotANumber, ValueError):
        return []


def _one_word(word: str, first: int) -> list[Any]:
    """extract_value on one number word: decimal, a number word, or "m"/"b" suffixes that keep
    the first digit (an IndexError where no digit follows, as in the released code)."""
    value: Any = word
    if is_decimal(word):
        value = float(word)
    elif word.isalpha():
        if "I" not in word:
            with contextlib.suppress(NotANumber):
                value = float(word_to_number(word))
    else:
        if "m" in word:
            digits = re.findall(r"\d+", word)[0]
            value = float(digits[0]) * SCALES["m"]
        if "b" in word:
            value = float(re.findall(r"\d+", word)[0]) * SCALES["b"]
    return [first, [value]]


def extract_value(mention: Sequence[str]) -> list[Any]:
    """NumericalParser.extract_value: [index of the first number word, [value] or [low, high]],
    or [] when nothing is read."""
    indexed = [(i, word) for i, word in enumerate(mention) if i > 0 and mention[i - 1] == "CD"]
    words = [word.replace(",", "") for _, word in indexed]
    if (("to" in mention or "between" in mention) and len(indexed) == 2
            and not set(INCREASE_KEYWORDS) & set(mention)):
        return _explicit_range(mention, indexed) or []
    value: list[Any] = []
    if len(words) > 2:
        value = _several_words(words, indexed[0][0])
    elif len(words) == 2:
        two = _two_words(words, indexed[0][0])
        if two is None:
            return []
        value = two
    if len(words) == 1:
        value = _one_word(words[0], indexed[0][0])
    return bounded(value, words, strip_parse(mention))


def bounded(value: list[Any], words: list[str], text: str) -> list[Any]:
    """extract_value's range words: "less than" and the like make [-inf, v], "more than" and
    the like [v, inf] (both may apply; an unread value falls back to the raw words)."""
    for keyword in LESS_KEYWORDS:
        if keyword in text:
            if not value:
                value = list(words)
            value = [value[0], [float("-inf"), value[1][0]]]
            break
    for keyword in MORE_KEYWORDS:
        if keyword in text:
            if not value:
                value = list(words)
            value = [value[0], [value[1][0], float("inf")]]
    return value


def governors(words: Sequence[str], arcs: Sequence[Sequence[Arc]],
              relations: tuple[str, ...]) -> list[str]:
    """Governors of every arc whose dependent is one of `words`, by exact relation name."""
    return [arc["governorGloss"] for sentence in arcs for arc in sentence
            if arc["dependentGloss"] in words and arc["dep"] in relations]


def extract_units(mention: Sequence[str], arcs: Sequence[Sequence[Arc]]) -> list[str]:
    """NumericalParser.extract_units: governors of the number by nummod/nmod; "$" when none
    and the mention has "$"; a single unit with percent/dollar/USD/rupees normalised."""
    units = governors(number_words(mention), arcs, ("nummod", "nmod"))
    if not units and "$" in mention:
        units = ["$"]
    if len(units) == 1:
        if "percent" in units[0]:
            units[0] = "%"
        if "dollar" in units[0] or "USD" in units[0]:
            units[0] = "$"
        if "rupees" in units[0]:
            units[0] = "Rs."
    return units


def extract_entities(mention: Sequence[str], arcs: Sequence[Sequence[Arc]]) -> list[str]:
    """NumericalParser.extract_entities: governors by nmod of the unit candidates."""
    units = governors(number_words(mention), arcs, ("nummod", "nmod"))
    return governors(units, arcs, ("nmod",))


def extract_approx(mention: Sequence[str], arcs: Sequence[Sequence[Arc]]) -> bool:
    """NumericalParser.extract_approx: true only where the number is the advmod dependent of
    an approximator (the relation checked the wrong way round)."""
    words = number_words(mention)
    return any(arc["dependentGloss"] in words and arc["dep"] == "advmod"
               and arc["governorGloss"] in APPROXIMATORS
               for sentence in arcs for arc in sentence)


def _part(parts: Sequence[str], index: int) -> str:
    """parts[index], or "" past the end."""
    return parts[index] if index < len(parts) else ""


def extract_location(mention: Sequence[str], trees: Sequence[str]) -> str:
    """NumericalParser.extract_location: the noun of a `(PP (IN ) (NP (DT ) (NN )))` read at
    fixed token offsets after the mention in the bracketed parse."""
    location = ""
    joined = " ".join(mention)
    for tree in trees:
        text = tree.replace("\n", " ").replace("(", " ( ").replace(")", " ) ")
        text = " ".join(text.encode("ascii", "ignore").decode("ascii").split())
        if joined not in text:
            continue
        span = text.index(joined) + len(joined) + 3
        if span + 1 < len(text):
            parts = text[span:].split()
            if (_part(parts, 1) == "PP" and _part(parts, 3) == "IN" and _part(parts, 7) == "NP"
                    and _part(parts, 11) == "DT" and _part(parts, 15) == "NN"):
                location = _part(parts, 16)
    return location


def tagged(tokens: Sequence[Sequence[str]], tags: Sequence[Sequence[str]],
           prefix: str) -> list[str]:
    """The tokens whose POS tag starts with `prefix`."""
    return [tokens[i][j] for i, sentence in enumerate(tags)
            for j, tag in enumerate(sentence) if tag.startswith(prefix)]


def extract_verb(mention: Sequence[str], tokens: Sequence[Sequence[str]],
                 tags: Sequence[Sequence[str]], arcs: Sequence[Sequence[Arc]],
                 entities: list[str], units: list[str]) -> list[str]:
    """NumericalParser.extract_verb: verbs whose dobj*/nsubj* is the number, unit or entity."""
    verbs = tagged(tokens, tags, "V")
    words = number_words(mention)
    return [arc["governorGloss"] for sentence in arcs for arc in sentence
            if (arc["dependentGloss"] in entities or arc["dependentGloss"] in units
                or arc["dependentGloss"] in words) and arc["governorGloss"] in verbs
            and (arc["dep"].startswith("dobj") or arc["dep"].startswith("nsubj"))]


def extract_adj(mention: Sequence[str], tokens: Sequence[Sequence[str]],
                tags: Sequence[Sequence[str]], arcs: Sequence[Sequence[Arc]],
                entities: list[str]) -> list[str]:
    """NumericalParser.extract_adj: adjectives governing the number or entity by amod*."""
    adjectives = tagged(tokens, tags, "J")
    words = number_words(mention)
    return [arc["governorGloss"] for sentence in arcs for arc in sentence
            if (arc["dependentGloss"] in entities or arc["dependentGloss"] in words)
            and arc["governorGloss"] in adjectives and arc["dep"].startswith("amod")]


def extract_frequency(mention: Sequence[str], tokens: Sequence[Sequence[str]]) -> str:
    """NumericalParser.extract_frequency: only for an 8-token mention (which a bracketed NP
    never is), "per"/"every" two tokens after the value."""
    if len(mention) != 8:
        return ""
    words = [token.lower() for sentence in tokens for token in sentence]
    index = words.index(str(mention[2]))
    if index + 2 < len(words) and words[index + 2] in FREQUENCY_WORDS:
        return words[index + 2] + " " + words[index + 2]
    return ""


def extract_change(tokens: Sequence[Sequence[str]], tags: Sequence[Sequence[str]],
                   arcs: Sequence[Sequence[Arc]], entities: list[str],
                   units: list[str]) -> list[bool]:
    """NumericalParser.extract_change: [increase, decrease] from nmod*/conj* verbs of the unit
    or entity (a decrease is set to False, so only increases show)."""
    verbs = tagged(tokens, tags, "V")
    change = [False, False]
    for sentence in arcs:
        for arc in sentence:
            if ((arc["dependentGloss"] in units or arc["dependentGloss"] in entities)
                    and arc["governorGloss"] in verbs
                    and (arc["dep"].startswith("nmod") or arc["dep"].startswith("conj"))):
                if arc["governorGloss"] in CHANGE_UP:
                    change[0] = True
                if arc["governorGloss"] in CHANGE_DOWN:
                    change[1] = False
    return change


def position(mention: Sequence[str], text: str) -> int:
    """logic_parse's Position: where the mention's first lowercase word or number starts."""
    match = re.search("[a-z0-9]+", " ".join(mention))
    if match is not None and match.group() in text:
        return text.index(match.group())
    return -1


def logic_parse(mention: list[str], side: Side, text: str) -> Numset:
    """NumericalParser.logic_parse: every field of one mention's NUMSET."""
    units = extract_units(mention, side.arcs)
    entities = extract_entities(mention, side.arcs)
    return Numset(
        value=extract_value(mention), unit=units, entity=entities,
        approximate=extract_approx(mention, side.arcs),
        frequency=extract_frequency(mention, side.tokens),
        change=extract_change(side.tokens, side.tags, side.arcs, entities, units),
        adjective=extract_adj(mention, side.tokens, side.tags, side.arcs, entities),
        verb=extract_verb(mention, side.tokens, side.tags, side.arcs, entities, units),
        location=extract_location(mention, side.trees), mention=mention,
        position=position(mention, text))


class Side:
    """One sentence side of a released row: tokens, tags, dependency arcs, bracketed trees."""

    def __init__(self, row: dict[str, Any], key: str) -> None:
        self.tokens: list[list[str]] = row[f"{key}_tokens"]
        self.tags: list[list[str]] = row[f"{key}_pos"]
        self.arcs: list[list[Arc]] = row[f"{key}_dep_parse"]
        self.trees: list[str] = row[f"{key}_syntax_parse"]


def get_numsets(row: dict[str, Any], key: str, text: str) -> list[Numset]:
    """NumericalParser.get_numsets: a NUMSET per quantity mention of one side."""
    side = Side(row, key)
    return [logic_parse(mention, side, text) for mention in segment(side.trees)]
