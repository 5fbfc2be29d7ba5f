"""Num and All corpora: selection, sampling, sharding and determinism."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reprobe.errors import InputFormatError
from reprobe.numeracy.corpora import (
    SelectionSampler,
    ShardPart,
    allocate,
    build_corpora,
    concatenate_corpora,
    count_shard,
    plan_quotas,
    select_shard,
)
from reprobe.numeracy.settings import SelectionSettings
from reprobe.step_settings import schema_default, settings_from_schema

SCHEMA = pa.schema([("page_id", pa.int64()), ("sentence_index", pa.int32()),
                    ("text", pa.string()), ("tokens", pa.list_(pa.string()))])


def write_shard(path: Path, sentences: list[str]) -> Path:
    """A sentences Parquet shard with one page holding `sentences` (tokens split on spaces)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table({
        "page_id": [1] * len(sentences),
        "sentence_index": list(range(len(sentences))),
        "text": sentences,
        "tokens": [s.split(" ") for s in sentences],
    }, schema=SCHEMA), path)
    return path


def shards(tmp_path: Path) -> list[Path]:
    """Two shards: 5 of their 20 sentences have a numeral."""
    first = [f"plain sentence {i} ." if i % 4 == 0 else f"Plain words number {chr(97 + i)} ."
             for i in range(12)]
    second = ["It had twenty-one rooms .", *[f"Nothing here {chr(97 + i)} ." for i in range(6)],
              "One more ."]
    return [write_shard(tmp_path / "shards/0000/sentences.parquet", first),
            write_shard(tmp_path / "shards/0001/sentences.parquet", second)]


def selection(**changes: object) -> dict[str, object]:
    """The selection's settings as keywords: the schema's (numeracy.…), but for `changes`."""
    return asdict(settings_from_schema(SelectionSettings, "numeracy", **changes))


def build(tmp_path: Path, out: str = "out", **options) -> tuple[list[str], list[str], dict]:
    """Build both corpora from the two test shards; return their lines and stats."""
    folder = tmp_path / out
    stats = build_corpora(shards(tmp_path), folder / "num.txt", folder / "all.txt",
                          folder / "stats.json", work_dir=folder / "parts",
                          **{"seed": 7, **selection(),
                             "extra_text": schema_default("numeracy.extra_text"), **options})
    return ((folder / "num.txt").read_text().splitlines(),
            (folder / "all.txt").read_text().splitlines(), stats)


def test_num_holds_every_sentence_with_a_numeral_in_source_order(tmp_path):
    num, _, stats = build(tmp_path)
    assert num == ["plain sentence 0 .", "plain sentence 4 .", "plain sentence 8 .",
                   "It had twenty-one rooms .", "One more ."]
    assert stats["num"] == {"sentences": 5, "tokens": 20}


def test_all_is_a_sample_of_every_sentence_as_large_as_num(tmp_path):
    num, every, stats = build(tmp_path)
    sources = {line for path in shards(tmp_path)
               for line in pq.read_table(path)["text"].to_pylist()}
    assert len(every) == len(num) == stats["all"]["sentences"] == 5
    assert len(set(every)) == 5 and set(every) <= sources
    # Stratified by source: 12 and 8 of 20 sentences give quotas 3 and 2.
    assert sum(line.startswith(("It", "Nothing", "One")) for line in every) == 2


def test_same_seed_gives_the_same_bytes(tmp_path):
    _, first, _ = build(tmp_path, "a")
    _, again, _ = build(tmp_path, "b")
    others = {tuple(build(tmp_path, f"s{seed}", seed=seed)[1]) for seed in range(8)}
    assert first == again and len(others) > 1


def test_max_sentences_caps_both_corpora(tmp_path):
    num, every, stats = build(tmp_path, max_sentences=2)
    assert len(num) == len(every) == 2
    assert stats["num"]["sentences"] == stats["all"]["sentences"] == 2


def test_lowercase_lowers_the_lines(tmp_path):
    num, every, _ = build(tmp_path, lowercase=True)
    assert "it had twenty-one rooms ." in num
    assert all(line == line.lower() for line in num + every)


def test_extra_text_is_one_more_source(tmp_path):
    extra = tmp_path / "gigaword.txt"
    extra.write_text("Sales rose 5 percent .\n\nNo figures at all .\n", encoding="utf-8")
    num, every, stats = build(tmp_path, extra_text=extra)
    assert num[-1] == "Sales rose 5 percent ."
    assert stats["shards"] == 3 and len(every) == len(num) == 6


def test_whitespace_inside_a_token_splits_it(tmp_path):
    path = tmp_path / "s.parquet"
    pq.write_table(pa.table({"tokens": [["about", "3\u00a0000", "people"]]}), path)
    count_shard(path, tmp_path / "counts.json")
    select_shard(path, tmp_path / "num.txt", tmp_path / "all.txt", tmp_path / "stats.json",
                 counts=[tmp_path / "counts.json"], shard_index=0, seed=1,
                 **selection())
    assert (tmp_path / "num.txt").read_text() == "about 3 000 people\n"


def test_allocate_splits_in_proportion_and_adds_up_exactly():
    assert allocate(5, [12, 8]) == [3, 2]
    assert allocate(4, [3, 3, 3]) == [2, 1, 1]
    assert sum(allocate(7, [5, 0, 9, 3])) == 7


def test_plan_gives_num_everything_when_uncapped():
    counts = [{"sentences": 10, "tokens": 0, "num_sentences": 4, "num_tokens": 0},
              {"sentences": 30, "tokens": 0, "num_sentences": 2, "num_tokens": 0}]
    assert plan_quotas(counts, None) == [{"num": 4, "all": 2}, {"num": 2, "all": 4}]


def test_selection_sampler_keeps_exactly_the_quota_uniformly():
    kept = [0] * 10
    for run in range(3000):
        sampler = SelectionSampler(random.Random(run), population=10, quota=3)
        picks = [sampler.take() for _ in range(10)]
        assert sum(picks) == 3
        kept = [k + p for k, p in zip(kept, picks, strict=True)]
    assert all(abs(k / 3000 - 0.3) < 0.04 for k in kept)


def test_counts_of_another_version_of_the_source_are_refused(tmp_path):
    first, second = shards(tmp_path)
    count_shard(second, tmp_path / "counts.json")
    with pytest.raises(InputFormatError, match="count it again"):
        select_shard(first, tmp_path / "n.txt", tmp_path / "a.txt", tmp_path / "s.json",
                     counts=[tmp_path / "counts.json"], shard_index=0, seed=1,
                     **selection())
    assert not (tmp_path / "n.txt").exists()


def test_a_shard_without_tokens_names_the_file(tmp_path):
    path = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"text": ["no tokens column"]}), path)
    with pytest.raises(InputFormatError, match="bad.parquet: schema"):
        count_shard(path, tmp_path / "counts.json")


def test_invalid_utf8_in_a_text_source_names_the_line(tmp_path):
    path = tmp_path / "extra.txt"
    path.write_bytes(b"fine 1\n\xff\xfe 2\n")
    with pytest.raises(InputFormatError, match="extra.txt: line 2"):
        count_shard(path, tmp_path / "counts.json")


def test_concatenate_joins_parts_in_order_and_sums_stats(tmp_path):
    parts = []
    for k, lines in enumerate((["a 1"], ["b 2", "c 3"])):
        part = ShardPart.in_folder(tmp_path / str(k))
        part.num.parent.mkdir()
        part.num.write_text("".join(f"{line}\n" for line in lines))
        part.all.write_text("x\n")
        part.stats.write_text(json.dumps({"num": {"sentences": len(lines), "tokens": 2},
                                          "all": {"sentences": 1, "tokens": 1}}))
        parts.append(part)
    stats = concatenate_corpora(parts, tmp_path / "num.txt", tmp_path / "all.txt",
                                tmp_path / "stats.json")
    assert (tmp_path / "num.txt").read_text() == "a 1\nb 2\nc 3\n"
    assert (tmp_path / "all.txt").read_text() == "x\nx\n"
    assert stats["num"] == {"sentences": 3, "tokens": 4} and stats["shards"] == 2
