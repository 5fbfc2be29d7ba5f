"""RedditNLI candidates (Ravichander et al. 2019, §3.4) from r/economics submission titles.

Input: Pushshift submission dumps, NDJSON, zstd-compressed (`.zst`, detected by its magic bytes;
Pushshift needs a 2 GiB decoder window) or plain. Only `subreddit`, `title`, `created_utc` and
`id` are read; `subreddit` is compared case-insensitively.

Rules, in order:
1. A title is used when it is from r/economics, has a quantity (`parse_quantities` finds a
   NUMSET; titles without a digit or number word are dropped before tagging, for speed), and has
   no meta-forum marker (`META_MARKERS`, matched case-insensitively as whole words or bracketed
   tags): "[meta]", "meta:", "[mod]", "mod post", "moderator(s)", "r/" or "u/" links, "AMA", "ask
   me anything", "discussion thread", "megathread", "daily/weekly/monthly thread|discussion",
   "subreddit", "upvote", "downvote", "karma", "x-post"/"crosspost".
2. Reposts: a title equal to an earlier one after normalisation (lowercase, whitespace
   collapsed) is dropped, since a pair of identical titles tests nothing.
3. Titles are sorted by `created_utc` (then id) and a sliding window pairs each title with every
   later one posted at most `days` days after it; the earlier title is the premise. Never all
   pairs of the corpus: the cost is titles x titles-per-window.
4. The paper groups titles by Jaccard similarity and takes the best 300 pairs; we rank
   the window pairs by Jaccard similarity of lowercased token sets (as NewsNLI) and keep the
   `top` best with a bounded heap (ties go to the earlier pair). Pairs with no shared token are
   never kept. Output order is best first.

Memory: flat in the number of titles. Steps 2 and 3 run on disk (`spilled_titles`): the
titles are written to a Parquet file beside the output with a 16-byte digest of their
normalised text and their input position, and DuckDB, within SPILL_MEMORY_MB, keeps the first
title of each digest and sorts them; they are read back in batches. Python holds one batch,
the titles of one window and the heap.

Not rebuilt: the experts' removal of nonsensical titles (300 -> 250) and their labels.
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import itertools
import json
import logging
import re
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from reprobe.equate.jsonl import UNLABELLED, Pair, write_pairs
from reprobe.equate.quantities import parse_quantities
from reprobe.equate.sets.newsnli import jaccard, token_set
from reprobe.equate.sets.recovery import normalise
from reprobe.errors import InputFormatError
from reprobe.io import atomic_path, atomic_write_text, iter_json_objects, stats_path
from reprobe.numerals import NUMBER_WORDS
from reprobe.text import open_text, require_rows
from reprobe.wikipedia.spilled import (
    RowGroupWriter,
    duckdb_within,
    parquet_list,
    parquet_with_columns,
    spill_folder,
)

log = logging.getLogger(__name__)

GENRE = "reddit"
SUBREDDIT = "economics"
SECONDS_PER_DAY = 86_400
META_MARKERS = (
    r"\[meta\]", r"\bmeta\s*:", r"\[mod\]", r"\bmod post\b", r"\bmoderators?\b",
    r"(?<![\w/])/?r/\w", r"(?<![\w/])/?u/\w", r"\bama\b", r"\bask me anything\b",
    r"\bdiscussion thread\b", r"\bmegathread\b",
    r"\b(?:daily|weekly|monthly) (?:thread|discussion)\b", r"\bsubreddit\b", r"\bupvotes?\b",
    r"\bdownvotes?\b", r"\bkarma\b", r"\bx-?post(?:ed)?\b", r"\bcross-?post(?:ed)?\b",
)
_META = re.compile("|".join(META_MARKERS), re.IGNORECASE)
_NUMBER_HINT = re.compile(
    r"\d|\b(?:" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
    + r"|half|third|quarter|twice|dozens?|hundreds|thousands|millions|billions)\b",
    re.IGNORECASE)


@dataclass(frozen=True)
class Title:
    """A usable submission title: when it was posted, its id, text and token set."""

    created: float
    id: str
    text: str
    tokens: frozenset[str]


def has_meta(title: str) -> bool:
    """Whether a title carries a meta-forum marker (`META_MARKERS`)."""
    return _META.search(title) is not None


def has_quantity(title: str) -> bool:
    """Whether the quantity parser finds a NUMSET (cheap number check first)."""
    return _NUMBER_HINT.search(title) is not None and bool(parse_quantities(title))


def read_submissions(path: Path) -> Iterator[dict[str, Any]]:
    """Stream the JSON objects of a Pushshift NDJSON dump, naming the line of a bad record."""
    rows = 0
    with open_text(path) as lines:
        for n, record in iter_json_objects(path, lines):
            record["_line"] = n
            rows += 1
            yield record
    require_rows(path, rows, "submissions")


def _created(record: dict[str, Any], path: Path) -> float:
    """`created_utc` as seconds (Pushshift has it as int, float or string)."""
    try:
        return float(record["created_utc"])
    except (KeyError, TypeError, ValueError):
        raise InputFormatError(path, f"line {record['_line']}",
                               "expected a numeric 'created_utc'") from None


DUMP_COUNTS = ("submissions", "meta", "without_quantity")
TITLE_COLUMNS = ("created", "id", "text")


def dump_titles(path: Path, subreddit: str, stats: Counter[str]) -> list[Title]:
    """One dump's titles of a subreddit that pass the meta and quantity filters, in file order."""
    titles: list[Title] = []
    for record in read_submissions(Path(path)):
        if str(record.get("subreddit", "")).lower() != subreddit.lower():
            continue
        stats["submissions"] += 1
        text = record.get("title")
        if not isinstance(text, str):
            raise InputFormatError(path, f"line {record['_line']}", "expected a string 'title'")
        text = " ".join(text.split())
        created = _created(record, Path(path))
        if has_meta(text):
            stats["meta"] += 1
        elif not has_quantity(text):
            stats["without_quantity"] += 1
        else:
            titles.append(Title(created, str(record.get("id", "")), text, token_set(text)))
    return titles


def write_dump_titles(dump: Path, out_parquet: Path) -> dict[str, int]:
    """One shard: a dump's usable r/economics titles (Parquet, file order), counts beside."""
    stats: Counter[str] = Counter()
    titles = dump_titles(dump, SUBREDDIT, stats)
    frame = pd.DataFrame([(t.created, t.id, t.text) for t in titles], columns=list(TITLE_COLUMNS))
    counts = {key: stats[key] for key in DUMP_COUNTS}
    atomic_write_text(stats_path(out_parquet),
                      json.dumps(counts, indent=2, sort_keys=True) + "\n")
    with atomic_path(out_parquet) as tmp:
        frame.to_parquet(tmp, index=False)
    log.info("RedditNLI shard %s: %d usable titles of %d submissions", Path(dump).name,
             len(titles), counts["submissions"])
    return counts


# DuckDB's budget for deduplicating and sorting the titles: beyond it, it spills beside the
# output, so the job's memory does not grow with the number of titles.
SPILL_MEMORY_MB = 128
# Titles read, written and read back at once (and a spill row group): ~1 KB each in Python
# with their token sets, so a few MB; 65,536 measured tens of MB more.
BATCH_ROWS = 1 << 12
SHARD_BITS = 40  # a title's input position: its shard's index, then its row (< 2^40) in it
DIGEST_BYTES = 16  # blake2b digest of a normalised title: 2^-64 odds of a false repost at 2^32
SPILL_SCHEMA = pa.schema([("seq", pa.int64()), ("created", pa.float64()), ("id", pa.string()),
                          ("text", pa.string()), ("key", pa.binary(DIGEST_BYTES))])
# A shard's rows with their input position; DuckDB reads a shard in vectors, where pyarrow
# measured its whole row group (one, as written) and more.
_SHARD_ROWS = """
SELECT ({index}::BIGINT << {bits}) + file_row_number, CAST(created AS DOUBLE),
       CAST(id AS VARCHAR), text
FROM read_parquet({shard}, file_row_number = true)
"""
# The first title of each normalised text (lowest input position), sorted as the stable
# in-memory sort it replaced did: by time, then id, then input position.
_UNIQUE_SORTED = """
SELECT created, id, text FROM read_parquet({spill})
WHERE seq IN (SELECT min(seq) FROM read_parquet({spill}) GROUP BY key)
ORDER BY created, id, seq
"""


def repost_key(text: str) -> bytes:
    """A fixed-size digest of a title's normalised text: the key reposts are matched on."""
    return hashlib.blake2b(normalise(text).encode("utf-8", "surrogatepass"),
                           digest_size=DIGEST_BYTES).digest()


def write_spill(rows: Iterable[tuple[int, float, str, str]], path: Path) -> int:
    """(input position, created, id, text) rows written to Parquet in batches with their repost
    key; the rows written."""
    rows = iter(rows)
    with RowGroupWriter(path, SPILL_SCHEMA, group_rows=BATCH_ROWS) as writer:
        while chunk := list(itertools.islice(rows, BATCH_ROWS)):
            columns = [list(column) for column in zip(*chunk, strict=True)]
            keys = [repost_key(text) for text in columns[3]]
            writer.add(pa.table([*columns, keys], schema=SPILL_SCHEMA))
    return writer.rows


def shard_rows(connection: Any, shard_parquets: Sequence[Path]
               ) -> Iterator[tuple[int, float, str, str]]:
    """(input position, created, id, text) of every shard, in dump order then file order."""
    for index, path in enumerate(shard_parquets):
        parquet_with_columns(Path(path), TITLE_COLUMNS)  # named errors, checked columns
        query = _SHARD_ROWS.format(index=index, bits=SHARD_BITS, shard=parquet_list([path]))
        for batch in connection.sql(query).to_arrow_reader(BATCH_ROWS):
            yield from zip(*(column.to_pylist() for column in batch.columns), strict=True)


def sorted_titles(connection: Any, spill: Path, stats: Counter[str]) -> Iterator[Title]:
    """Reposts dropped on disk: the spill's titles without reposts, sorted by time then id, in
    batches; `stats` get "reposts" and "titles" once read through."""
    [(total,)] = connection.execute(
        f"SELECT count(*) FROM read_parquet({parquet_list([spill])})").fetchall()
    reader = connection.sql(_UNIQUE_SORTED.format(spill=parquet_list([spill]))).to_arrow_reader(
        BATCH_ROWS)
    kept = 0
    for batch in reader:
        columns = [batch.column(name).to_pylist() for name in TITLE_COLUMNS]
        for created, title_id, text in zip(*columns, strict=True):
            kept += 1
            yield Title(created, title_id, text, token_set(text))
    stats["reposts"] += total - kept
    stats["titles"] = kept


@contextlib.contextmanager
def spill_beside(out_jsonl: Path) -> Iterator[tuple[Path, Any]]:
    """A spill folder beside `out_jsonl` (its own: NewsNLI writes into the same folder) and a
    DuckDB connection within SPILL_MEMORY_MB spilling into it."""
    with spill_folder(out_jsonl.parent, out_jsonl.name) as folder, \
            duckdb_within(SPILL_MEMORY_MB, folder) as connection:
        yield folder, connection


def window_pairs(titles: Iterable[Title], seconds: float) -> Iterator[tuple[Title, Title]]:
    """Every (earlier, later) pair of time-sorted titles posted at most `seconds` apart."""
    window: deque[Title] = deque()
    for title in titles:
        while window and title.created - window[0].created > seconds:
            window.popleft()
        for earlier in window:
            yield earlier, title
        window.append(title)


def top_pairs(pairs: Iterator[tuple[Title, Title]], top: int) -> list[tuple[float, Title, Title]]:
    """The `top` most Jaccard-similar pairs, best first; ties go to the earlier pair."""
    heap: list[tuple[float, int, Title, Title]] = []
    for n, (a, b) in enumerate(pairs):
        score = jaccard(a.tokens, b.tokens)
        if score <= 0:
            continue
        # Min-heap on (score, -n): the root is the worst score, the latest pair among ties.
        item = (score, -n, a, b)
        if len(heap) < top:
            heapq.heappush(heap, item)
        elif item[:2] > heap[0][:2]:
            heapq.heapreplace(heap, item)
    return [(s, a, b) for s, _, a, b in sorted(heap, key=lambda x: (-x[0], -x[1]))]


def pair_titles(titles: Iterable[Title], stats: Counter[str], out_jsonl: Path, *, top: int,
                days: float, sources: dict[str, Path]) -> dict[str, Any]:
    """Pair deduplicated, time-sorted titles within `days`; write the `top` most similar
    (`stats` must hold "titles" once `titles` is exhausted)."""
    best = top_pairs(window_pairs(titles, days * SECONDS_PER_DAY), top)
    pairs = [Pair(a.text, b.text, UNLABELLED) for _, a, b in best]
    counts = {
        **{key: stats[key] for key in (*DUMP_COUNTS, "reposts", "titles")},
        "kept": len(pairs),
        "jaccard_threshold": best[-1][0] if best else None,
    }
    card = write_pairs(
        pairs, out_jsonl, genre=GENRE, sources=sources,
        parameters={"subreddit": SUBREDDIT, "top": top, "days": days,
                    "meta_markers": list(META_MARKERS)},
        extra={"counts": counts, "pair_ids": [[a.id, b.id] for _, a, b in best]})
    log.info("RedditNLI: %d pairs from %d titles", len(pairs), stats["titles"])
    return {**counts, "card": card}


def gather_redditnli_shards(shard_parquets: list[Path], out_jsonl: Path, *, top: int,
                            days: float) -> dict[str, Any]:
    """Candidates from the dumps' title shards (in dump order, so reposts resolve as in one
    pass), deduplicated and sorted on disk."""
    stats: Counter[str] = Counter()
    for path in shard_parquets:
        stats.update(json.loads(stats_path(path).read_text(encoding="utf-8")))
    with spill_beside(Path(out_jsonl)) as (folder, connection):
        write_spill(shard_rows(connection, shard_parquets), folder / "titles.parquet")
        return pair_titles(sorted_titles(connection, folder / "titles.parquet", stats), stats,
                           out_jsonl, top=top, days=days,
                           sources={f"shard{i}": Path(p) for i, p in enumerate(shard_parquets)})


def build_redditnli_candidates(
    dumps: list[Path], out_jsonl: Path, *, top: int, days: float,
) -> dict[str, Any]:
    """Build RedditNLI candidate pairs from Pushshift dumps in one process (the gather's path)."""
    stats: Counter[str] = Counter()
    titles = (title for path in dumps for title in dump_titles(path, SUBREDDIT, stats))
    with spill_beside(Path(out_jsonl)) as (folder, connection):
        write_spill(((n, t.created, t.id, t.text) for n, t in enumerate(titles)),
                    folder / "titles.parquet")
        return pair_titles(sorted_titles(connection, folder / "titles.parquet", stats), stats,
                           out_jsonl, top=top, days=days,
                           sources={f"dump{i}": Path(p) for i, p in enumerate(dumps)})
