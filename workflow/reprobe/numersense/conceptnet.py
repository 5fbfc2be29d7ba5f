"""Adversarial NumerSense probes from ConceptNet 5.7 adjectives (Lin et al. 2020, §2.3).

The paper made its adversarial probes by "adding adjectives before the noun involved in the
numerical reasoning in each probe", the adjectives coming from ConceptNet triples such as
<wheel, HasProperty, round>. Here:

- `read_properties` streams the assertions CSV (`conceptnet-assertions-5.7.0.csv[.gz]`: edge
  URI, relation, start node, end node, JSON info, tab-separated) and keeps English edges of the
  chosen relations with a single-word end, as noun -> adjectives by weight;
- the counted noun of a probe is the word right after its mask ("<mask> wheels");
- each core probe is followed by up to `variants` copies with one adjective before that noun,
  the label unchanged: core + adversarial is the "all" set, as the release has it.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TextIO

from tqdm import tqdm

from reprobe.errors import InputFormatError
from reprobe.io import atomic_write_text
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.probes import MASK, LabelledProbe

Properties = Mapping[str, Sequence[tuple[str, float]]]
FIELDS = 5
ANY, ADJECTIVE = "any", "adjective"
# Documented defaults, meant to come from config: the paper names HasProperty; RelatedTo with an
# adjective end (/a) adds many more candidates.
DEFAULT_RELATIONS: dict[str, str] = {"HasProperty": ANY, "RelatedTo": ADJECTIVE}
DEFAULT_MIN_WEIGHT = 1.0
COUNT_KEYS: tuple[str, ...] = (
    "core", "adversarial", "core_with_variant", "no_counted_noun", "no_property",
)
# A few irregular plurals the suffix rules cannot undo.
IRREGULAR_SINGULARS: dict[str, str] = {
    "teeth": "tooth", "feet": "foot", "mice": "mouse", "people": "person",
    "children": "child", "geese": "goose",
}
_ENGLISH = "/c/en/"
_NOUN_AFTER_MASK = re.compile(rf"{re.escape(MASK)}\s+([^\W\d_]+)(?![\w-])")


def _open_text(path: Path) -> TextIO:
    """The file as UTF-8 text, gunzipped on the fly when its name ends in .gz."""
    if Path(path).name.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", newline="")
    return Path(path).open(encoding="utf-8", newline="")


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
    with _open_text(path) as handle:
        # The real file has ~34 million lines: a rate in the rule's log every half minute.
        lines = tqdm(handle, desc=f"{Path(path).name}", unit=" lines", unit_scale=True,
                     mininterval=30)
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            fields = line.rstrip("\r\n").split("\t")
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


def adversarial_variants(
    probe: LabelledProbe, properties: Properties, *, variants: int
) -> list[LabelledProbe]:
    """Up to `variants` copies of the probe with one adjective before its counted noun."""
    found = counted_noun(probe.probe)
    if found is None or variants <= 0:
        return []
    offset, noun = found
    usable = [a for a in _adjectives(noun, properties) if _usable(a, noun, probe.probe)]
    text = probe.probe
    return [LabelledProbe(f"{text[:offset]}{adjective} {text[offset:]}", probe.label)
            for adjective in usable[:variants]]


def build_all_set(
    core: Sequence[LabelledProbe], properties: Properties, *, variants: int
) -> tuple[list[LabelledProbe], dict[str, int]]:
    """The "all" set, each core probe followed by its variants, with the counts of the card."""
    counts = dict.fromkeys(COUNT_KEYS, 0)
    probes: list[LabelledProbe] = []
    for probe in core:
        made = adversarial_variants(probe, properties, variants=variants)
        probes += [probe, *made]
        counts["core"] += 1
        counts["adversarial"] += len(made)
        if made:
            counts["core_with_variant"] += 1
        elif counted_noun(probe.probe) is None:
            counts["no_counted_noun"] += 1
        else:
            # A counted noun but no usable adjective (none known, or each one skipped).
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
