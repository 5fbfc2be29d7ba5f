"""Shards write pages, sentences and links; gather resolves redirects and sums stats."""

from __future__ import annotations

import json
from dataclasses import replace

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import Page, write_dump, write_multistream_dump
from reprobe.errors import ReprobeError
from reprobe.wikipedia import gather, spilled
from reprobe.wikipedia.gather import MAX_REDIRECT_HOPS, gather_shards, resolve_redirects
from reprobe.wikipedia.plan import ShardPlan, check_dump, plan_shards, split_by_bytes
from reprobe.wikipedia.shard import ShardOutputs, read_shard


def read_one_shard(tmp_path, pages):
    dump = write_dump(tmp_path / "d.xml.bz2", pages)
    plan = plan_shards(dump, None, shards=1, block_pages=10)
    outputs = ShardOutputs.in_folder(tmp_path / "shard")
    stats = read_shard(plan, 0, outputs, progress=False, dump=dump)
    return outputs, stats


def test_article_text_keeps_prose_and_drops_templates_tables_refs_files(tmp_path, small_pages):
    outputs, _ = read_one_shard(tmp_path, small_pages)
    sentences = pq.read_table(outputs.sentences).to_pylist()
    text = " ".join(row["text"] for row in sentences if row["page_id"] == 1)
    assert "Freedonia is a country in western Europe with 12 km of coast." in text
    assert "It has 1,000 lakes." in text
    for dropped in ("Infobox", "Hidden source", "Table link", "42", "flag", "History",
                    "Countries", "Freedonien"):
        assert dropped not in text


def test_links_keep_sentence_token_span_surface_and_target(tmp_path, small_pages):
    outputs, _ = read_one_shard(tmp_path, small_pages)
    sentences = {(r["page_id"], r["sentence_index"]): r["tokens"]
                 for r in pq.read_table(outputs.sentences).to_pylist()}
    links = [r for r in pq.read_table(outputs.links).to_pylist() if r["page_id"] == 1]
    found = {(link["surface"], link["target"]) for link in links}
    assert found == {("country", "Country"), ("western Europe", "Europe"), ("lakes", "Lake"),
                     ("party", "Freedonian Party"), ("Old Name", "Old Name")}
    for link in links:
        tokens = sentences[(1, link["sentence_index"])][link["token_start"]:link["token_end"]]
        assert " ".join(tokens).replace(" ", "") == link["surface"].replace(" ", "")


def test_stats_count_every_page_by_what_happened_to_it(tmp_path, small_pages):
    outputs, stats = read_one_shard(tmp_path, small_pages)
    assert stats["pages_seen"] == 8
    assert stats["articles"] == 2 and stats["redirects"] == 4
    assert stats["other_namespace_pages"] == 1 and stats["skipped_pages"] == 1
    assert stats["links"] == 6
    assert stats["sentences_with_number"] == 3
    status = {r["page_id"]: r["status"] for r in pq.read_table(outputs.pages).to_pylist()}
    assert status[5] == "skipped: page without text"
    assert json.loads(outputs.stats.read_text())["articles"] == 2


def test_interleaved_shards_partition_the_pages(tmp_path):
    pages = [Page(i, f"Page {i}", f"Sentence {i}.") for i in range(1, 30)]
    dump = write_dump(tmp_path / "d.xml.bz2", pages)
    plan = plan_shards(dump, None, shards=3, block_pages=4)
    seen = []
    for shard in range(3):
        outputs = ShardOutputs.in_folder(tmp_path / f"s{shard}")
        read_shard(plan, shard, outputs, progress=False)
        ids = pq.read_table(outputs.pages)["page_id"].to_pylist()
        assert ids and all((i - 1) // 4 % 3 == shard for i in ids)
        seen += ids
    assert sorted(seen) == list(range(1, 30))


def test_multistream_shards_equal_a_plain_read(tmp_path, small_pages):
    pages = small_pages + [Page(100 + i, f"Extra {i}", f"Fact {i}: [[Lake]]s.") for i in range(9)]
    dump, index = write_multistream_dump(tmp_path / "m.xml.bz2", tmp_path / "i.txt.bz2",
                                         pages, pages_per_stream=3)
    plan = plan_shards(dump, index, shards=2, block_pages=100)
    folders = []
    for shard in range(2):
        folders.append(ShardOutputs.in_folder(tmp_path / f"s{shard}"))
        read_shard(plan, shard, folders[-1], progress=False)
    multi = gather_shards(folders, tmp_path / "gathered", 64)
    (tmp_path / "plain").mkdir()
    plain_outputs, _ = read_one_shard(tmp_path / "plain", pages)
    plain = gather_shards([plain_outputs], tmp_path / "gathered_plain", 64)
    assert {k: v for k, v in multi.items() if k != "shards"} == {
        k: v for k, v in plain.items() if k != "shards"}


def test_gather_resolves_redirect_chains_and_counts_cycles(tmp_path, small_pages):
    outputs, _ = read_one_shard(tmp_path, small_pages)
    stats = gather_shards([outputs], tmp_path / "out", 64)
    redirects = {r["title"]: (r["target"], r["hops"])
                 for r in pq.read_table(tmp_path / "out/redirects.parquet").to_pylist()}
    assert redirects["Older Name"] == ("Freedonia", 2)
    assert "Loop A" not in redirects and stats["unresolved_redirects"] == 2
    links = pq.read_table(tmp_path / "out/links.parquet").to_pylist()
    old = [link for link in links if link["raw_target"] == "Old Name"]
    assert old and old[0]["target"] == "Freedonia"
    assert stats["links_through_redirects"] == 1
    # Country, Europe, Lake, Freedonian Party, Freedonia (via "Old Name") and Sea.
    assert stats["distinct_link_targets"] == 6
    assert pq.read_table(tmp_path / "out/pages.parquet").num_rows == 7


def test_gathered_tables_do_not_depend_on_row_groups(tmp_path, small_pages, monkeypatch):
    outputs, _ = read_one_shard(tmp_path, small_pages)
    whole = gather_shards([outputs], tmp_path / "whole", 64)
    monkeypatch.setattr(spilled, "ROW_GROUP_ROWS", 1)  # a row group a row
    monkeypatch.setattr(gather, "BATCH_ROWS", 1)
    merged = gather_shards([outputs, outputs], tmp_path / "merged", 16)
    assert merged["distinct_link_targets"] == whole["distinct_link_targets"] == 6
    for name in ("redirects", "links"):
        one = pq.read_table(tmp_path / f"whole/{name}.parquet")
        two = pq.read_table(tmp_path / f"merged/{name}.parquet")
        assert two.to_pylist() == one.to_pylist() * (2 if name == "links" else 1), name
    assert pq.ParquetFile(tmp_path / "merged/links.parquet").metadata.num_row_groups == \
        2 * one.num_rows


def follow_redirects(direct: dict[str, str]) -> tuple[dict[str, tuple[str, int]], int]:
    """The chains followed one by one in Python (at most MAX_REDIRECT_HOPS, cycles and longer
    chains left unresolved): what the gather's joins must give."""
    resolved: dict[str, tuple[str, int]] = {}
    broken = 0
    for title, target in direct.items():
        hops, seen = 1, {title}
        while target in direct and hops < MAX_REDIRECT_HOPS and target not in seen:
            seen.add(target)
            target = direct[target]
            hops += 1
        if target in direct:
            broken += 1
        else:
            resolved[title] = (target, hops)
    return resolved, broken


def resolve_in_duckdb(tmp_path, shards: list[list[tuple[str, str]]]):
    """The gather's resolution of these shards' (title, target) redirects, in title order."""
    folders = []
    for index, pairs in enumerate(shards):
        folder = ShardOutputs.in_folder(tmp_path / f"r{index}")
        folder.pages.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.table({"title": [t for t, _ in pairs],
                                 "redirect_target": [g for _, g in pairs],
                                 "status": ["redirect"] * len(pairs)}), folder.pages)
        folders.append(folder)
    with spilled.duckdb_within(16, tmp_path) as connection:
        broken = resolve_redirects(connection, folders)
        rows = connection.execute("SELECT title, target, hops FROM resolved ORDER BY place"
                                  ).fetchall()
    return [(title, (target, hops)) for title, target, hops in rows], broken


def test_redirects_resolve_as_following_each_chain(tmp_path):
    chain = [(f"T{i}", f"T{i + 1}") for i in range(8)]
    cycle = [("A", "B"), ("B", "C"), ("C", "A"), ("Self", "Self"), ("Into", "A")]
    # A title listed again in a later shard keeps its first place and takes its last target.
    again = [("T0", "Elsewhere"), ("New", "T6")]
    found, broken = resolve_in_duckdb(tmp_path, [chain + cycle, again])
    direct = dict(chain + cycle)
    direct.update(again)
    expected, expected_broken = follow_redirects(direct)
    assert found == list(expected.items()) and broken == expected_broken
    assert dict(found)["T7"] == ("T8", 1) and dict(found)["T3"] == ("T8", 5)
    assert dict(found)["T0"] == ("Elsewhere", 1) and "A" not in dict(found)


def test_split_by_bytes_balances_and_covers():
    offsets = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90]
    ranges = split_by_bytes(offsets, 3)
    assert ranges[0][0] == 0 and ranges[-1][1] is None
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False))


def test_plan_records_the_dump_and_its_size_and_reads_back(tmp_path, small_pages):
    dump = write_dump(tmp_path / "d.xml.bz2", small_pages)
    plan = plan_shards(dump, None, shards=2, block_pages=10)
    assert plan.dump == str(dump) and plan.dump_size == dump.stat().st_size
    assert ShardPlan.from_json(plan.to_json()) == plan
    assert check_dump(plan, dump) == dump


def test_the_given_dump_is_read_not_the_plans_path(tmp_path, small_pages):
    dump = write_dump(tmp_path / "d.xml.bz2", small_pages)
    plan = plan_shards(dump, None, shards=1, block_pages=10)
    moved = tmp_path / "elsewhere" / "d.xml.bz2"
    moved.parent.mkdir()
    dump.rename(moved)
    stats = read_shard(plan, 0, ShardOutputs.in_folder(tmp_path / "s"), progress=False,
                       dump=moved)
    assert stats["articles"] == 2


@pytest.mark.parametrize("other", ["renamed.xml.bz2", "other/d.xml.bz2"])
def test_a_dump_unlike_the_plans_fails_naming_both(tmp_path, small_pages, other):
    dump = write_dump(tmp_path / "d.xml.bz2", small_pages)
    plan = plan_shards(dump, None, shards=1, block_pages=10)
    given = tmp_path / other
    given.parent.mkdir(exist_ok=True)
    write_dump(given, small_pages[:3])
    outputs = ShardOutputs.in_folder(tmp_path / "s")
    with pytest.raises(ReprobeError, match="is not the dump the shard plan was made from") as err:
        read_shard(plan, 0, outputs, progress=False, dump=given)
    assert str(given) in str(err.value) and str(dump) in str(err.value)
    assert not outputs.pages.exists() and not outputs.stats.exists()


def test_a_missing_dump_fails_naming_both(tmp_path, small_pages):
    dump = write_dump(tmp_path / "d.xml.bz2", small_pages)
    plan = plan_shards(dump, None, shards=1, block_pages=10)
    with pytest.raises(ReprobeError, match="no such file") as err:
        check_dump(plan, tmp_path / "gone.xml.bz2")
    assert str(dump) in str(err.value)


def test_a_plan_without_a_size_checks_the_name_only(tmp_path, small_pages):
    dump = write_dump(tmp_path / "d.xml.bz2", small_pages)
    old = json.loads(plan_shards(dump, None, shards=1, block_pages=10).to_json())
    del old["dump_size"]
    plan = ShardPlan.from_json(json.dumps(old))
    assert plan.dump_size is None and check_dump(plan, dump) == dump
    with pytest.raises(ReprobeError, match="size not recorded"):
        check_dump(replace(plan, dump=str(tmp_path / "x.xml.bz2")), dump)
