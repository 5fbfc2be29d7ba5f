"""Tests for RedditNLI candidates built from Pushshift r/economics submissions."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import zstandard

from reprobe.equate.jsonl import card_path, read_pairs
from reprobe.equate.sets import redditnli
from reprobe.equate.sets.newsnli import token_set
from reprobe.equate.sets.recovery import as_pair, normalise
from reprobe.equate.sets.redditnli import (
    SECONDS_PER_DAY,
    Title,
    build_redditnli_candidates,
    dump_titles,
    gather_redditnli_shards,
    has_meta,
    pair_titles,
    read_submissions,
    top_pairs,
    window_pairs,
    write_dump_titles,
)
from reprobe.errors import InputFormatError
from reprobe.io import stats_path

DUMP = Path(__file__).resolve().parents[1] / "data/samples/equate/reddit_economics.ndjson.zst"


def _title(day: float, text: str, n: int = 0) -> Title:
    """A title posted `day` days after the epoch."""
    return Title(day * SECONDS_PER_DAY, f"t{n}", text, token_set(text))


@pytest.mark.parametrize(("title", "meta"), [
    ("[Meta] Should we ban 10 more news sites?", True),
    ("AMA: I studied 30 years of central bank policy", True),
    ("Weekly discussion thread: 5 questions about inflation", True),
    ("Check out r/finance for 3 more charts", True),
    ("Mod post: 2 new rules for submissions", True),
    ("Drama at the Fed as rates rise 0.25 percent", False),
    ("Oil prices fall below 50 dollars a barrel", False),
])
def test_meta_markers(title: str, meta: bool) -> None:
    """Meta-forum markers are matched as words or tags, not inside other words ("drama")."""
    assert has_meta(title) is meta


def test_titles_filtered_from_sample() -> None:
    """Case-insensitive subreddit, meta and quantity filters, reposts dropped, time-sorted."""
    stats: Counter[str] = Counter()
    titles = deduplicate(dump_titles(DUMP, "economics", stats), stats)
    assert (stats["submissions"], stats["meta"], stats["without_quantity"], stats["reposts"],
            stats["titles"]) == (38, 5, 4, 1, 28)
    assert "Oil prices fall below 50 dollars a barrel" in {t.text for t in titles}  # ECONOMICS
    assert [t.created for t in titles] == sorted(t.created for t in titles)


def test_three_day_window() -> None:
    """Only titles at most three days apart (inclusive) are paired, earlier title first."""
    titles = [_title(0, "a", 0), _title(2.5, "b", 1), _title(3.0, "c", 2), _title(6.0, "d", 3)]
    pairs = {(a.text, b.text) for a, b in window_pairs(titles, 3 * SECONDS_PER_DAY)}
    assert pairs == {("a", "b"), ("a", "c"), ("b", "c"), ("c", "d")}


def test_top_n_by_jaccard() -> None:
    """The best `top` pairs by Jaccard, best first; disjoint pairs are never kept."""
    titles = [_title(0, "gdp grew 2 percent", 0), _title(0.1, "gdp grew 3 percent", 1),
              _title(0.2, "oil fell 2 percent", 2), _title(0.3, "cats", 3)]
    best = top_pairs(window_pairs(titles, SECONDS_PER_DAY), 2)
    assert [(a.text, b.text) for _, a, b in best] == [
        ("gdp grew 2 percent", "gdp grew 3 percent"), ("gdp grew 2 percent", "oil fell 2 percent")]
    assert len(top_pairs(window_pairs(titles, SECONDS_PER_DAY), 100)) == 3  # "cats" shares none


def test_build_from_sample(tmp_path: Path) -> None:
    """Top-N candidates from the sample; similar titles four days apart are not paired."""
    out = tmp_path / "reddit.jsonl"
    stats = build_redditnli_candidates([DUMP], out, top=10, days=3)
    pairs = [(p.sentence1, p.sentence2) for p in map(as_pair, read_pairs(out, labelled=False))]
    assert stats["kept"] == len(pairs) == 10
    assert pairs[0] == ("US unemployment rate falls to 5.6 percent",
                        "Unemployment rate drops to 5.6 percent as hiring picks up")
    assert not any("household debt" in a.lower() and "household debt" in b.lower()
                   for a, b in pairs)
    assert build_redditnli_candidates([DUMP], tmp_path / "all.jsonl", top=300, days=3)["kept"] < 300


def test_plain_ndjson_and_malformed_line(tmp_path: Path) -> None:
    """Plain NDJSON is read too; a malformed line is named in the error."""
    text = zstandard.ZstdDecompressor().decompress(DUMP.read_bytes(), max_output_size=1 << 20)
    plain = tmp_path / "dump.ndjson"
    plain.write_bytes(text)
    assert sum(1 for _ in read_submissions(plain)) == 40
    lines = text.decode().splitlines()
    lines.insert(6, '{"subreddit": "economics", "title": ')
    plain.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputFormatError, match=r"dump\.ndjson: line 7: not JSON"):
        build_redditnli_candidates([plain], tmp_path / "x.jsonl", top=300, days=3)
    bad = tmp_path / "bad.ndjson"
    bad.write_text(json.dumps({"subreddit": "Economics", "title": "x 5", "id": "a"}) + "\n")
    with pytest.raises(InputFormatError, match="line 1: expected a numeric 'created_utc'"):
        build_redditnli_candidates([bad], tmp_path / "y.jsonl", top=300, days=3)


def test_dump_shards_gather_to_the_single_process_result(tmp_path: Path) -> None:
    """One title shard per dump, gathered in dump order: the same pairs as one pass, with
    reposts across dumps dropped as in one pass."""
    lines = zstandard.ZstdDecompressor().decompress(
        DUMP.read_bytes(), max_output_size=1 << 20).decode().splitlines()
    dumps = [tmp_path / "RS_a.ndjson", tmp_path / "RS_b.ndjson"]
    dumps[0].write_text("\n".join(lines[:20]) + "\n")
    dumps[1].write_text("\n".join(lines[20:]) + "\n")
    single = build_redditnli_candidates(dumps, tmp_path / "one.jsonl", top=12, days=3)
    parquets = [tmp_path / "a.parquet", tmp_path / "b.parquet"]
    for dump, parquet in zip(dumps, parquets, strict=True):
        write_dump_titles(dump, parquet)
    gathered = gather_redditnli_shards(parquets, tmp_path / "two.jsonl", top=12, days=3)
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    keys = ("submissions", "meta", "without_quantity", "reposts", "titles", "kept")
    assert {k: gathered[k] for k in keys} == {k: single[k] for k in keys}
    assert gathered["titles"] == 28 and gathered["reposts"] == 1


def deduplicate(titles: list[Title], stats: Counter[str]) -> list[Title]:
    """The in-memory deduplication the streamed one replaced (the reference it is tested
    against): reposts (same normalised text as an earlier title) dropped, sorted by time, id."""
    seen: set[str] = set()
    kept: list[Title] = []
    for title in titles:
        key = normalise(title.text)
        if key in seen:
            stats["reposts"] += 1
        else:
            seen.add(key)
            kept.append(title)
    kept.sort(key=lambda t: (t.created, t.id))
    stats["titles"] = len(kept)
    return kept


def _reference_gather(parquets: list[Path], out: Path, *, top: int, days: float) -> None:
    """The gather as it was before streaming: every shard's titles deduplicated in memory."""
    import pandas as pd

    stats: Counter[str] = Counter()
    titles = []
    for path in parquets:
        stats.update(json.loads(stats_path(path).read_text(encoding="utf-8")))
        frame = pd.read_parquet(path)
        titles += [Title(float(c), str(i), t, token_set(t))
                   for c, i, t in zip(frame["created"], frame["id"], frame["text"], strict=True)]
    pair_titles(deduplicate(titles, stats), stats, out, top=top, days=days,
                sources={f"shard{i}": Path(p) for i, p in enumerate(parquets)})


def _shard(path: Path, rows: list[tuple[float, str, str]]) -> Path:
    """A title shard (as `write_dump_titles` writes it) with these rows and zero counts."""
    import pandas as pd

    pd.DataFrame(rows, columns=["created", "id", "text"]).to_parquet(path, index=False)
    stats_path(path).write_text(json.dumps({"submissions": len(rows), "meta": 0,
                                            "without_quantity": 0}))
    return path


def test_streaming_gather_matches_the_in_memory_one(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Byte-identical jsonl and card: reposts across shards keep the first in dump order (not
    the earliest posted), equal (time, id) keep input order, heap ties keep the earlier pair,
    across batch boundaries and an empty shard."""
    monkeypatch.setattr(redditnli, "BATCH_ROWS", 3)
    day = SECONDS_PER_DAY
    first = [(5 * day, "a1", "GDP grew 2 percent"), (1 * day, "a2", "Oil fell 3 percent"),
             (1 * day, "a3", "Oil fell 4 percent"), (1 * day, "a3", "Rates rose 1 percent"),
             (2 * day, "a4", "Rates rose 2 percent"), (2 * day, "a4", "rates  ROSE 2 percent")]
    second = [(0.5 * day, "b1", "gdp grew   2 PERCENT"), (1 * day, "a3", "Oil fell 5 percent"),
              (1.5 * day, "a0", "Jobs up 2 percent"), (9 * day, "b2", "Jobs up 3 percent"),
              (9 * day, "b2", "Jobs up 4 percent"), (9.5 * day, "b3", "Oil fell 4 percent")]
    parquets = [_shard(tmp_path / "a.parquet", first), _shard(tmp_path / "e.parquet", []),
                _shard(tmp_path / "b.parquet", second)]
    for top in (1, 4, 300):
        for name in ("stream", "memory"):
            (tmp_path / name).mkdir(exist_ok=True)
        streamed = tmp_path / "stream" / "redditnli.jsonl"
        reference = tmp_path / "memory" / "redditnli.jsonl"
        counts = gather_redditnli_shards(parquets, streamed, top=top, days=3)
        _reference_gather(parquets, reference, top=top, days=3)
        assert streamed.read_bytes() == reference.read_bytes()
        assert card_path(streamed).read_bytes() == card_path(reference).read_bytes()
        assert (counts["reposts"], counts["titles"]) == (3, 9)
        assert sorted(p.name for p in (tmp_path / "stream").iterdir()) == [
            "redditnli.jsonl", "redditnli.jsonl.card.json"]  # the spill folder is gone
