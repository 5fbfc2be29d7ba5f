"""A multistream Wikipedia dump of any size, from the gensim excerpt's pages, for the scale
benchmark.

Page n of the dump is the excerpt's page n mod P (P = its page count, or fewer with
`excerpt_pages`) in copy k = n // P. As in benchmarks/dumps.py, copy k >= 1 shifts the page id
by k * ID_STRIDE and appends " (copy k)" to the title and the redirect target; here every link
target of the copy gets the same suffix as well, so the dump's distinct link targets, titles and
redirects grow with it as a larger Wikipedia's would. Every copy's prose (text outside templates,
links, tags and URLs) has a share MUTATION of its words replaced by words of the open vocabulary
(scale_inputs), so the dump's vocabulary grows too and no two copies are the same text.

English Wikipedia has about 10M redirects for 330M links (3%, issue 32's figures); the excerpt has
100 redirects for 23,800 links the reader keeps. After each page come as many synthetic
redirects as make up the difference (Poisson, from the page's links): each turns one of the
page's link targets into a redirect to a new title, so links resolve through redirects as in
the real dump.

The XML is written as the real multistream dump is: the header in its own bz2 stream, then one
stream per PAGES_PER_STREAM pages, then the footer, with the `offset:page_id:title` index
(bz2). `titles.txt` lists every link target, resolved, and every article title: the topics of the
synthetic Freebase dump.
"""

from __future__ import annotations

import bz2
import json
import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO
from xml.sax.saxutils import escape, quoteattr, unescape

import numpy as np

if TYPE_CHECKING:
    from scale_types import Level
from dumps import ID_STRIDE, copy_page, excerpt_path, split_dump
from scale_inputs import FORMAT_VERSION, cached, zipf_words

from reprobe.wikipedia.titles import normalise_title

PAGES_PER_STREAM = 100
MUTATION = 0.2
NEW_WORDS_FROM = 1000  # replacement words come from this rank on: rarer ones, as in new text
# The shard reader keeps ~73% of the excerpt's [[…]] links (those in references, templates and
# hidden namespaces are not in the rendered text): the ratios below are per link it keeps.
RENDERED_SHARE = 0.73
REDIRECTS_PER_LINK = 10e6 / 330e6 * RENDERED_SHARE
SYNTHETIC_ID = 5_000_000  # above every page id of the excerpt, below ID_STRIDE
_TEXT = re.compile(r"(<text[^>]*>)(.*?)(</text>)", re.DOTALL)
_LINK = re.compile(r"\[\[([^\[\]|#:{}<>\n]+)((?:#[^\[\]|\n]*)?)(?=\||\]\])")
_MARKUP = re.compile(r"\{\{|\}\}|\[\[|\]\]|&lt;.*?&gt;|\[[a-z]+://[^\s\]]*")
_WORD = re.compile(r"(?<![&;\w/.])[A-Za-z][a-z]{2,}(?![;\w])")
_LETTERS = re.compile(r"[A-Za-z]+")
_TITLE = re.compile(r"<title>(.*?)</title>")
_ID = re.compile(r"<id>(\d+)</id>")


@dataclass(frozen=True)
class WikiInfo:
    """A generated dump: its files and what it holds."""

    path: str
    index: str
    titles: str
    size_pages: int  # excerpt pages asked for (the ladder's size)
    excerpt_pages: int
    pages: int  # every <page>, the synthetic redirects included
    redirects: int
    links: int  # [[...]] links to the main namespace in the wikitext
    compressed_bytes: int
    uncompressed_bytes: int
    distinct_words: int
    seed: int
    format_version: int = FORMAT_VERSION


def rename_links(text: str, copy: int) -> str:
    """Every main-namespace link target of a copy's wikitext suffixed " (copy k)"."""
    if copy == 0:
        return text
    return _LINK.sub(lambda m: f"[[{m[1].rstrip()} (copy {copy}){m[2]}", text)


def mutate_prose(text: str, rng: np.random.Generator) -> str:
    """Wikitext with a share MUTATION of its prose words (outside markup) replaced."""
    pieces, depth, start = [], 0, 0
    for match in _MARKUP.finditer(text):
        segment = text[start:match.start()]
        pieces.append(_mutate_segment(segment, rng) if depth == 0 else segment)
        token = match[0]
        depth += 1 if token in ("{{", "[[") else -1 if token in ("}}", "]]") else 0
        depth = max(depth, 0)
        pieces.append(token)
        start = match.end()
    tail = text[start:]
    pieces.append(_mutate_segment(tail, rng) if depth == 0 else tail)
    return "".join(pieces)


def _mutate_segment(segment: str, rng: np.random.Generator) -> str:
    """One markup-free segment with a share of its words replaced by open-vocabulary words."""
    found = _WORD.findall(segment)
    if not found:
        return segment
    chosen = rng.random(len(found)) < MUTATION
    words = iter(zipf_words(rng, int(chosen.sum()), NEW_WORDS_FROM))
    decisions = iter(chosen.tolist())

    def replace(match: re.Match) -> str:
        """The word, or its replacement where one was drawn."""
        if not next(decisions):
            return match[0]
        word = next(words)
        return word.capitalize() if match[0][0].isupper() else word
    return _WORD.sub(replace, segment)


def link_targets(text: str) -> list[str]:
    """The normalised main-namespace link targets of (XML-escaped) wikitext, in order."""
    return [normalise_title(unescape(m[1])) for m in _LINK.finditer(text)]


def redirect_xml(page_id: int, title: str, target: str) -> str:
    """A redirect <page> as a dump writes it."""
    return (f"  <page>\n    <title>{escape(title)}</title>\n    <ns>0</ns>\n"
            f"    <id>{page_id}</id>\n    <redirect title={quoteattr(target)} />\n"
            f"    <revision>\n      <id>{page_id}</id>\n"
            "      <timestamp>2016-04-22T00:00:00Z</timestamp>\n"
            "      <contributor>\n        <username>scale</username>\n        <id>1</id>\n"
            "      </contributor>\n      <model>wikitext</model>\n"
            "      <format>text/x-wiki</format>\n"
            f"      <text xml:space=\"preserve\">#REDIRECT [[{escape(target)}]]</text>\n"
            "    </revision>\n  </page>\n")


class DumpWriter:
    """Pages into a multistream bz2 dump and its index, PAGES_PER_STREAM pages a stream."""

    def __init__(self, out: BinaryIO, index: BinaryIO, header: str) -> None:
        """Start the dump with its header, as a stream of its own."""
        self.out, self.index = out, index
        self.offset = self.out.write(bz2.compress(header.encode("utf-8")))
        self.uncompressed = len(header.encode("utf-8"))
        self.block: list[str] = []
        self.lines: list[str] = []

    def add(self, page: str) -> None:
        """Add one <page> element; a full block becomes a stream."""
        title = unescape(_TITLE.search(page)[1])
        self.lines.append(f"{self.offset}:{_ID.search(page)[1]}:{title}\n")
        self.block.append(page)
        if len(self.block) == PAGES_PER_STREAM:
            self.flush()

    def flush(self) -> None:
        """Write the pending pages as one bz2 stream, and their index lines."""
        if self.block:
            data = "".join(self.block).encode("utf-8")
            self.uncompressed += len(data)
            self.offset += self.out.write(bz2.compress(data, 9))
            self.index.write("".join(self.lines).encode("utf-8"))
            self.block, self.lines = [], []

    def close(self, footer: str) -> int:
        """Write the last pages and the footer; the dump's uncompressed size."""
        self.flush()
        self.out.write(bz2.compress(footer.encode("utf-8")))
        return self.uncompressed + len(footer.encode("utf-8"))


def excerpt_pages(limit: int | None) -> tuple[str, list[str]]:
    """The excerpt's header and its pages (the first `limit` of them, if given)."""
    header, pages = split_dump(bz2.decompress(excerpt_path().read_bytes()).decode("utf-8"))
    return header, pages[:limit] if limit else pages


def page_titles(pages: list[str], copy: int) -> set[str]:
    """The normalised titles the excerpt's pages take in a copy (never made redirects)."""
    suffix = f" (copy {copy})" if copy else ""
    return {normalise_title(unescape(_TITLE.search(page)[1])) + suffix for page in pages}


def generated_pages(pages: list[str], count: int, seed: int, rate: float,
                    titles: dict[str, str]) -> Iterator[tuple[str, bool, int]]:
    """The dump's pages, each with whether it is a redirect and its links; fills `titles`
    (link target or article title → the title a synthetic redirect resolves it to, or "")."""
    synthetic, reserved = 0, set()
    for ordinal in range(count):
        copy, index = divmod(ordinal, len(pages))
        if index == 0:
            reserved = page_titles(pages, copy)
        rng = np.random.default_rng([seed, copy, index])
        page = copy_page(pages[index], copy)
        match = _TEXT.search(page)
        if match is None:
            yield f"  {page}\n", "<redirect" in page, 0
            continue
        text = rename_links(mutate_prose(match[2], rng), copy)
        page = f"  {page[:match.start(2)]}{text}{page[match.end(2):]}\n"
        is_redirect = "<redirect" in page
        if not is_redirect:
            titles.setdefault(normalise_title(unescape(_TITLE.search(page)[1])), "")
        found = link_targets(text)
        yield page, is_redirect, len(found)
        fresh = [t for t in dict.fromkeys(found) if t and t not in titles and t not in reserved]
        for target in fresh[:int(rng.poisson(rate * len(found)))]:
            resolved = f"{target} ({zipf_words(rng, 1, NEW_WORDS_FROM)[0]})"
            titles[target] = resolved
            synthetic += 1
            yield (redirect_xml(SYNTHETIC_ID + copy * ID_STRIDE + synthetic, target, resolved),
                   True, 1)
        for target in found:
            titles.setdefault(target, "")


def synthetic_rate(pages: list[str]) -> float:
    """Synthetic redirects a link, to bring the excerpt's redirects up to REDIRECTS_PER_LINK."""
    links = sum(len(link_targets(page)) for page in pages)
    redirects = sum("<redirect" in page for page in pages)
    return max(REDIRECTS_PER_LINK - redirects / max(links, 1), 0.0)


def build_wiki(folder: Path, size_pages: int, seed: int = 0,
               excerpt_limit: int | None = None) -> WikiInfo:
    """The dump of `size_pages` excerpt pages, its index and titles (cached in `folder`)."""
    path, index = folder / "dump.xml.bz2", folder / "index.txt.bz2"
    meta = folder / "dump.json"
    header, pages = excerpt_pages(excerpt_limit)
    found = cached(meta, WikiInfo, size_pages=size_pages, seed=seed, excerpt_pages=len(pages),
                   format_version=FORMAT_VERSION)
    if isinstance(found, WikiInfo):
        return found
    folder.mkdir(parents=True, exist_ok=True)
    titles: dict[str, str] = {}
    written = redirects = links = 0
    words: set[str] = set()
    with open(path, "wb") as out, bz2.open(index, "wb") as index_out:
        writer = DumpWriter(out, index_out, header)
        for page, is_redirect, page_links in generated_pages(pages, size_pages, seed,
                                                             synthetic_rate(pages), titles):
            writer.add(page)
            written += 1
            redirects += is_redirect
            links += page_links
            text = _TEXT.search(page)
            words.update(_LETTERS.findall(text[2]) if text else ())
        uncompressed = writer.close("</mediawiki>\n")
    titles_path = folder / "titles.txt"
    resolved = dict.fromkeys(value or key for key, value in titles.items())
    titles_path.write_text("".join(f"{title}\n" for title in resolved), encoding="utf-8")
    info = WikiInfo(str(path), str(index), str(titles_path), size_pages, len(pages), written,
                    redirects, links, path.stat().st_size, uncompressed, len(words), seed)
    meta.write_text(json.dumps(asdict(info), indent=1) + "\n", encoding="utf-8")
    return info


def dump_mb(level: Level) -> float:
    """A wiki level's dump, compressed, in MB (10^6 bytes): the wiki chain's steps' size."""
    assert isinstance(level.info, WikiInfo)
    return level.info.compressed_bytes / 1e6
