"""WIKI-PSE typing of link targets: the title table, unmapped and classless counts, Parquet."""

from __future__ import annotations

import json
from collections import Counter

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import REPO
from reprobe.errors import InputFormatError
from reprobe.wikipse.resource import typing_spilled
from reprobe.wikipse.resource.classes import FoldRule, figer_types_of, read_types_map
from reprobe.wikipse.resource.typing import (
    read_title_table,
    read_typed_targets,
    to_figer,
    type_titles,
    write_typed_targets,
)
from reprobe.wikipse.resource.typing_spilled import type_dump_targets

SAMPLES = REPO / "data" / "samples" / "wikipse"
TYPES_MAP = SAMPLES / "figer_types.map"
TITLE_TABLE = SAMPLES / "title_types.tsv"
RULES = [
    FoldRule("/written_work", "art", "books are art"),
    FoldRule("/building", "location", "buildings are places"),
    FoldRule("/computer/algorithm", None, "no class"),
]


@pytest.fixture(scope="module")
def figer_types() -> list[str]:
    """The FIGER types of the sample types.map."""
    return figer_types_of(read_types_map(TYPES_MAP))


def write(tmp_path, text: str):
    """A title table with this text."""
    path = tmp_path / "titles.tsv"
    path.write_text(text, encoding="utf-8")
    return path


def test_read_title_table(tmp_path):
    path = write(tmp_path, "title\tfiger_types\nKarl Marx\t/person,/person/author\n\n"
                           "Iliad\t/written_work\nMobile, Alabama\t/location, /location/city\n")
    assert read_title_table(path) == {
        "Karl Marx": ["/person", "/person/author"],
        "Iliad": ["/written_work"],
        "Mobile, Alabama": ["/location", "/location/city"],
    }


@pytest.mark.parametrize(("text", "where"), [
    ("name\ttypes\nIliad\t/written_work\n", "line 1"),
    ("title\tfiger_types\nIliad\t/written_work\nOdyssey /written_work\n", "line 3"),
    ("title\tfiger_types\nIliad\t\n", "line 2"),
    ("title\tfiger_types\nIliad\twritten_work\n", "line 2"),
    ("title\tfiger_types\nIliad\t/written_work\nIliad\t/art\n", "line 3"),
])
def test_read_title_table_names_the_bad_line(tmp_path, text, where):
    with pytest.raises(InputFormatError, match=where):
        read_title_table(write(tmp_path, text))


def test_read_title_table_checks_figer_types_when_given(tmp_path, figer_types):
    path = write(tmp_path, "title\tfiger_types\nIliad\t/written_work\nOdyssey\t/book\n")
    with pytest.raises(InputFormatError, match="line 3.*'/book' is no FIGER type"):
        read_title_table(path, figer_types=figer_types)


def test_type_titles_counts_unmapped_and_classless(figer_types):
    table = {
        "Karl Marx": ["/person", "/person/author"],
        "Iliad": ["/written_work"],
        "White House": ["/building", "/location"],
        "Algorithm": ["/computer/algorithm"],
        "Empty": [],
    }
    titles = ["Karl Marx", "Iliad", "White House", "Algorithm", "Philosophy", "Empty",
              "Karl Marx"]
    typed, counts = type_titles(titles, table, figer_types, RULES)
    assert typed == {"Karl Marx": ["-person"], "Iliad": ["-art"],
                     "White House": ["-location"]}
    assert counts == {"titles": 6, "typed": 3, "unmapped_title": 2, "no_class": 1}


def test_type_titles_rejects_an_unknown_figer_type(figer_types):
    with pytest.raises(ValueError, match="'/book' is no FIGER type"):
        type_titles(["Iliad"], {"Iliad": ["/book"]}, figer_types, RULES)


def test_to_figer_maps_freebase_types_through_types_map():
    types_map = read_types_map(TYPES_MAP)
    found = to_figer({"Aristotle": ["/people/person", "/book/author", "/common/topic"],
                      "Psychology": ["/education/field_of_study"]}, types_map)
    assert found == {"Aristotle": ["/person", "/person/author"]}


def test_written_parquet_round_trip(tmp_path):
    typed = {"Iliad": ["-art"], "Apple": ["-food", "-organization"], "Zeus": ["-god"]}
    counts = {"titles": 5, "typed": 3, "unmapped_title": 2, "no_class": 0}
    out, counts_out = tmp_path / "typed.parquet", tmp_path / "typed.json"
    write_typed_targets(typed, out, counts_out, counts)
    table = pq.read_table(out)
    assert table.column_names == ["title", "sclasses"]
    assert table.column("title").to_pylist() == ["Apple", "Iliad", "Zeus"]
    assert read_typed_targets(out) == typed
    assert read_typed_targets(out, only=pa.array(["Zeus", "Nobody"])) == {"Zeus": ["-god"]}
    assert json.loads(counts_out.read_text(encoding="utf-8")) == counts
    assert sorted(p.name for p in tmp_path.iterdir()) == ["typed.json", "typed.parquet"]


def test_sample_title_table_uses_only_figer_types(figer_types):
    table = read_title_table(TITLE_TABLE)
    used = {figer for types in table.values() for figer in types}
    assert used <= set(figer_types), sorted(used - set(figer_types))
    assert len(table) > 2000
    assert table["Aristotle"] == ["/person", "/person/author"]


def test_sample_title_table_types_into_classes(figer_types):
    table = read_title_table(TITLE_TABLE, figer_types=figer_types)
    rules = [FoldRule("/computer/algorithm", None, "no class")]
    typed, counts = type_titles([*table, "Philosophy"], table, figer_types, rules)
    assert counts["unmapped_title"] == 1
    assert counts["no_class"] == sum(types == ["/computer/algorithm"]
                                     for types in table.values())
    assert counts["typed"] == len(typed) == len(table) - counts["no_class"]


# --- the dump's link targets, in bounded memory ----------------------------------------------

LINK_TARGETS = ["Karl Marx", "Iliad", "Zürich", "Karl Marx", "White House", "Philosophy",
                "Algorithm", "東京", "Iliad", "Karl Marx", "Zürich", "Philosophy"]
SOURCE = {"Karl Marx": ["/person", "/person/author"], "Iliad": ["/written_work"],
          "White House": ["/building", "/location"], "Algorithm": ["/computer/algorithm"],
          "Zürich": ["/location/city"], "Not Linked": ["/person"]}


def write_links(tmp_path, targets: list[str]):
    """A gathered links table of these targets (with another column beside them)."""
    path = tmp_path / "links.parquet"
    pq.write_table(pa.table({"surface": ["x"] * len(targets), "target": targets}), path)
    return path


def test_dump_targets_are_typed_as_typing_each_title(tmp_path, figer_types, monkeypatch):
    from reprobe.wikipedia import spilled

    monkeypatch.setattr(typing_spilled, "BATCH_ROWS", 2)  # typed in several batches
    monkeypatch.setattr(spilled, "ROW_GROUP_ROWS", 3)  # written in several row groups
    out = tmp_path / "typed.parquet"
    produced, counts = type_dump_targets(write_links(tmp_path, LINK_TARGETS), out, figer_types,
                                         RULES, 16, title_figer=SOURCE)
    # What typing the distinct targets one by one, as Python strings, gives.
    expected, expected_counts = type_titles(Counter(LINK_TARGETS), SOURCE, figer_types, RULES)
    assert read_typed_targets(out) == expected
    assert pq.read_table(out)["title"].to_pylist() == sorted(expected)
    assert produced == {c for classes in expected.values() for c in classes}
    assert list(counts) == [*expected_counts, "links", "links_typed"]
    assert counts == {**expected_counts, "links": 12,
                      "links_typed": sum(n for t, n in Counter(LINK_TARGETS).items()
                                         if t in expected)}
    assert counts["titles"] == 7 and counts["unmapped_title"] == 2 and counts["no_class"] == 1
    monkeypatch.setattr(spilled, "ROW_GROUP_ROWS", 1024 * 1024)
    type_dump_targets(write_links(tmp_path, LINK_TARGETS), out, figer_types, RULES, 16,
                      title_figer=SOURCE)
    # The bytes the in-memory writer gives the same typed targets.
    write_typed_targets(expected, tmp_path / "whole.parquet", tmp_path / "c.json", counts)
    assert out.read_bytes() == (tmp_path / "whole.parquet").read_bytes()


def test_dump_targets_name_the_file_without_a_target_column(tmp_path, figer_types):
    path = tmp_path / "links.parquet"
    pq.write_table(pa.table({"title": ["Iliad"]}), path)
    with pytest.raises(InputFormatError, match="column 'target'") as error:
        type_dump_targets(path, tmp_path / "typed.parquet", figer_types, RULES, 16,
                          title_figer=SOURCE)
    assert error.value.path == str(path)


def test_no_links_type_nothing(tmp_path, figer_types):
    out = tmp_path / "typed.parquet"
    produced, counts = type_dump_targets(write_links(tmp_path, []), out, figer_types, RULES,
                                         16, title_figer=SOURCE)
    assert produced == set() and read_typed_targets(out) == {}
    assert counts == {"titles": 0, "typed": 0, "unmapped_title": 0, "no_class": 0, "links": 0,
                      "links_typed": 0}
