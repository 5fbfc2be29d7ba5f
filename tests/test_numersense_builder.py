"""Probe building from hand-written OMCS lines (reprobe.numersense.builder)."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest

from reprobe.errors import InputFormatError
from reprobe.numersense.builder import (
    DEFAULT_LEXICON,
    MISC,
    RULES,
    build_probes,
    normalise,
    write_outputs,
)
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.probes import LabelledProbe, read_masked_tsv, read_masked_txt
from reprobe.numersense.settings import BuilderSettings
from reprobe.step_settings import settings_from_schema

HEADER = "id\ttext\tcreator_id\tcreated_on\tlanguage_id\tactivity_id\tscore\n"


def omcs(tmp_path: Path, rows: list[tuple[str, str]]) -> Path:
    """An OMCS free-sentences file of (text, language) rows."""
    lines = [f"{i}\t{text}\t7\t2001-01-01\t{lang}\t3\t1\n" for i, (text, lang) in
             enumerate(rows, start=1)]
    path = tmp_path / "omcs-sentences-free.txt"
    path.write_text(HEADER + "".join(lines), encoding="utf-8")
    return path


ROWS = [
    ("A  Tricycle has THREE wheels.", "en"),              # kept: objects
    ("Un tricycle a trois roues, one.", "fr"),            # skipped: not English
    ("Bees make honey in summer.", "en"),                 # no_number_word
    ("A one-way street is narrow here.", "en"),           # no_number_word (hyphenated)
    ("A spider has eight legs and two fangs.", "en"),     # kept: two probes, biology
    ("No one likes being cold in winter.", "en"),         # non_numeric_use ("no" and "one")
    ("One of the cups is red.", "en"),                    # non_numeric_use
    ("Cats have four.", "en"),                            # too_short (3 tokens < 4)
    ("a tricycle has three wheels.", "en"),               # duplicate after normalising
    ("A square has four equal sides.", "en"),             # kept: geometry
    ("There are seven days in a week.", "en"),            # kept: unit
    ("A quiet garden can have no fountains.", "en"),      # kept: misc
    ("An ant has six legs.", "en"),                       # kept: biology
]


def builder(**changes: object) -> BuilderSettings:
    """The builder's settings: the schema's defaults but for changes."""
    return settings_from_schema(BuilderSettings, "numersense.builder", **changes)


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return omcs(tmp_path, ROWS)


def test_each_rule_drops_and_counts(source: Path):
    result = build_probes(source, builder(min_tokens=4, max_tokens=25))
    assert list(result.filter_counts) == list(RULES)
    assert "several_number_words" not in RULES
    assert result.filter_counts == {"no_number_word": 2, "non_numeric_use": 2, "too_short": 1,
                                    "too_long": 0, "duplicate": 1}
    assert result.rows_read == 13 and result.english_rows == 12
    # Six sentences kept; the spider's gives two probes.
    assert 12 - sum(result.filter_counts.values()) == 6
    assert len(result.probes) == 7


def test_too_long_bound_is_a_parameter(source: Path):
    result = build_probes(source, builder(min_tokens=1, max_tokens=6))
    # "Cats have four." is now long enough; the 7- and 8-token sentences are too long.
    assert result.filter_counts["too_short"] == 0
    assert result.filter_counts["too_long"] == 3
    assert LabelledProbe("cats have <mask>.", "four") in result.probes


def test_phrases_are_a_parameter(source: Path):
    result = build_probes(source, builder(non_numeric_phrases=[]))
    assert result.filter_counts["non_numeric_use"] == 0
    assert LabelledProbe("<mask> of the cups is red.", "one") in result.probes


def test_each_number_word_of_a_sentence_gets_its_own_probe(tmp_path: Path):
    result = build_probes(omcs(tmp_path, [("Two cups and two plates make four things.", "en")]),
                          builder())
    assert result.probes == [
        LabelledProbe("<mask> cups and two plates make four things.", "two"),
        LabelledProbe("two cups and <mask> plates make four things.", "two"),
        LabelledProbe("two cups and two plates make <mask> things.", "four"),
    ]
    assert result.filter_counts == dict.fromkeys(RULES, 0)


def test_phrase_words_are_never_masked_but_other_counts_are(tmp_path: Path):
    rows = [("No one owns more than three hats.", "en"),
            ("One of my two bikes is blue.", "en")]
    result = build_probes(omcs(tmp_path, rows), builder())
    assert result.probes == [LabelledProbe("no one owns more than <mask> hats.", "three"),
                             LabelledProbe("one of my <mask> bikes is blue.", "two")]
    assert result.filter_counts["non_numeric_use"] == 0


def test_non_english_rows_are_skipped(source: Path):
    result = build_probes(source, builder())
    assert all("tricycle a" not in p.probe for p in result.probes)


def test_masking_and_normalisation(source: Path):
    result = build_probes(source, builder())
    assert result.probes == [
        LabelledProbe("a tricycle has <mask> wheels.", "three"),
        LabelledProbe("a spider has <mask> legs and two fangs.", "eight"),
        LabelledProbe("a spider has eight legs and <mask> fangs.", "two"),
        LabelledProbe("a square has <mask> equal sides.", "four"),
        LabelledProbe("there are <mask> days in a week.", "seven"),
        LabelledProbe("a quiet garden can have <mask> fountains.", "no"),
        LabelledProbe("an ant has <mask> legs.", "six"),
    ]
    assert normalise("  A\tBig   DOG , barks. ") == "a big dog , barks."


def test_categories_first_match_else_misc(source: Path):
    result = build_probes(source, builder())
    assert result.categories == ["objects", "biology", "biology", "geometry", "unit", MISC,
                                 "biology"]
    assert list(result.category_counts) == [*DEFAULT_LEXICON, MISC]
    assert result.category_counts["objects"] == 1 and result.category_counts["physics"] == 0
    custom = build_probes(source, builder(lexicon={"garden": ["fountain"]}))
    assert custom.categories == [MISC, MISC, MISC, MISC, MISC, "garden", MISC]
    assert custom.category_counts == {"garden": 1, MISC: 6}


def test_outputs_round_trip(source: Path, tmp_path: Path):
    result = build_probes(source, builder())
    out = tmp_path / "out"
    paths = [out / "core.masked.txt", out / "core.masked.tsv", out / "card.json",
             out / "filters.csv"]
    write_outputs(result, *paths)
    assert read_masked_txt(paths[0]) == [p.probe for p in result.probes]
    assert read_masked_tsv(paths[1], frozenset(CANDIDATES)) == result.probes
    card = json.loads(paths[2].read_text())
    assert card["input_sha256"] == hashlib.sha256(source.read_bytes()).hexdigest()
    assert card["probes"] == 7 and card["sentences_kept"] == 6
    assert card["rows"] == {"read": 13, "english": 12, "non_english": 1}
    assert card["filters"] == result.filter_counts
    assert card["parameters"]["min_tokens"] == 4
    with paths[3].open() as handle:
        table = list(csv.DictReader(handle))
    assert [row["rule"] for row in table] == list(RULES)
    assert table[-1]["kept_after"] == "6"
    assert table[0] == {"rule": "no_number_word", "dropped": "2", "kept_after": "10"}
    assert not list(out.glob(".*tmp*"))


def test_malformed_row_names_its_line(tmp_path: Path):
    path = omcs(tmp_path, [("A cat has four legs.", "en")])
    with path.open("a") as handle:
        handle.write("2\tA dog has four legs.\t7\ten\n")
    with pytest.raises(InputFormatError, match=r"omcs-sentences-free\.txt: line 3: expected 7"):
        build_probes(path, builder())


def test_wrong_header_is_named(tmp_path: Path):
    path = tmp_path / "omcs.txt"
    path.write_text("id\ttext\n1\tA cat has four legs.\n")
    with pytest.raises(InputFormatError, match="line 1"):
        build_probes(path, builder())
