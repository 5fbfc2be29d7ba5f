"""The fine-tuning set from hand-written GenericsKB rows (reprobe.numersense.generics)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reprobe.errors import InputFormatError
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.evaluate import probe_key
from reprobe.numersense.generics import finetune_rows, read_generics, write_finetune_set
from reprobe.numersense.probes import LabelledProbe, read_masked_tsv

HEADER = "SOURCE\tTERM\tQUANTIFIER_FREQUENCY\tQUANTIFIER_NUMBER\tGENERIC SENTENCE\tSCORE\n"


def generics(tmp_path: Path, lines: list[str], header: str = HEADER) -> Path:
    """A GenericsKB TSV with the header and the given data lines."""
    path = tmp_path / "GenericsKB-Best.tsv"
    path.write_text(header + "".join(lines), encoding="utf-8")
    return path


def test_reads_the_sentence_column_with_line_numbers(tmp_path: Path):
    path = generics(tmp_path, ["ARC\tant\t\t\tAnts have six legs.\t0.98\n", "\n",
                               "Waterloo\tcar\tusually\t\tCars usually have four wheels.\t0.7\n"])
    assert list(read_generics(path)) == [(2, "Ants have six legs."),
                                         (4, "Cars usually have four wheels.")]


def test_finds_the_column_by_name(tmp_path: Path):
    header = "GENERIC SENTENCE\tSOURCE\tSCORE\n"
    path = generics(tmp_path, ["Dogs have four legs.\tARC\t0.9\n"], header=header)
    assert list(read_generics(path)) == [(2, "Dogs have four legs.")]


def test_missing_sentence_column_names_the_file(tmp_path: Path):
    path = generics(tmp_path, ["ARC\tant\tAnts have six legs.\n"],
                    header="SOURCE\tTERM\tSENTENCE\n")
    with pytest.raises(InputFormatError, match="GENERIC SENTENCE") as caught:
        list(read_generics(path))
    assert caught.value.path == str(path)
    assert caught.value.where == "line 1"


def test_row_with_too_few_fields_names_its_line(tmp_path: Path):
    path = generics(tmp_path, ["ARC\tant\t\t\tAnts have six legs.\t0.98\n",
                               "ARC\tbee\tBees have five eyes.\n"])
    with pytest.raises(InputFormatError, match="found 3") as caught:
        list(read_generics(path))
    assert caught.value.where == "line 3"


def test_one_row_per_occurrence_of_a_number_word():
    rows, counts = finetune_rows(["Ants have six legs and two antennae."])
    assert rows == [LabelledProbe("Ants have <mask> legs and two antennae.", "six"),
                    LabelledProbe("Ants have six legs and <mask> antennae.", "two")]
    assert counts["rows"] == 2


def test_case_is_kept_whitespace_collapsed_label_lowercase():
    rows, _ = finetune_rows(["  Three   Sides make a Triangle. "])
    assert rows == [LabelledProbe("<mask> Sides make a Triangle.", "three")]


def test_only_whole_candidate_words_count():
    rows, counts = finetune_rows(["One-way streets allow a single direction.",
                                  "None of the twelve eggs broke.", "Someone has ten toes."])
    assert rows == [LabelledProbe("Someone has <mask> toes.", "ten")]
    assert counts == {"sentences": 3, "with_number_word": 1, "rows": 1,
                      "excluded_test_probe": 0, "duplicate": 0}


def test_words_can_be_narrowed():
    rows, _ = finetune_rows(["Cats have four legs and no wings."], words=("no",))
    assert rows == [LabelledProbe("Cats have four legs and <mask> wings.", "no")]


def test_test_probes_are_excluded_as_the_evaluator_matches():
    exclude = [probe_key("a car has <mask> wheels.  "), "spiders  have <mask> eyes."]
    rows, counts = finetune_rows(["A Car has four wheels.", "Spiders have eight eyes.",
                                  "Bees have five eyes."], exclude=exclude)
    assert rows == [LabelledProbe("Bees have <mask> eyes.", "five")]
    assert counts["excluded_test_probe"] == 2


def test_repeated_rows_are_dropped_and_counted():
    rows, counts = finetune_rows(["Coins have two sides.", "coins  have two sides.",
                                  "Coins have two sides.", "Coins have TWO sides."])
    assert rows == [LabelledProbe("Coins have <mask> sides.", "two")]
    assert counts == {"sentences": 4, "with_number_word": 4, "rows": 1,
                      "excluded_test_probe": 0, "duplicate": 3}


def test_write_finetune_set_in_the_released_layout(tmp_path: Path):
    rows = [LabelledProbe("Bees have <mask> eyes.", "five"),
            LabelledProbe("<mask> is the only even prime.", "two")]
    counts = {"sentences": 2, "rows": 2}
    parameters = {"input": "gkb.tsv", "input_sha256": "cd" * 32}
    tsv, card = tmp_path / "train.masked.tsv", tmp_path / "train.json"
    write_finetune_set(rows, tsv, card, counts, parameters)
    assert tsv.read_text(encoding="utf-8") == (
        "Bees have <mask> eyes.\tfive\n<mask> is the only even prime.\ttwo\n")
    assert read_masked_tsv(tsv, frozenset(CANDIDATES)) == rows
    assert json.loads(card.read_text(encoding="utf-8")) == {
        "rows": 2, "counts": counts, "parameters": parameters}
