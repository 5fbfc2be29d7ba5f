"""Compatible quantity pairs and the similarity class, as the released pruner and scorer decide.

Follows `numset_pruner.py` (NumsetPruner: get_numset_pairs ≈ lines 24-45, get_all_hypernyms
≈ 47-67, synonym_match, hypernym_match, job_list_check, nationality_list_check ≈ 69-116,
unit_compatibility ≈ 118-156, entity_compatibility ≈ 158-196, check_pair_compatibility
≈ 198-232, check_triple_compatibility ≈ 234-262, prune_numset_pairs ≈ 264-289) and `scorer.py`
(Scorer.get_sim_score). Kept on purpose: a quantity without a unit is compatible with every
quantity ("CHANGE THIS BACK IF ACCURACY DROPS"), WordNet is asked for the first synset of any
part of speech, and every compatible pair or triple overwrites its premise quantities' units
with the hypothesis quantity's, in order, so later checks see the overwritten units.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reprobe.equate.authors.numset import Numset
from reprobe.text import open_text

PEOPLE_WORDS = ("person", "people", "worker")
CITIZEN_WORDS = ("person", "people", "citizen")


@dataclass(frozen=True)
class Lexicon:
    """What the pruner reads besides the quantities: WordNet and the two word lists."""

    wordnet: Any  # an NLTK WordNetCorpusReader (reprobe.equate.qreas.wordnet.LocalWordNet)
    jobs: tuple[str, ...] = ()
    nationalities: tuple[str, ...] = ()

    def first_synset(self, word: str) -> Any:
        """wn.synsets(word)[0], or None (any part of speech, NLTK's order)."""
        if self.wordnet is None:
            return None
        synsets = self.wordnet.synsets(word)
        return synsets[0] if synsets else None


def read_word_list(path: Path) -> tuple[str, ...]:
    """NumsetPruner.__init__: jobs.txt or nationalities.txt, a stripped lowercased entry a line."""
    with open_text(path) as handle:
        return tuple(line.strip().lower() for line in handle)


def all_hypernyms(synset: Any) -> list[Any]:
    """NumsetPruner.get_all_hypernyms: every hypernym, breadth first (no instance ones)."""
    found: list[Any] = []
    queue = list(synset.hypernyms())
    found += queue
    while queue:
        current = queue.pop(0)
        for parent in current.hypernyms():
            found.append(parent)
            queue.append(parent)
    return found


def lemma_set(synset: Any) -> set[str]:
    """A synset's lemma names, lowercased (synonym_match)."""
    return {name.lower() for name in synset.lemma_names()}


def listed_pair(listed: Sequence[str], first: set[str], second: set[str],
                people: tuple[str, ...]) -> bool:
    """job_list_check / nationality_list_check: one side listed, the other a person word."""
    for word in listed:
        if word in first and any(p in second for p in people):
            return True
        if word in second and any(p in first for p in people):
            return True
    return False


def wordnet_compatible(first: str, second: str, lexicon: Lexicon) -> bool:
    """The WordNet half of unit_compatibility / entity_compatibility: same lemma names, one a
    hypernym of the other, or a job/nationality against a person word."""
    first_syn, second_syn = lexicon.first_synset(first), lexicon.first_synset(second)
    if first_syn is None or second_syn is None:
        return False
    first_names, second_names = lemma_set(first_syn), lemma_set(second_syn)
    if first_names == second_names:
        return True
    if first_syn in all_hypernyms(second_syn) or second_syn in all_hypernyms(first_syn):
        return True
    return (listed_pair(lexicon.jobs, first_names, second_names, PEOPLE_WORDS)
            or listed_pair(lexicon.nationalities, first_names, second_names, CITIZEN_WORDS))


def unit_compatible(first: str, second: str, lexicon: Lexicon) -> bool:
    """NumsetPruner.unit_compatibility: a shared word, else WordNet."""
    if set(first.split()) & set(second.split()):
        return True
    return wordnet_compatible(first, second, lexicon)


def entity_compatible(first: str, second: str, first_unit: str, second_unit: str,
                      lexicon: Lexicon) -> bool:
    """NumsetPruner.entity_compatibility: containment in the other's unit, equality, a shared
    word, else WordNet."""
    if first in second_unit or second in first_unit or first == second:
        return True
    if set(first.split()) & set(second.split()):
        return True
    return wordnet_compatible(first, second, lexicon)


def pair_compatible(premise: Numset, hypothesis: Numset, lexicon: Lexicon) -> bool:
    """NumsetPruner.check_pair_compatibility."""
    if not premise.unit or not hypothesis.unit:
        return True
    first, second = premise.unit[0], hypothesis.unit[0]
    if (len(premise.entity) > 1 and len(hypothesis.entity) > 1
            and entity_compatible(premise.entity[0], hypothesis.entity[0], first, second,
                                  lexicon)):
        return True
    return first == second or unit_compatible(first, second, lexicon)


def triple_compatible(first: Numset, second: Numset, hypothesis: Numset,
                      lexicon: Lexicon) -> bool:
    """NumsetPruner.check_triple_compatibility: both units match the hypothesis's (+, −), or
    one does (×, ÷)."""
    if not first.unit or not second.unit or not hypothesis.unit:
        return True
    a, b, h = first.unit[0], second.unit[0], hypothesis.unit[0]
    if a == h and b == h:
        return True
    if unit_compatible(a, h, lexicon) and unit_compatible(b, h, lexicon):
        return True
    if a == h or b == h:
        return True
    return unit_compatible(a, h, lexicon) or unit_compatible(b, h, lexicon)


def compatible_groups(premise: Sequence[Numset], hypothesis: Sequence[Numset],
                      lexicon: Lexicon) -> list[list[Numset]]:
    """get_numset_pairs then prune_numset_pairs: the compatible (p, h) pairs and (p, p, h)
    triples, each premise unit overwritten with the hypothesis's as it is found."""
    groups: list[list[Numset]] = [[p, h] for p in premise for h in hypothesis]
    groups += [[a, b, h] for a, b in itertools.permutations(premise, 2) for h in hypothesis]
    kept: list[list[Numset]] = []
    for group in groups:
        if len(group) == 2:
            ok = pair_compatible(group[0], group[1], lexicon)
        else:
            ok = triple_compatible(group[0], group[1], group[2], lexicon)
        if ok:
            for numset in group[:-1]:
                numset.unit = group[-1].unit
            kept.append(group)
    return kept


def similarity(premise: Numset, hypothesis: Numset, lexicon: Lexicon) -> list[float]:
    """Scorer.get_sim_score: [entailment, neutral, contradiction] scores from field equality,
    with the first verbs' Wu-Palmer similarity where both sides have two verbs or more."""
    score = premise.equal_count(hypothesis)
    unequal = premise.unequal_count(hypothesis)
    path = 0.0
    if len(premise.verb) > 1 and len(hypothesis.verb) > 1:
        first = lexicon.first_synset(premise.verb[0])
        second = lexicon.first_synset(hypothesis.verb[0])
        if first is not None and second is not None:
            path = first.wup_similarity(second) or 0.0
    if path:
        return [path + score, 0.0, 1 - path + unequal]
    return [float(score), 0.0, float(1 - score)]


def similarity_class(scores: list[float]) -> int:
    """`scores.index(max(scores))`: 0 entailment, 2 contradiction."""
    return scores.index(max(scores))
