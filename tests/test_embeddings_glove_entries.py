"""GloVe's entries on disk: runs merged in bounded buffers, and the bounded-memory shuffle."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from reprobe.embeddings.glove_entries import (
    ENTRY,
    merge_runs,
    read_run,
    shuffle_entries,
    write_run,
)


def random_run(path: Path, rng: np.random.Generator, count: int, top: int) -> Path:
    """A run of `count` sorted unique keys below `top` with integer values."""
    keys = np.sort(rng.choice(top, size=count, replace=False)).astype(np.int64)
    write_run(path, keys, rng.integers(1, 100, size=count).astype(np.float64))
    return path


def entries_file(path: Path, count: int) -> Path:
    """An entries file of `count` distinct entries, in (i, j) order."""
    entries = np.zeros(count, dtype=ENTRY)
    entries["i"], entries["j"] = np.divmod(np.arange(count), 97)
    entries["x"] = np.arange(count) + 1.0
    entries.tofile(path)
    return path


def test_a_run_is_its_keys_then_its_values(tmp_path):
    write_run(tmp_path / "r.run", np.array([3, 7]), np.array([0.5, 2.0]))
    assert (tmp_path / "r.run").stat().st_size == 32
    keys, values = read_run(tmp_path / "r.run")
    assert keys.tolist() == [3, 7] and values.tolist() == [0.5, 2.0]


def test_runs_merge_into_sorted_unique_sums_through_small_buffers(tmp_path):
    rng = np.random.default_rng(0)
    runs = [random_run(tmp_path / f"{k}.run", rng, 5000, 20_000) for k in range(4)]
    write_run(tmp_path / "empty.run", np.empty(0, np.int64), np.empty(0))
    expected: dict[int, float] = {}
    for run in runs:
        for key, value in zip(*read_run(run), strict=True):
            expected[int(key)] = expected.get(int(key), 0.0) + value
    # No memory to speak of: each run is read 1,024 records at a time.
    count = merge_runs([*runs, tmp_path / "empty.run"], tmp_path / "m.bin", size=200,
                       scale=4.0, memory_bytes=0)
    merged = np.fromfile(tmp_path / "m.bin", dtype=ENTRY)
    assert count == len(merged) == len(expected)
    keys = merged["i"].astype(np.int64) * 200 + merged["j"]
    assert keys.tolist() == sorted(expected)
    assert (merged["x"] * 4.0).tolist() == [expected[key] for key in sorted(expected)]


def test_no_runs_merge_into_an_empty_file(tmp_path):
    assert merge_runs([], tmp_path / "m.bin", size=3, scale=1.0, memory_bytes=1 << 20) == 0
    assert (tmp_path / "m.bin").read_bytes() == b""


def test_the_shuffle_is_a_seeded_permutation_in_buckets_or_in_memory(tmp_path):
    source = entries_file(tmp_path / "e.bin", 10_000)
    original = np.fromfile(source, dtype=ENTRY)
    shuffled = {}
    for name, seed, memory in (("a", 1, 0), ("b", 1, 0), ("c", 2, 0), ("d", 1, 1 << 30)):
        shuffle_entries(source, tmp_path / f"{name}.bin", seed, memory)
        shuffled[name] = np.fromfile(tmp_path / f"{name}.bin", dtype=ENTRY)
        assert np.array_equal(np.sort(shuffled[name], order=["i", "j"]), original)
        # Far from the sorted order: few entries keep their neighbour.
        assert np.mean(np.diff(shuffled[name]["x"]) == 1) < 0.01
    assert (tmp_path / "a.bin").read_bytes() == (tmp_path / "b.bin").read_bytes()
    assert not np.array_equal(shuffled["a"], shuffled["c"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.bin", "b.bin", "c.bin", "d.bin",
                                                          "e.bin"]
