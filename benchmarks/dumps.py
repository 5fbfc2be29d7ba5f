"""Benchmark inputs: the gensim Wikipedia excerpt and one well-formed dump built by repeating it.

A plain `cat` of bz2 files would give several <mediawiki> documents back to back, which is not
a valid dump. `build_dump` instead writes ONE document: the excerpt's header (up to and including
</siteinfo>), its <page> elements repeated until the uncompressed XML reaches the target size,
then </mediawiki>. Copy k >= 1 of a page gets page id + k * 10_000_000 and " (copy k)" appended
to its <title> and to its <redirect title="..."> target, so ids and titles stay unique and
redirects still resolve within a copy. The XML is bz2-compressed as it is produced (level 9,
streaming), so memory stays flat whatever the size.
"""

from __future__ import annotations

import bz2
import hashlib
import importlib.util
import itertools
import json
import os
import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

EXCERPT_NAME = "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
ID_STRIDE = 10_000_000
MB = 1_000_000  # every "MB" in the benchmark is 10**6 bytes
FORMAT_VERSION = 1  # bump when the way dumps are built changes, to invalidate the cache

_PAGE = re.compile(r"<page>.*?</page>", re.DOTALL)
_PAGE_ID = re.compile(r"(<id>)(\d+)(</id>)")  # the first <id> in a <page> is the page's
_TITLE = re.compile(r"(<title>)(.*?)(</title>)", re.DOTALL)
_REDIRECT = re.compile(r'(<redirect title=")([^"]*)(")')


@dataclass(frozen=True)
class DumpInfo:
    """A benchmark input: where it is, its sizes and its page count."""

    path: str
    compressed_bytes: int
    uncompressed_bytes: int
    pages: int
    copies: float  # how many times the excerpt's pages are in it (the last copy may be partial)
    source_sha256: str
    format_version: int = FORMAT_VERSION

    @property
    def compressed_mb(self) -> float:
        """Compressed size in MB (10**6 bytes)."""
        return self.compressed_bytes / MB

    @property
    def uncompressed_mb(self) -> float:
        """Uncompressed XML size in MB (10**6 bytes)."""
        return self.uncompressed_bytes / MB


def excerpt_path() -> Path:
    """The Wikipedia excerpt in gensim's test data, found through the installed package."""
    spec = importlib.util.find_spec("gensim")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("gensim is not installed: it holds the benchmark's Wikipedia excerpt")
    path = Path(spec.submodule_search_locations[0]) / "test" / "test_data" / EXCERPT_NAME
    if not path.is_file():
        raise SystemExit(f"the gensim excerpt is missing: {path}")
    return path


def sha256_of(path: Path) -> str:
    """Hex sha256 of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def split_dump(xml: str) -> tuple[str, list[str]]:
    """Split a dump's XML into its header (through </siteinfo>) and its <page> elements."""
    end = xml.index("</siteinfo>") + len("</siteinfo>")
    return xml[:end] + "\n", _PAGE.findall(xml, end)


def excerpt_info() -> DumpInfo:
    """Sizes and page count of the gensim excerpt itself (the small input)."""
    path = excerpt_path()
    xml = bz2.decompress(path.read_bytes())
    pages = len(_PAGE.findall(xml.decode("utf-8")))
    return DumpInfo(str(path), path.stat().st_size, len(xml), pages, 1.0, sha256_of(path))


def copy_page(page: str, copy: int) -> str:
    """Copy `copy` of a <page> element: page id shifted, title and redirect target suffixed."""
    if copy == 0:
        return page
    suffix = f" (copy {copy})"
    page = _PAGE_ID.sub(lambda m: f"{m[1]}{int(m[2]) + copy * ID_STRIDE}{m[3]}", page, count=1)
    page = _TITLE.sub(lambda m: f"{m[1]}{m[2]}{suffix}{m[3]}", page, count=1)
    return _REDIRECT.sub(lambda m: f"{m[1]}{m[2]}{suffix}{m[3]}", page, count=1)


def repeated_pages(pages: list[str], budget: int) -> Iterator[bytes]:
    """Encoded page copies, cycling through the excerpt until `budget` bytes have been produced."""
    produced = ordinal = 0
    while produced < budget:
        copy, index = divmod(ordinal, len(pages))
        chunk = ("  " + copy_page(pages[index], copy) + "\n").encode("utf-8")
        produced += len(chunk)
        ordinal += 1
        yield chunk


def cached_dump_path(work_dir: Path, target_mb: float) -> Path:
    """Where the dump for a target size is cached."""
    return work_dir / f"enwiki-excerpt-repeated-{target_mb:g}MB.xml.bz2"


def build_dump(target_mb: float, work_dir: Path, rebuild: bool = False) -> DumpInfo:
    """Build (or reuse from the cache) one well-formed dump of about `target_mb` MB of XML."""
    source = excerpt_path()
    source_sha = sha256_of(source)
    path = cached_dump_path(work_dir, target_mb)
    meta_path = path.with_name(path.name + ".json")
    if not rebuild and path.is_file() and meta_path.is_file():
        info = DumpInfo(**json.loads(meta_path.read_text(encoding="utf-8")))
        if (info.source_sha256 == source_sha and info.format_version == FORMAT_VERSION
                and info.compressed_bytes == path.stat().st_size):
            return info
    header, pages = split_dump(bz2.decompress(source.read_bytes()).decode("utf-8"))
    head, foot = header.encode("utf-8"), b"</mediawiki>\n"
    budget = max(int(target_mb * MB) - len(head) - len(foot), 1)
    work_dir.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    compressor = bz2.BZ2Compressor(9)
    written = count = 0
    with open(temporary, "wb") as out:
        for chunk in itertools.chain([head], repeated_pages(pages, budget), [foot]):
            written += len(chunk)
            count += chunk.startswith(b"  <page>")
            out.write(compressor.compress(chunk))
        out.write(compressor.flush())
    os.replace(temporary, path)
    info = DumpInfo(str(path), path.stat().st_size, written, count, count / len(pages),
                    source_sha)
    meta_path.write_text(json.dumps(asdict(info), indent=1) + "\n", encoding="utf-8")
    return info

