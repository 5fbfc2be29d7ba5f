"""EQUATE's released jsonl layout: write built pairs in it (with a dataset card), read it back.

The released files are MultiNLI-style: one JSON object per line with `sentence1`, `sentence2`,
`gold_label`, `annotator_labels`, `genre`, `sentence{1,2}_tokens` (lowercased tokens, one list
per sentence), `sentence{1,2}_binary_parse` (in the release this is the space-joined token text,
not a bracketed parse), and Stanford `sentence{1,2}_pos`, `_dep_parse` and `_syntax_parse`.
The writer fills every field it can compute without a tagging or parsing model and omits the
three parse/tag fields per sentence; the reader accepts rows with or without them.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reprobe.equate.labels import LABELS
from reprobe.errors import InputFormatError
from reprobe.io import atomic_path, atomic_write_text, iter_json_objects
from reprobe.sources.checksum import sha256_file
from reprobe.text import open_text

# MultiNLI's label of a pair whose annotators reached no consensus (its dev sets hold some).
NO_CONSENSUS = "-"
# Candidate pairs (NewsNLI, RedditNLI) await human labels: their gold_label is empty.
UNLABELLED = ""
OMITTED_FIELDS = tuple(
    f"sentence{i}_{kind}" for i in (1, 2) for kind in ("pos", "dep_parse", "syntax_parse"))

# Penn-Treebank-like: clitics split off ("Sara 's"), numbers keep their commas and decimals.
_TOKEN = re.compile(r"n't|'(?:s|re|ve|ll|d|m)\b|\d+(?:[.,]\d+)*|\w+(?:-\w+)*|[^\w\s]",
                    re.IGNORECASE)
# A sentence ends at . ! ? followed by space; a decimal point is never followed by a space.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Pair:
    """One premise-hypothesis pair with its label."""

    sentence1: str
    sentence2: str
    gold_label: str


def tokenize(text: str) -> list[list[str]]:
    """Split text into sentences of tokens (original case)."""
    sentences = [s for s in _SENTENCE_END.split(text.strip()) if s]
    return [_TOKEN.findall(s) for s in sentences] or [[]]


def to_row(pair: Pair, genre: str) -> dict[str, Any]:
    """The released-layout row for a pair (parse and tag fields omitted)."""
    row: dict[str, Any] = {
        "annotator_labels": [pair.gold_label],  # labelled by construction: one automatic label
        "genre": genre,
        "gold_label": pair.gold_label,
    }
    for key, text in (("sentence1", pair.sentence1), ("sentence2", pair.sentence2)):
        sentences = tokenize(text)
        row[key] = text
        row[f"{key}_binary_parse"] = " ".join(t for s in sentences for t in s)
        row[f"{key}_tokens"] = [[t.lower() for t in s] for s in sentences]
    return row


def write_pairs(
    pairs: Iterable[Pair],
    out_jsonl: Path,
    *,
    genre: str,
    sources: Mapping[str, Path],
    parameters: Mapping[str, Any],
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Write pairs atomically in the released layout, then the card beside it; return the card."""
    out_jsonl = Path(out_jsonl)
    labels: Counter[str] = Counter()
    rows = 0
    with atomic_path(out_jsonl) as tmp, tmp.open("w", encoding="utf-8") as handle:
        for pair in pairs:
            if pair.gold_label not in (*LABELS, UNLABELLED):
                raise ValueError(f"unknown label {pair.gold_label!r}")
            row = to_row(pair, genre)
            if pair.gold_label == UNLABELLED:
                row["annotator_labels"] = []  # nobody labelled it; "" would look like a vote
            handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True))
            handle.write("\n")
            labels[pair.gold_label] += 1
            rows += 1
    card = {
        "dataset": out_jsonl.name,
        "format": "EQUATE jsonl (MultiNLI layout)",
        "omitted_fields": list(OMITTED_FIELDS),
        "rows": rows,
        "labels": {label: labels[label] for label in LABELS if labels[label]},
        "sha256": sha256_file(out_jsonl),
        "sources": {name: {"path": Path(p).name, "sha256": source_sha256(Path(p))}
                    for name, p in sources.items()},
        "parameters": dict(parameters),
        **(dict(extra) if extra else {}),
    }
    atomic_write_text(card_path(out_jsonl), json.dumps(card, indent=2, sort_keys=True) + "\n")
    return card


def source_sha256(path: Path) -> str:
    """sha256 of a file, or of a folder as the sorted (relative name, file sha256) listing."""
    path = Path(path)
    if path.is_file():
        return sha256_file(path)
    digest = hashlib.sha256()
    for child in sorted(p for p in path.rglob("*") if p.is_file()):
        digest.update(f"{child.relative_to(path).as_posix()}\t{sha256_file(child)}\n".encode())
    return digest.hexdigest()


def card_path(out_jsonl: Path) -> Path:
    """Where the card of a jsonl dataset lives: `<name>.card.json` beside it."""
    return Path(out_jsonl).with_name(Path(out_jsonl).name + ".card.json")


def _check_tokens(value: object) -> bool:
    """True when value is a list of lists of strings."""
    return isinstance(value, list) and all(
        isinstance(s, list) and all(isinstance(t, str) for t in s) for s in value)


def _problem(row: object, labelled: bool = True) -> str | None:
    """What is wrong with a decoded row, or None (`labelled=False` also accepts no label)."""
    if not isinstance(row, dict):
        return "expected a JSON object"
    for key in ("sentence1", "sentence2"):
        if not isinstance(row.get(key), str) or not row[key].strip():
            return f"expected a non-empty string in {key!r}"
    allowed = LABELS if labelled else (*LABELS, UNLABELLED)
    if row.get("gold_label") not in allowed:
        return f"expected gold_label in {list(allowed)}, got {row.get('gold_label')!r}"
    for key in ("sentence1_tokens", "sentence2_tokens"):
        if key in row and not _check_tokens(row[key]):
            return f"expected {key!r} to be a list of token lists"
    labels = row.get("annotator_labels", [])
    if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
        return "expected 'annotator_labels' to be a list of strings"
    return None


def read_pairs(path: Path, *, labelled: bool = True, consensus_only: bool = False
               ) -> Iterator[dict[str, Any]]:
    """Stream validated rows from a released-layout jsonl file (built or released);
    `labelled=False` reads candidate files whose gold_label is empty too; `consensus_only`
    skips MultiNLI's pairs whose annotators reached no label ("-")."""
    with open_text(path) as handle:
        for n, row in iter_json_objects(path, handle):
            if consensus_only and isinstance(row, dict) \
                    and row.get("gold_label") == NO_CONSENSUS:
                continue
            problem = _problem(row, labelled)
            if problem:
                raise InputFormatError(path, f"line {n}", problem)
            yield row
