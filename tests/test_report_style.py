"""The legend and tallies say what the marks mean, with the tolerance in force."""

from __future__ import annotations

from reprobe.report.style import legend_html, tally_text
from reprobe.report.table_html import Counts


def test_the_legend_names_the_tolerance_and_its_config_key():
    legend = legend_html(0.1)
    assert "✓ within 10% of the paper" in legend and "✗ more than 10% from the paper" in legend
    assert "<code>report.tolerance</code>" in legend


def test_a_tally_counts_within_beyond_and_the_papers_alone():
    assert tally_text(Counts(within=7, beyond=71, paper_only=293), 0.05) == (
        "78 numbers beside the paper's: 7 within 5% (✓), 71 further (✗); 293 of the paper's "
        "numbers have none of ours.")


def test_a_table_with_nothing_published_says_so():
    assert tally_text(Counts(), 0.05) == "No number here has a published counterpart."
