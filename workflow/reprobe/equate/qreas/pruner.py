"""Q-REAS quantity pruner (EQUATE §4.2.3): which premise/hypothesis quantities may be compared.

Two quantities are unit-compatible when
1. their units match as strings (lemmatised, case-insensitive; two unitless quantities match),
2. the units are WordNet synonyms, or one is a WordNet hypernym of the other (nouns), or
3. one unit is a job or a nationality (lists scraped from Wikipedia in the paper) and the other is
   synonymous with "person" (Roy 2017).
Units are read from any object with a `unit` attribute (a NumSet or a compose `Quantity`).

Interpretations: "percent" and "fraction" (the parser's unit for ratios) are compatible, the
value conversion being done where quantities are compared (`reprobe.equate.qreas.pipeline`);
"synonymous with person" is `person`, `people` or a WordNet synonym of `person`; list entries are
compared lowercased, both as written and with their last word lemmatised ("Americans" also matches
"american", "Police officers" also "police officer").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from reprobe.equate.quantities import lemmatize
from reprobe.text import read_text

PERSON = "person"
PERSON_WORDS = frozenset({"person", "people"})
# The parser writes ratios as unit "fraction" and percentages as "percent"; they measure the same.
PROPORTIONS = frozenset({"percent", "fraction"})


class WordNetLike(Protocol):
    """The two WordNet relations the pruner uses (see `reprobe.equate.qreas.wordnet`)."""

    def are_synonyms(self, a: str, b: str) -> bool: ...

    def is_hypernym(self, general: str, specific: str) -> bool: ...


def normalise(unit: str | None) -> str:
    """A unit as compared: lowercased, whitespace-collapsed, last word lemmatised as a noun."""
    if not unit:
        return ""
    words = unit.strip().lower().replace("_", " ").split()
    if not words:
        return ""
    return " ".join([*words[:-1], lemmatize(words[-1], "NNS")])


def load_word_list(path: Path) -> frozenset[str]:
    """A job or nationality list (one entry a line), normalised, with the entries as written."""
    entries: set[str] = set()
    for line in read_text(path).splitlines():
        text = " ".join(line.strip().lower().split())
        if text and not text.startswith("#"):
            entries.update({text, normalise(text)})
    return frozenset(entries)


def is_person(unit: str, wordnet: WordNetLike | None) -> bool:
    """Whether a normalised unit is synonymous with "person"."""
    if unit in PERSON_WORDS:
        return True
    return wordnet is not None and wordnet.are_synonyms(unit, PERSON)


def _related(a: str, b: str, wordnet: WordNetLike) -> bool:
    """WordNet synonymy, or hypernymy in either direction."""
    return (wordnet.are_synonyms(a, b) or wordnet.is_hypernym(a, b)
            or wordnet.is_hypernym(b, a))


def _role_and_person(a: str, b: str, roles: frozenset[str], wordnet: WordNetLike | None) -> bool:
    """One unit is a job or nationality and the other is synonymous with person."""
    return (a in roles and is_person(b, wordnet)) or (b in roles and is_person(a, wordnet))


def compatible_units(premise_unit: str | None, hypothesis_unit: str | None, *,
                     wordnet: WordNetLike | None, jobs: frozenset[str] = frozenset(),
                     nationalities: frozenset[str] = frozenset()) -> bool:
    """The §4.2.3 heuristics on two unit strings."""
    a, b = normalise(premise_unit), normalise(hypothesis_unit)
    if a == b or {a, b} == PROPORTIONS:
        return True
    if not a or not b:
        return False
    if wordnet is not None and _related(a, b, wordnet):
        return True
    return _role_and_person(a, b, jobs | nationalities, wordnet)


def compatible(premise_q: Any, hypothesis_q: Any, *, wordnet: WordNetLike | None,
               jobs: frozenset[str] = frozenset(),
               nationalities: frozenset[str] = frozenset()) -> bool:
    """Whether a premise and a hypothesis quantity have compatible units (§4.2.3)."""
    return compatible_units(getattr(premise_q, "unit", None), getattr(hypothesis_q, "unit", None),
                            wordnet=wordnet, jobs=jobs, nationalities=nationalities)
