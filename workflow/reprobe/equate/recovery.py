"""Unlabelled candidate files, and how many released EQUATE pairs a candidate builder recovers.

NewsNLI and RedditNLI were labelled by people (§3.3, §3.4), so a rebuild can only produce the
candidate pairs that were sent for annotation. Candidates are written in the released jsonl
layout (`reprobe.equate.jsonl.to_row`) with `gold_label` "" and no annotator labels; that is
why they have their own writer and reader here: `write_pairs`/`read_pairs` accept only the
three NLI labels.

`recovery_table` compares a candidate file with a released file on normalised text (lowercase,
whitespace collapsed). Each released row falls in exactly one class, checked in this order:
exact (same sentence1 and sentence2), swapped (the candidate has them the other way round, i.e.
the premise/hypothesis flip was decided differently), premise-only (some candidate has the same
sentence1), or missed.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from reprobe.equate.jsonl import OMITTED_FIELDS, Pair, card_path, read_pairs, to_row
from reprobe.errors import InputFormatError
from reprobe.io import atomic_path, atomic_write_text
from reprobe.sources.checksum import sha256_file

UNLABELLED = ""
_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Lowercase and collapse whitespace: the text key pairs are matched on."""
    return _SPACE.sub(" ", text).strip().lower()


def candidate_row(pair: Pair, genre: str) -> dict[str, Any]:
    """The released-layout row of an unlabelled candidate pair."""
    row = to_row(pair, genre)
    row["gold_label"] = UNLABELLED
    row["annotator_labels"] = []  # nobody labelled it; an empty label would look like a vote
    return row


def source_sha256(path: Path) -> str:
    """sha256 of a file, or of a folder as the sorted (relative name, file sha256) listing."""
    path = Path(path)
    if path.is_file():
        return sha256_file(path)
    digest = hashlib.sha256()
    for child in sorted(p for p in path.rglob("*") if p.is_file()):
        digest.update(f"{child.relative_to(path).as_posix()}\t{sha256_file(child)}\n".encode())
    return digest.hexdigest()


def write_candidates(
    pairs: Iterable[Pair],
    out_jsonl: Path,
    *,
    genre: str,
    sources: Mapping[str, Path],
    parameters: Mapping[str, Any],
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Write unlabelled pairs atomically in the released layout, then the card; return it."""
    out_jsonl = Path(out_jsonl)
    rows = 0
    with atomic_path(out_jsonl) as tmp, tmp.open("w", encoding="utf-8") as handle:
        for pair in pairs:
            handle.write(json.dumps(candidate_row(pair, genre), ensure_ascii=False,
                                    sort_keys=True))
            handle.write("\n")
            rows += 1
    card = {
        "dataset": out_jsonl.name,
        "format": "EQUATE jsonl (MultiNLI layout), unlabelled candidates",
        "omitted_fields": list(OMITTED_FIELDS),
        "rows": rows,
        "labels": {},
        "sha256": sha256_file(out_jsonl),
        "sources": {name: {"path": Path(p).name, "sha256": source_sha256(Path(p))}
                    for name, p in sources.items()},
        "parameters": dict(parameters),
        **(dict(extra) if extra else {}),
    }
    atomic_write_text(card_path(out_jsonl), json.dumps(card, indent=2, sort_keys=True) + "\n")
    return card


def read_candidates(path: Path) -> Iterator[Pair]:
    """Stream pairs from a candidate (or released) jsonl file; labels are not checked."""
    with Path(path).open(encoding="utf-8") as handle:
        for n, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise InputFormatError(path, f"line {n}", f"not JSON ({error.msg})") from None
            if not isinstance(row, dict) or not all(
                    isinstance(row.get(k), str) for k in ("sentence1", "sentence2")):
                raise InputFormatError(path, f"line {n}",
                                       "expected an object with string sentence1 and sentence2")
            yield Pair(row["sentence1"], row["sentence2"], str(row.get("gold_label", "")))


def recovery_table(candidates_jsonl: Path, released_jsonl: Path) -> dict[str, Any]:
    """Count released pairs found among the candidates: exact, swapped, premise-only."""
    exact: set[tuple[str, str]] = set()
    premises: set[str] = set()
    candidates = 0
    for pair in read_candidates(candidates_jsonl):
        candidates += 1
        exact.add((normalise(pair.sentence1), normalise(pair.sentence2)))
        premises.add(normalise(pair.sentence1))
    counts = {"released": 0, "recovered_exact": 0, "recovered_swapped": 0,
              "recovered_premise_only": 0, "missed": 0}
    for row in read_pairs(released_jsonl):
        counts["released"] += 1
        key = (normalise(row["sentence1"]), normalise(row["sentence2"]))
        if key in exact:
            counts["recovered_exact"] += 1
        elif key[::-1] in exact:
            counts["recovered_swapped"] += 1
        elif key[0] in premises:
            counts["recovered_premise_only"] += 1
        else:
            counts["missed"] += 1
    released = counts["released"]
    return {
        **counts,
        "candidates": candidates,
        "exact_rate": counts["recovered_exact"] / released if released else 0.0,
        "any_rate": (released - counts["missed"]) / released if released else 0.0,
    }
