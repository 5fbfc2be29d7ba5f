"""A cell against the paper: `ours (paper, Δ)` read back and judged by a relative tolerance."""

from __future__ import annotations

import pytest

from reprobe.report.cells import (
    Comparison,
    Verdict,
    as_float,
    cell_verdict,
    comparison_of,
    parse_cell,
    percent,
)


def test_a_paper_shaped_cell_is_read_back():
    assert parse_cell("57.14 (57.8, -0.66)") == Comparison(57.14, 57.8, -0.66)
    assert parse_cell("70 (50.7, +19.3) n=10") == Comparison(70.0, 50.7, 19.3)


@pytest.mark.parametrize("text", ["85.71", "— (7.7)", "NA (not scored); paper 33.3",
                                  "33 (2260)", "GloVe-6B-50D — NA (not configured)", ""])
def test_a_cell_without_both_numbers_is_no_comparison(text):
    assert parse_cell(text) is None


def test_a_cell_further_than_the_tolerance_is_beyond_it():
    assert cell_verdict("66.67 (49.34, +17.33)", 0.05) is Verdict.BEYOND


def test_a_cell_within_the_tolerance_is_within_it():
    assert cell_verdict("57.14 (57.8, -0.66)", 0.05) is Verdict.WITHIN


def test_the_tolerance_is_relative_to_the_papers_number():
    # The same Δ of 0.5 is 1% of 50 but 50% of 1.
    assert Comparison(50.5, 50.0, 0.5).verdict(0.05) is Verdict.WITHIN
    assert Comparison(1.5, 1.0, 0.5).verdict(0.05) is Verdict.BEYOND


def test_a_delta_of_exactly_the_allowance_is_within():
    assert Comparison(52.5, 50.0, 2.5).verdict(0.05) is Verdict.WITHIN


def test_only_zero_matches_a_published_zero():
    assert cell_verdict("0 (0, +0)", 0.05) is Verdict.WITHIN
    assert cell_verdict("-30 (0, -30)", 0.05) is Verdict.BEYOND


def test_a_papers_number_without_ours_is_paper_only():
    assert cell_verdict("— (72.04)", 0.05) is Verdict.PAPER_ONLY
    assert cell_verdict("NA (not scored); paper 33.3", 0.05) is Verdict.PAPER_ONLY


def test_our_number_alone_has_no_verdict():
    assert cell_verdict("85.71", 0.05) is None


def test_separate_columns_compare_with_delta_computed_when_blank():
    assert comparison_of("656", "276000", "") == Comparison(656.0, 276000.0, -275344.0)
    assert comparison_of("4002", "nan", "nan") is None


def test_numbers_parse_with_exponents_and_text_does_not():
    assert as_float("5.5e+08") == 5.5e8 and as_float("NA (not run)") is None


def test_a_tolerance_is_said_in_percent():
    assert [percent(t) for t in (0.05, 0.025, 0.1, 0)] == ["5%", "2.5%", "10%", "0%"]
