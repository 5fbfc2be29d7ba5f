"""NumerSense probes rebuilt from the OMCS free sentences (Lin et al. 2020, §2.1–2.2).

The paper kept OMCS sentences with "at least one of" the 12 number words, then vetted them by
hand. Here named automatic filters stand in for that vetting, each counting the sentences it
drops, in this order:

- `no_number_word`: none of the 12 words as a whole word;
- `non_numeric_use`: every occurrence sits inside a fixed phrase where the word is no count
  ("no one", "one of", ...); "no one" holds two number words, so both are inside it;
- `too_short` / `too_long`: whitespace tokens outside [min_tokens, max_tokens];
- `duplicate`: the same normalised sentence already kept.

A sentence with several number words is kept, as the paper says, and gives one probe per
counting occurrence, in sentence order, each with that occurrence replaced by `<mask>` and
labelled with it; the others stay as written. The released files show this: 268 of the 1,132
core probes hold another number word besides the mask, and their mask is the first occurrence
in 127, the last in 116 and a middle one in 25, so no single position is preferred; of the 127
core sentences with several number words, 113 (244 probes) come once for each occurrence
("<mask> plus two ..." and "two plus <mask> ..."), 13 (20 probes) only for some, 1 reads as two
sentences. Validation agrees on position (39 of 200 hold another number word: first 20, last
16, middle 3). An occurrence inside a fixed phrase is never masked, but its sentence stays for
its other counts: 12 core probes hold such a phrase beside the mask ("people have no more than
<mask> legs."); the release masks a phrase's own word rarely (3 of 200 validation labels).

Each probe gets the first category of a keyword lexicon that matches it (else "misc"), standing
in for the paper's hand-annotated Table 1 categories.
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
from reprobe.numersense.settings import BuilderSettings
from reprobe.text import open_text, require_rows

OMCS_COLUMNS: tuple[str, ...] = (
    "id", "text", "creator_id", "created_on", "language_id", "activity_id", "score",
)
RULES: tuple[str, ...] = (
    "no_number_word", "non_numeric_use", "too_short", "too_long", "duplicate",
)
MISC = "misc"

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
    rows = 0
    with open_text(path) as handle:
        for number, line in enumerate(handle, start=1):
            fields = line.rstrip("\n").split("\t")
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
            rows += 1
            yield number, fields[1], fields[4].strip()
    require_rows(path, rows, "sentences")


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
    omcs_tsv: Path, settings: BuilderSettings, *, words: Sequence[str] = CANDIDATES
) -> BuildResult:
    """Filter, mask and categorise the English OMCS sentences of one file."""
    # An empty lexicon in the config stands for the built-in one (the schema says so).
    lexicon = settings.lexicon or DEFAULT_LEXICON
    non_numeric_phrases = settings.non_numeric_phrases
    min_tokens, max_tokens = settings.min_tokens, settings.max_tokens
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
        counting = counting_occurrences(sentence, number_words, phrases)
        rule = _dropping_rule(sentence, number_words, counting, seen, min_tokens, max_tokens)
        if rule is not None:
            counts[rule] += 1
            continue
        seen.add(sentence)
        probes += mask_each(sentence, counting)
    categories = [categorise(p.probe, keyword_patterns) for p in probes]
    category_counts = {c: categories.count(c) for c in [*lexicon, MISC]}
    parameters: dict[str, object] = {
        "words": list(words), "non_numeric_phrases": list(non_numeric_phrases),
        "min_tokens": min_tokens, "max_tokens": max_tokens,
        "lexicon": {c: list(k) for c, k in lexicon.items()},
    }
    return BuildResult(probes, counts, categories, category_counts, rows, english,
                       str(omcs_tsv), sha256_file(omcs_tsv), parameters)


def counting_occurrences(
    sentence: str, number_words: re.Pattern[str], phrases: re.Pattern[str] | None
) -> list[re.Match[str]]:
    """The number words of the sentence that lie outside every fixed non-numeric phrase."""
    # Any overlap excludes: both words of "no one" lie inside it, neither is a count.
    spans = [] if phrases is None else [m.span() for m in phrases.finditer(sentence)]
    return [m for m in number_words.finditer(sentence)
            if not any(start < m.end() and m.start() < end for start, end in spans)]


def mask_each(sentence: str, occurrences: Sequence[re.Match[str]]) -> list[LabelledProbe]:
    """One probe per occurrence, in sentence order: that one masked, the others as written."""
    return [LabelledProbe(f"{sentence[:m.start()]}{MASK}{sentence[m.end():]}", m.group())
            for m in occurrences]


def _dropping_rule(
    sentence: str, number_words: re.Pattern[str], counting: Sequence[re.Match[str]],
    seen: set[str], min_tokens: int, max_tokens: int,
) -> str | None:
    """The first rule (in RULES order) that drops the sentence, or None to keep it."""
    if not counting:
        return "no_number_word" if number_words.search(sentence) is None else "non_numeric_use"
    tokens = len(sentence.split())
    if tokens < min_tokens:
        return "too_short"
    if tokens > max_tokens:
        return "too_long"
    if sentence in seen:
        return "duplicate"
    return None


def filter_table(result: BuildResult) -> list[tuple[str, int, int]]:
    """(rule, sentences dropped, sentences kept after) for each rule, from the English rows."""
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
        # A kept sentence gives one probe per counting number word, so the two counts differ.
        "sentences_kept": result.english_rows - sum(result.filter_counts.values()),
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
