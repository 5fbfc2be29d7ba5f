"""Tests for the trained baselines' tokeniser, vector reader and shared vocabulary folder."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from reprobe.equate.jsonl import read_pairs
from reprobe.equate.trained.text import words
from reprobe.equate.trained.vocabulary import (
    SPECIAL,
    make_vocabulary,
    read_vector_subset,
    read_vocabulary,
    vector_key,
)
from reprobe.errors import InputFormatError


def write_jsonl(path: Path, rows: list[tuple[str, str, str]]) -> Path:
    """A MultiNLI-layout file of (premise, hypothesis, gold label) rows."""
    path.write_text("".join(json.dumps({"sentence1": p, "sentence2": h, "gold_label": g}) + "\n"
                            for p, h, g in rows), encoding="utf-8")
    return path


def test_words_keep_numbers_whole() -> None:
    """Decimals, thousands separators and percentages stay one token."""
    assert words("It cost 3.5 dollars, 1,000 people and 20% more.") == [
        "It", "cost", "3.5", "dollars", ",", "1,000", "people", "and", "20%", "more", "."]


def test_words_split_negation_clitics_and_symbols() -> None:
    """"don't" is "do" + "n't", "'s" splits off, and each symbol stands alone."""
    assert words("I don't know Sara's $5 fee?!") == [
        "I", "do", "n't", "know", "Sara", "'s", "$", "5", "fee", "?", "!"]


def test_glove_file_keeps_only_wanted_words(tmp_path: Path) -> None:
    """A GloVe text file (no header): its dimension, and only the wanted words' vectors."""
    path = tmp_path / "glove.txt"
    path.write_text("the 0.1 0.2 0.3\ncat 1 2 3\ndog -1 -2 -3.5\n", encoding="utf-8")
    dim, found = read_vector_subset(path, ["cat", "dog", "absent"])
    assert dim == 3 and set(found) == {"cat", "dog"}
    np.testing.assert_array_equal(found["dog"], np.array([-1, -2, -3.5], dtype=np.float32))
    assert found["cat"].dtype == np.float32


def test_word2vec_header_is_not_a_word(tmp_path: Path) -> None:
    """A word2vec text file's "N D" first line gives the dimension and is no vector."""
    path = tmp_path / "vectors.vec"
    path.write_text("2 2\ncat 1 2\n2 5 6\n", encoding="utf-8")
    dim, found = read_vector_subset(path, ["cat", "2"])
    assert dim == 2 and set(found) == {"cat", "2"}
    np.testing.assert_array_equal(found["2"], np.array([5, 6], dtype=np.float32))


def test_lower_case_fallback(tmp_path: Path) -> None:
    """A word absent in its own case is found, and looked up, in lower case."""
    path = tmp_path / "glove.txt"
    path.write_text("the 1 1\nParis 2 2\n", encoding="utf-8")
    _, found = read_vector_subset(path, ["The", "Paris"])
    assert set(found) == {"the", "Paris"}
    assert vector_key("The", set(found)) == "the"
    assert vector_key("Paris", set(found)) == "Paris"
    assert vector_key("Rome", set(found)) is None


def test_word_with_spaces_is_not_its_first_part(tmp_path: Path) -> None:
    """A GloVe-840B line whose "word" holds spaces (". . .") is not the vector of ".";
    the real "." line after it is."""
    path = tmp_path / "glove.txt"
    path.write_text("the 0 0\n. . . 0.1 0.2\n", encoding="utf-8")
    assert "." not in read_vector_subset(path, ["."])[1]
    with path.open("a", encoding="utf-8") as handle:
        handle.write(". 7 8\n")
    np.testing.assert_array_equal(read_vector_subset(path, ["."])[1]["."],
                                  np.array([7, 8], dtype=np.float32))


@pytest.mark.parametrize(("text", "line"), [
    ("the 0 0\ncat 1 2\ndog 1 oops\n", "line 3"),
    ("3 2\nthe 0 0\ncat 1 2\ndog 1 oops\n", "line 4"),
])
def test_non_numeric_field_names_the_line(tmp_path: Path, text: str, line: str) -> None:
    """A wanted word's vector with a field that is not a number raises, naming its line
    (the word2vec header counted as line 1)."""
    path = tmp_path / "vectors.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputFormatError) as error:
        read_vector_subset(path, ["dog"])
    assert error.value.where == line and str(path) in str(error.value)


def test_vocabulary_round_trip(tmp_path: Path) -> None:
    """Special tokens first, then training words by frequency (ties by the word); vectors,
    flags and characters read back as written."""
    train = write_jsonl(tmp_path / "train.jsonl", [
        ("The cat sat .", "A cat sat .", "entailment"),
        ("The dog ran .", "A cat ran .", "contradiction"),
    ])
    vectors = tmp_path / "glove.txt"
    vectors.write_text("<s> 9 9\n<unk> 1 1\ncat 1 2\nthe 3 4\n. 5 6\nsat 7 8\n",
                       encoding="utf-8")
    counts = make_vocabulary(train, vectors, tmp_path / "vocab")
    vocabulary, matrix, has = read_vocabulary(tmp_path / "vocab")
    assert vocabulary.words[:4] == SPECIAL == ("<pad>", "<unk>", "<s>", "</s>")
    assert vocabulary.words[4:] == (".", "cat", "A", "The", "ran", "sat", "dog")
    assert counts == {"words": 11, "with_vector": 5, "dimension": 2}
    flagged = {w for w, flag in zip(vocabulary.words, has, strict=True) if flag}
    assert flagged == {"<s>", ".", "cat", "The", "sat"}  # never padding or UNK
    index = vocabulary.words.index
    np.testing.assert_array_equal(matrix[index("The")], [3, 4])  # the lower-case fallback
    np.testing.assert_array_equal(matrix[index("<s>")], [9, 9])
    np.testing.assert_array_equal(matrix[index("dog")], [0, 0])
    assert matrix.shape == (11, 2) and matrix.dtype == np.float32
    assert vocabulary.chars[:2] == ("", "") and vocabulary.chars[2] == "a"
    assert vocabulary.char_ids("cat") == [vocabulary.chars.index(c) for c in "cat"]
    assert vocabulary.char_ids("z") == [1]


def test_vector_file_without_training_words_is_refused(tmp_path: Path) -> None:
    """A vector file sharing no word with the training pairs raises InputFormatError."""
    train = write_jsonl(tmp_path / "train.jsonl", [("A cat sat .", "A cat sat .", "neutral")])
    vectors = tmp_path / "glove.txt"
    vectors.write_text("zebra 1 2\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="none of the training words"):
        make_vocabulary(train, vectors, tmp_path / "vocab")
    assert not (tmp_path / "vocab").exists()


def test_read_pairs_consensus_only_skips_no_label_rows(tmp_path: Path) -> None:
    """MultiNLI's "-" pairs are skipped with consensus_only and rejected without it."""
    path = write_jsonl(tmp_path / "dev.jsonl", [("A b .", "A c .", "neutral"),
                                                 ("A b .", "A d .", "-"),
                                                 ("A b .", "A e .", "entailment")])
    kept = [row["gold_label"] for row in read_pairs(path, consensus_only=True)]
    assert kept == ["neutral", "entailment"]
    with pytest.raises(InputFormatError) as error:
        list(read_pairs(path))
    assert error.value.where == "line 2"
