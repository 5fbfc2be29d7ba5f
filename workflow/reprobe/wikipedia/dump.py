"""Stream <page> records out of a MediaWiki XML dump, plain or bz2 (single- or multi-stream)."""

from __future__ import annotations

import bz2
import logging
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from reprobe.errors import InputFormatError

log = logging.getLogger("reprobe.wikipedia")

READ_SIZE = 1 << 18
MEDIAWIKI_OPEN = b'<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/">'


@dataclass(frozen=True, slots=True)
class RawPage:
    """One <page> of a dump: identity, namespace, redirect target and wikitext."""

    page_id: int
    title: str
    namespace: int
    redirect: str | None
    text: str | None
    offset: int  # compressed byte offset of the block the page ended in (for messages)


@dataclass(frozen=True, slots=True)
class ByteRange:
    """A half-open range of compressed bytes; `end=None` reads to the end of the file."""

    start: int = 0
    end: int | None = None


def iter_decompressed(path: Path, span: ByteRange = ByteRange()) -> Iterator[tuple[int, bytes]]:
    """Yield (compressed offset, decompressed bytes) from a .bz2 (any number of streams) or .xml.

    In a bz2 file the range must start at a stream boundary (a multistream index gives them).
    A stream cut before its end-of-stream marker raises InputFormatError with its offset.
    """
    with open(path, "rb") as handle:
        handle.seek(span.start)
        blocks = _read_blocks(handle, span)
        if path.suffix != ".bz2":
            yield from blocks
            return
        decompressor = bz2.BZ2Decompressor()
        stream_start, fed = span.start, False
        offset = span.start
        for offset, block in blocks:
            pending = block
            while pending:
                fed = True
                try:
                    data = decompressor.decompress(pending)
                except OSError as exc:
                    raise InputFormatError(
                        path, f"byte offset {stream_start}", f"corrupt bz2 stream ({exc})"
                    ) from exc
                if data:
                    yield offset, data
                if not decompressor.eof:
                    break
                # Multistream (and pbzip2) files hold many streams back to back.
                pending = decompressor.unused_data
                stream_start = offset - len(pending)
                decompressor, fed = bz2.BZ2Decompressor(), False
        if fed and not decompressor.eof:
            raise InputFormatError(
                path,
                f"byte offset {offset} (stream starting at byte {stream_start})",
                "truncated bz2 stream: the file ends before the stream's end marker",
            )


def _read_blocks(handle: BinaryIO, span: ByteRange) -> Iterator[tuple[int, bytes]]:
    """Yield (offset after the block, block) for the raw bytes of a range."""
    offset = span.start
    while span.end is None or offset < span.end:
        want = READ_SIZE if span.end is None else min(READ_SIZE, span.end - offset)
        block = handle.read(want)
        if not block:
            return
        offset += len(block)
        yield offset, block


def _local(tag: str) -> str:
    """Drop the XML namespace from a tag name."""
    return tag.rsplit("}", 1)[-1]


def _page_from_element(elem: ET.Element, offset: int) -> RawPage | str:
    """Turn a parsed <page> element into a RawPage, or a reason string when it lacks a field."""
    title = ns = page_id = redirect = text = None
    for child in elem:
        name = _local(child.tag)
        if name == "title":
            title = child.text or ""
        elif name == "ns":
            ns = child.text
        elif name == "id":
            page_id = child.text
        elif name == "redirect":
            redirect = child.get("title")
        elif name == "revision":
            for field in child:
                if _local(field.tag) == "text":
                    text = field.text
    if page_id is None or not page_id.strip().isdigit():
        return "page without a numeric <id>"
    if title is None:
        return "page without a <title>"
    return RawPage(
        page_id=int(page_id),
        title=title,
        namespace=int(ns) if ns and ns.strip().lstrip("-").isdigit() else 0,
        redirect=redirect,
        text=text,
        offset=offset,
    )


@dataclass
class PageStreamCounts:
    """What the page stream saw beyond the pages it yielded."""

    malformed_pages: int = 0


def iter_pages(
    path: Path,
    span: ByteRange = ByteRange(),
    *,
    fragment: bool = False,
    counts: PageStreamCounts | None = None,
) -> Iterator[RawPage]:
    """Yield every <page> of a dump (or of a multistream byte range when `fragment`).

    A multistream range holds bare <page> elements without the <mediawiki> root, so in
    fragment mode the parser is given a synthetic root around them.
    """
    counts = counts if counts is not None else PageStreamCounts()
    parser = ET.XMLPullParser(events=("start", "end"))
    if fragment:
        parser.feed(MEDIAWIKI_OPEN)
    root: ET.Element | None = None
    depth = 0
    last_id: int | None = None
    offset = span.start
    for offset, data in iter_decompressed(path, span):
        try:
            parser.feed(data)
            events = list(parser.read_events())
        except ET.ParseError as exc:
            raise _xml_error(path, offset, exc, last_id) from exc
        for event, elem in events:
            if event == "start":
                depth += 1
                if depth == 1:
                    root = elem
                continue
            depth -= 1
            if depth != 1 or _local(elem.tag) != "page":
                continue
            page = _page_from_element(elem, offset)
            if root is not None:
                # Dropping finished pages from the root keeps memory flat over the dump.
                root.clear()
            if isinstance(page, str):
                counts.malformed_pages += 1
                log.warning("%s: byte offset %d: skipped %s (after page id %s)",
                            path, offset, page, last_id)
                continue
            last_id = page.page_id
            yield page
    if fragment:
        try:
            parser.feed(b"</mediawiki>")
            parser.close()
        except ET.ParseError as exc:
            raise _xml_error(path, offset, exc, last_id) from exc
    else:
        try:
            parser.close()
        except ET.ParseError as exc:
            raise _xml_error(path, offset, exc, last_id) from exc


def _xml_error(path: Path, offset: int, exc: ET.ParseError, last_id: int | None) -> InputFormatError:
    """Build the error for malformed XML, naming where in the file it happened."""
    line, column = exc.position
    after = f", after page id {last_id}" if last_id is not None else ""
    return InputFormatError(
        path,
        f"compressed byte offset ~{offset}, XML line {line} column {column}{after}",
        f"malformed XML ({exc.msg if hasattr(exc, 'msg') else exc})",
    )
