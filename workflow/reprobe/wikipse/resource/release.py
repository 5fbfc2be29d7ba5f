"""The released WIKI-PSE dataset format: `@word@<TAB>-class=freq -class=freq …` a line.

A class name is a FIGER path with `/` → `-` (`-people-ethnicity`). The build writes classes by
descending frequency (ties by name), each once. The released files are looser, and the reader
takes them as they are: within a line tied counts are not sorted by name, the words are not
sorted, and 84 train and 93 test lines list one class twice (`@odawara@<TAB>-location=105
-event=5 -location=1`: two FIGER types folded into one S-class, counted apart). A word's
S-classes are its distinct classes with their counts summed; how many entries its line lists
is kept too, since the authors' single/multi-class split counts entries (`Split.entries`).
A malformed entry (no `=`, a count that is no number, a class outside the known list) is an
error naming the file and line.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from reprobe.errors import InputFormatError
from reprobe.io import atomic_path
from reprobe.text import numbered_lines, require_rows

WordClasses = dict[str, dict[str, int]]
# A class name: a dash, then no space and no `=` (`-people-ethnicity`, `-noun.person`).
CLASS_NAME = re.compile(r"-[^\s=]+")
# Single vs multi-class: the authors' split counts a line's entries, the paper's §3 text
# ("multiclass words (those with more than one S-class)") counts distinct S-classes.
READINGS = ("authors", "paper")


@dataclass(frozen=True)
class Split:
    """One dataset file: each word's distinct S-classes (counts summed), and how many
    `-class=freq` entries its line lists (more than its classes where a class repeats)."""

    classes: WordClasses
    entries: dict[str, int]

    def multi_class(self, word: str, reading: str) -> bool:
        """Whether a word is multi-class: more than one entry (authors) or class (paper)."""
        if reading == "authors":
            return self.entries[word] > 1
        if reading == "paper":
            return len(self.classes[word]) > 1
        raise ValueError(f"unknown ambiguity reading {reading!r}; use one of {READINGS}")


def ordered(classes: Mapping[str, int]) -> list[tuple[str, int]]:
    """A word's classes by descending frequency, ties by name."""
    return sorted(classes.items(), key=lambda item: (-item[1], item[0]))


def format_line(word: str, classes: Mapping[str, int]) -> str:
    """One line of the released format (without its newline)."""
    return word + "\t" + " ".join(f"{c}={n}" for c, n in ordered(classes))


def parse_entries(path: Path, number: int, field: str, known: Collection[str] | None = None
                  ) -> list[tuple[str, int]]:
    """The `-class=freq` entries of a line, in order; an error naming the line for a malformed
    one, or for a class outside `known` when it is given."""
    entries: list[tuple[str, int]] = []
    for item in field.split():
        name, sep, count = item.rpartition("=")
        if not sep or not CLASS_NAME.fullmatch(name) or not count.isdigit():
            raise InputFormatError(path, f"line {number}",
                                   f"expected -class=freq entries, found {item!r}")
        if known is not None and name not in known:
            raise InputFormatError(path, f"line {number}",
                                   f"unknown class {name} (known: {', '.join(sorted(known))})")
        entries.append((name, int(count)))
    if not entries:
        raise InputFormatError(path, f"line {number}", "a word without classes")
    return entries


def summed(entries: Iterable[tuple[str, int]]) -> dict[str, int]:
    """Distinct classes with their counts summed, in order of first entry."""
    classes: dict[str, int] = {}
    for name, count in entries:
        classes[name] = classes.get(name, 0) + count
    return classes


def iter_entries(path: Path, known: Collection[str] | None = None
                 ) -> Iterator[tuple[int, str, list[tuple[str, int]]]]:
    """(line number, word, its entries) of each line of a file in the released format."""
    known = None if known is None else frozenset(known)
    for number, line in numbered_lines(path):
        if not line.strip():
            continue
        word, sep, field = line.partition("\t")
        if not sep or not word.strip():
            raise InputFormatError(path, f"line {number}",
                                   "expected a word, a tab and its classes")
        yield number, word, parse_entries(path, number, field, known)


def iter_release(path: Path, known: Collection[str] | None = None
                 ) -> Iterator[tuple[str, dict[str, int]]]:
    """(word, {class: summed freq}) of each line of a file in the released format."""
    for _, word, entries in iter_entries(path, known):
        yield word, summed(entries)


def read_split(path: Path, known: Collection[str] | None = None) -> Split:
    """A released-format file: distinct classes (counts summed) and entries per word; a word
    on two lines is an error naming both."""
    classes: WordClasses = {}
    entries: dict[str, int] = {}
    first_line: dict[str, int] = {}
    for number, word, items in iter_entries(path, known):
        if word in classes:
            raise InputFormatError(path, f"line {number}",
                                   f"word {word} appears twice (first on line "
                                   f"{first_line[word]})")
        classes[word], entries[word], first_line[word] = summed(items), len(items), number
    require_rows(path, len(classes), "words")
    return Split(classes, entries)


def read_release(path: Path, known: Collection[str] | None = None) -> WordClasses:
    """A released-format file as word → {class: summed freq}; a word twice is an error."""
    return read_split(path, known).classes


def write_release(words: Iterable[tuple[str, Mapping[str, int]]], path: Path) -> None:
    """Write word → classes in the released format, atomically, in the order given."""
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8") as handle:
        for word, classes in words:
            handle.write(format_line(word, classes) + "\n")

