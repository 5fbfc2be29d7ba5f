"""Streaming pages out of plain and multistream dumps; errors that name the place."""

from __future__ import annotations

import bz2
from pathlib import Path

import pytest

from conftest import HEADER, Page, page_xml, write_dump, write_multistream_dump
from reprobe.errors import InputFormatError
from reprobe.wikipedia.dump import ByteRange, PageStreamCounts, iter_pages
from reprobe.wikipedia.plan import plan_shards, read_namespaces, read_stream_offsets


def test_pages_are_read_with_id_title_namespace_redirect_and_text(tmp_path, small_pages):
    dump = write_dump(tmp_path / "d.xml.bz2", small_pages)
    pages = list(iter_pages(dump))
    assert [p.page_id for p in pages] == [p.page_id for p in small_pages]
    assert pages[0].title == "Freedonia" and pages[0].text.startswith("{{Infobox")
    assert pages[1].redirect == "Freedonia"
    assert pages[3].namespace == 10
    assert pages[4].text is None


def test_plain_xml_is_read_too(tmp_path, small_pages):
    dump = write_dump(tmp_path / "d.xml.bz2", small_pages)
    plain = tmp_path / "d.xml"
    plain.write_bytes(bz2.decompress(dump.read_bytes()))
    assert [p.page_id for p in iter_pages(plain)] == [p.page_id for p in small_pages]


def test_truncated_bz2_names_file_and_byte_offset(tmp_path, small_pages):
    dump = write_dump(tmp_path / "d.xml.bz2", small_pages * 20)
    cut = tmp_path / "cut.xml.bz2"
    cut.write_bytes(dump.read_bytes()[: dump.stat().st_size // 2])
    with pytest.raises(InputFormatError) as error:
        list(iter_pages(cut))
    message = str(error.value)
    assert str(cut) in message
    assert "truncated bz2" in message and "byte offset" in message


def test_malformed_xml_names_file_line_and_last_page(tmp_path, small_pages):
    broken = "  <page><title>Broken</title><ns>0</ns>\n</mediawiki>"
    xml = HEADER + page_xml(small_pages[0]) + broken
    dump = tmp_path / "bad.xml.bz2"
    dump.write_bytes(bz2.compress(xml.encode()))
    with pytest.raises(InputFormatError) as error:
        list(iter_pages(dump))
    message = str(error.value)
    assert str(dump) in message and "XML line" in message and "after page id 1" in message


def test_page_without_id_is_counted_and_skipped(tmp_path, small_pages):
    xml = HEADER + "  <page><title>No id</title><ns>0</ns></page>\n" + page_xml(small_pages[5])
    dump = tmp_path / "noid.xml.bz2"
    dump.write_bytes(bz2.compress((xml + "</mediawiki>").encode()))
    counts = PageStreamCounts()
    pages = list(iter_pages(dump, counts=counts))
    assert [p.page_id for p in pages] == [6]
    assert counts.malformed_pages == 1


def test_multistream_byte_ranges_cover_every_page_once(tmp_path, small_pages):
    pages = [Page(i, f"Page {i}", f"Text {i}.") for i in range(1, 48)]
    dump, index = write_multistream_dump(tmp_path / "m.xml.bz2", tmp_path / "i.txt.bz2",
                                         pages, pages_per_stream=5)
    plan = plan_shards(dump, index, shards=3, block_pages=100)
    assert plan.mode == "multistream"
    seen = []
    for shard in range(3):
        seen += [p.page_id for p in iter_pages(dump, plan.byte_range(shard), fragment=True)]
    assert seen == list(range(1, 48))


def test_multistream_file_also_reads_as_a_whole(tmp_path):
    pages = [Page(i, f"Page {i}", "x") for i in range(1, 12)]
    dump, _ = write_multistream_dump(tmp_path / "m.xml.bz2", tmp_path / "i.txt.bz2", pages, 4)
    assert [p.page_id for p in iter_pages(dump)] == list(range(1, 12))


def test_stream_offsets_are_distinct_and_ordered(tmp_path):
    pages = [Page(i, f"Page: {i}", "x") for i in range(1, 11)]
    _, index = write_multistream_dump(tmp_path / "m.xml.bz2", tmp_path / "i.txt.bz2", pages, 3)
    offsets = read_stream_offsets(index)
    assert len(offsets) == 4 and offsets == sorted(offsets)


def test_bad_index_line_is_named(tmp_path):
    index = tmp_path / "i.txt.bz2"
    index.write_bytes(bz2.compress(b"100:1:A\nnot an index line\n"))
    with pytest.raises(InputFormatError, match="line 2"):
        read_stream_offsets(index)


def test_namespaces_come_from_siteinfo(tmp_path, small_pages):
    dump = write_dump(tmp_path / "d.xml.bz2", small_pages)
    namespaces = read_namespaces(dump)
    assert namespaces["Category"] == 14 and namespaces["Image"] == 6


def test_excerpt_reads_206_pages(excerpt: Path):
    pages = list(iter_pages(excerpt, ByteRange()))
    assert len(pages) == 206
    assert sum(p.redirect is not None for p in pages) == 100
