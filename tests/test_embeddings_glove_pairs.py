"""One counting process's buffers: the dense table's shape, and dense and spilled pairs alike."""

from __future__ import annotations

import numpy as np

from reprobe.embeddings.glove_count import distance_weights
from reprobe.embeddings.glove_entries import read_run
from reprobe.embeddings.glove_pairs import PairCounter, dense_rows


def test_the_dense_table_holds_the_pairs_of_small_rank_products():
    # 7 slots: P = 3 fits (rows of 3, 1, 1, 0 columns), P = 4 would take 4 + 2 + 1 + 1.
    assert dense_rows(4, 7).tolist() == [0, 3, 4, 5, 5]
    assert dense_rows(4, 100).tolist() == [0, 4, 8, 12, 16]
    assert dense_rows(4, 0).tolist() == [0, 0, 0, 0, 0]


def counted(tmp_path, name: str, memory_bytes: int, ids: np.ndarray,
            lines: np.ndarray) -> dict[int, float]:
    """Every key's summed (scaled) weight over the runs of one PairCounter."""
    folder = tmp_path / name
    folder.mkdir()
    counter = PairCounter(folder, name, memory_bytes, 50, 3, distance_weights(3)[0])
    counter.add(ids, lines)
    totals: dict[int, float] = {}
    for run in counter.finish():
        keys, values = read_run(run)
        assert (np.diff(keys) > 0).all()
        for key, value in zip(keys.tolist(), values.tolist(), strict=True):
            totals[key] = totals.get(key, 0.0) + value
    return totals


def test_dense_and_spilled_pairs_sum_alike(tmp_path):
    rng = np.random.default_rng(0)
    ids = np.minimum(rng.zipf(1.5, 5000) - 1, 49).astype(np.int32)
    lines = np.repeat(np.arange(500, dtype=np.int32), 10)
    # A table for every pair and a buffer that never fills; a small table and a buffer of a
    # few windows, spilled hundreds of times.
    roomy = counted(tmp_path, "roomy", 1 << 20, ids, lines)
    tight = counted(tmp_path, "tight", 400, ids, lines)
    assert len(list((tmp_path / "tight").iterdir())) > 100
    assert tight == roomy
    # Line 0: every pair within 3 words, both ways, weighted 6/d (lcm(1, 2, 3) = 6).
    first = ids[:10].tolist()
    expected: dict[int, float] = {}
    for t in range(10):
        for d in range(1, 4):
            if t + d < 10:
                for a, b in ((first[t], first[t + d]), (first[t + d], first[t])):
                    expected[a * 50 + b] = expected.get(a * 50 + b, 0.0) + 6 / d
    line_zero = counted(tmp_path, "line", 1 << 20, ids[:10], lines[:10])
    assert line_zero == expected
