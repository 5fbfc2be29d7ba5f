"""How far the rebuilt NumerSense sets meet the released ones, and labels for released probes.

The released test probes carry no labels; a released probe that the rebuild also made takes the
rebuilt label. Where labels of released probes are known (validation and train carry theirs;
core and all where `numersense.gold` gives them), the table also says how often a shared probe
carries the same label in both (`label_compared`, `label_agreement`). Probes are compared
lowercased with whitespace collapsed and stripped: the released `.txt` lines end with trailing
spaces, and the rebuild lowercases as the release does.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from csv import writer as csv_writer
from pathlib import Path

from reprobe.io import atomic_write_text
from reprobe.numersense.probes import LabelledProbe

COLUMNS: tuple[str, ...] = (
    "set", "released_lines", "released_distinct", "rebuilt_distinct", "shared_distinct",
    "share_of_released", "share_of_rebuilt", "label_compared", "label_agreement",
)


def overlap_key(probe: str) -> str:
    """A probe as compared: lowercased, whitespace collapsed, stripped."""
    return " ".join(probe.lower().split())


def _share(part: int, whole: int) -> float:
    """part of whole in percent; NaN for an empty whole."""
    return 100.0 * part / whole if whole else math.nan


def label_agreement(released: Mapping[str, str], rebuilt: Sequence[LabelledProbe]
                    ) -> tuple[int, float]:
    """How many shared probes have a label on both sides, and the share labelled alike."""
    ours = _unambiguous_labels(rebuilt)
    compared = [key for key in released if key in ours]
    same = sum(released[key] == ours[key] for key in compared)
    return len(compared), _share(same, len(compared))


def overlap_rows(
    released: Mapping[str, Sequence[str]], rebuilt: Mapping[str, Sequence[LabelledProbe]],
    released_labels: Mapping[str, Mapping[str, str]] | None = None,
) -> list[dict]:
    """One row per released set that was also rebuilt: its lines, the distinct probes shared,
    and where the released labels are known, how often a shared probe is labelled alike."""
    rows = []
    for name, lines in released.items():
        if name not in rebuilt:
            continue
        theirs = {overlap_key(p) for p in lines}
        ours = {overlap_key(p.probe) for p in rebuilt[name]}
        shared = len(theirs & ours)
        known = (released_labels or {}).get(name)
        compared, agreement = label_agreement(known, rebuilt[name]) if known else (0, math.nan)
        rows.append({
            "set": name, "released_lines": len(lines), "released_distinct": len(theirs),
            "rebuilt_distinct": len(ours), "shared_distinct": shared,
            "share_of_released": _share(shared, len(theirs)),
            "share_of_rebuilt": _share(shared, len(ours)),
            "label_compared": compared, "label_agreement": agreement,
        })
    return rows


def label_map(probes: Sequence[LabelledProbe]) -> dict[str, str]:
    """Key -> label of labelled released probes (a repeated probe: its last label)."""
    return {overlap_key(p.probe): p.label for p in probes}


def _unambiguous_labels(rebuilt: Sequence[LabelledProbe]) -> dict[str, str]:
    """Key -> label of the rebuilt probes, leaving out keys given two different labels."""
    labels: dict[str, set[str]] = {}
    for probe in rebuilt:
        labels.setdefault(overlap_key(probe.probe), set()).add(probe.label)
    return {key: next(iter(found)) for key, found in labels.items() if len(found) == 1}


def recover_labels(released: Sequence[str], rebuilt: Sequence[LabelledProbe]
                   ) -> list[LabelledProbe]:
    """Each released line (duplicates kept, in order) the rebuild also made, with its label."""
    labels = _unambiguous_labels(rebuilt)
    return [LabelledProbe(line.strip(), labels[overlap_key(line)])
            for line in released if overlap_key(line) in labels]


def _cell(value: object) -> str:
    """A Markdown cell: shares with one decimal ("n/a" when undefined), counts as they are."""
    if isinstance(value, float):
        return "n/a" if math.isnan(value) else f"{value:.1f}"
    return str(value)


def _csv_cell(value: object) -> object:
    """A CSV cell: shares with two decimals (empty when undefined), counts as they are."""
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.2f}"
    return value


def write_overlap_table(rows: Sequence[Mapping[str, object]], csv: Path, md: Path) -> None:
    """Write the overlap rows as a CSV and as a small Markdown table, atomically."""
    buffer = io.StringIO()
    writer = csv_writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows([_csv_cell(row[c]) for c in COLUMNS] for row in rows)
    atomic_write_text(csv, buffer.getvalue())
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_cell(row[c]) for c in COLUMNS) + " |" for row in rows]
    atomic_write_text(md, "\n".join(lines) + "\n")
