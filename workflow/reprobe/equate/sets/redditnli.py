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

Memory: the kept titles (filtered, deduplicated; a small share of any month) and the heap.
Not rebuilt: the experts' removal of nonsensical titles (300 -> 250) and their labels.
"""

from __future__ import annotations

import heapq
import json
import logging
import re
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from reprobe.equate.jsonl import UNLABELLED, Pair, write_pairs
from reprobe.equate.quantities import parse_quantities
from reprobe.equate.sets.newsnli import jaccard, token_set
from reprobe.equate.sets.recovery import normalise
from reprobe.errors import InputFormatError
from reprobe.io import atomic_path, atomic_write_text, iter_json_objects, stats_path
from reprobe.numerals import NUMBER_WORDS
from reprobe.text import open_text, require_rows

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


def deduplicate(titles: Iterable[Title], stats: Counter[str]) -> list[Title]:
    """Drop reposts (same normalised text as an earlier title); sort by time, then id."""
    seen: set[str] = set()
    kept: list[Title] = []
    for title in titles:
        key = normalise(title.text)
        if key in seen:
            stats["reposts"] += 1
        else:
            seen.add(key)
            kept.append(title)
    kept.sort(key=lambda t: (t.created, t.id))
    stats["titles"] = len(kept)
    return kept


def usable_titles(dumps: Sequence[Path], subreddit: str, stats: Counter[str]) -> list[Title]:
    """Filtered, deduplicated titles of one subreddit from the dumps, sorted by time then id."""
    return deduplicate((t for path in dumps for t in dump_titles(path, subreddit, stats)), stats)


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


def window_pairs(titles: Sequence[Title], seconds: float) -> Iterator[tuple[Title, Title]]:
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


def pair_titles(titles: list[Title], stats: Counter[str], out_jsonl: Path, *, top: int,
                days: float, sources: dict[str, Path]) -> dict[str, Any]:
    """Pair deduplicated, time-sorted titles within `days`; write the `top` most similar."""
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
    log.info("RedditNLI: %d pairs from %d titles", len(pairs), len(titles))
    return {**counts, "card": card}


def gather_redditnli_shards(shard_parquets: list[Path], out_jsonl: Path, *, top: int,
                            days: float) -> dict[str, Any]:
    """Candidates from the dumps' title shards (in dump order, so reposts resolve as in one
    pass)."""
    stats: Counter[str] = Counter()
    for path in shard_parquets:
        stats.update(json.loads(stats_path(path).read_text(encoding="utf-8")))

    def shard_titles() -> Iterator[Title]:
        """Titles of every shard, in dump order then file order."""
        for path in shard_parquets:
            frame = pd.read_parquet(path)
            for created, title_id, text in zip(frame["created"], frame["id"], frame["text"],
                                               strict=True):
                yield Title(float(created), str(title_id), text, token_set(text))

    titles = deduplicate(shard_titles(), stats)
    return pair_titles(titles, stats, out_jsonl, top=top, days=days,
                       sources={f"shard{i}": Path(p) for i, p in enumerate(shard_parquets)})


def build_redditnli_candidates(
    dumps: list[Path], out_jsonl: Path, *, top: int, days: float,
) -> dict[str, Any]:
    """Build RedditNLI candidate pairs from Pushshift dumps in one process."""
    stats: Counter[str] = Counter()
    titles = usable_titles(dumps, SUBREDDIT, stats)
    return pair_titles(titles, stats, out_jsonl, top=top, days=days,
                       sources={f"dump{i}": Path(p) for i, p in enumerate(dumps)})
