"""Tests for the EQUATE released-layout writer, card and reader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reprobe.equate.jsonl import UNLABELLED, Pair, card_path, read_pairs, tokenize, write_pairs
from reprobe.errors import InputFormatError
from reprobe.sources.checksum import sha256_file


def test_tokenize_splits_clitics_and_keeps_numbers() -> None:
    """Clitics split off, numbers keep commas and decimals, one list per sentence."""
    assert tokenize("Sara 's team paid $1,500.25 . It won.") == [
        ["Sara", "'s", "team", "paid", "$", "1,500.25", "."], ["It", "won", "."]]


def test_round_trip_and_card(tmp_path: Path) -> None:
    """Rows written in the released layout read back; the card counts and hashes them."""
    source = tmp_path / "src.txt"
    source.write_text("x", encoding="utf-8")
    out = tmp_path / "set.jsonl"
    pairs = [Pair("Tom had 3 apples .", "Tom has 3 apples .", "entailment"),
             Pair("Tom had 3 apples .", "Tom has 4 apples .", "contradiction")]
    card = write_pairs(pairs, out, genre="awp", sources={"src": source}, parameters={"seed": 1})
    rows = list(read_pairs(out))
    assert [(r["sentence1"], r["sentence2"], r["gold_label"]) for r in rows] == [
        (p.sentence1, p.sentence2, p.gold_label) for p in pairs]
    assert rows[0]["sentence2_tokens"] == [["tom", "has", "3", "apples", "."]]
    assert rows[0]["sentence2_binary_parse"] == "Tom has 3 apples ."
    assert rows[0]["annotator_labels"] == ["entailment"] and rows[0]["genre"] == "awp"
    assert json.loads(card_path(out).read_text()) == card
    assert card["rows"] == 2 and card["labels"] == {"entailment": 1, "contradiction": 1}
    assert card["sha256"] == sha256_file(out)
    assert card["sources"]["src"]["sha256"] == sha256_file(source)
    assert card["parameters"] == {"seed": 1}


@pytest.mark.parametrize(("line", "problem"), [
    ("{not json", "not JSON"),
    ('{"sentence1": "a", "sentence2": "b", "gold_label": "maybe"}', "gold_label"),
    ('{"sentence1": "", "sentence2": "b", "gold_label": "neutral"}', "sentence1"),
    ('{"sentence1": "a", "sentence2": "b", "gold_label": "neutral", "sentence1_tokens": "a"}',
     "sentence1_tokens"),
])
def test_reader_names_the_bad_line(tmp_path: Path, line: str, problem: str) -> None:
    """A malformed row raises InputFormatError naming the file and its line."""
    path = tmp_path / "bad.jsonl"
    good = '{"sentence1": "a", "sentence2": "b", "gold_label": "neutral"}'
    path.write_text(f"{good}\n{line}\n", encoding="utf-8")
    with pytest.raises(InputFormatError) as error:
        list(read_pairs(path))
    assert error.value.where == "line 2" and problem in error.value.problem
    assert str(path) in str(error.value)


def test_unlabelled_candidates_are_read_only_when_asked(tmp_path):
    out = tmp_path / "candidates.jsonl"
    write_pairs([Pair("Tom had 3 cats.", "Tom had three cats.", UNLABELLED)], out,
                genre="news", sources={}, parameters={})
    assert [row["gold_label"] for row in read_pairs(out, labelled=False)] == [""]
    with pytest.raises(InputFormatError, match="line 1"):
        list(read_pairs(out))
