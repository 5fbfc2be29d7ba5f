"""Freebase types of English Wikipedia titles, from the Freebase RDF dump (the paper's path).

The paper follows FIGER: a Wikipedia page -> its Freebase topic -> the topic's Freebase types
-> FIGER types (types.map). The dump (`freebase-rdf-latest.gz`, 22 GB gzip, ~1.9 billion lines
`<subject>\\t<predicate>\\t<object>\\t.`) is read once, line by line, keeping only

- `type.object.type` triples whose type is one of types.map's Freebase types
  (`<http://rdf.freebase.com/ns/people.person>` -> `/people/person`);
- `type.object.key` triples in the English Wikipedia title namespace (`"/wikipedia/en/TITLE"`,
  the title in Freebase key escaping: `$XXXX` is a code point in hex, `_` a space).

Both go to Parquet as they stream, in batches, so memory stays flat; typing joins them on the
topic id (MID) afterwards (`typing_spilled.freebase_source`).
"""

from __future__ import annotations

import contextlib
import gzip
import shutil
import subprocess
import zlib
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import IO

import pyarrow as pa
import pyarrow.parquet as pq
from tqdm import tqdm

from reprobe.errors import InputFormatError
from reprobe.io import atomic_path

NS = "http://rdf.freebase.com/ns/"
TYPE_PREDICATE = f"<{NS}type.object.type>".encode()
KEY_PREDICATE = f"<{NS}type.object.key>".encode()
# Only this namespace holds English titles; en_id (page ids) and other languages are skipped.
EN_TITLE_NAMESPACE = "/wikipedia/en/"
# Rows a writer gathers before writing them (two writers): 20,000 keep the buffers a few MB, so
# the reader's memory is flat from the smallest dump on (200,000 grew it with the dump until
# the batches filled, ~100 MB; benchmarks/scale.py, wikipse_freebase).
BATCH_ROWS = 20_000
TYPES_SCHEMA = pa.schema([("mid", pa.string()), ("freebase_type", pa.string())])
TITLES_SCHEMA = pa.schema([("mid", pa.string()), ("title", pa.string())])
COUNT_KEYS = ("lines", "type_triples_kept", "title_keys_kept")
_TERMS = 3
_HEX = frozenset("0123456789abcdefABCDEF")


def parse_key(value: str) -> str:
    """A Freebase key unescaped: `$XXXX` -> that code point, `_` -> space."""
    out: list[str] = []
    index = 0
    while index < len(value):
        char = value[index]
        if char == "$":
            digits = value[index + 1: index + 5]
            if len(digits) != 4 or not set(digits) <= _HEX:
                raise ValueError(f"bad escape {value[index:index + 5]!r} in key {value!r}")
            out.append(chr(int(digits, 16)))
            index += 5
            continue
        out.append(" " if char == "_" else char)
        index += 1
    text = "".join(out)
    # Characters beyond the BMP come as two escapes, a UTF-16 surrogate pair: join them.
    return text.encode("utf-16", "surrogatepass").decode("utf-16")


def freebase_iri(freebase_type: str) -> bytes:
    """The dump's term for a types.map Freebase type: /people/person -> <…/ns/people.person>."""
    return f"<{NS}{freebase_type.strip('/').replace('/', '.')}>".encode()


def _local_name(term: bytes) -> str:
    """The part after the Freebase namespace of an IRI term: <…/ns/m.0abc> -> m.0abc."""
    text = term.decode("utf-8")
    if text.startswith(f"<{NS}") and text.endswith(">"):
        return text[len(NS) + 1: -1]
    return text.strip("<>")


def _terms(path: Path, number: int, line: bytes) -> list[bytes]:
    """The three terms of a dump line ending in "." (an error naming the line otherwise)."""
    body = line.rstrip(b"\r\n")
    if body.endswith(b"."):
        terms = body[:-1].rstrip(b" \t").split(b"\t")
        if len(terms) == _TERMS:
            return terms
    raise InputFormatError(path, f"line {number}",
                           "expected three tab-separated terms followed by \" .\"")


def _title(path: Path, number: int, literal: bytes) -> str | None:
    """The unescaped English title of a key literal, or None for another namespace."""
    text = literal.decode("utf-8").strip('"')
    if not text.startswith(EN_TITLE_NAMESPACE):
        return None
    try:
        return parse_key(text[len(EN_TITLE_NAMESPACE):])
    except ValueError as error:
        raise InputFormatError(path, f"line {number}", str(error)) from None


def _gunzip_command() -> list[str] | None:
    """An external gunzip (pigz, else gzip), which inflates on another core, or None."""
    for tool in ("pigz", "gzip"):
        found = shutil.which(tool)
        if found:
            return [found, "-dc"]
    return None


@contextlib.contextmanager
def _open_bytes(path: Path, *, external: bool = True) -> Iterator[IO[bytes]]:
    """The file's bytes, gunzipped when its name ends in .gz (by a child process if one exists)."""
    command = _gunzip_command() if external else None
    if not path.name.endswith(".gz"):
        with path.open("rb") as handle:
            yield handle
        return
    if command is None:
        with gzip.open(path, "rb") as handle:
            try:
                yield handle
            except (EOFError, gzip.BadGzipFile, zlib.error) as error:
                raise InputFormatError(path, "gzip stream", str(error)) from None
        return
    # A 22 GB dump: inflating in a child process keeps this one free for the lines.
    process = subprocess.Popen([*command, str(path)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    stdout, stderr = process.stdout, process.stderr
    assert stdout is not None and stderr is not None
    try:
        yield stdout
        stdout.close()
        problem = stderr.read().decode("utf-8", "replace").strip()
        code = process.wait()
    except BaseException:
        process.kill()
        process.wait()
        raise
    finally:
        stdout.close()
        stderr.close()
    if code != 0:
        raise InputFormatError(path, "gzip stream", f"{command[0]} failed: {problem}")


class _BatchWriter:
    """Rows gathered into batches and appended to a Parquet file, so memory stays flat."""

    def __init__(self, path: Path, schema: pa.Schema) -> None:
        self.schema = schema
        self.writer = pq.ParquetWriter(path, schema)
        self.columns: tuple[list[str], list[str]] = ([], [])

    def add(self, first: str, second: str) -> None:
        """Append one row; a full batch is written out."""
        self.columns[0].append(first)
        self.columns[1].append(second)
        if len(self.columns[0]) >= BATCH_ROWS:
            self.flush()

    def flush(self) -> None:
        """Write the gathered rows as one batch."""
        if self.columns[0]:
            self.writer.write_batch(pa.record_batch(list(self.columns), schema=self.schema))
            self.columns = ([], [])

    def close(self) -> None:
        """Write what is left and close the file."""
        self.flush()
        self.writer.close()


def _scan(path: Path, handle: IO[bytes], kept_types: Collection[bytes], types: _BatchWriter,
          titles: _BatchWriter) -> dict[str, int]:
    """Stream the dump's lines into the two writers; the counts of what was read and kept."""
    read = kept_type = kept_key = 0
    # ~1.9 billion lines: a rate in the rule's log every half minute.
    lines = tqdm(handle, desc=path.name, unit=" lines", unit_scale=True, mininterval=30)
    for number, line in enumerate(lines, start=1):
        terms = line.split(b"\t")
        # The dump's own layout, `<s>\t<p>\t<o>\t.`, takes this one split; anything else is
        # looked at closely (blank, comment, " ." ending, or an error naming the line).
        if len(terms) != _TERMS + 1 or terms[_TERMS] != b".\n":
            if line.isspace() or line.startswith(b"#"):
                continue
            terms = _terms(path, number, line)
        read += 1
        predicate = terms[1]
        if predicate == TYPE_PREDICATE:
            if terms[2] in kept_types:
                types.add(_local_name(terms[0]), "/" + _local_name(terms[2]).replace(".", "/"))
                kept_type += 1
        elif predicate == KEY_PREDICATE:
            title = _title(path, number, terms[2])
            if title is not None:
                titles.add(_local_name(terms[0]), title)
                kept_key += 1
    return dict(zip(COUNT_KEYS, (read, kept_type, kept_key), strict=True))


def stream_freebase(dump: Path, freebase_types: Collection[str], types_out: Path,
                    titles_out: Path, *, external_gunzip: bool = True) -> dict[str, int]:
    """Read the dump once: mid -> Freebase type (types.map's only) and mid -> English title
    go to two Parquet files; returns the counts lines, type_triples_kept, title_keys_kept."""
    dump = Path(dump)
    kept_types = frozenset(freebase_iri(t) for t in freebase_types)
    with contextlib.ExitStack() as stack:
        types_tmp = stack.enter_context(atomic_path(types_out))
        titles_tmp = stack.enter_context(atomic_path(titles_out))
        handle = stack.enter_context(_open_bytes(dump, external=external_gunzip))
        types = _BatchWriter(types_tmp, TYPES_SCHEMA)
        titles = _BatchWriter(titles_tmp, TITLES_SCHEMA)
        try:
            counts = _scan(dump, handle, kept_types, types, titles)
        finally:
            types.close()
            titles.close()
    return counts


def _mid(text: str) -> str:
    """A MID as the dump writes it (`m.0abc`), from `m.0abc` or `/m/0abc`."""
    return text[1:].replace("/", ".", 1) if text.startswith("/m/") else text


def write_mid_titles(tsv: Path, titles_out: Path) -> int:
    """FIGER's MID → Wikipedia title TSV as the titles table `stream_freebase` writes (the
    paper's mapping, used instead of the dump's own title keys); the rows written."""
    rows = 0
    with atomic_path(titles_out) as tmp, Path(tsv).open(encoding="utf-8") as handle:
        titles = _BatchWriter(tmp, TITLES_SCHEMA)
        try:
            for number, line in enumerate(handle, start=1):
                fields = line.rstrip("\r\n").split("\t")
                if not line.strip():
                    continue
                if len(fields) < 2 or not fields[0] or not fields[1]:
                    raise InputFormatError(tsv, f"line {number}",
                                           "expected a MID, a tab and a Wikipedia title")
                # Titles may come with underscores for spaces, as in page URLs.
                titles.add(_mid(fields[0].strip()), fields[1].strip().replace("_", " "))
                rows += 1
        finally:
            titles.close()
    return rows
