"""Arabic numerals: integers, decimals, signs and thousands separators."""

from __future__ import annotations

import pytest

from reprobe.numeracy.numerals import arabic_value, has_arabic_numeral, is_arabic_numeral


@pytest.mark.parametrize(("token", "value"), [
    ("7", 7.0), ("1,000", 1000.0), ("3.5", 3.5), ("-2", -2.0), ("+3", 3.0), (".5", 0.5),
    ("1,000,000.25", 1000000.25), ("1999", 1999.0),
])
def test_numerals_and_their_values(token, value):
    assert is_arabic_numeral(token) and arabic_value(token) == value


@pytest.mark.parametrize("token", ["", "-", ".", "1,00", "2,5", "12a", "1.2.3", "1980s", "a1"])
def test_non_numerals(token):
    assert not is_arabic_numeral(token) and arabic_value(token) is None


def test_a_sentence_has_a_numeral_if_any_token_is_one():
    assert has_arabic_numeral(["It", "cost", "1,000", "dollars"])
    assert not has_arabic_numeral(["In", "the", "1980s", "."])
    assert has_arabic_numeral(["It", "cost", "1,000"], "It cost 1,000")
    assert not has_arabic_numeral(["No", "digits"], "No digits")
