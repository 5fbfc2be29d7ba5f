"""Tests for the WIKI-PSE corpora: token forms, annotation, one shard's files, the gather."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reprobe.errors import InputFormatError
from reprobe.wikipse.resource import corpora
from reprobe.wikipse.resource.corpora import (
    MENTION_COUNTS_SCHEMA,
    TOKEN_COUNTS_SCHEMA,
    Link,
    ShardCorpora,
    annotate,
    build_shard_corpora,
    gather_corpora,
    mention_token,
    read_frequent_counts,
    read_redirects,
    sclass_token,
    write_counts,
    write_summed_counts,
    write_token_counts,
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
    gathered = gather_corpora(outs, tmp_path / "corpus", memory_mb=64)
    assert gathered["sentences_kept"] == 2 and gathered["shards"] == 2
    words, vocabulary = read_frequent_counts(tmp_path / "corpus", 2, 16, tmp_path / "out")
    assert words == {"@apple@": {"-food": 2, "-living_thing": 2}, "@nyc@": {"-location": 2}}
    assert list(words) == ["@apple@", "@nyc@"] and vocabulary == 5  # every token, twice
    assert read_frequent_counts(tmp_path / "corpus", 3, 16, tmp_path / "out") == ({}, 0)
    pq.write_table(pa.table({"token": ["@nyc@"], "count": [3]}),
                   tmp_path / "corpus/tokens.parquet")  # only @nyc@ reaches 3
    assert read_frequent_counts(tmp_path / "corpus", 3, 16, tmp_path / "out") == (
        {"@nyc@": {"-location": 2}}, 1)
    assert len((tmp_path / "corpus/word.txt").read_text().splitlines()) == 2
    assert json.loads((tmp_path / "corpus/stats.json").read_text())["tokens"] == 10


# --- memory: redirects read filtered, counts summed in a budget --------------------------------


def write_redirects(path: Path, pairs: list[tuple[str, str]]) -> Path:
    """A gathered redirects table of these (title, target) pairs, with hops beside them."""
    pq.write_table(pa.table({"title": [t for t, _ in pairs], "target": [t for _, t in pairs],
                             "hops": pa.array([1] * len(pairs), pa.int8())}), path)
    return path


def test_read_redirects_keeps_only_the_titles_asked_for(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(corpora, "BATCH_ROWS", 2)
    pairs = [(f"Other {i}", f"Elsewhere {i}") for i in range(9)]
    pairs[3:3] = [("NYC", "New York"), ("Zürich (city)", "Zürich")]
    pairs.append(("NYC", "New York City"))  # a title listed twice keeps its last row, as a dict
    path = write_redirects(tmp_path / "redirects.parquet", pairs)
    wanted = pa.array(["NYC", "Zürich (city)", "Not a redirect"])
    assert read_redirects(path, wanted) == {"NYC": "New York City",
                                            "Zürich (city)": "Zürich"}


def test_read_redirects_names_the_file_and_the_missing_column(tmp_path: Path) -> None:
    path = tmp_path / "redirects.parquet"
    pq.write_table(pa.table({"title": ["NYC"], "redirect_target": ["New York City"]}), path)
    with pytest.raises(InputFormatError, match="column 'target'") as error:
        read_redirects(path, pa.array(["NYC"]))
    assert error.value.path == str(path)


def test_a_shard_reads_only_the_redirects_and_types_of_its_own_targets(
        tmp_path: Path, monkeypatch) -> None:
    sentences, links, _, typed = write_shard(tmp_path / "in")
    # The gathered table holds every redirect of the dump; the shard needs one of them.
    pairs = [(f"Title {i}", f"Target {i}") for i in range(50)] + [("NYC", "New York City")]
    redirects = write_redirects(tmp_path / "in/all_redirects.parquet", pairs)
    monkeypatch.setattr(corpora, "BATCH_ROWS", 7)
    read: list[dict[str, str]] = []

    def spy(path: Path, titles: pa.Array) -> dict[str, str]:
        read.append(read_redirects(path, titles))
        return read[-1]

    monkeypatch.setattr(corpora, "read_redirects", spy)
    read_typed = corpora.read_typed_targets
    typed_read: list[dict[str, list[str]]] = []
    monkeypatch.setattr(corpora, "read_typed_targets",
                        lambda path, only: typed_read.append(read_typed(path, only))
                        or typed_read[-1])
    out = shard_out(tmp_path / "0000")
    out.words.parent.mkdir()
    build_shard_corpora(sentences, links, redirects, typed, list(RANK), out)
    assert read == [{"NYC": "New York City"}]
    # Of the typed targets, only those the shard links to ("Apple Inc." is not among them).
    assert typed_read == [{"Apple": TYPED["Apple"], "New York City": TYPED["New York City"]}]
    assert out.sclasses.read_text() == "@apple@-food grows in @nyc@-location .\n"


# Keys that sort differently by code point, UTF-16 or case, and counts that tie.
UNICODE_WORDS = ["@z@", "@Z@", "@é@", "@e@", "@東京@", "@😀@", "@ﬁ@", "@ß@", "@a_b@", "@a@"]


def shard_counts(k: int) -> tuple[Counter, Counter]:
    """Shard k's mention and token counts: overlapping keys, ties, unicode."""
    words = UNICODE_WORDS[k % 3:] + UNICODE_WORDS[:k % 3]
    mentions = Counter({(w, c): 1 + (i + k) % 2 for i, w in enumerate(words)
                        for c in ("-location", "-person") if (i + len(c)) % 3})
    tokens = Counter({w: 2 for w in words[:7]} | {"the": 5 + k, "ça": 1})
    return mentions, tokens


def test_summed_counts_write_the_bytes_a_counter_wrote(tmp_path: Path) -> None:
    mention_parts, token_parts = [], []
    every_mention: Counter = Counter()
    every_token: Counter = Counter()
    for k in range(4):
        mentions, tokens = shard_counts(k)
        every_mention.update(mentions)
        every_token.update(tokens)
        mention_parts.append(tmp_path / f"mentions{k}.parquet")
        token_parts.append(tmp_path / f"tokens{k}.parquet")
        write_counts(mentions, mention_parts[-1])
        write_token_counts(tokens, token_parts[-1])
    write_summed_counts(mention_parts, MENTION_COUNTS_SCHEMA, tmp_path / "mentions.parquet", 64)
    assert write_summed_counts(token_parts, TOKEN_COUNTS_SCHEMA, tmp_path / "tokens.parquet",
                               64) == len(every_token)
    # What summing into one Counter and writing it gave before.
    write_counts(every_mention, tmp_path / "mentions_counter.parquet")
    write_token_counts(every_token, tmp_path / "tokens_counter.parquet")
    for name in ("mentions", "tokens"):
        assert (tmp_path / f"{name}.parquet").read_bytes() == \
            (tmp_path / f"{name}_counter.parquet").read_bytes(), name
    written = pq.read_table(tmp_path / "tokens.parquet")
    assert written["token"].to_pylist() == sorted(every_token)  # code point order
    assert written.schema == TOKEN_COUNTS_SCHEMA


def test_summing_names_the_shard_without_a_column(tmp_path: Path) -> None:
    path = tmp_path / "tokens.parquet"
    pq.write_table(pa.table({"token": ["a"], "freq": [1]}), path)
    with pytest.raises(InputFormatError, match="column 'count'") as error:
        write_summed_counts([path], TOKEN_COUNTS_SCHEMA, tmp_path / "out.parquet", 64)
    assert error.value.path == str(path)


def test_summing_spills_beyond_its_memory_and_writes_row_groups_as_write_table(
        tmp_path: Path, monkeypatch) -> None:
    from reprobe.wikipedia import spilled

    monkeypatch.setattr(spilled, "ROW_GROUP_ROWS", 1000)  # several row groups
    tokens = Counter({f"w{n:05d}": n % 7 + 1 for n in range(2500)})
    parts = []
    for k in range(3):
        parts.append(tmp_path / f"tokens{k}.parquet")
        write_token_counts(tokens, parts[-1])
    rows = write_summed_counts(parts, TOKEN_COUNTS_SCHEMA, tmp_path / "tokens.parquet", 16)
    written = pq.ParquetFile(tmp_path / "tokens.parquet")
    assert rows == 2500 and written.metadata.num_row_groups == 3
    table = written.read()
    assert table["token"].to_pylist() == sorted(tokens)
    assert table["count"].to_pylist() == [3 * tokens[t] for t in sorted(tokens)]
    assert not list(tmp_path.glob(".spill-*"))  # the spill folder is gone
