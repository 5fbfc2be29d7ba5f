"""The released WIKI-PSE dataset format: `@word@<TAB>-class=freq -class=freq …` a line.

Classes are listed by descending frequency (ties by name); a class name is a FIGER path with
`/` → `-` (`-people-ethnicity`). The reader takes the released files and the ones the build
writes alike, and names the file and line of anything else.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from reprobe.errors import InputFormatError
from reprobe.io import atomic_path

WordClasses = dict[str, dict[str, int]]


def ordered(classes: Mapping[str, int]) -> list[tuple[str, int]]:
    """A word's classes by descending frequency, ties by name."""
    return sorted(classes.items(), key=lambda item: (-item[1], item[0]))


def format_line(word: str, classes: Mapping[str, int]) -> str:
    """One line of the released format (without its newline)."""
    return word + "\t" + " ".join(f"{c}={n}" for c, n in ordered(classes))


def _parse_classes(path: Path, number: int, field: str) -> dict[str, int]:
    """The `-class=freq` items of a line; an error naming the line for a malformed one."""
    classes: dict[str, int] = {}
    for item in field.split():
        name, sep, count = item.rpartition("=")
        if not sep or not name.startswith("-") or not count.isdigit():
            raise InputFormatError(path, f"line {number}",
                                   f"expected -class=freq items, found {item!r}")
        if name in classes:
            raise InputFormatError(path, f"line {number}", f"class {name} listed twice")
        classes[name] = int(count)
    if not classes:
        raise InputFormatError(path, f"line {number}", "a word without classes")
    return classes


def iter_release(path: Path) -> Iterator[tuple[str, dict[str, int]]]:
    """(word, {class: freq}) of each line of a file in the released format."""
    with Path(path).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            line = line.rstrip("\r\n")
            if not line.strip():
                continue
            word, sep, field = line.partition("\t")
            if not sep or not word:
                raise InputFormatError(path, f"line {number}",
                                       "expected a word, a tab and its classes")
            yield word, _parse_classes(path, number, field)


def read_release(path: Path) -> WordClasses:
    """A released-format file as word → {class: freq}; a word twice is an error."""
    words: WordClasses = {}
    for word, classes in iter_release(path):
        if word in words:
            raise InputFormatError(path, "file", f"word {word} appears twice")
        words[word] = classes
    return words


def write_release(words: Iterable[tuple[str, Mapping[str, int]]], path: Path) -> None:
    """Write word → classes in the released format, atomically, in the order given."""
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8") as handle:
        for word, classes in words:
            handle.write(format_line(word, classes) + "\n")

