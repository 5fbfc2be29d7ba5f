"""Tests for the WIKI-PSE corpora: token forms, annotation, one shard's files, the gather."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from reprobe.wikipse.resource.corpora import (
    Link,
    ShardCorpora,
    annotate,
    build_shard_corpora,
    gather_corpora,
    mention_token,
    read_counts,
    sclass_token,
)

TYPED = {"New York City": ["-location"], "Apple Inc.": ["-organization", "-product"],
         "Apple": ["-food", "-living_thing"]}
RANK = {"-location": 0, "-organization": 1, "-product": 2, "-food": 3, "-living_thing": 4}


def test_token_forms() -> None:
    assert mention_token("New  York") == "@new_york@"
    assert sclass_token(mention_token("New York"), "-location") == "@new_york@-location"


def test_annotate_replaces_typed_links_and_keeps_the_rest() -> None:
    tokens = ["He", "left", "New", "York", "for", "Apple", "and", "Rome", "."]
    links = [Link(2, 4, "New York", "New York City"), Link(5, 6, "Apple", "Apple Inc."),
             Link(7, 8, "Rome", "Rome")]
    words, classes, mentions = annotate(tokens, links, TYPED, RANK)
    assert words == ["he", "left", "@new_york@", "for", "@apple@", "and", "rome", "."]
    # A mention with two classes: one token, the class first in the class order.
    assert classes == ["he", "left", "@new_york@-location", "for", "@apple@-organization",
                       "and", "rome", "."]
    assert mentions == [("@new_york@", ["-location"]),
                        ("@apple@", ["-organization", "-product"])]


def test_a_sentence_without_a_typed_link_is_left_out() -> None:
    assert annotate(["Rome", "."], [Link(0, 1, "Rome", "Rome")], TYPED, RANK) == ([], [], [])


def test_overlapping_links_keep_the_first() -> None:
    links = [Link(0, 2, "New York", "New York City"), Link(1, 2, "York", "New York City")]
    words, _, mentions = annotate(["New", "York", "."], links, TYPED, RANK)
    assert words == ["@new_york@", "."] and len(mentions) == 1


def write_shard(folder: Path) -> tuple[Path, Path, Path, Path]:
    """A two-sentence Wikipedia shard, its redirects and typed targets."""
    folder.mkdir(parents=True, exist_ok=True)
    sentences = folder / "sentences.parquet"
    pq.write_table(pa.table({"page_id": [1, 1], "sentence_index": [0, 1],
                             "text": ["", ""],
                             "tokens": [["Apple", "grows", "in", "NYC", "."],
                                        ["Nothing", "here", "."]]}), sentences)
    links = folder / "links.parquet"
    pq.write_table(pa.table({"page_id": [1, 1], "sentence_index": [0, 0],
                             "token_start": [0, 3], "token_end": [1, 4],
                             "surface": ["Apple", "NYC"], "target": ["Apple", "NYC"]}), links)
    redirects = folder / "redirects.parquet"
    pq.write_table(pa.table({"title": ["NYC"], "target": ["New York City"]}), redirects)
    typed = folder / "typed.parquet"
    pq.write_table(pa.table({"title": list(TYPED), "sclasses": list(TYPED.values())}), typed)
    return sentences, links, redirects, typed


def shard_out(folder: Path) -> ShardCorpora:
    """Where a shard's corpora go."""
    return ShardCorpora(folder / "word.txt", folder / "sclass.txt", folder / "mentions.parquet",
                        folder / "tokens.parquet", folder / "stats.json")


def test_a_shard_and_the_gather(tmp_path: Path) -> None:
    inputs = write_shard(tmp_path / "in")
    outs = []
    for shard in ("0000", "0001"):
        out = shard_out(tmp_path / shard)
        out.words.parent.mkdir()
        stats = build_shard_corpora(*inputs, list(RANK), out)
        outs.append(out.words.parent)
    assert stats == {"annotated_mentions": 2, "sentences": 2, "sentences_kept": 1, "tokens": 5}
    assert (tmp_path / "0000/word.txt").read_text() == "@apple@ grows in @nyc@ .\n"
    assert (tmp_path / "0000/sclass.txt").read_text() == \
        "@apple@-food grows in @nyc@-location .\n"
    gathered = gather_corpora(outs, tmp_path / "corpus")
    assert gathered["sentences_kept"] == 2 and gathered["shards"] == 2
    mentions, tokens = read_counts(tmp_path / "corpus")
    assert mentions == {("@apple@", "-food"): 2, ("@apple@", "-living_thing"): 2,
                        ("@nyc@", "-location"): 2}
    assert tokens["@apple@"] == 2 and tokens["grows"] == 2
    assert len((tmp_path / "corpus/word.txt").read_text().splitlines()) == 2
    assert json.loads((tmp_path / "corpus/stats.json").read_text())["tokens"] == 10
