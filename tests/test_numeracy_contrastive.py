"""Contrastive tests: x+ is the closest, SC's x- the second-closest, BC's the furthest; ties go."""

from __future__ import annotations

import pytest

from reprobe.numeracy.contrastive import (
    build_magnitude_tests,
    build_numeration_tests,
    canonical_numbers,
    common_numbers,
    read_tests,
    write_tests,
)


def numbers(*values: float) -> dict[str, float]:
    """A number set spelled plainly."""
    return {str(value): float(value) for value in values}


def triples(frame) -> set[tuple[str, str, str]]:
    """The tests of a frame as (x, x+, x-) tuples."""
    return set(frame[["x", "x_plus", "x_minus"]].itertuples(index=False, name=None))


def test_magnitude_tests_pick_closest_second_closest_and_furthest():
    tests = build_magnitude_tests(numbers(1, 3, 4, 10, 1000))
    assert triples(tests["SC"]) == {
        ("1", "3", "4"), ("3", "4", "1"), ("4", "3", "1"), ("10", "4", "3"), ("1000", "10", "4")}
    assert triples(tests["BC"]) == {
        ("1", "3", "1000"), ("3", "4", "1000"), ("4", "3", "1000"), ("10", "4", "1000"),
        ("1000", "10", "1")}
    assert triples(tests["OVA"]) == {(x, plus, "") for x, plus, _ in triples(tests["SC"])}
    assert tests["candidates"]["token"].tolist() == ["1", "3", "4", "10", "1000"]


def test_a_tied_closest_number_removes_every_test_of_x():
    tests = build_magnitude_tests(numbers(2, 3, 4, 100))
    for kind in ("OVA", "SC", "BC"):
        assert "3" not in set(tests[kind]["x"])


def test_decimals_written_equidistant_are_tied():
    # In binary floating point 0.3 - 0.2 != 0.2 - 0.1; as written they are equal.
    tests = build_magnitude_tests(numbers(0.1, 0.2, 0.3, 5))
    assert "0.2" not in set(tests["OVA"]["x"])


def test_a_tied_second_closest_removes_only_the_sc_test():
    tests = build_magnitude_tests(numbers(0, 1, -2, 2, 10))
    assert "0" not in set(tests["SC"]["x"])
    assert ("0", "1", "") in triples(tests["OVA"])
    assert ("0", "1", "10") in triples(tests["BC"])


def test_a_tied_furthest_removes_only_the_bc_test():
    tests = build_magnitude_tests(numbers(0, 4, 5, 9, 10))
    assert "5" not in set(tests["BC"]["x"])
    assert ("5", "4", "9") in triples(tests["SC"])
    assert ("5", "4", "") in triples(tests["OVA"])


def test_a_set_of_two_numbers_has_no_tests():
    tests = build_magnitude_tests(numbers(1, 2))
    assert all(tests[kind].empty for kind in ("OVA", "SC", "BC"))


def test_tokens_sharing_a_value_are_one_number():
    tests = build_magnitude_tests({"999": 999.0, "1000": 1000.0, "1,000": 1000.0, "5": 5.0})
    assert tests["candidates"]["token"].tolist() == ["5", "999", "1000"]
    assert ("999", "1000", "5") in triples(tests["SC"])


def test_the_canonical_token_is_the_plain_then_lowercase_then_shortest_spelling():
    chosen = canonical_numbers({
        "1,000": 1000.0, "1000": 1000.0, ".5": 0.5, "0.5": 0.5, "Three": 3.0, "three": 3.0,
        "+7": 7.0, "007": 7.0, "+9": 9.0, "09": 9.0})
    assert chosen == {"0.5": 0.5, "three": 3.0, "+7": 7.0, "+9": 9.0, "1000": 1000.0}


def test_common_numbers_are_the_tokens_every_map_has():
    common = common_numbers([{"3": 3.0, "1,000": 1000.0, "7": 7.0}, {"7": 7.0, "3": 3.0},
                             {"3": 3.0, "7": 7.0, "9": 9.0}])
    assert common == {"3": 3.0, "7": 7.0}


def test_common_numbers_reject_a_token_with_two_values():
    with pytest.raises(ValueError, match="'3'"):
        common_numbers([{"3": 3.0}, {"3": 4.0}])


def test_numeration_tests_pair_arabic_with_english_of_equal_value():
    arabic = {"1": 1.0, "2": 2.0, "3": 3.0, "10": 10.0, "7": 7.0}
    english = {"one": 1.0, "two": 2.0, "three": 3.0, "ten": 10.0, "million": 1e6}
    tests = build_numeration_tests(arabic, english)
    assert tests["candidates"]["token"].tolist() == ["one", "two", "three", "ten"]
    assert triples(tests["SC"]) == {("1", "one", "two"), ("3", "three", "two"),
                                    ("10", "ten", "three")}
    assert triples(tests["BC"]) == {("1", "one", "ten"), ("2", "two", "ten"),
                                    ("3", "three", "ten"), ("10", "ten", "one")}
    assert set(tests["OVA"]["x"]) == {"1", "2", "3", "10"}


def test_tests_survive_a_write_and_read(tmp_path):
    tests = build_magnitude_tests({**numbers(1, 3, 4, 10), "NaN": 12.0})
    write_tests(tests, tmp_path)
    back = read_tests(tmp_path)
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "BC.tsv", "OVA.tsv", "SC.tsv", "candidates.tsv"]
    for kind in ("OVA", "SC", "BC"):
        assert triples(back[kind]) == triples(tests[kind])
    assert back["candidates"].equals(tests["candidates"])
