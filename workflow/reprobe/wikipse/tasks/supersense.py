"""UKP's supersense-annotated Wikipedia (Flekova & Gurevych 2016) as a word/S-class dataset,
and the ambiguity probe of Table 8 (Yaghoobzadeh et al. 2019, Appendix D).

The corpus (`supertextwiki.tar.xz`) is a folder of subfolders, one file per article, gzipped
despite their names (so gzip is told by its magic bytes), UTF-8 text with tokens separated by
spaces. An annotated token is `<term>_<lexname>` (`Journalist_noun.person`); the lexname is
what follows the LAST `_`, since a term may hold one itself. Only the 26 noun supersenses
count; verb and adjective tags and untagged tokens are read past. Paper: "We consider NOUN
categories of words and build datasets […] by aggregating the supersenses a word annotated with
in the corpus. Number of supersenses is 26".

A word's key is its term as UKP's embedding trainer (gensimmodel.py) spelled it, since the
probe looks words up in those embeddings: that Python 2 script lowercased every line as a byte
string (ASCII letters only: `Émile` keeps its `É`) and deleted every `string.punctuation`
character, so `U.S.` is `us` and `coin-operated` is `coinoperated`. A term that is only
punctuation leaves an empty key and is skipped (counted in the card).

Class names carry a leading `-` (`-noun.person`), so the dataset is written and read by the
WIKI-PSE release format (`release.write_release`, `release.read_split`) unchanged.
"""

from __future__ import annotations

import logging
import os
import string
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from reprobe.errors import InputFormatError
from reprobe.scores import ScoreRow
from reprobe.text import open_text
from reprobe.wikipse.probing.probes import (
    ProbeSettings,
    accuracy,
    ambiguity_labels,
    features,
    frequency_baseline,
    frequency_features,
    predict_ambiguity,
    word_frequency,
)
from reprobe.wikipse.resource.dataset import frequent, word_classes
from reprobe.wikipse.resource.release import Split, WordClasses

log = logging.getLogger("reprobe.wikipse")

NOUN_SUPERSENSES = (
    "noun.Tops", "noun.act", "noun.animal", "noun.artifact", "noun.attribute", "noun.body",
    "noun.cognition", "noun.communication", "noun.event", "noun.feeling", "noun.food",
    "noun.group", "noun.location", "noun.motive", "noun.object", "noun.person",
    "noun.phenomenon", "noun.plant", "noun.possession", "noun.process", "noun.quantity",
    "noun.relation", "noun.shape", "noun.state", "noun.substance", "noun.time")
_NOUNS = frozenset(NOUN_SUPERSENSES)
CLASS_PREFIX = "-"  # the release format's class names start with a dash
PROGRESS_S = 30.0  # seconds between progress lines on a long corpus
PAPER, TABLE = "wikipse", "table8"
# Python 2's str.lower() on bytes and str.translate(…, string.punctuation) in one table.
_UKP_SPELLING = str.maketrans(string.ascii_uppercase, string.ascii_lowercase,
                              string.punctuation)


@dataclass
class CorpusCounts:
    """What a stretch of the corpus holds: (word, noun supersense) token counts and totals."""

    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)
    files: int = 0
    lines: int = 0
    tokens: int = 0
    noun_tokens: int = 0  # tokens with one of the 26 noun supersenses, empty keys included
    empty_words: int = 0  # noun tokens whose term is all punctuation: skipped

    def add(self, other: CorpusCounts) -> None:
        """Add another stretch's counts to these."""
        self.pairs.update(other.pairs)
        self.files += other.files
        self.lines += other.lines
        self.tokens += other.tokens
        self.noun_tokens += other.noun_tokens
        self.empty_words += other.empty_words


# --- reading the corpus -----------------------------------------------------------------------


def ukp_spelling(term: str) -> str:
    """A term as UKP's embedding vocabulary spells it: ASCII-lowercased, punctuation deleted."""
    return term.translate(_UKP_SPELLING)


def noun_annotation(token: str) -> tuple[str, str] | None:
    """(term, noun supersense) of a token annotated with one, else None."""
    term, sep, tag = token.rpartition("_")
    if not sep or not term:
        return None
    # A sentence-final token may carry its full stop or comma after the tag.
    tag = tag.rstrip(string.punctuation)
    return (term, tag) if tag in _NOUNS else None


def count_lines(lines: Iterable[str], counts: CorpusCounts) -> None:
    """Add the tokens and (word, noun supersense) pairs of text lines to counts."""
    for line in lines:
        counts.lines += 1
        for token in line.split():
            counts.tokens += 1
            found = noun_annotation(token)
            if found is None:
                continue
            counts.noun_tokens += 1
            word = ukp_spelling(found[0])
            if word:
                counts.pairs[word, found[1]] += 1
            else:
                counts.empty_words += 1


def text_lines(path: Path) -> Iterator[str]:
    """The lines of a plain or gzipped UTF-8 file; bad bytes name the line and offset."""
    with open_text(path) as lines:
        yield from lines


def article_files(root: Path) -> Iterator[Path]:
    """Every regular file under the corpus folder, in sorted order, one folder's listing held
    at a time (a sorted walk by name is the order `sorted(rglob)` gives, without the list)."""
    root = Path(root)
    if root.is_dir():
        yield from _walk(root)


def _walk(folder: Path) -> Iterator[Path]:
    """The files under one folder, by name, descending into subfolders (not linked ones)."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except PermissionError:  # as rglob: an unreadable folder holds nothing
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            yield from _walk(Path(entry.path))
        elif entry.is_file():
            yield Path(entry.path)


def corpus_files(root: Path) -> list[Path]:
    """Every regular file under the corpus folder, in sorted order; none is an error."""
    files = list(article_files(root))
    if not files:
        raise InputFormatError(root, "folder", "no article files under it")
    return files


def count_stretches(root: Path, held: int | None) -> Iterator[CorpusCounts]:
    """The corpus counted a stretch of files at a time, read one file at a time: a stretch
    ends after the file that brings its pairs to `held` (None: one stretch, the whole corpus);
    the last stretch is yielded whatever it holds."""
    # A first walk counts the files (for progress) holding none of them.
    total = sum(1 for _ in article_files(root))
    if not total:
        raise InputFormatError(root, "folder", "no article files under it")
    stretch = CorpusCounts()
    files = noun_tokens = tokens = 0
    start = last = time.monotonic()
    for path in article_files(root):
        stretch.files += 1
        count_lines(text_lines(path), stretch)
        if held is not None and len(stretch.pairs) >= held:
            files, noun_tokens = files + stretch.files, noun_tokens + stretch.noun_tokens
            tokens += stretch.tokens
            yield stretch
            stretch = CorpusCounts()
        now = time.monotonic()
        if now - last >= PROGRESS_S:
            done = files + stretch.files
            log.info("supersense corpus: %d of %d files, %.0f files/s, %d noun tokens", done,
                     total, done / (now - start), noun_tokens + stretch.noun_tokens)
            last = now
    files, noun_tokens = files + stretch.files, noun_tokens + stretch.noun_tokens
    tokens += stretch.tokens
    elapsed = max(time.monotonic() - start, 1e-9)
    log.info("supersense corpus: %d files in %.1f s (%.0f files/s), %d tokens, %d noun tokens",
             files, elapsed, files / elapsed, tokens, noun_tokens)
    yield stretch


def count_corpus(root: Path) -> CorpusCounts:
    """The counts of every file under the corpus folder, all its pairs held (a sample's; the
    dataset step spills them: supersense_spilled)."""
    total = CorpusCounts()
    for stretch in count_stretches(root, None):
        total.add(stretch)
    return total


# --- the dataset ------------------------------------------------------------------------------


def supersense_words(pairs: Mapping[tuple[str, str], int]) -> WordClasses:
    """word → {"-noun.x": tokens} from (word, noun supersense) token counts."""
    return word_classes({(word, CLASS_PREFIX + sense): n for (word, sense), n in pairs.items()})


def frequent_words(pairs: Mapping[tuple[str, str], int], min_frequency: int) -> WordClasses:
    """The words with at least min_frequency annotated noun tokens, with their supersenses."""
    words = supersense_words(pairs)
    # A word's annotated noun tokens are the sum of its supersense counts, as WIKI-PSE's are.
    return frequent(words, word_frequency(words), min_frequency)


def supersense_tokens(pairs: Mapping[tuple[str, str], int]) -> dict[str, int]:
    """Noun tokens per supersense, by name."""
    tokens: Counter[str] = Counter()
    for (_, sense), n in pairs.items():
        tokens[sense] += n
    return dict(sorted(tokens.items()))


# --- the probe (Table 8) ----------------------------------------------------------------------


def raw_rows(words: Sequence[str], vectors: KeyedVectors) -> np.ndarray:
    """The float32 vectors of words that all have one, as they are (not normalised)."""
    index = [vectors.key_to_index[w] for w in words]
    return np.asarray(vectors.vectors[index], dtype=np.float32).reshape(len(index), -1)


def with_vectors(words: Iterable[str], vectors: KeyedVectors) -> list[str]:
    """The words the embeddings have, in order."""
    return [w for w in words if w in vectors.key_to_index]


def majority_baseline(a_train: np.ndarray, n_test: int) -> np.ndarray:
    """MAJORITY: train's more frequent label for every test word (a tie: single-class)."""
    # argmax takes the first of tied counts: label 0.
    label = int(np.bincount(np.asarray(a_train, dtype=np.int64), minlength=2).argmax())
    return np.full(n_test, label, dtype=np.int8)


def probe_rows(train: Split, test: Split, vectors: KeyedVectors, kinds: Sequence[str],
               settings: ProbeSettings) -> list[ScoreRow]:
    """Table 8's rows over the words with a vector: baselines, then unit and raw vectors."""
    words_train = with_vectors(train.classes, vectors)
    words_test = with_vectors(test.classes, vectors)
    log.info("supersense probe: %d of %d train and %d of %d test words have a vector",
             len(words_train), len(train.classes), len(words_test), len(test.classes))
    n = len(words_test)
    if not words_train or not words_test:
        # Nothing to fit or score: rows without a number rather than a classifier on nothing.
        return [ScoreRow(PAPER, TABLE, model, setting, metric, float("nan"), 0)
                for model, setting, metric in [("MAJORITY", "", "LR"), ("FREQUENCY", "", "LR")]
                + [("word embedding", norm, kind) for norm in ("yes", "no") for kind in kinds]]
    # Every word of a corpus-built split lists each supersense once: both readings agree.
    a_train = ambiguity_labels(words_train, train, "paper")
    a_test = ambiguity_labels(words_test, test, "paper")
    rows = [ScoreRow(PAPER, TABLE, "MAJORITY", "", "LR",
                     round(accuracy(a_test, majority_baseline(a_train, n)), 1), n)]
    frequency = word_frequency({**train.classes, **test.classes})
    a_freq, _ = frequency_baseline(frequency_features(words_train, frequency), a_train,
                                   frequency_features(words_test, frequency), settings)
    rows.append(ScoreRow(PAPER, TABLE, "FREQUENCY", "", "LR",
                         round(accuracy(a_test, a_freq), 1), n))
    unit = (features(words_train, vectors)[0], features(words_test, vectors)[0])
    raw = (raw_rows(words_train, vectors), raw_rows(words_test, vectors))
    for norm, (x_train, x_test) in (("yes", unit), ("no", raw)):
        for kind in kinds:
            # KNN votes by cosine, which a vector's length does not change; the neighbour search
            # takes unit rows, so both settings give it the normalised ones (the paper's KNN
            # scores are the same, 65.4, with and without normalising).
            fit = unit if kind == "KNN" else (x_train, x_test)
            a_pred, _ = predict_ambiguity(fit[0], a_train, fit[1], kind, settings)
            value = round(accuracy(a_test, a_pred), 1)
            rows.append(ScoreRow(PAPER, TABLE, "word embedding", norm, kind, value, n))
            log.info("supersense probe: norm %s %s %.1f", norm, kind, value)
    return rows
