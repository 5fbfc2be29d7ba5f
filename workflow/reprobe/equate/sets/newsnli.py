"""NewsNLI candidates (Ravichander et al. 2019, §3.3) from CNN stories with their highlights.

Input: DeepMind CNN `.story` files (article paragraphs, then `@highlight` lines, each followed by
one summary point), as a folder (read recursively, sorted by path), one `.story` file, or a
`.tgz`/`.tar` read in tarfile's streaming mode: one story in memory at a time.

Rules, in order:
1. A summary point is used when it has a quantity (`parse_quantities` finds a NUMSET) and no
   temporal expression (`is_temporal`, below).
2. The article is split into sentences by Bling Fire, paragraph by paragraph; the two sentences
   with the highest Jaccard similarity to the summary point (sets of lowercased
   `quantities.tokenize` tokens, punctuation dropped) become premises, the point the hypothesis.
   Ties go to the earlier sentence; a sentence with no shared token, or equal to the point after
   normalisation, is never chosen.
3. Flip: when the premise begins with a pronoun, premise and hypothesis swap places, so the
   pronoun sentence becomes the hypothesis: <"She sold 40 cars", "Ana Ruiz sold 40 cars"> is
   written as <"Ana Ruiz sold 40 cars", "She sold 40 cars">. The paper's wording names
   first-person pronouns, yet its own illustration flips on a third-person one; we flip on
   first- and third-person personal and possessive pronouns (`FLIP_PRONOUNS`), since a named
   sentence entails its pronoun version and not the other way round, whatever the person.
4. All pairs are ranked by Jaccard similarity and the top half kept (ceil(n/2); ties by input
   order); the paper gives lexical-overlap bias as its reason, and "top" is read as the most
   similar half (the other reading, least similar, would leave loosely related pairs).
   Kept pairs are written in input order.

Temporal detector (`is_temporal`), regex-based: month names (capitalised; "May"/"March" only
with a day, a year or a preposition such as "in"/"since" before them, since both are also common
words) and their dotted abbreviations; weekdays; years 1800-2099 and decades ("1990s", "'90s")
unless after a currency sign or before "%"/"percent"/a plural-looking noun ("2000 people" is a
count), but always a year after in/since/until/during/before/after; clock times ("10:30",
"3 p.m.", "noon", "midnight"); yesterday/today/tonight/tomorrow; "ago"; last/next/this/earlier
this/later this + week, month, year, weekend, season. Durations ("five years in prison") are
quantities and are kept.

Not rebuilt: the crowdsourced labels, the selection of the final 1000 pairs by low overlap and
length difference per label, and the experts' filtering (all need the human labels).
"""

from __future__ import annotations

import json
import logging
import re
import tarfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import blingfire
import numpy as np
import pandas as pd

from reprobe.equate.jsonl import UNLABELLED, Pair
from reprobe.equate.quantities import parse_quantities, tokenize
from reprobe.equate.sets.recovery import normalise
from reprobe.io import atomic_path, atomic_write_text, stats_path
from reprobe.text import decode_text, read_text

log = logging.getLogger(__name__)

GENRE = "news"
PREMISES_PER_POINT = 2
KEEP_FRACTION = 0.5
FLIP_PRONOUNS = frozenset({
    "i", "we", "me", "us", "my", "our",
    "he", "she", "it", "they", "him", "her", "them", "his", "its", "their"})

_MONTHS = ("January|February|April|June|July|August|September|October|November|December")
_AMBIGUOUS_MONTHS = "May|March"
_MONTH_ABBREVIATIONS = r"(?:Jan|Feb|Mar|Apr|Aug|Sept?|Oct|Nov|Dec)\."
_DATE_PREPOSITIONS = r"(?:in|on|since|until|till|by|from|during|before|after|early|late|mid-?)"
_PERIODS = r"(?:week|month|year|weekend|season|spring|summer|fall|autumn|winter|decade)"
_TEMPORAL = re.compile(
    rf"\b(?:{_MONTHS})\b"
    rf"|\b(?:{_AMBIGUOUS_MONTHS})\s+\d"
    rf"|(?i:\b{_DATE_PREPOSITIONS}\s+)(?:{_AMBIGUOUS_MONTHS})\b"
    rf"|\b{_MONTH_ABBREVIATIONS}"
    r"|(?i:\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b)"
    # A year or decade, unless it is money, a percentage or a count of something plural.
    r"|(?<![$€£¥\d,.])\b(?:18|19|20)\d\d(?:s\b|\b(?![.,]\d)(?!\s*(?:%|(?i:percent)\b"
    r"|(?:people|men|women|children|police)\b|[a-z]+s\b)))"
    r"|(?i:\b(?:in|since|until|during|before|after)\s+)(?:18|19|20)\d\d\b(?![.,]\d)"
    r"|'\d0s\b"
    r"|\b\d{1,2}:\d\d\b"
    r"|(?i:\b\d{1,2}\s*(?:a\.m\.|p\.m\.|am\b|pm\b))"
    r"|(?i:\b(?:yesterday|today|tonight|tomorrow|ago|noon|midnight|o'clock)\b)"
    rf"|(?i:\b(?:last|next|this|earlier\s+this|later\s+this)\s+{_PERIODS}\b)"
)
_HIGHLIGHT = "@highlight"


@dataclass(frozen=True)
class Story:
    """A CNN story: its name, article paragraphs and summary points (highlights)."""

    name: str
    paragraphs: tuple[str, ...]
    highlights: tuple[str, ...]


def is_temporal(text: str) -> bool:
    """Whether text has a temporal expression (dates, weekdays, years, clock and relative days)."""
    return _TEMPORAL.search(text) is not None


def has_quantity(text: str) -> bool:
    """Whether the quantity parser finds a NUMSET in text."""
    return bool(parse_quantities(text))


def token_set(text: str) -> frozenset[str]:
    """Lowercased word tokens of text (punctuation dropped), the unit of Jaccard similarity."""
    return frozenset(t.lower() for t in tokenize(text) if any(c.isalnum() for c in t))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """Jaccard similarity of two token sets (0 when both are empty)."""
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def starts_with_pronoun(sentence: str) -> bool:
    """Whether the first word of a sentence is one of `FLIP_PRONOUNS`."""
    words = [t for t in tokenize(sentence) if any(c.isalnum() for c in t)]
    return bool(words) and words[0].lower() in FLIP_PRONOUNS


def parse_story(name: str, text: str) -> Story:
    """Split a `.story` text into article paragraphs and highlights."""
    paragraphs: list[str] = []
    highlights: list[str] = []
    in_highlights = expect_point = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line == _HIGHLIGHT:
            in_highlights = expect_point = True
        elif not in_highlights:
            paragraphs.append(line)
        elif expect_point:
            highlights.append(line)
            expect_point = False
        # Any further line after a point's first line is stray text, ignored (never seen in CNN).
    return Story(name, tuple(paragraphs), tuple(highlights))


def iter_stories(stories: Path, shard: int = 0, shards: int = 1) -> Iterator[tuple[int, Story]]:
    """Stream (index, story) from a folder, a single `.story` file, or a tar archive (any
    compression); with `shards`, only stories whose index is `shard` modulo `shards`."""
    stories = Path(stories)
    if stories.is_dir():
        for index, path in enumerate(sorted(stories.rglob("*.story"))):
            if index % shards == shard:
                yield index, parse_story(path.name, read_text(path))
    elif stories.suffix == ".story":
        if shard == 0:
            yield 0, parse_story(stories.name, read_text(stories))
    else:
        # "r|*": streaming mode, members are read once in archive order, never seeked.
        with tarfile.open(stories, mode="r|*") as archive:
            index = -1
            for member in archive:
                if not (member.isfile() and member.name.endswith(".story")):
                    continue
                index += 1
                handle = archive.extractfile(member) if index % shards == shard else None
                if handle is not None:
                    text = decode_text(handle.read(), f"{stories}: {member.name}")
                    yield index, parse_story(Path(member.name).name, text)


def sentences(paragraphs: tuple[str, ...]) -> list[str]:
    """Article sentences: Bling Fire per paragraph, so no sentence spans two paragraphs."""
    out: list[str] = []
    for paragraph in paragraphs:
        out.extend(s.strip() for s in blingfire.text_to_sentences(paragraph).split("\n"))
    return [s for s in out if s]


def most_similar(point: str, article: list[str], k: int) -> list[tuple[float, str]]:
    """The k article sentences most Jaccard-similar to point, best first, ties by position."""
    target, key = token_set(point), normalise(point)
    scored = [(jaccard(target, token_set(s)), i, s) for i, s in enumerate(article)
              if normalise(s) != key]
    scored = [item for item in scored if item[0] > 0]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(score, sentence) for score, _, sentence in scored[:k]]


def orient(premise: str, hypothesis: str) -> tuple[Pair, bool]:
    """The pair, flipped when the premise starts with a pronoun; and whether it was flipped."""
    if starts_with_pronoun(premise):
        return Pair(hypothesis, premise, UNLABELLED), True
    return Pair(premise, hypothesis, UNLABELLED), False


def story_candidates(story: Story, stats: Counter[str]) -> Iterator[tuple[float, Pair]]:
    """Scored candidate pairs of one story (before the top-half cut), counting in stats."""
    stats["stories"] += 1
    article: list[str] | None = None  # split lazily: most stories have no usable point
    for point in story.highlights:
        stats["highlights"] += 1
        if is_temporal(point):
            stats["highlights_temporal"] += 1
            continue
        if not has_quantity(point):
            stats["highlights_without_quantity"] += 1
            continue
        stats["highlights_used"] += 1
        if article is None:
            article = sentences(story.paragraphs)
        for score, sentence in most_similar(point, article, PREMISES_PER_POINT):
            pair, flipped = orient(sentence, point)
            stats["flipped"] += flipped
            yield score, pair


COUNTS = ("stories", "highlights", "highlights_temporal", "highlights_without_quantity",
          "highlights_used", "flipped")
SHARD_COLUMNS = ("score", "story", "rank", "sentence1", "sentence2")


def score_shard(stories: Path, shard: int = 0, shards: int = 1
                ) -> tuple[pd.DataFrame, dict[str, int]]:
    """One shard's scored candidates (story index and rank within it fix the input order)."""
    stats: Counter[str] = Counter()
    rows = [(score, index, rank, pair.sentence1, pair.sentence2)
            for index, story in iter_stories(stories, shard, shards)
            for rank, (score, pair) in enumerate(story_candidates(story, stats))]
    return pd.DataFrame(rows, columns=list(SHARD_COLUMNS)), {k: stats[k] for k in COUNTS}


def write_newsnli_shard(stories: Path, shard: int, shards: int, out_parquet: Path
                        ) -> dict[str, int]:
    """Score one shard of the stories; write its candidates (Parquet) and counts (JSON beside)."""
    frame, counts = score_shard(stories, shard, shards)
    atomic_write_text(stats_path(out_parquet),
                      json.dumps(counts, indent=2, sort_keys=True) + "\n")
    with atomic_path(out_parquet) as tmp:
        frame.to_parquet(tmp, index=False)
    log.info("NewsNLI shard %d/%d: %d candidates from %d stories", shard, shards, len(frame),
             counts["stories"])
    return counts


def gather_newsnli(frames: list[pd.DataFrame], shard_counts: list[dict[str, int]],
                   out_jsonl: Path, *, sources: dict[str, Path]) -> dict[str, Any]:
    """Keep the most similar half of all shards' candidates, held in memory (one process's
    shard); write them in input order, as the streamed gather does."""
    from reprobe.equate.sets.newsnli_gather import cut_of, write_kept

    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=list(SHARD_COLUMNS))
    frame = frame.sort_values(["story", "rank"], kind="stable").reset_index(drop=True)
    scores = frame["score"].to_numpy(dtype=np.float64)
    rows = zip(scores.tolist(), frame["sentence1"], frame["sentence2"], strict=True)
    return write_kept(rows, cut_of(scores, KEEP_FRACTION), len(frame), shard_counts, len(frames),
                      out_jsonl, sources=sources)


def gather_newsnli_shards(stories: Path, shard_parquets: list[Path], out_jsonl: Path
                          ) -> dict[str, Any]:
    """`gather_newsnli` over the files of `write_newsnli_shard` (the card names `stories`),
    streamed: a batch of rows held at a time, whatever the number of candidates."""
    from reprobe.equate.sets.newsnli_gather import stream_newsnli_shards

    return stream_newsnli_shards(stories, shard_parquets, out_jsonl)


def build_newsnli_candidates(stories: Path, out_jsonl: Path) -> dict[str, Any]:
    """Build NewsNLI candidate pairs from CNN stories in one process (one shard); return stats."""
    # Only scored pairs are held: the top-half cut needs every score before it can choose.
    frame, counts = score_shard(stories)
    return gather_newsnli([frame], [counts], out_jsonl, sources={"stories": Path(stories)})
