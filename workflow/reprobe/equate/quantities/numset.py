"""Quantity mentions and their NUMSETs (val, unit, ent, adj, loc, verb, freq, flux)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from reprobe.equate.quantities.lexicon import (
    APPROXIMATION,
    APPROXIMATORS,
    CURRENCY,
    DECREASE,
    FREQUENCY_MARKERS,
    INCREASE,
    INF,
    KNOWN_UNITS,
    LOCATION_PREPOSITIONS,
    LOWER,
    MONTHS,
    NOT_UNITS,
    PARTICLE_UP,
    PERCENT,
    STRICT_BOUNDS,
    TIME_NOUNS,
    UPPER,
    YEAR_CUES,
)
from reprobe.equate.quantities.tagging import (
    Parse,
    complete,
    is_noun,
    lemmatize,
    lower,
    tag,
    tokenize,
)
from reprobe.equate.quantities.units import nearest_noun
from reprobe.equate.quantities.values import continuation, match_before, number_at, ratio_at


@dataclass(frozen=True)
class NumSet:
    """A parsed quantity: §4.2.2's (val, unit, ent, adj, loc, verb, freq, flux), plus its span."""

    value: tuple[float, float]
    unit: str | None
    entity: str | None = None
    adjective: str | None = None
    location: str | None = None
    verb: str | None = None
    frequency: str | None = None
    flux: str | None = None
    span: tuple[int, int] = (0, 0)
    approximate: bool = False
    ordinal: bool = False
    # A bound read from a strict phrase ("more than 9": 9 itself excluded); the range keeps 9.
    strict_bound: bool = False
    # A four-digit number read as a calendar year ("in 2005", "fiscal 2005").
    year: bool = False


@dataclass(frozen=True)
class _Mention:
    """A segmented quantity: where its number, modifiers and unit are."""

    start: int
    number_start: int
    number_end: int  # just after the number (and any range/percent/ratio continuation)
    end: int  # just after the unit's noun phrase
    low: float
    high: float
    approximate: bool
    kind: str
    unit: str | None
    unit_index: int | None
    entity_index: int | None
    strict_bound: bool = False


def segment_quantities(tokens: Sequence[str] | Parse) -> list[tuple[int, int]]:
    """Token spans [start, end) of the quantity mentions: modifiers, number and unit phrase."""
    parse = tokens if isinstance(tokens, Parse) else tag(list(tokens))
    return [(m.start, m.end) for m in _mentions(complete(parse))]


def _mentions(parse: Parse) -> list[_Mention]:
    """Find every quantity mention, left to right, without overlaps."""
    words, pos = lower(parse.tokens), parse.pos
    found: list[_Mention] = []
    i = 0
    while i < len(words):
        mention = _mention_at(words, pos, parse.lemmas or tuple(words), i)
        if mention is None:
            i += 1
            continue
        found.append(mention)
        i = max(mention.number_end, i + 1)
    return found


def _has_flux(lemmas: Sequence[str], k: int) -> bool:
    """Whether a change verb (footnote 17's gazetteer) comes within five tokens before k."""
    return any(lemma in INCREASE | DECREASE for lemma in lemmas[max(0, k - 5):k])


def _mention_at(
    words: Sequence[str], pos: Sequence[str], lemmas: Sequence[str], i: int
) -> _Mention | None:
    """The mention whose number starts at words[i], or None when no number starts there."""
    number = number_at(words, i)
    if number is None:
        return None
    start, unit, unit_index = i, number.unit, None
    if i and words[i - 1] in CURRENCY:
        start, unit = i - 1, CURRENCY[words[i - 1]]
    before = words[start - 1] if start else ""
    # "rose from 5% to 5.25%" is two quantities in flux, "from 20 to 30 people" one range.
    flux_from = before == "from" and _has_flux(lemmas, start - 1)
    between = before == "between" or (before == "from" and not flux_from)
    number, end = continuation(words, number, between, allow_to=not flux_from)
    kind = number.kind
    ratio = ratio_at(words, number, end) if kind == "cardinal" else None
    if ratio is not None:
        number, end = ratio
        kind = "fraction"
    low, high, approximate, strict = number.low, number.high, False, False
    if between:
        start -= 1
    # Modifiers to the left: approximators widen, bounds open one side.
    if (k := match_before(words, start, APPROXIMATORS)) is not None and not (
        words[k] == "some" and (number.kind != "cardinal" or pos[k - 1:k] == ["IN"])
    ):
        start, approximate = k, True
        low, high = low - abs(low) * APPROXIMATION, high + abs(high) * APPROXIMATION
    elif (k := match_before(words, start, UPPER)) is not None and not _verb_particle(
            words, pos, k, start):
        start, low, strict = k, -INF, " ".join(words[k:start]) in STRICT_BOUNDS
    elif (k := match_before(words, start, LOWER)) is not None:
        start, high, strict = k, INF, " ".join(words[k:start]) in STRICT_BOUNDS
    number_end = end
    if any(words[j] in PERCENT for j in range(i, end)):
        unit = "percent"
    elif kind == "fraction":
        unit = "fraction"
    elif unit is None and end < len(words) and words[end] in KNOWN_UNITS:
        unit, unit_index, end = KNOWN_UNITS[words[end]], end, end + 1
    noun_start = end
    # "three-quarters of the voters", "thousands of people", "25% of the vote".
    if end < len(words) and words[end] == "of" and (
        kind in {"fraction", "plural-scale"} or unit is not None
    ):
        noun_start = end + 1
    head, phrase_end = _noun_phrase(words, pos, noun_start)
    entity_index = None
    # "a year" after a quantity is its frequency, not its unit or entity.
    if noun_start < len(words) and words[noun_start] in {"a", "an", "per", "every"}:
        head = None
    # A unit already read (%, $, km) takes an entity only through "of" ("25% of the vote"),
    # except ratios and fractions, which may modify the noun directly ("1 in 4 Londoners").
    if head is not None and (unit is None or noun_start > end or kind == "fraction"):
        if unit is None:
            unit_index = head
        else:
            entity_index = head
        end = phrase_end
    return _Mention(start, i, number_end, end, low, high, approximate, kind, unit, unit_index,
                    entity_index, strict)


def _verb_particle(words: Sequence[str], pos: Sequence[str], k: int, start: int) -> bool:
    """Whether the bound words[k:start] are "up to" after a verb ("revised up to 4.2%")."""
    return (" ".join(words[k:start]) == PARTICLE_UP and k > 0
            and pos[k - 1:k] != [] and pos[k - 1].startswith("VB"))


def _noun_phrase(words: Sequence[str], pos: Sequence[str], i: int) -> tuple[int | None, int]:
    """From words[i], skip determiners/adjectives and take a noun run: (head index, end)."""
    j = i
    while j < len(words) and (pos[j] in {"DT", "PRP$", "JJ", "JJR", "JJS", "VBN", "RBR"}
                              or words[j] in {"more", "additional", "other", "extra"}):
        # A participle only modifies when a noun follows it ("20 wounded soldiers").
        if pos[j] == "VBN" and not (j + 1 < len(words) and is_noun(pos[j + 1])):
            break
        j += 1
    head = None
    # A noun run ends before a time adverb tagged as a noun ("33 walnut trees today").
    while j < len(words) and is_noun(pos[j]) and words[j] not in NOT_UNITS and not (
        words[j] in MONTHS and head is None
    ) and number_at(words, j) is None:
        head, j = j, j + 1
    return (head, j) if head is not None else (None, i)


def _subtree_text(parse: Parse, root: int) -> str:
    """The contiguous text under a dependency node (0-based index), as the parser spans it."""
    assert parse.heads is not None
    members = {root}
    changed = True
    while changed:
        changed = False
        for k, h in enumerate(parse.heads):
            if h - 1 in members and k not in members:
                members.add(k)
                changed = True
    return " ".join(parse.tokens[min(members):max(members) + 1])


def _children(parse: Parse, index: int, labels: set[str]) -> list[int]:
    """Dependents of token `index` (0-based) whose relation is in `labels`."""
    assert parse.heads is not None and parse.deps is not None
    return [k for k, h in enumerate(parse.heads) if h - 1 == index and parse.deps[k] in labels]


def _dependency_unit(parse: Parse, mention: _Mention) -> int | None:
    """The noun the number modifies through nummod (footnote: the numerical-modifier rule)."""
    if parse.heads is None or parse.deps is None:
        return None
    for k in range(mention.number_start, mention.number_end):
        if parse.deps[k] == "nummod":
            head = parse.heads[k] - 1
            if 0 <= head < len(parse.tokens) and is_noun(parse.pos[head]):
                return head
    return None


def _adjective(parse: Parse, mention: _Mention, unit_index: int | None) -> str | None:
    """Adjectives on the unit: its amod dependents, else JJ tokens inside the mention."""
    assert parse.lemmas is not None
    if unit_index is None:
        return None
    if parse.deps is not None:
        found = _children(parse, unit_index, {"amod"})
        # The number itself may hang off the unit as amod ("the first challenge"): not an adjective.
        found = [k for k in found if parse.pos[k].startswith("JJ")
                 and not mention.number_start <= k < mention.number_end]
    else:
        found = [k for k in range(mention.number_end, unit_index) if parse.pos[k].startswith("JJ")
                 and parse.tokens[k].lower() not in {"more", "fewer", "less"}]
    return " ".join(parse.lemmas[k] for k in found) or None


def _verb(parse: Parse, mention: _Mention, unit_index: int | None) -> str | None:
    """The action verb: governor via nsubj/dobj when parsed, else the nearest content verb."""
    assert parse.lemmas is not None
    if parse.heads is not None and parse.deps is not None:
        node = unit_index if unit_index is not None else mention.number_start
        if parse.deps[node] in {"nsubj", "nsubjpass", "dobj", "obj", "iobj", "nmod"}:
            head = parse.heads[node] - 1
            if head >= 0 and parse.pos[head].startswith("VB"):
                return parse.lemmas[head]
    auxiliaries = {"be", "have", "do", "will", "would", "can", "could", "may", "might", "shall"}
    verbs = [k for k, p in enumerate(parse.pos) if p.startswith("VB")
             and parse.lemmas[k] not in auxiliaries and not mention.start <= k < mention.end]
    if not verbs:
        return None
    # An object follows its verb: prefer the closest verb to the left, else the one after.
    left = [k for k in verbs if k < mention.start]
    right = [k for k in verbs if k >= mention.end]
    if left and mention.start - left[-1] <= 4:
        return parse.lemmas[left[-1]]
    if right:
        return parse.lemmas[right[0]]
    return parse.lemmas[left[-1]] if left else None


def _location(parse: Parse, mention: _Mention, unit_index: int | None) -> str | None:
    """A locative PP attached to the quantity: nmod+case when parsed, else the next PP."""
    words = lower(parse.tokens)
    if parse.heads is not None and parse.deps is not None and unit_index is not None:
        for child in _children(parse, unit_index, {"nmod"}):
            cases = _children(parse, child, {"case"})
            if cases and words[cases[0]] in LOCATION_PREPOSITIONS and child > unit_index:
                return _subtree_text(parse, child)
    k = mention.end
    if k < len(words) and words[k] in LOCATION_PREPOSITIONS - {"from"}:
        head, end = _noun_phrase(words, parse.pos, k + 1)
        if head is not None and words[head] not in MONTHS | TIME_NOUNS:
            return " ".join(parse.tokens[k:end])
    return None


def _frequency(parse: Parse, mention: _Mention) -> str | None:
    """A recurrence after the quantity (footnote 16): "per hour", "every week", "a year"."""
    words = lower(parse.tokens)
    k = mention.end
    if k + 1 < len(words) and words[k] in FREQUENCY_MARKERS:
        lemma = lemmatize(words[k + 1], "NN")
        if words[k] in {"per", "every"} or lemma in TIME_NOUNS:
            return f"{words[k]} {lemma}"
    return None


def _flux(parse: Parse, mention: _Mention) -> str | None:
    """Increase/decrease to/from (footnote 17): a change verb before "to"/"from" + quantity."""
    assert parse.lemmas is not None
    words = lower(parse.tokens)
    k = mention.start - 1
    if k < 0 or words[k] not in {"to", "from"}:
        return None
    for j in range(k - 1, max(-1, k - 6), -1):
        lemma = parse.lemmas[j]
        if lemma in INCREASE or words[j] in {"rose", "risen"}:
            return f"increase {words[k]}"
        if lemma in DECREASE or words[j] in {"fell", "fallen"}:
            return f"decrease {words[k]}"
    return None


def _is_year(parse: Parse, mention: _Mention) -> bool:
    """A bare four-digit number from 1000 to 2100 used as a date ("in 2005", "fiscal 2005")."""
    words = lower(parse.tokens)
    k = mention.number_start
    if mention.unit is not None or mention.kind != "cardinal" or mention.number_end != k + 1:
        return False
    if not re.fullmatch(r"\d{4}", words[k]) or not 1000 <= int(words[k]) <= 2100:
        return False
    before = words[k - 1] if k else ""
    noun_after = k + 1 < len(words) and is_noun(parse.pos[k + 1])
    return before in YEAR_CUES or before in MONTHS or not noun_after


def _numset(parse: Parse, mention: _Mention) -> NumSet:
    """Fill a NumSet's fields for one mention."""
    assert parse.lemmas is not None
    unit, unit_index = mention.unit, mention.unit_index
    year = _is_year(parse, mention)
    dependency_unit = _dependency_unit(parse, mention)
    if mention.unit is None and dependency_unit is not None:
        unit_index = dependency_unit
    if unit is None and unit_index is None:
        unit_index = nearest_noun(parse, mention.number_start, mention.number_end)
    if unit is None and unit_index is not None:
        unit = parse.lemmas[unit_index]
    noun = mention.entity_index if mention.entity_index is not None else unit_index
    entity = parse.lemmas[mention.entity_index] if mention.entity_index is not None else None
    return NumSet(
        value=(mention.low, mention.high),
        unit=unit,
        entity=entity,
        adjective=_adjective(parse, mention, noun),
        location=_location(parse, mention, noun),
        verb=_verb(parse, mention, noun),
        frequency=_frequency(parse, mention),
        flux=_flux(parse, mention),
        span=(mention.start, mention.end),
        approximate=mention.approximate,
        ordinal=mention.kind == "ordinal",
        strict_bound=mention.strict_bound,
        year=year,
    )


def parse_quantities(sentence: str | list[str], parse: Parse | None = None) -> list[NumSet]:
    """Segment and parse a sentence's quantities into NUMSETs (tagging it when no parse given)."""
    if parse is None:
        tokens = tokenize(sentence) if isinstance(sentence, str) else list(sentence)
        parse = tag(tokens)
    parse = complete(parse)
    return [_numset(parse, mention) for mention in _mentions(parse)]
