"""NumerSense probes in the released layouts (Lin et al. 2020): masked text, and with labels.

- `*.masked.txt`: one probe a line, exactly one `<mask>` where the number word was
  (`test.core.masked.txt`, `test.all.masked.txt`; the test labels were never published).
- `*.masked.tsv`: probe, a tab, the number word (`train.masked.tsv`, `validation.masked.tsv`).
Duplicate probes are kept, in file order: the authors' evaluator counts every prediction line,
and the paper's numbers count every gold line (`reprobe.numersense.evaluate`). A labelled file
of the test sets has the `.masked.tsv` layout too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from reprobe.errors import InputFormatError
from reprobe.text import numbered_lines, require_rows

MASK = "<mask>"


def whole_words(words: Sequence[str], *, ignore_case: bool = False) -> re.Pattern[str]:
    """A pattern for any of `words` as a whole word, not inside a hyphenated compound."""
    # Hyphens count as word characters so "one-way" or "ten-year-old" is no count of things.
    alternatives = "|".join(re.escape(w) for w in words)
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])",
                      re.IGNORECASE if ignore_case else 0)


class LabelledProbe(NamedTuple):
    """A probe with the number word its mask stands for."""

    probe: str
    label: str


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text without its line end) for each non-blank line."""
    return ((number, text) for number, text in numbered_lines(path) if text.strip())


def _check_mask(path: Path, number: int, probe: str) -> str:
    """The probe, stripped; an error naming the line unless it has exactly one mask."""
    if probe.count(MASK) != 1:
        raise InputFormatError(path, f"line {number}",
                               f"a probe needs exactly one {MASK}, found {probe.count(MASK)}")
    return probe.strip()


def read_masked_txt(path: Path) -> list[str]:
    """The probes of a `.masked.txt` file, in file order."""
    probes = [_check_mask(path, number, text) for number, text in _lines(path)]
    require_rows(path, len(probes), "probes")
    return probes


def read_masked_tsv(path: Path, words: frozenset[str], *, may_be_empty: bool = False
                    ) -> list[LabelledProbe]:
    """The labelled probes of a `.masked.tsv` file; a label must be one of `words`; an empty
    file is an error unless `may_be_empty` (a gold file: its scores are NaN with n = 0)."""
    probes = []
    for number, text in _lines(path):
        fields = text.split("\t")
        if len(fields) != 2:
            raise InputFormatError(path, f"line {number}",
                                   f"expected probe<TAB>word, found {len(fields)} fields")
        label = fields[1].strip().lower()
        if label not in words:
            raise InputFormatError(path, f"line {number}",
                                   f"label {fields[1]!r} is not a number word {sorted(words)}")
        probes.append(LabelledProbe(_check_mask(path, number, fields[0]), label))
    if not may_be_empty:
        require_rows(path, len(probes), "labelled probes")
    return probes
