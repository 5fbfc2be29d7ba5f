"""Adversarial NumerSense probes from ConceptNet 5.7 adjectives (Lin et al. 2020, §2.2).

The paper made its adversarial probes by "adding adjectives before the noun involved in the
numerical reasoning in each probe", the adjectives coming from ConceptNet triples such as
<wheel, HasProperty, round>. Here:

- `read_properties` streams the assertions CSV (`conceptnet-assertions-5.7.0.csv[.gz]`: edge
  URI, relation, start node, end node, JSON info, tab-separated) and keeps English edges of the
  chosen relations with a single-word end, as noun -> adjectives by weight;
- a probe has up to two nouns involved in its numerical reasoning: the counted noun, the word
  right after its mask ("<mask> wheels"), and the subject noun, its first word after leading
  determiners, quantifiers and number words ("a car", "most spiders", "one yard"), when that
  comes before the mask and is no pronoun, preposition or conjunction;
- a noun takes part only with ConceptNet adjectives usable before it; the two nouns' lists are
  interleaved, counted noun first, and the first `variants` are inserted, one per copy, with the
  label unchanged: core + adversarial is the "all" set, as the release has it (its lines are
  shuffled; here each core probe comes first, then its copies).

Why, from the released test.core vs test.all files (each adversarial line set against the core
probe it extends by one word): of the 2,012 inserted adjectives, 2,002 are one word; 1,238
(62%) stand right after the mask, 764 (38%) before the mask, none elsewhere. Of those 764, 666
stand right before the first word after leading determiners and quantifiers, 72 one word
further (a compound's head: "bass [electric] guitars"), 26 elsewhere, so the subject noun is
that first word. Of the 705 core probes with copies (1 to 11, mostly 2 to 5), 305 have
adjectives only after the mask, 153 only at the subject and 247 at both, in no fixed order:
the counted noun comes first (62%), both nouns share the copies where both have adjectives
(247), and one noun fills them all where the other has none (305 + 153).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from tqdm import tqdm

from reprobe.errors import InputFormatError
from reprobe.io import atomic_write_text
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.probes import MASK, LabelledProbe
from reprobe.text import open_text, require_rows

Properties = Mapping[str, Sequence[tuple[str, float]]]
FIELDS = 5
ANY, ADJECTIVE = "any", "adjective"
COUNT_KEYS: tuple[str, ...] = (
    "core", "adversarial", "before_counted_noun", "before_subject_noun", "core_with_variant",
    "no_noun", "no_property",
)
COUNTED, SUBJECT = "counted", "subject"
# Words a probe may open with before its subject noun ("a car", "most spiders", "one yard").
LEADING_WORDS: frozenset[str] = frozenset({
    "a", "an", "the", "all", "most", "many", "some", "every", "each", "any", "both", "few",
    "several", "these", "those", "this", "that", "my", "your", "his", "her", "its", "our",
    "their", "almost", "usually", "typically", "normally", "generally", "often", *CANDIDATES,
})
# Closed-class openers that are no subject noun, though ConceptNet gives some of them
# properties (OMCS users wrote "you HasProperty ...").
NOT_NOUNS: frozenset[str] = frozenset({
    "i", "you", "he", "she", "it", "we", "they", "there", "here", "if", "when", "while", "in",
    "on", "at", "for", "to", "from", "with", "by", "of", "as", "how", "what", "why", "where",
    "who", "which", "because", "after", "before", "despite", "during", "and", "or", "but",
})
# A few irregular plurals the suffix rules cannot undo.
IRREGULAR_SINGULARS: dict[str, str] = {
    "teeth": "tooth", "feet": "foot", "mice": "mouse", "people": "person",
    "children": "child", "geese": "goose",
}
_ENGLISH = "/c/en/"
_NOUN_AFTER_MASK = re.compile(rf"{re.escape(MASK)}\s+([^\W\d_]+)(?![\w-])")
# A whole token that is one word, maybe with a possessive or trailing punctuation ("cars,").
_WORD_TOKEN = re.compile(r"([^\W\d_]+)(?:'s)?[,.;:!?]*")


def _node(uri: str) -> tuple[str, str]:
    """(word, part-of-speech marker or "") of an English node URI such as /c/en/round/a."""
    parts = uri[len(_ENGLISH):].split("/")
    return parts[0], parts[1] if len(parts) > 1 else ""


def _single_word(word: str) -> bool:
    """Whether a node's word is one alphabetic word (ConceptNet joins phrases with "_")."""
    return word.isalpha()


def _check_modes(relations: Mapping[str, str]) -> None:
    """An error unless each relation's mode is "any" or "adjective"."""
    for name, mode in relations.items():
        if mode not in (ANY, ADJECTIVE):
            raise ValueError(f"relation {name!r}: mode {mode!r} is not {ANY!r} or {ADJECTIVE!r}")


def _weight(path: Path, number: int, info: str) -> float:
    """The "weight" of an edge's JSON info; an error naming the line if there is none."""
    try:
        record = json.loads(info)
    except ValueError as error:
        raise InputFormatError(path, f"line {number}", f"the info column is not JSON ({error})"
                               ) from None
    if not isinstance(record, dict) or "weight" not in record:
        raise InputFormatError(path, f"line {number}", "the info column has no \"weight\"")
    try:
        return float(record["weight"])
    except (TypeError, ValueError):
        raise InputFormatError(path, f"line {number}",
                               f"the weight {record['weight']!r} is not a number") from None


def _edges(path: Path, relations: Mapping[str, str]) -> Iterator[tuple[int, str, str, str]]:
    """(line number, noun, adjective, info) of each English edge of a kept relation and form."""
    number = 0
    with open_text(path) as handle:
        # The real file has ~34 million lines: a rate in the rule's log every half minute.
        lines = tqdm(handle, desc=f"{Path(path).name}", unit=" lines", unit_scale=True,
                     mininterval=30)
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != FIELDS:
                raise InputFormatError(path, f"line {number}", f"expected {FIELDS} tab-separated "
                                       f"fields (edge, relation, start, end, info), found "
                                       f"{len(fields)}")
            _edge, relation, start, end, info = fields
            mode = relations.get(relation.removeprefix("/r/"))
            if mode is None or not (start.startswith(_ENGLISH) and end.startswith(_ENGLISH)):
                continue
            adjective, pos = _node(end)
            if not _single_word(adjective) or (mode == ADJECTIVE and pos != "a"):
                continue
            yield number, _node(start)[0].lower(), adjective.lower(), info
    require_rows(path, number, "lines")


def read_properties(
    path: Path, *, relations: Mapping[str, str], min_weight: float
) -> dict[str, list[tuple[str, float]]]:
    """Noun -> [(adjective, weight)], heaviest first, from a ConceptNet assertions CSV."""
    _check_modes(relations)
    best: dict[str, dict[str, float]] = {}
    # The JSON is parsed only for edges that pass the cheap column tests: the full file has
    # ~34 million rows, nearly all of other relations or languages.
    for number, noun, adjective, info in _edges(path, relations):
        weight = _weight(path, number, info)
        if weight < min_weight:
            continue
        adjectives = best.setdefault(noun, {})
        adjectives[adjective] = max(weight, adjectives.get(adjective, weight))
    return {noun: sorted(found.items(), key=lambda item: (-item[1], item[0]))
            for noun, found in sorted(best.items())}


def counted_noun(probe: str) -> tuple[int, str] | None:
    """(offset, word) of the word right after the mask; None if the mask is last or not
    followed by a word."""
    found = _NOUN_AFTER_MASK.search(probe)
    return None if found is None else (found.start(1), found.group(1))


def noun_keys(word: str) -> list[str]:
    """Forms to look a noun up by: the word itself, then its likely singulars."""
    word = word.lower()
    keys = [word]
    if word in IRREGULAR_SINGULARS:
        keys.append(IRREGULAR_SINGULARS[word])
    if word.endswith("ies") and len(word) > 4:
        keys.append(word[:-3] + "y")
    if word.endswith("ves") and len(word) > 4:
        keys += [word[:-3] + "f", word[:-3] + "fe"]
    # Plain "-s" before "-es": "horses" -> "horse" is likelier than "hors"; "ss" is no plural.
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        keys.append(word[:-1])
    if word.endswith("es") and len(word) > 4:
        keys.append(word[:-2])
    return list(dict.fromkeys(keys))


def _adjectives(noun: str, properties: Properties) -> list[str]:
    """The noun's adjectives over all its lookup forms, in the order `properties` lists them."""
    found = [adjective for key in noun_keys(noun) for adjective, _ in properties.get(key, ())]
    return list(dict.fromkeys(found))


def _usable(adjective: str, noun: str, probe: str) -> bool:
    """Whether an adjective can go before the noun: not the noun, nor in the probe, nor a number."""
    if adjective in noun_keys(noun) or adjective in CANDIDATES:
        return False
    return re.search(rf"(?<![\w-]){re.escape(adjective)}(?![\w-])", probe.lower()) is None


def subject_noun(probe: str) -> tuple[int, str] | None:
    """(offset, word) of the probe's first word after leading determiners, if before the mask."""
    for token in re.finditer(r"\S+", probe):
        text = token.group()
        if MASK in text:
            return None
        if text.lower().rstrip(",;:") in LEADING_WORDS:
            continue
        found = _WORD_TOKEN.fullmatch(text)
        if found is None or found.group(1).lower() in NOT_NOUNS:
            return None
        return token.start(), found.group(1)
    return None


def noun_sites(probe: str) -> list[tuple[str, int, str]]:
    """(site, offset, word) of the counted noun, then the subject noun, where the probe has them."""
    sites = [(COUNTED, counted_noun(probe)), (SUBJECT, subject_noun(probe))]
    return [(site, *found) for site, found in sites if found is not None]


def _interleave(lists: Sequence[Sequence[tuple[str, int, str]]]) -> list[tuple[str, int, str]]:
    """The lists' items taken in turn, one from each while it lasts."""
    longest = max((len(items) for items in lists), default=0)
    return [items[i] for i in range(longest) for items in lists if i < len(items)]


def placements(
    probe: str, properties: Properties, *, variants: int
) -> list[tuple[str, int, str]]:
    """(site, offset, adjective) of up to `variants` insertions, the nouns' adjectives in turn."""
    if variants <= 0:
        return []
    lists = [[(site, offset, a) for a in _adjectives(noun, properties) if _usable(a, noun, probe)]
             for site, offset, noun in noun_sites(probe)]
    return _interleave(lists)[:variants]


def _insert(probe: LabelledProbe, offset: int, adjective: str) -> LabelledProbe:
    """The probe with the adjective and a space inserted at offset, its label unchanged."""
    return LabelledProbe(f"{probe.probe[:offset]}{adjective} {probe.probe[offset:]}", probe.label)


def adversarial_variants(
    probe: LabelledProbe, properties: Properties, *, variants: int
) -> list[LabelledProbe]:
    """Up to `variants` copies of the probe, each with one adjective before one of its nouns."""
    return [_insert(probe, offset, adjective)
            for _site, offset, adjective in placements(probe.probe, properties, variants=variants)]


def build_all_set(
    core: Sequence[LabelledProbe], properties: Properties, *, variants: int
) -> tuple[list[LabelledProbe], dict[str, int]]:
    """The "all" set, each core probe followed by its variants, with the counts of the card."""
    counts = dict.fromkeys(COUNT_KEYS, 0)
    probes: list[LabelledProbe] = []
    for probe in core:
        chosen = placements(probe.probe, properties, variants=variants)
        probes += [probe, *(_insert(probe, offset, adjective) for _, offset, adjective in chosen)]
        counts["core"] += 1
        counts["adversarial"] += len(chosen)
        for site, _offset, _adjective in chosen:
            counts[f"before_{site}_noun"] += 1
        if chosen:
            counts["core_with_variant"] += 1
        elif not noun_sites(probe.probe):
            counts["no_noun"] += 1
        else:
            # A noun but no usable adjective (none known, or each one skipped), or variants 0.
            counts["no_property"] += 1
    return probes, counts


def write_all_set(
    probes: Sequence[LabelledProbe], masked_txt: Path, masked_tsv: Path, card_json: Path,
    counts: Mapping[str, int], parameters: Mapping[str, object],
) -> None:
    """Write the all set in the released layouts (.txt, .tsv) and its JSON card, atomically."""
    atomic_write_text(masked_txt, "".join(f"{p.probe}\n" for p in probes))
    atomic_write_text(masked_tsv, "".join(f"{p.probe}\t{p.label}\n" for p in probes))
    card = {"probes": len(probes), "counts": dict(counts), "parameters": dict(parameters)}
    atomic_write_text(card_json, json.dumps(card, indent=2) + "\n")
