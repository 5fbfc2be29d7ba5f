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
    fragment mode the parser is given a synthetic root around them (and closes it only if the
    range did not end with the dump's own closing tag).
    """
    reader = _PageReader(path, counts if counts is not None else PageStreamCounts())
    if fragment:
        yield from reader.feed(MEDIAWIKI_OPEN, span.start)
    for offset, data in iter_decompressed(path, span):
        yield from reader.feed(data, offset)
    if fragment and reader.depth > 0:
        yield from reader.feed(b"</mediawiki>", reader.offset)
    yield from reader.close()


class _PageReader:
    """An XML pull parser that turns <page> elements into RawPages and forgets them."""

    def __init__(self, path: Path, counts: PageStreamCounts) -> None:
        self.path = path
        self.counts = counts
        self.parser = ET.XMLPullParser(events=("start", "end"))
        self.root: ET.Element | None = None
        self.depth = 0
        self.offset = 0
        self.last_id: int | None = None

    def feed(self, data: bytes, offset: int) -> Iterator[RawPage]:
        """Parse more bytes; yield the pages they complete."""
        self.offset = offset
        self.parser.feed(data)
        yield from self._pages()

    def close(self) -> Iterator[RawPage]:
        """Finish the document; a cut-off document is an error."""
        try:
            self.parser.close()
        except ET.ParseError as exc:
            raise _xml_error(self.path, self.offset, exc, self.last_id) from exc
        yield from self._pages()

    def _pages(self) -> Iterator[RawPage]:
        """Turn the parser's pending events into pages.

        The pull parser queues a syntax error behind the events parsed before it, so pages
        completed before the error are handed out first and the message names the last one.
        """
        try:
            yield from self._pages_until_error()
        except ET.ParseError as exc:
            raise _xml_error(self.path, self.offset, exc, self.last_id) from exc

    def _pages_until_error(self) -> Iterator[RawPage]:
        """Pages from the pending events; a queued syntax error is raised when reached."""
        for event, elem in self.parser.read_events():
            if event == "start":
                self.depth += 1
                if self.depth == 1:
                    self.root = elem
                continue
            self.depth -= 1
            if self.depth != 1 or _local(elem.tag) != "page":
                continue
            page = _page_from_element(elem, self.offset)
            if self.root is not None:
                # Dropping finished pages from the root keeps memory flat over the dump.
                self.root.clear()
            if isinstance(page, str):
                self.counts.malformed_pages += 1
                log.warning("%s: byte offset %d: skipped %s (after page id %s)",
                            self.path, self.offset, page, self.last_id)
                continue
            self.last_id = page.page_id
            yield page


def _xml_error(
    path: Path, offset: int, exc: ET.ParseError, last_id: int | None
) -> InputFormatError:
    """Build the error for malformed XML, naming where in the file it happened."""
    line, column = exc.position
    after = f", after page id {last_id}" if last_id is not None else ""
    return InputFormatError(
        path,
        f"compressed byte offset ~{offset}, XML line {line} column {column}{after}",
        f"malformed XML ({exc.msg if hasattr(exc, 'msg') else exc})",
    )
