"""Which words follow small and large numbers: the PMI context analysis of Naik et al. (2019),
§5.1, Table 5.

The context of a number is the word right after an Arabic numeral token, in a seeded sample of
sentences that contain one (the paper: 1M sentences). For each threshold λ, two classes of
numbers are compared: "primitive" (the whole numbers 1 to 10) and "large" (values above λ);
numbers in neither class take no part in that comparison. Over the resulting 2 × V table of
(class, word) counts, with k added to every cell (add-k smoothing, k = 100 in the paper, which
pulls rare words towards PMI 0 so that the top of the ranking is frequent, discriminative words),

    PMI(word, class) = log p(word, class) / (p(word, ·) p(·, class)),

and the nouns with the highest PMI are reported per class and λ.

Nouns without a tagging model: the part-of-speech source is `lemminflect`'s lexicon (installed
from PyPI with its data inside the wheel, nothing downloaded at run time; built from the NIH
SPECIALIST lexicon). `lemminflect.getAllLemmas(word)` maps a word form to the universal tags it
can take. A word counts as a noun when:
- the lexicon allows NOUN or PROPN for it, or for its lowercased form (so "Census", "Film"), and
  it is not a closed-class word (the lexicon files pronouns and some determiners, "it", "which",
  "each", as nouns: a short list below excludes them, with the cardinal number words below a
  hundred, which are numerals; "hundred", "million", "billion" stay, as the paper's lists have);
- or it is capitalised, alphabetic, at least two letters long, and unknown to the lexicon in
  any case (proper names are mostly absent from it: "July", "Ontario", "BCE");
- or it is "%". Non-alphabetic tokens are otherwise left out, but "%" is read "percent", the
  Penn Treebank tags it as a noun (NN), and the paper's Wikipedia column lists it where the
  GigaWord column, which spells it out, lists "percent".
A lexicon says what a word can be, not what it is in a sentence: "block" and "film" are
counted as nouns in every use. Capitalised verbs the paper's tagger took for proper nouns
("Elected", "Departs") are not nouns here.
"""

from __future__ import annotations

import logging
import random
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from reprobe.io import atomic_path
from reprobe.numeracy.corpora import iter_sentences
from reprobe.numerals import (
    NUMBER_WORDS,
    arabic_value,
    has_arabic_numeral,
    is_arabic_numeral,
)

log = logging.getLogger("reprobe.numeracy")
PROGRESS_S = 30.0  # seconds between progress lines: at paper scale it reads all of Wikipedia
PRIMITIVES = range(1, 11)
SYMBOL_NOUNS = frozenset({"%"})
COLUMNS = ["lambda", "class", "rank", "word", "pmi", "count"]

# Pronouns, determiners, prepositions, conjunctions and particles (closed classes), and the
# cardinals below a hundred (numerals, not nouns): the lexicon gives some of them a NOUN tag.
_FUNCTION_WORDS = """
a about above across after against all along although am among an and another any anybody
anyone anything are around as at be because before behind below beneath beside besides between
beyond both but by can could despite did do does down during each either else every everybody
everyone everything few for from had has have he her hers herself him himself his how however
i if in inside into is it its itself least less many me mine more most much my myself near
neither no nobody none noone nor not nothing of off on once one onto or other others ought our
ours ourselves out outside over own per plus several shall she should since so some somebody
someone something such than that the their theirs them themselves then there these they this
those though through throughout thru till to toward towards under underneath unless unlike
until up upon us versus via was we were what whatever when whenever where whereas wherever
whether which whichever while who whoever whom whomever whose why will with within without
would yet you your yours yourself yourselves
"""
_CLOSED_CLASS = frozenset(_FUNCTION_WORDS.split()) | (
    NUMBER_WORDS - {"hundred", "thousand", "million", "billion", "trillion"})


@dataclass
class ContextCounts:
    """How often each word follows each number value, over some sentences."""

    pairs: Counter[tuple[str, float]] = field(default_factory=Counter)
    sentences: int = 0
    numbers: int = 0

    def frame(self) -> pd.DataFrame:
        """The counts as a table: word, value, count."""
        rows = [(word, value, n) for (word, value), n in self.pairs.items()]
        return pd.DataFrame(rows, columns=["word", "value", "count"]).astype(
            {"word": "object", "value": "float64", "count": "int64"})


def context_counts(sentences: Iterable[list[str]]) -> ContextCounts:
    """Count the word right after each Arabic numeral token, keyed by the number's value."""
    counts = ContextCounts()
    for tokens in sentences:
        counts.sentences += 1
        for position in range(len(tokens) - 1):
            token = tokens[position]
            # A numeral ends in a digit: a cheap test before the regular expression.
            if token[-1:].isdigit() and is_arabic_numeral(token):
                counts.numbers += 1
                counts.pairs[tokens[position + 1], arabic_value(token)] += 1
    return counts


@lru_cache(maxsize=1 << 18)
def is_noun(word: str) -> bool:
    """Whether a context word counts as a noun (see the module docstring)."""
    if word in SYMBOL_NOUNS:
        return True
    lowered = word.lower()
    if lowered in _CLOSED_CLASS:
        return False
    tags = _lexicon_tags(word) | _lexicon_tags(lowered)
    if tags:
        return bool(tags & {"NOUN", "PROPN"})
    return word[:1].isupper() and word.isalpha() and len(word) >= 2


def _lexicon_tags(word: str) -> set[str]:
    """The universal part-of-speech tags lemminflect's lexicon allows for a word form."""
    # Imported here: loading the lexicon takes a quarter of a second, and only nouns need it.
    import lemminflect

    return set(lemminflect.getAllLemmas(word))


def _class_counts(frame: pd.DataFrame, threshold: float) -> pd.DataFrame:
    """Per word, its count after primitives and after numbers above `threshold`."""
    value = frame["value"]
    primitive = value.between(PRIMITIVES.start, PRIMITIVES.stop - 1) & (value % 1 == 0)
    large = value > threshold
    table = pd.DataFrame({
        "word": frame["word"],
        "primitive": frame["count"].where(primitive, 0),
        "large": frame["count"].where(large, 0),
    })
    table = table[primitive | large].groupby("word", sort=True).sum()
    return table


def _pmi(table: pd.DataFrame, smoothing: float) -> pd.DataFrame:
    """Smoothed PMI(word, class) for both classes of a (word × class) count table."""
    smoothed = table.to_numpy(dtype="float64") + smoothing
    word_total = smoothed.sum(axis=1, keepdims=True)
    class_total = smoothed.sum(axis=0, keepdims=True)
    # log p(w,c) - log p(w,·) - log p(·,c), every probability over the same smoothed total.
    pmi = np.log(smoothed) + np.log(smoothed.sum()) - np.log(word_total) - np.log(class_total)
    return pd.DataFrame(pmi, index=table.index, columns=table.columns)


def top_nouns_by_pmi(
    counts: ContextCounts,
    lambdas: Sequence[float],
    smoothing: float,
    top: int,
) -> pd.DataFrame:
    """The `top` nouns by PMI for primitives and for numbers above each λ, in long form."""
    frame = counts.frame()
    rows: list[tuple] = []
    for threshold in lambdas:
        table = _class_counts(frame, threshold)
        if table.empty:
            continue
        pmi = _pmi(table, smoothing)
        nouns = [is_noun(word) for word in table.index]
        for name in ("primitive", "large"):
            ranked = pd.DataFrame({"word": table.index, "pmi": pmi[name].to_numpy(),
                                   "count": table[name].to_numpy()})[nouns]
            # Words never seen with the class cannot characterise it, whatever smoothing says.
            ranked = ranked[ranked["count"] > 0]
            ranked = ranked.sort_values(["pmi", "count", "word"], ascending=[False, False, True])
            for rank, row in enumerate(ranked.head(top).itertuples(index=False), start=1):
                rows.append((threshold, name, rank, row.word, float(row.pmi), int(row.count)))
    return pd.DataFrame(rows, columns=COLUMNS)


def sample_number_sentences(
    sources: Sequence[Path], size: int, seed: int
) -> list[list[str]]:
    """A seeded uniform sample of `size` sentences with an Arabic numeral (reservoir sampling)."""
    rng = random.Random(f"reprobe.numeracy.pmi:{seed}")
    reservoir: list[str] = []
    seen = 0
    start = last = time.monotonic()
    for line in _number_lines(sources):
        seen += 1
        if not seen % 4096 and time.monotonic() - last >= PROGRESS_S:
            last = time.monotonic()
            log.info("PMI sample: %d sentences with a number read, %.0f/s", seen,
                     seen / (last - start))
        if len(reservoir) < size:
            reservoir.append(line)
            continue
        slot = rng.randrange(seen)
        if slot < size:
            reservoir[slot] = line
    elapsed = max(time.monotonic() - start, 1e-9)
    log.info("PMI sample: %d of %d sentences with a number kept (%d files, %.1f s, %.0f/s)",
             len(reservoir), seen, len(sources), elapsed, seen / elapsed)
    # Lines, not token lists, wait in the reservoir: a string is a fraction of a list's size.
    return [line.split() for line in reservoir]


def _number_lines(sources: Sequence[Path]) -> Iterator[str]:
    """Every sentence line, across sources in order, that has an Arabic numeral token."""
    for source in sources:
        for tokens, line in iter_sentences(source):
            if has_arabic_numeral(tokens, line):
                yield line


def pmi_table(
    sources: Sequence[Path],
    out_csv: Path,
    *,
    sample_size: int,
    seed: int,
    lambdas: Sequence[float],
    smoothing: float,
    top: int,
) -> pd.DataFrame:
    """Sample sentences with numbers from the sources, rank context nouns, write a CSV."""
    sentences = sample_number_sentences(sources, sample_size, seed)
    table = top_nouns_by_pmi(context_counts(sentences), lambdas, smoothing, top)
    with atomic_path(out_csv) as tmp:
        table.to_csv(tmp, index=False)
    return table
