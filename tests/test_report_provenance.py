"""Where the numbers come from: dataset cards, sources as pinned and fetched, the config."""

from __future__ import annotations

import json

import pytest

from reprobe.errors import InputFormatError
from reprobe.report.provenance import (
    cards_html,
    config_html,
    find_cards,
    flatten,
    origin_text,
    sources_html,
    with_lock,
)


def test_a_nested_card_flattens_to_dotted_keys():
    card = {"rows": 28, "labels": {"entailment": 14}, "omitted": ["pos", "parse"],
            "splits": [{"words": 36}], "seed": None}
    assert flatten(card) == [("rows", "28"), ("labels.entailment", "14"),
                             ("omitted", "pos, parse"), ("splits[0].words", "36"),
                             ("seed", "null")]


def test_cards_are_found_by_name_under_the_stage_folder(tmp_path):
    for name in ("rebuilt/core.card.json", "dataset/card.json", "rebuilt/core.tsv",
                 "rebuilt/discard.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    assert find_cards(tmp_path) == [tmp_path / "dataset/card.json",
                                    tmp_path / "rebuilt/core.card.json"]
    assert find_cards(tmp_path / "absent") == []


def test_a_card_shows_its_path_and_fields(tmp_path):
    card = tmp_path / "all.card.json"
    card.write_text(json.dumps({"probes": 186, "counts": {"core": 83}}))
    html = cards_html([card])
    assert str(card) in html and "<th>counts.core</th><td>83</td>" in html


def test_a_card_that_is_not_json_names_the_file(tmp_path):
    card = tmp_path / "broken.card.json"
    card.write_text("{")
    with pytest.raises(InputFormatError, match="broken.card.json"):
        cards_html([card])


def test_no_card_says_so():
    assert "No dataset card" in cards_html([])


def test_sources_show_pins_and_what_is_on_disk(tmp_path):
    fetched = tmp_path / "excerpt.bz2"
    fetched.write_bytes(b"x" * 1234)
    html = sources_html({
        "enwiki_excerpt": {"path": "test/test_data/excerpt.bz2", "package": "gensim",
                           "sha256": "ab" * 32, "size": 1234, "file": str(fetched)},
        "pushshift_2005_06": {"url": "https://example.org/RS_2005-06.zst", "sha256": None,
                              "size": None, "file": str(tmp_path / "absent.zst")}})
    assert "ab" * 32 in html and "1,234 B" in html
    assert "not pinned" in html and "not fetched" in html
    assert "https://example.org/RS_2005-06.zst" in html


def test_a_package_source_names_its_package():
    assert origin_text({"path": "test/x.txt", "package": "gensim"}) == (
        "test/x.txt (in Python package gensim)")


def test_the_config_is_shown_as_escaped_yaml():
    html = config_html({"report": {"tolerance": 0.05}, "equate": {"note": "<a & b>"}})
    assert "report:\n  tolerance: 0.05" in html and "&lt;a &amp; b&gt;" in html


def test_sources_no_section_names_are_listed_apart():
    html = sources_html({"dump": {"url": "https://example.org/a"},
                         "spare": {"path": "data/samples/spare.txt", "named": False}})
    named, unnamed = html.split("named by no section")
    assert "dump" in named and "spare" not in named and "spare" in unnamed


def test_each_sha256_says_whether_the_config_or_the_lock_pins_it():
    url = "https://example.org/a.tsv"
    sources = with_lock({"pinned": {"url": url, "sha256": "ab" * 32},
                         "locked": {"url": url},
                         "moved": {"url": url + "?v=2"},
                         "local": {"path": "data/samples/x"}},
                        {"locked": {"url": url, "sha256": "cd" * 32, "size": 1},
                         "moved": {"url": url, "sha256": "ef" * 32, "size": 1}})
    html = sources_html(sources)
    assert f"{'ab' * 32}</code> <small>from the config" in html
    assert f"{'cd' * 32}</code> <small>from the lock" in html
    # A lock entry for another URL does not pin the source.
    assert "ef" * 32 not in html and "not pinned (a local file)" in html
