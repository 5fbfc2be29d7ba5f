"""The NumerSense fine-tuning set from GenericsKB-Best sentences (Lin et al. 2020, §4).

The paper fine-tunes its masked LMs on GenericsKB sentences with a number word masked, leaving
out those that are test probes. Each occurrence of one of the 12 words (whole word, any case)
makes its own row: the sentence with that occurrence replaced by `<mask>`, labelled with the
word in lowercase. The sentence keeps its case, as the released `train.masked.tsv` does; only
its whitespace is collapsed. Rows that are test probes (matched as the evaluator matches them)
and repeated rows are dropped and counted.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from reprobe.errors import InputFormatError
from reprobe.io import atomic_write_text
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.overlap import overlap_key
from reprobe.numersense.probes import MASK, LabelledProbe, whole_words
from reprobe.text import open_text

SENTENCE_COLUMN = "GENERIC SENTENCE"
COUNT_KEYS: tuple[str, ...] = (
    "sentences", "with_number_word", "rows", "excluded_test_probe", "duplicate",
)


def _sentence_index(path: Path, header: str) -> tuple[int, int]:
    """(index of the sentence column, number of columns) of the header line."""
    columns = [c.strip() for c in header.rstrip("\n").split("\t")]
    if SENTENCE_COLUMN not in columns:
        raise InputFormatError(path, "line 1", f"no {SENTENCE_COLUMN!r} column in the header "
                               f"{columns}")
    return columns.index(SENTENCE_COLUMN), len(columns)


def read_generics(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, sentence) of each data row of a GenericsKB TSV with a header."""
    with open_text(path) as handle:
        index, width = _sentence_index(path, next(handle, ""))
        for number, line in enumerate(handle, start=2):
            if not line.strip():
                continue
            fields = line.rstrip("\r\n").split("\t")
            if len(fields) < width:
                raise InputFormatError(path, f"line {number}", f"expected {width} tab-separated "
                                       f"fields as the header has, found {len(fields)}")
            yield number, fields[index]


def _occurrences(sentence: str, pattern: re.Pattern[str]) -> list[LabelledProbe]:
    """One masked copy of the sentence per occurrence of a number word."""
    return [LabelledProbe(f"{sentence[:m.start()]}{MASK}{sentence[m.end():]}", m.group().lower())
            for m in pattern.finditer(sentence)]


def finetune_rows(
    sentences: Iterable[str], *, words: Sequence[str] = CANDIDATES,
    exclude: Collection[str] = (),
) -> tuple[list[LabelledProbe], dict[str, int]]:
    """Masked rows, one per number-word occurrence, without test probes or repeats; counts."""
    # The builder's whole-word rule ("one-way" is no count), matched in any case.
    pattern = whole_words(words, ignore_case=True)
    excluded = {overlap_key(probe) for probe in exclude}
    counts = dict.fromkeys(COUNT_KEYS, 0)
    seen: set[tuple[str, str]] = set()
    rows: list[LabelledProbe] = []
    for text in sentences:
        counts["sentences"] += 1
        made = _occurrences(" ".join(text.split()), pattern)
        counts["with_number_word"] += bool(made)
        for row in made:
            key = overlap_key(row.probe)
            if key in excluded:
                counts["excluded_test_probe"] += 1
            elif (key, row.label) in seen:
                # Repeats are found as the evaluator would match them, so case alone is no news.
                counts["duplicate"] += 1
            else:
                seen.add((key, row.label))
                rows.append(row)
    counts["rows"] = len(rows)
    return rows, counts


def write_finetune_set(
    rows: Sequence[LabelledProbe], masked_tsv: Path, card_json: Path,
    counts: Mapping[str, int], parameters: Mapping[str, object],
) -> None:
    """Write the rows as probe<TAB>word (the released train layout) and a JSON card, atomically."""
    atomic_write_text(masked_tsv, "".join(f"{r.probe}\t{r.label}\n" for r in rows))
    card = {"rows": len(rows), "counts": dict(counts), "parameters": dict(parameters)}
    atomic_write_text(card_json, json.dumps(card, indent=2) + "\n")
