"""The streamed NewsNLI gather writes what the in-memory gather writes from the same shards."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from reprobe.equate.jsonl import Pair, card_path
from reprobe.equate.sets import newsnli_gather
from reprobe.equate.sets.newsnli import SHARD_COLUMNS, gather_newsnli
from reprobe.equate.sets.newsnli_gather import cut_of, kept_pairs, stream_newsnli_shards
from reprobe.io import stats_path


def top_fraction(scored: list[tuple[float, int, Pair]], fraction: float
                 ) -> tuple[list[Pair], float | None]:
    """The cut as sorting every candidate makes it (the gather before streaming): the
    ceil(fraction * n) best pairs (ties by input order) in input order, and the cut score."""
    keep = math.ceil(fraction * len(scored))
    best = sorted(scored, key=lambda item: (-item[0], item[1]))[:keep]
    threshold = best[-1][0] if best else None
    return [pair for _, _, pair in sorted(best, key=lambda item: item[1])], threshold


def test_cut_matches_top_fraction_on_ties() -> None:
    """The cut over every score keeps what sorting every candidate keeps, ties included (scores
    a bit apart, zeros of either sign)."""
    rng = random.Random(3)
    near = [0.5, float(np.nextafter(0.5, 1.0)), float(np.nextafter(0.5, 0.0)), 1.0, 0.0, -0.0]
    for n in range(60):
        scores = [rng.choice([*near, 0.25, 0.5, 1 / 3]) for _ in range(n)]
        scored = [(s, i, Pair(str(i), "h", "")) for i, s in enumerate(scores)]
        expected, threshold = top_fraction(scored, 0.5)
        cut = cut_of(np.array(scores, dtype=np.float64), 0.5)
        rows = [(s, str(i), "h") for i, s in enumerate(scores)]
        assert list(kept_pairs(rows, cut)) == expected
        assert cut.threshold == threshold and cut.kept == len(expected)


def write_shard(path: Path, rows: list[tuple[float, int, int, str, str]], stories: int) -> None:
    """A shard as `write_newsnli_shard` writes it: candidates (pandas Parquet), counts beside."""
    pd.DataFrame(rows, columns=list(SHARD_COLUMNS)).to_parquet(path, index=False)
    counts = {"stories": stories, "highlights": 2 * stories, "highlights_temporal": 1,
              "highlights_without_quantity": 0, "highlights_used": stories, "flipped": 1}
    stats_path(path).write_text(json.dumps(counts), encoding="utf-8")


def tricky_shards(folder: Path) -> list[Path]:
    """Shards with stories interleaved, ties at the cut across shards, a duplicated key and an
    empty shard."""
    shards = {
        "a": [(0.5, 0, 0, "a0", "h"), (0.5, 0, 1, "a1", "h"), (0.9, 3, 0, "a3", "h"),
              (0.2, 3, 1, "a3b", "h"), (0.5, 6, 0, "a6", "h")],
        "b": [(0.5, 1, 0, "b1", "h"), (0.1, 4, 0, "b4", "h"), (0.5, 4, 1, "b4b", "h"),
              (0.5, 6, 0, "dup of a6", "h")],
        "c": [],
        "d": [(0.7, 2, 0, "d2", "h"), (0.5, 2, 1, "d2b", "h"), (0.5, 5, 0, "d5", "h"),
              (0.3, 5, 1, "d5b", "h"), (0.5, 5, 2, "d5c", "h")],
    }
    paths = []
    for name, rows in shards.items():
        write_shard(folder / f"{name}.parquet", rows, len({r[1] for r in rows}))
        paths.append(folder / f"{name}.parquet")
    return paths


def gathered_before(stories: Path, paths: list[Path], out: Path) -> dict:
    """The in-memory gather (every shard read whole), as before streaming."""
    frames = [pd.read_parquet(path) for path in paths]
    counts = [json.loads(stats_path(path).read_text(encoding="utf-8")) for path in paths]
    return gather_newsnli(frames, counts, out, sources={"stories": stories})


def assert_same_output(tmp_path: Path, paths: list[Path]) -> dict:
    """Both gathers write the same bytes (pairs and card); return the streamed one's counts."""
    stories = tmp_path / "stories.tgz"
    stories.write_bytes(b"stories")
    (tmp_path / "before").mkdir(exist_ok=True)
    (tmp_path / "after").mkdir(exist_ok=True)
    before = gathered_before(stories, paths, tmp_path / "before" / "newsnli.jsonl")
    after = stream_newsnli_shards(stories, paths, tmp_path / "after" / "newsnli.jsonl")
    for name in ("newsnli.jsonl", card_path(Path("newsnli.jsonl")).name):
        assert (tmp_path / "before" / name).read_bytes() == (tmp_path / "after" / name).read_bytes()
    assert before == after
    return after


@pytest.mark.parametrize("batch_rows", [1, 2, 1024])
def test_streamed_gather_is_byte_identical(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           batch_rows: int) -> None:
    """Ties at the cut, a duplicated key and interleaved shards, across batch boundaries."""
    monkeypatch.setattr(newsnli_gather, "RUN_GROUP_ROWS", batch_rows)
    monkeypatch.setattr(newsnli_gather, "COPY_BATCH_ROWS", batch_rows + 1)
    paths = tricky_shards(tmp_path)
    # The same shard listed twice: every key duplicated, the first listing's rows first.
    counts = assert_same_output(tmp_path, [*paths, paths[0]])
    assert counts["candidates"] == 19 and counts["kept"] == 10
    counts = assert_same_output(tmp_path, paths)
    assert counts["candidates"] == 14 and counts["kept"] == 7
    assert counts["jaccard_threshold"] == 0.5 and counts["stories"] == 8
    assert not list((tmp_path / "after").glob("*.spill-*"))


def test_unordered_shard_is_sorted_by_duckdb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    """A shard not in input order goes through DuckDB's sort and gives the same bytes."""
    monkeypatch.setattr(newsnli_gather, "RUN_GROUP_ROWS", 2)
    paths = tricky_shards(tmp_path)
    rows = pd.read_parquet(paths[3]).iloc[::-1]
    write_shard(paths[3], list(rows.itertuples(index=False, name=None)), 2)
    merged = newsnli_gather.merged_rows
    monkeypatch.setattr(newsnli_gather, "merged_rows", lambda *_: pytest.fail("merged"))
    assert_same_output(tmp_path, [*paths, paths[0]])
    monkeypatch.setattr(newsnli_gather, "merged_rows", merged)
    assert not list((tmp_path / "after").glob("*.spill-*"))


def test_no_candidates(tmp_path: Path) -> None:
    """Only empty shards: nothing kept, no threshold, as before."""
    write_shard(tmp_path / "e.parquet", [], 0)
    counts = assert_same_output(tmp_path, [tmp_path / "e.parquet"])
    assert counts["kept"] == 0 and counts["jaccard_threshold"] is None
