"""The trained baselines' shared vocabulary: the training set's words, by frequency, with
their pretrained vectors (GloVe 840B in the paper config) read in one streaming pass.

Every baseline's released code builds its dictionary from the MultiNLI training set (Williams
et al.'s `build_dictionary([training_mnli])`, Chen's `build_dictionary` over the training
files) and looks the words up in GloVe 840B 300d. The vector file (5.6 GB) is never held
whole: only the lines of wanted words are parsed, so memory grows with the vocabulary, not
with the file. GloVe 840B holds a few "words" with spaces in them ("at name@domain.com"): a
line is split from the right, its last D fields the vector. A word absent in its own case is
looked up in lower case (the default run's vectors are lowercased).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from reprobe.equate.jsonl import read_pairs
from reprobe.equate.trained.text import words
from reprobe.errors import InputFormatError
from reprobe.io import atomic_directory
from reprobe.text import require_rows

PAD, UNK = "<pad>", "<unk>"
# InferSent wraps each sentence in these (its `<s>` and `</s>`), given GloVe's own vectors
# where the file has them.
START, END = "<s>", "</s>"
SPECIAL = (PAD, UNK, START, END)


@dataclass(frozen=True)
class Vocabulary:
    """Words (ids 0-3 the special tokens, then by training frequency) and characters (0 is
    padding, 1 an unseen character, then by frequency)."""

    words: tuple[str, ...]
    chars: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_word_ids", {w: i for i, w in enumerate(self.words)})
        object.__setattr__(self, "_char_ids", {c: i for i, c in enumerate(self.chars)})

    def word_id(self, word: str, limit: int | None = None) -> int:
        """A word's id; UNK for an unseen word or one past the `limit` most frequent."""
        index = self._word_ids.get(word, 1)  # type: ignore[attr-defined]
        return 1 if limit is not None and index >= limit else index

    def char_ids(self, word: str) -> list[int]:
        """A word's character ids (1 for a character the training words never had)."""
        return [self._char_ids.get(c, 1) for c in word]  # type: ignore[attr-defined]


def training_words(train_jsonl: Path) -> Counter[str]:
    """Word counts over both sentences of every training pair."""
    counts: Counter[str] = Counter()
    n = 0
    for row in read_pairs(train_jsonl, consensus_only=True):
        counts.update(words(row["sentence1"]))
        counts.update(words(row["sentence2"]))
        n += 1
    require_rows(train_jsonl, n, "pairs")
    return counts


def build_vocabulary(counts: Counter[str]) -> Vocabulary:
    """The vocabulary of these word counts: most frequent first, ties by the word."""
    ordered = sorted((w for w in counts if w not in SPECIAL), key=lambda w: (-counts[w], w))
    chars: Counter[str] = Counter()
    for word in ordered:
        for c in word:
            chars[c] += counts[word]
    char_order = sorted(chars, key=lambda c: (-chars[c], c))
    return Vocabulary((*SPECIAL, *ordered), ("", "", *char_order))


def vector_key(word: str, found: set[str]) -> str | None:
    """The form of `word` the vector file has: itself, else its lower case, else None."""
    if word in found:
        return word
    return word.lower() if word.lower() in found else None


def _dimension(path: Path, first: bytes, header: bool) -> int:
    """D, from a word2vec "N D" header or from the first vector's fields."""
    fields = first.split()
    if header:
        return int(fields[1])
    if len(fields) < 2:
        raise InputFormatError(path, "line 1", "expected a word followed by its vector")
    return len(fields) - 1


def read_vector_subset(path: Path, wanted: Iterable[str]) -> tuple[int, dict[str, np.ndarray]]:
    """(D, word -> vector) for the wanted words (and their lower-case forms) a GloVe or
    word2vec text file holds, reading it once."""
    from gensim import utils as gensim_utils

    from reprobe.embeddings.load import TEXT_FORMATS, detect_format

    fmt = detect_format(Path(path))
    if fmt not in TEXT_FORMATS:
        raise InputFormatError(path, "file", f"read as {fmt}: the baselines read text vectors "
                               f"({', '.join(TEXT_FORMATS)})")
    header = fmt != "glove_txt"
    keys = {w.encode("utf-8") for word in wanted for w in (word, word.lower())}
    found: dict[str, np.ndarray] = {}
    with gensim_utils.open(str(path), "rb") as handle:
        first = handle.readline()
        dim = _dimension(Path(path), first, header)
        lines = handle if header else itertools.chain([first], handle)
        for number, line in enumerate(lines, start=2 if header else 1):
            word = line.split(b" ", 1)[0]
            if word not in keys:
                continue
            fields = line.rstrip(b"\r\n ").rsplit(b" ", dim)
            if len(fields) < dim + 1:
                raise InputFormatError(path, f"line {number}", f"{word[:40]!r} has "
                                       f"{len(fields) - 1} numbers, not {dim}")
            if fields[0] != word:
                continue  # a word with spaces in it, whose first part is a wanted word
            try:
                vector = np.array([float(x) for x in fields[1:]], dtype=np.float32)
            except ValueError:
                raise InputFormatError(path, f"line {number}", f"the vector of {word[:40]!r} "
                                       f"holds a field that is not a number") from None
            found.setdefault(word.decode("utf-8", "replace"), vector)
    return dim, found


def vector_matrix(vocabulary: Vocabulary, dim: int, found: dict[str, np.ndarray]
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(vectors [V, D], has_vector [V]) in vocabulary order; rows without a vector are zero."""
    matrix = np.zeros((len(vocabulary.words), dim), dtype=np.float32)
    has = np.zeros(len(vocabulary.words), dtype=bool)
    present = set(found)
    for index, word in enumerate(vocabulary.words):
        key = vector_key(word, present) if word not in (PAD, UNK) else None
        if key is not None:
            matrix[index], has[index] = found[key], True
    return matrix, has


def write_vocabulary(folder: Path, vocabulary: Vocabulary, counts: Counter[str],
                     matrix: np.ndarray, has: np.ndarray) -> None:
    """The vocabulary folder: words.tsv (word, count, has a vector), chars.txt, vectors.npy."""
    with atomic_directory(folder) as staging:
        with (staging / "words.tsv").open("w", encoding="utf-8") as handle:
            for word, vector in zip(vocabulary.words, has, strict=True):
                handle.write(f"{word}\t{counts.get(word, 0)}\t{int(vector)}\n")
        (staging / "chars.txt").write_text(
            "".join(f"{ord(c)}\n" for c in vocabulary.chars[2:]), encoding="utf-8")
        np.save(staging / "vectors.npy", matrix)


def read_words(folder: Path) -> tuple[Vocabulary, np.ndarray]:
    """(vocabulary, has_vector) from a vocabulary folder or a trained baseline's copy of it."""
    rows = [line.split("\t") for line in
            (folder / "words.tsv").read_text(encoding="utf-8").splitlines()]
    chars = tuple(chr(int(x)) for x in (folder / "chars.txt").read_text().split())
    vocabulary = Vocabulary(tuple(r[0] for r in rows), ("", "", *chars))
    return vocabulary, np.array([r[2] == "1" for r in rows], dtype=bool)


def read_vocabulary(folder: Path) -> tuple[Vocabulary, np.ndarray, np.ndarray]:
    """(vocabulary, vectors, has_vector) from a vocabulary folder."""
    vocabulary, has = read_words(folder)
    return vocabulary, np.load(folder / "vectors.npy"), has


def make_vocabulary(train_jsonl: Path, vectors: Path, output: Path) -> dict[str, int]:
    """Build the shared vocabulary folder from the training pairs and a vector file; return
    its counts (words, with a vector, dimension)."""
    counts = training_words(train_jsonl)
    vocabulary = build_vocabulary(counts)
    dim, found = read_vector_subset(vectors, vocabulary.words)
    if not found:
        raise InputFormatError(vectors, "file", "holds a vector for none of the training words")
    matrix, has = vector_matrix(vocabulary, dim, found)
    write_vocabulary(output, vocabulary, counts, matrix, has)
    return {"words": len(vocabulary.words), "with_vector": int(has.sum()), "dimension": dim}
