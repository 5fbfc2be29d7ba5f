"""reprobe.wikipedia.spilled: Parquet inputs checked, DuckDB within a budget, row groups."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reprobe.errors import InputFormatError
from reprobe.wikipedia import spilled


def test_a_missing_column_names_the_file_and_the_column(tmp_path: Path) -> None:
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"title": ["a"]}), path)
    assert spilled.parquet_with_columns(path, ["title"]).metadata.num_rows == 1
    with pytest.raises(InputFormatError, match="column 'target'") as error:
        spilled.parquet_with_columns(path, ["title", "target"])
    assert error.value.path == str(path)
    (tmp_path / "bad.parquet").write_text("not parquet", encoding="utf-8")
    with pytest.raises(InputFormatError, match="not a readable Parquet file"):
        spilled.parquet_with_columns(tmp_path / "bad.parquet", ["title"])


def test_a_connection_keeps_to_its_budget_and_removes_its_spill_folder(tmp_path: Path) -> None:
    stale = tmp_path / "out" / ".spill-killed"  # what a killed run left
    (stale / "sub").mkdir(parents=True)
    (stale / "sub" / "block.tmp").write_bytes(b"x" * 10)
    with spilled.duckdb_within(32, tmp_path / "out") as connection:
        limit = connection.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
        threads = connection.execute("SELECT current_setting('threads')").fetchall()[0][0]
        spill = connection.execute("SELECT current_setting('temp_directory')").fetchall()[0][0]
        assert Path(spill).parent == tmp_path / "out" and Path(spill).is_dir()
        # A sort of more than the budget holds, spilled and still whole.
        count = connection.execute(
            "SELECT count(*) FROM (SELECT md5(range::VARCHAR) AS k FROM range(1500000) "
            "ORDER BY k)").fetchall()[0][0]
    assert limit.replace(" ", "").upper() in {"32.0MIB", "30.5MIB", "32MB", "32.0MB"}, limit
    assert threads == 1 and count == 1_500_000
    assert list((tmp_path / "out").iterdir()) == []


def test_query_rows_are_written_in_row_groups_as_write_table_cuts_them(tmp_path: Path,
                                                                      monkeypatch) -> None:
    schema = pa.schema([("n", pa.int64()), ("word", pa.string())])
    query = "SELECT range AS n, 'w' || range AS word FROM range(10) ORDER BY n"
    with spilled.duckdb_within(32, tmp_path) as connection:
        monkeypatch.setattr(spilled, "ROW_GROUP_ROWS", 4)
        assert spilled.write_query(connection, query, schema, tmp_path / "q.parquet") == 10
        monkeypatch.setattr(spilled, "ROW_GROUP_ROWS", 1024 * 1024)
        spilled.write_query(connection, query, schema, tmp_path / "whole.parquet")
        assert spilled.write_query(connection, query + " LIMIT 0", schema,
                                   tmp_path / "empty.parquet") == 0
    written = pq.ParquetFile(tmp_path / "q.parquet")
    assert written.metadata.num_row_groups == 3 and written.schema_arrow == schema
    table = pa.table({"n": list(range(10)), "word": [f"w{n}" for n in range(10)]}, schema=schema)
    assert written.read().equals(table)
    pq.write_table(table, tmp_path / "direct.parquet", compression="zstd")
    assert (tmp_path / "whole.parquet").read_bytes() == \
        (tmp_path / "direct.parquet").read_bytes()
    assert pq.read_table(tmp_path / "empty.parquet").num_rows == 0
