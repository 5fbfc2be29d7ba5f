"""Counting with Arrow in bounded memory: summed count tables and distinct values, compacted."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reprobe.errors import InputFormatError
from reprobe.wikipedia import arrow_counts
from reprobe.wikipedia.arrow_counts import (
    DistinctValues,
    SummedCounts,
    add_value_counts,
    parquet_with_columns,
)

KEYS = ["Zürich", "a", "東京", "B", "😀", "ß", "a b", "Z"]


def zipf_values(size: int, seed: int = 0) -> list[str]:
    """Keys drawn from a Zipf law over KEYS and numbered titles (many repeats, a long tail)."""
    ranks = np.random.default_rng(seed).zipf(1.4, size)
    return [KEYS[r - 1] if r <= len(KEYS) else f"title {r}" for r in ranks]


def counted(values: list[str], min_rows: int) -> pa.Table:
    """The values counted in batches of 97 with SummedCounts."""
    summed = SummedCounts(["target"], "links", min_compact_rows=min_rows)
    for start in range(0, len(values), 97):
        add_value_counts(summed, pa.array(values[start:start + 97], pa.string()))
    return summed.result()


@pytest.mark.parametrize("min_rows", [1, 3, 1_000_000])
def test_value_counts_equal_a_counter(min_rows: int) -> None:
    values = zipf_values(2_000)
    table = counted(values, min_rows)
    assert table.column_names == ["target", "links"]
    assert table.schema.types == [pa.string(), pa.int64()]
    found = dict(zip(table["target"].to_pylist(), table["links"].to_pylist(), strict=True))
    assert len(found) == table.num_rows and found == Counter(values)
    # The order of the keys is the input's business alone: the same input, the same table.
    assert counted(values, min_rows).equals(table)


def test_summed_counts_by_two_keys_equal_a_counter() -> None:
    words, classes = zipf_values(500, seed=1), zipf_values(500, seed=2)
    counts = list(range(500))
    summed = SummedCounts(["word", "sclass"], "freq", min_compact_rows=10)
    for start in range(0, 500, 40):
        part = slice(start, start + 40)
        summed.add(pa.table({"word": words[part], "sclass": classes[part],
                             "freq": pa.array(counts[part], pa.int64()), "ignored": counts[part]}))
    expected: Counter = Counter()
    for word, sclass, freq in zip(words, classes, counts, strict=True):
        expected[(word, sclass)] += freq
    table = summed.result()
    assert table.column_names == ["word", "sclass", "freq"]
    found = zip(table["word"].to_pylist(), table["sclass"].to_pylist(),
                table["freq"].to_pylist(), strict=True)
    pairs = {(w, c): n for w, c, n in found}
    assert len(pairs) == table.num_rows and pairs == expected


def test_nothing_added_is_an_empty_table() -> None:
    table = SummedCounts(["token"], "count").result()
    assert table.num_rows == 0 and table.schema.types == [pa.string(), pa.int64()]


def test_the_module_minimum_is_read_when_a_counter_starts(monkeypatch) -> None:
    monkeypatch.setattr(arrow_counts, "MIN_COMPACT_ROWS", 2)
    summed = SummedCounts(["k"], "n")
    summed.add(pa.table({"k": ["x", "y"], "n": [1, 1]}))
    assert summed.pending == [] and summed.merged is not None  # merged at two rows


@pytest.mark.parametrize("min_rows", [1, 7, None])
def test_distinct_values_count_as_a_set_does(min_rows: int | None) -> None:
    values = [*zipf_values(3_000), None, None]
    distinct = DistinctValues(min_compact_rows=min_rows)
    for start in range(0, len(values), 128):
        distinct.add(pa.array(values[start:start + 128], pa.string()))
    assert distinct.count() == len(set(values))
    assert DistinctValues().count() == 0


def test_a_missing_column_names_the_file_and_the_column(tmp_path) -> None:
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"title": ["a"]}), path)
    assert parquet_with_columns(path, ["title"]).metadata.num_rows == 1
    with pytest.raises(InputFormatError, match="column 'target'") as error:
        parquet_with_columns(path, ["title", "target"])
    assert error.value.path == str(path)
    (tmp_path / "bad.parquet").write_text("not parquet", encoding="utf-8")
    with pytest.raises(InputFormatError, match="not a readable Parquet file"):
        parquet_with_columns(tmp_path / "bad.parquet", ["title"])
