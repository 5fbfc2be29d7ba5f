"""Stand-in data: samples under data/samples/ and files in an installed package, `tiny-` rows,
and the banner a page made from them opens with."""

from __future__ import annotations

from reprobe.report.standins import (
    banner_html,
    is_stand_in_row,
    stand_in_source,
    stand_in_sources,
)


def test_samples_and_package_files_are_stand_ins_fetched_and_local_files_are_not():
    assert stand_in_source({"path": "data/samples/equate/rte_quant.jsonl"})
    assert stand_in_source({"path": "/work/x/data/samples/a.txt"})
    assert stand_in_source({"package": "gensim", "path": "test/test_data/lee_fasttext.vec"})
    assert not stand_in_source({"url": "https://example.org/dump.xml.bz2"})
    assert not stand_in_source({"path": "/data/corpora/samples.txt"})
    assert stand_in_sources({"a": {"url": "u"}, "b": {"package": "gensim"}}) == ["b"]


def test_tiny_rows_are_stand_ins():
    assert is_stand_in_row("tiny-ESIM (beyond the paper)") and is_stand_in_row(" tiny-BERT")
    assert not is_stand_in_row("ESIM") and not is_stand_in_row("destiny-model")


def test_the_banner_names_what_is_a_stand_in():
    assert banner_html([], []) == ""
    banner = banner_html(["equate_rte_quant_sample"], ["tiny-ESIM (beyond the paper)"])
    assert 'id="stand-in"' in banner and "<code>equate_rte_quant_sample</code>" in banner
    assert "<code>tiny-ESIM (beyond the paper)</code>" in banner
    assert "plumbing check" in banner and "Every number of ours" in banner
    assert "The numbers of those rows" in banner_html([], ["tiny-ESIM"])
