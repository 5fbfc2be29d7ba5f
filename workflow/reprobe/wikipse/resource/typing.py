"""Wikipedia link targets typed with S-classes, from a pluggable title -> FIGER types source.

Two sources give title -> FIGER types:

- the paper's: Freebase types of each title (the dump's types joined with its titles on the
  MID, `typing_spilled.freebase_source`) mapped through FIGER's types.map (`to_figer`);
- a small table, `title<TAB>figer_types` with comma-separated FIGER types (`read_title_table`),
  for runs without the 22 GB Freebase dump.

`type_titles` then folds the FIGER types into S-classes (`reprobe.wikipse.resource.classes`)
and counts what could not be typed: a target missing from the source is counted as
`unmapped_title`, one whose types all fold to nothing as `no_class`, never dropped without a count.

Over the whole dump (~330M links, ~15M distinct targets at paper scale) the targets are counted,
joined and sorted in a bounded memory (`typing_spilled.type_dump_targets`), which types them
with `type_titles` batch by batch.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from reprobe.errors import InputFormatError
from reprobe.io import atomic_path, atomic_write_text
from reprobe.text import open_text, require_rows
from reprobe.wikipse.resource.classes import FoldRule, sclasses_of

HEADER = ("title", "figer_types")
COUNT_KEYS = ("titles", "typed", "unmapped_title", "no_class")
TYPED_SCHEMA = pa.schema([("title", pa.string()), ("sclasses", pa.list_(pa.string()))])


def _figer_list(path: Path, number: int, field: str,
                figer_types: Collection[str] | None) -> list[str]:
    """The comma-separated FIGER types of one table row, checked when the known types are given."""
    types = [part.strip() for part in field.split(",") if part.strip()]
    if not types:
        raise InputFormatError(path, f"line {number}", "no FIGER type")
    for figer in types:
        if not figer.startswith("/"):
            raise InputFormatError(path, f"line {number}", f"{figer!r} is no FIGER path")
        if figer_types is not None and figer not in figer_types:
            raise InputFormatError(path, f"line {number}", f"{figer!r} is no FIGER type")
    return list(dict.fromkeys(types))


def read_title_table(path: Path, *, figer_types: Collection[str] | None = None
                     ) -> dict[str, list[str]]:
    """Title -> FIGER types from a `title<TAB>figer_types` TSV (header first, types
    comma-separated); with `figer_types`, a type outside them is an error naming the line."""
    table: dict[str, list[str]] = {}
    with open_text(path) as handle:
        for number, line in enumerate(handle, start=1):
            fields = line.rstrip("\r\n").split("\t")
            if number == 1:
                if tuple(fields) != HEADER:
                    raise InputFormatError(path, "line 1", "expected the header "
                                           "`title<TAB>figer_types`")
                continue
            if not line.strip():
                continue
            if len(fields) != len(HEADER) or not fields[0].strip():
                raise InputFormatError(path, f"line {number}", "expected `title<TAB>"
                                       "figer_types`, two tab-separated fields")
            title = fields[0]
            if title in table:
                raise InputFormatError(path, f"line {number}", f"title {title!r} listed twice")
            table[title] = _figer_list(path, number, fields[1], figer_types)
    require_rows(path, len(table), "titles")
    return table


def to_figer(title_freebase: Mapping[str, Sequence[str]],
             types_map: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """Title -> FIGER types, from title -> Freebase types through types.map; titles none of
    whose Freebase types is mapped are left out (they count as unmapped later)."""
    out: dict[str, list[str]] = {}
    for title, freebase in title_freebase.items():
        figer = sorted({f for kind in freebase for f in types_map.get(kind, ())})
        if figer:
            out[title] = figer
    return out


def type_titles(titles: Iterable[str], title_figer: Mapping[str, Sequence[str]],
                figer_types: Collection[str], rules: Sequence[FoldRule]
                ) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Title -> S-classes for the titles that have any, and the counts titles, typed,
    unmapped_title (not in the source) and no_class (all its types fold to nothing)."""
    counts = dict.fromkeys(COUNT_KEYS, 0)
    typed: dict[str, list[str]] = {}
    for title in dict.fromkeys(titles):
        counts["titles"] += 1
        figer = title_figer.get(title)
        if not figer:
            counts["unmapped_title"] += 1
            continue
        unknown = [f for f in figer if f not in figer_types]
        if unknown:
            # A typo in a hand-made source would otherwise invent a class of its own.
            raise ValueError(f"title {title!r}: {unknown[0]!r} is no FIGER type")
        sclasses = sclasses_of(figer, figer_types, rules)
        if sclasses:
            typed[title] = sclasses
            counts["typed"] += 1
        else:
            counts["no_class"] += 1
    return typed, counts


def write_typed_targets(typed: Mapping[str, Sequence[str]], out: Path, counts_out: Path,
                        counts: Mapping[str, int]) -> None:
    """The typed targets as Parquet (title, sclasses), sorted by title, and the counts as JSON."""
    titles = sorted(typed)
    table = pa.table({"title": titles, "sclasses": [list(typed[t]) for t in titles]},
                     schema=TYPED_SCHEMA)
    with atomic_path(out) as temporary:
        pq.write_table(table, temporary)
    atomic_write_text(counts_out, json.dumps(dict(counts), indent=2) + "\n")


def read_typed_targets(path: Path, only: pa.Array | None = None) -> dict[str, list[str]]:
    """Title -> S-classes, as `write_typed_targets` wrote them; with `only`, just those titles
    (a corpus shard's own targets: the whole table grows with the dump)."""
    keep = None if only is None else pc.field("title").isin(only)
    found = pq.read_table(path, schema=TYPED_SCHEMA, filters=keep).to_pydict()
    return dict(zip(found["title"], found["sclasses"], strict=True))
