"""NumerSense probes rebuilt from the OMCS free sentences (Lin et al. 2020, §2.2–2.3).

The paper kept OMCS sentences with one of the 12 number words, then vetted them by hand. Here
named automatic filters stand in for that vetting, each counting what it drops, in this order:

- `no_number_word`: none of the 12 words as a whole word;
- `non_numeric_use`: a fixed phrase where the word is not a count ("no one", "one of", ...);
  before the next rule, since "no one" itself holds two number words;
- `several_number_words`: more than one occurrence of them (one mask per probe);
- `too_short` / `too_long`: whitespace tokens outside [min_tokens, max_tokens];
- `duplicate`: the same normalised sentence already kept.

A survivor becomes a probe with its number word replaced by `<mask>`, labelled with that word,
and gets the first category of a keyword lexicon that matches it (else "misc"), standing in
for the paper's hand-annotated Table 1 categories.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reprobe.errors import InputFormatError
from reprobe.io import atomic_write_text
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.probes import MASK, LabelledProbe, whole_words

OMCS_COLUMNS: tuple[str, ...] = (
    "id", "text", "creator_id", "created_on", "language_id", "activity_id", "score",
)
RULES: tuple[str, ...] = (
    "no_number_word", "non_numeric_use", "several_number_words", "too_short", "too_long",
    "duplicate",
)
MISC = "misc"

# Phrases where a number word names no count; a documented default, meant to come from config.
NON_NUMERIC_PHRASES: tuple[str, ...] = (
    "no one", "one of", "no longer", "one another", "no matter", "one day", "no doubt",
    "any one", "no way", "one's", "the one", "this one", "that one", "no more", "no less",
)

# STAND-IN for the config lexicon: a few keywords for each of Table 1's categories ("misc" is
# the fallback). Order matters: a probe gets the first category with a matching keyword, so
# "a table has four legs" is an object before "legs" could make it biology.
DEFAULT_LEXICON: dict[str, tuple[str, ...]] = {
    "objects": ("car", "bicycle", "tricycle", "wheel", "table", "chair", "guitar", "string",
                "stool", "box"),
    "biology": ("leg", "ant", "spider", "insect", "eye", "arm", "heart", "dog", "cat", "bird",
                "human", "animal", "finger", "tooth", "teeth"),
    "geometry": ("triangle", "square", "cube", "side", "face", "corner", "angle", "pentagon",
                 "hexagon", "octagon"),
    "unit": ("week", "day", "hour", "minute", "month", "year", "dozen", "century", "inch",
             "feet", "foot"),
    "math": ("number", "plus", "minus", "times", "sum", "equal", "odd", "prime"),
    "physics": ("water", "freeze", "boil", "degree", "temperature", "electron", "proton",
                "gravity"),
    "geography": ("world", "continent", "ocean", "country", "countries", "state", "planet",
                  "earth"),
}


@dataclass(frozen=True)
class BuildResult:
    """Probes built from one OMCS file, with the counts the card and filter table report."""

    probes: list[LabelledProbe]
    filter_counts: dict[str, int]
    categories: list[str]
    category_counts: dict[str, int]
    rows_read: int
    english_rows: int
    input_path: str
    input_sha256: str
    parameters: dict[str, object] = field(default_factory=dict)


def read_omcs(path: Path) -> Iterator[tuple[int, str, str]]:
    """(line number, text, language_id) of each data row; a malformed row names its line."""
    with Path(path).open(encoding="utf-8", newline="") as handle:
        for number, line in enumerate(handle, start=1):
            fields = line.rstrip("\r\n").split("\t")
            if number == 1:
                if tuple(f.strip() for f in fields) != OMCS_COLUMNS:
                    raise InputFormatError(path, "line 1",
                                           f"expected the header {'<TAB>'.join(OMCS_COLUMNS)}")
                continue
            if not line.strip():
                continue
            if len(fields) != len(OMCS_COLUMNS):
                raise InputFormatError(path, f"line {number}",
                                       f"expected {len(OMCS_COLUMNS)} tab-separated fields, "
                                       f"found {len(fields)}")
            yield number, fields[1], fields[4].strip()


def normalise(text: str) -> str:
    """Lowercased, whitespace collapsed, stripped; punctuation kept where it stands."""
    # The released probes are lowercase with the source's punctuation left as written.
    return " ".join(text.lower().split())


def _phrase_pattern(phrases: Sequence[str]) -> re.Pattern[str] | None:
    """A pattern for any of `phrases` as whole words; None when there are none."""
    if not phrases:
        return None
    return whole_words([normalise(p) for p in phrases])


def _keyword_pattern(keywords: Sequence[str]) -> re.Pattern[str]:
    """A pattern for any keyword as a whole word, also with a plural -s or -es."""
    alternatives = "|".join(re.escape(k.lower()) for k in keywords)
    return re.compile(rf"\b(?:{alternatives})(?:s|es)?\b")


def categorise(probe: str, patterns: Mapping[str, re.Pattern[str]]) -> str:
    """The first category whose keywords match the probe, else "misc"."""
    for category, pattern in patterns.items():
        if pattern.search(probe):
            return category
    return MISC


def sha256_file(path: Path) -> str:
    """The hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def build_probes(
    omcs_tsv: Path,
    *,
    words: Sequence[str] = CANDIDATES,
    non_numeric_phrases: Sequence[str] = NON_NUMERIC_PHRASES,
    min_tokens: int = 4,
    max_tokens: int = 25,
    lexicon: Mapping[str, Sequence[str]] | None = None,
) -> BuildResult:
    """Filter, mask and categorise the English OMCS sentences of one file."""
    lexicon = DEFAULT_LEXICON if lexicon is None else lexicon
    number_words = whole_words(words)
    phrases = _phrase_pattern(non_numeric_phrases)
    keyword_patterns = {c: _keyword_pattern(k) for c, k in lexicon.items() if k}
    counts = dict.fromkeys(RULES, 0)
    seen: set[str] = set()
    probes: list[LabelledProbe] = []
    rows = english = 0
    for _number, text, language in read_omcs(omcs_tsv):
        rows += 1
        if language != "en":
            continue
        english += 1
        sentence = normalise(text)
        matches = list(number_words.finditer(sentence))
        rule = _dropping_rule(sentence, len(matches), phrases, seen, min_tokens, max_tokens)
        if rule is not None:
            counts[rule] += 1
            continue
        seen.add(sentence)
        found = matches[0]
        masked = f"{sentence[:found.start()]}{MASK}{sentence[found.end():]}"
        probes.append(LabelledProbe(masked, found.group()))
    categories = [categorise(p.probe, keyword_patterns) for p in probes]
    category_counts = {c: categories.count(c) for c in [*lexicon, MISC]}
    parameters: dict[str, object] = {
        "words": list(words), "non_numeric_phrases": list(non_numeric_phrases),
        "min_tokens": min_tokens, "max_tokens": max_tokens,
        "lexicon": {c: list(k) for c, k in lexicon.items()},
    }
    return BuildResult(probes, counts, categories, category_counts, rows, english,
                       str(omcs_tsv), sha256_file(omcs_tsv), parameters)


def _dropping_rule(
    sentence: str, occurrences: int, phrases: re.Pattern[str] | None, seen: set[str],
    min_tokens: int, max_tokens: int,
) -> str | None:
    """The first rule (in RULES order) that drops the sentence, or None to keep it."""
    if occurrences == 0:
        return "no_number_word"
    if phrases is not None and phrases.search(sentence):
        return "non_numeric_use"
    if occurrences > 1:
        return "several_number_words"
    tokens = len(sentence.split())
    if tokens < min_tokens:
        return "too_short"
    if tokens > max_tokens:
        return "too_long"
    if sentence in seen:
        return "duplicate"
    return None


def filter_table(result: BuildResult) -> list[tuple[str, int, int]]:
    """(rule, dropped, kept after) for each rule in order, starting from the English rows."""
    kept = result.english_rows
    table = []
    for rule, dropped in result.filter_counts.items():
        kept -= dropped
        table.append((rule, dropped, kept))
    return table


def card(result: BuildResult) -> dict[str, object]:
    """The JSON card: input and its hash, row and filter counts, categories, parameters."""
    return {
        "input": result.input_path,
        "input_sha256": result.input_sha256,
        "rows": {"read": result.rows_read, "english": result.english_rows,
                 "non_english": result.rows_read - result.english_rows},
        "filters": dict(result.filter_counts),
        "probes": len(result.probes),
        "categories": dict(result.category_counts),
        "parameters": result.parameters,
    }


def write_outputs(
    result: BuildResult, masked_txt: Path, masked_tsv: Path, card_json: Path, filters_csv: Path,
) -> None:
    """Write the probes in the released layouts, the card and the filter table, atomically."""
    atomic_write_text(masked_txt, "".join(f"{p.probe}\n" for p in result.probes))
    atomic_write_text(masked_tsv, "".join(f"{p.probe}\t{p.label}\n" for p in result.probes))
    atomic_write_text(card_json, json.dumps(card(result), indent=2) + "\n")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("rule", "dropped", "kept_after"))
    writer.writerows(filter_table(result))
    atomic_write_text(filters_csv, buffer.getvalue())
