"""PMI between number classes and the nouns that follow numbers (Table 5)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from reprobe.numeracy.pmi import (
    COLUMNS,
    context_counts,
    is_noun,
    pmi_table,
    sample_number_sentences,
    top_nouns_by_pmi,
)

SENTENCES = [
    "Born on 5 July in 1990 .", "Shot on 7 July .", "Up 3 % in 1,200 Census .",
    "Held 4 July and 2 July .", "The 1,500 Census and 2000 election .",
    "About 100 people of 3 of 9 of 10 %", "In 2004 election , 6 %",
]


def counts():
    """Context counts of the hand-made sentences."""
    return context_counts(sentence.split() for sentence in SENTENCES)


def test_the_context_is_the_word_right_after_an_arabic_numeral():
    found = context_counts([["On", "5", "July", "twenty", "days", "in", "1,500"]])
    assert dict(found.pairs) == {("July", 5.0): 1}
    assert (found.sentences, found.numbers) == (1, 1)


def test_smoothed_pmi_follows_the_formula():
    found = context_counts([["1", "July"]] * 3 + [["600", "census"]] * 2)
    table = top_nouns_by_pmi(found, lambdas=[500], smoothing=1, top=5)
    july = table[(table["class"] == "primitive") & (table["word"] == "July")]
    # Smoothed cells: July (3+1, 0+1), census (0+1, 2+1), total 9.
    assert july["pmi"].item() == pytest.approx(math.log((4 / 9) / ((5 / 9) * (5 / 9))))


def test_top_nouns_separate_primitives_from_large_numbers():
    table = top_nouns_by_pmi(counts(), lambdas=[500], smoothing=1, top=2)
    assert list(table.columns) == COLUMNS
    primitive = table[table["class"] == "primitive"]
    large = table[table["class"] == "large"]
    assert primitive["word"].tolist() == ["July", "%"]
    assert large["word"].tolist() == ["Census", "election"]
    assert large["rank"].tolist() == [1, 2] and large["count"].tolist() == [2, 2]


def test_only_nouns_are_reported():
    table = top_nouns_by_pmi(counts(), lambdas=[500], smoothing=1, top=10)
    assert not {"of", "in", ",", "and", "."} & set(table["word"])


def test_numbers_in_neither_class_take_no_part():
    # 100 is neither primitive nor above 500; 1,200 and 1,500 are above 500 but not above 1,800.
    table = top_nouns_by_pmi(counts(), lambdas=[1800], smoothing=1, top=10)
    assert "people" not in set(table["word"])
    assert table[table["class"] == "large"]["word"].tolist() == ["election"]


def test_one_comparison_per_lambda():
    table = top_nouns_by_pmi(counts(), lambdas=[500, 1000], smoothing=100, top=1)
    assert table[["lambda", "class"]].values.tolist() == [
        [500, "primitive"], [500, "large"], [1000, "primitive"], [1000, "large"]]


@pytest.mark.parametrize(("word", "noun"), [
    ("Census", True), ("census", True), ("July", True), ("Ontario", True), ("%", True),
    ("refugees", True), ("it", False), ("which", False), ("Elected", False), ("of", False),
    ("p.m", False), ("seven", False), ("million", True),
])
def test_noun_detection_from_the_lexicon(word, noun):
    assert is_noun(word) is noun


def test_sample_keeps_only_sentences_with_an_arabic_numeral_and_is_seeded(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("".join(f"line {i} here\nno number {chr(97 + i % 26)}\n" for i in range(50)))
    first = sample_number_sentences([corpus], 10, seed=3)
    assert len(first) == 10 and all(s[0] == "line" for s in first)
    assert first == sample_number_sentences([corpus], 10, seed=3)
    assert first != sample_number_sentences([corpus], 10, seed=4)


def test_pmi_table_writes_the_long_table(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(SENTENCES) + "\n")
    written = pmi_table([corpus], tmp_path / "table5.csv", sample_size=100, seed=0,
                        lambdas=[500], smoothing=1, top=2)
    assert pd.read_csv(tmp_path / "table5.csv").equals(written)
