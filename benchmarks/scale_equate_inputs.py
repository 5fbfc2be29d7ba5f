"""Generated raw and released EQUATE files for the scale benchmark's equate chains (scale_equate).

Every file is in the layout its reader expects, its words drawn from the open Zipf vocabulary
(scale_inputs.zipf_words) and its numbers from scale_inputs.numerals, one seeded generator a
file and size (`np.random.default_rng([seed, salt, size])`), so that no record repeats:

- `write_aqua`: AQuA-RAT's train.json, one JSON object a line (`question`, `options`,
  `rationale`, `correct`): two or three statements with quantities (one in five with a formula),
  then a question; ~450 bytes a line (the real file's: 488) (47.6 MB for 97,467 problems).
- `write_problems`: Roy & Roth's questions.json (a JSON array of `iIndex`, `sQuestion`,
  `quants`, `lEquations`, `lSolutions`, …): a world, an update, a "How many" question (some
  conditional: "If …, how many"), in the source's spaced tokens and `70.0`-style numbers.
- `write_reddit`: a Pushshift submissions dump, zstd NDJSON compressed with a 2 GiB window as
  Pushshift's (`--long=31`, so that the decoder's window fills as there): ~2.4 kB objects of
  ~60 fields (a late-2010s dump's), created_utc rising ~183 a day, 95% of them r/Economics (its
  case varies), 30% of titles with a number and a unit, some meta-forum titles and reposts.
- `nli_rows`: MultiNLI train rows (`pairID`, `promptID`, bracketed `*_binary_parse` and
  `*_parse`), five genres, the three labels alike (~1 kB a row, as multinli_1.0_train.jsonl).
- `write_news`: a CNN stories folder (`cnn/stories/<id>.story`, shaped as scale_stories writes
  them, drawn faster) and the 64 shard outputs `equate newsnli-shard` writes over it (Parquet
  of scored pairs, counts beside): two premises for each highlight with a quantity.

The released sets and the fetched checkpoint are scale_equate_fetched's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
from scale_inputs import draw_ranks, numerals, rank_word

SEED = 0
LABELS = ("entailment", "neutral", "contradiction")
UNITS = ("percent", "billion", "million", "dollars", "people", "miles", "points", "jobs")
VERBS = (("has", "had", "have"), ("finds", "found", "find"), ("buys", "bought", "buy"),
         ("picks", "picked", "pick"), ("eats", "ate", "eat"), ("sells", "sold", "sell"))
GENRES = ("government", "fiction", "slate", "telephone", "travel")
OTHER_SUBREDDITS = ("worldnews", "politics", "news", "finance", "investing")


def rng_of(salt: int, size: int) -> np.random.Generator:
    """The seeded generator of one file at one size."""
    return np.random.default_rng([SEED, salt, size])


def write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> int:
    """JSON lines (UTF-8); the number of rows."""
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    return count


class Draws:
    """Zipf words, numerals and uniform numbers drawn ahead in blocks (a generator call a value
    would be slow), handed out in order: the same seed gives the same text."""

    BLOCK = 200_000

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.pools: dict[str, list[Any]] = {"words": [], "names": [], "numbers": [],
                                             "uniform": []}
        self.at = dict.fromkeys(self.pools, 0)
        self.spelled: dict[int, str] = {}

    def fresh(self, pool: str, count: int) -> list[Any]:
        """A new block of a pool."""
        if pool == "uniform":
            return self.rng.random(count).tolist()
        if pool == "numbers":
            return numerals(self.rng, count).tolist()
        ranks = draw_ranks(self.rng, count, 50 if pool == "names" else 1).tolist()
        # Each rank spelled once across blocks: the head's words recur in every block.
        spelled = self.spelled
        return [spelled[r] if r in spelled else spelled.setdefault(r, rank_word(r))
                for r in ranks]

    def take(self, pool: str, count: int) -> list[Any]:
        """The next `count` of a pool: words, names (rank 50 on: no short function words),
        numbers (numerals as strings) or uniform (floats in [0, 1))."""
        have, at = self.pools[pool], self.at[pool]
        if at + count > len(have):
            have = self.pools[pool] = have[at:] + self.fresh(pool, max(self.BLOCK, count))
            at = 0
        self.at[pool] = at + count
        return have[at:at + count]

    def words(self, count: int) -> list[str]:
        """The next `count` words."""
        return self.take("words", count)

    def number(self) -> str:
        """The next numeral."""
        return self.take("numbers", 1)[0]

    def uniform(self) -> float:
        """The next number in [0, 1)."""
        return self.take("uniform", 1)[0]

    def between(self, low: int, high: int) -> int:
        """An integer in [low, high]."""
        return low + int(self.uniform() * (high - low + 1))

    def chance(self, p: float) -> bool:
        """True with probability p."""
        return self.uniform() < p


def tokens(draws: Draws, low: int, high: int, quantity: bool = True) -> list[str]:
    """A sentence's tokens (lowercase Zipf words), a number and unit inside if `quantity`,
    ending in "."."""
    drawn = draws.words(draws.between(low, high))
    if quantity:
        at = draws.between(0, len(drawn))
        drawn[at:at] = [draws.number(), UNITS[draws.between(0, len(UNITS) - 1)]]
    return [drawn[0].capitalize(), *drawn[1:], "."]


def distinct_words(texts: Iterable[str]) -> int:
    """Distinct lowercase words among texts (a level's vocabulary: it grows with the size)."""
    return len({word for text in texts for word in text.lower().split()})


# --- AQuA-RAT and Roy & Roth ------------------------------------------------------------------


def aqua_record(draws: Draws) -> dict[str, Any]:
    """One AQuA-RAT problem: statements with quantities, a question, options, a rationale."""
    statements = [" ".join(tokens(draws, 8, 18)).replace(" .", ".")
                  for _ in range(draws.between(2, 3))]
    if draws.chance(0.2):  # a formula sentence (=), which the Stress Test never takes
        statements.append(f"If {draws.words(1)[0]} = {draws.number()} + {draws.number()}.")
    asked = " ".join(draws.words(draws.between(3, 6)))
    rationale = "\n".join(f"{' '.join(draws.words(4))} = {draws.number()} * {draws.number()}"
                          for _ in range(draws.between(2, 5)))
    return {"question": " ".join(statements) + f" What is the {asked}?",
            "options": [f"{letter}){draws.number()}" for letter in "ABCDE"],
            "rationale": rationale + f"\nAnswer {'ABCDE'[draws.between(0, 4)]}",
            "correct": "ABCDE"[draws.between(0, 4)]}


def write_aqua(path: Path, problems: int) -> dict[str, float]:
    """AQuA-RAT train.json with `problems` lines; its counts."""
    draws = Draws(rng_of(1, problems))
    rows = [aqua_record(draws) for _ in range(problems)]
    write_jsonl(path, rows)
    return {"problems": problems, "MB": path.stat().st_size / 1e6,
            "distinct words": distinct_words(r["question"] for r in rows)}


def awp_problem(draws: Draws, index: int) -> dict[str, Any]:
    """One Roy & Roth problem: a world, an update, a "How many" question (some conditional)."""
    name, other, unit = draws.take("names", 3)
    name, other, unit = name.capitalize(), other.capitalize(), unit + "s"
    _, past, lemma = VERBS[draws.between(0, len(VERBS) - 1)]
    x, y = float(draws.number()), float(draws.number())
    update = f"{other} gave {name} {y} more {unit}"
    world = " ".join([name, past, str(x), unit, *draws.words(draws.between(0, 3))])
    if draws.chance(0.3):
        text = f"{world} . If {update} , how many {unit} does {name} {lemma} now ?"
    else:
        text = f"{world} . {update} . How many {unit} does {name} {lemma} now ?"
    return {"iIndex": index, "sQuestion": text, "quants": [x, y], "lAlignments": [0, 1],
            "lEquations": [f"X=({x}+{y})"], "lSolutions": [x + y], "rates": []}


def write_problems(path: Path, problems: int) -> dict[str, float]:
    """Roy & Roth's questions.json with `problems` problems; its counts."""
    draws = Draws(rng_of(2, problems))
    records = [awp_problem(draws, index) for index in range(1, problems + 1)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records, indent=1), encoding="utf-8")
    return {"problems": problems,
            "distinct words": distinct_words(r["sQuestion"] for r in records)}


# --- Pushshift ----------------------------------------------------------------------------------

REDDIT_START = 1_201_219_200  # 2008-01-25, when r/Economics opened
PER_DAY = 183  # ~1M submissions over 2008-2022 (estimated: scale_equate.REDDIT_SUBMISSIONS)
WINDOW_LOG = 31  # Pushshift's dumps are compressed with a 2 GiB window (zstd --long=31)


def reddit_title(draws: Draws, recent: list[str]) -> str:
    """A submission title: Zipf words, 30% with a number and unit, some meta, some reposts."""
    draw = draws.uniform()
    if draw < 0.02 and recent:
        return recent[draws.between(0, len(recent) - 1)]
    words = " ".join(tokens(draws, 5, 15, quantity=draws.chance(0.3))[:-1])
    return f"[Meta] {words}" if draw > 0.985 else words


# The fields of a later Pushshift submission that the reader skips (~1 kB with `preview`).
SUBMISSION_FLAGS = ("allow_live_comments", "archived", "author_premium", "can_gild",
                    "can_mod_post", "contest_mode", "edited", "hide_score", "is_crosspostable",
                    "is_meta", "is_original_content", "is_reddit_media_domain",
                    "is_robot_indexable", "is_video", "locked", "media_only", "no_follow",
                    "over_18", "pinned", "send_replies", "spoiler", "stickied")


def submission(draws: Draws, number: int, created: int, title: str) -> dict[str, Any]:
    """One Pushshift submission object (the fields a late-2010s dump has, ~2 kB)."""
    economics = draws.chance(0.95)
    subreddit = (("Economics", "economics")[draws.chance(0.1)] if economics
                 else OTHER_SUBREDDITS[draws.between(0, len(OTHER_SUBREDDITS) - 1)])
    ident = np.base_repr(number + 36 ** 5, 36).lower()
    author, site, *slug = draws.words(6)
    selftext = " ".join(draws.words(draws.between(10, 60))) if draws.chance(0.2) else ""
    link = f"https://www.{site}.com/{'-'.join(slug)}"
    image = f"https://external-preview.redd.it/{ident}{author}.jpg?auto=webp&amp;s={number:040x}"
    return {**dict.fromkeys(SUBMISSION_FLAGS, False), "all_awardings": [], "author": author,
            "author_flair_css_class": None, "author_flair_richtext": [],
            "author_flair_text": None, "author_fullname": f"t2_{ident}", "awarders": [],
            "created_utc": str(created) if number % 2 else created, "domain": f"{site}.com",
            "full_link": f"https://www.reddit.com/r/{subreddit}/comments/{ident}/",
            "gildings": {}, "id": ident, "is_self": bool(selftext),
            "link_flair_richtext": [], "link_flair_text": None, "link_flair_type": "text",
            "num_comments": draws.between(0, 200), "num_crossposts": 0,
            "parent_whitelist_status": "all_ads",
            "permalink": f"/r/{subreddit}/comments/{ident}/{'_'.join(slug)}/",
            "preview": {"enabled": False, "images": [{
                "id": f"{ident}{author}", "resolutions": [
                    {"height": 60 * k, "url": f"{image}&amp;width={108 * k}", "width": 108 * k}
                    for k in (1, 2, 3)], "source": {"height": 630, "url": image, "width": 1200},
                "variants": {}}]},
            "pwls": 6, "removed_by_category": None,
            "retrieved_on": created + 3_600 * draws.between(1, 2_000),
            "score": draws.between(0, 3_000), "selftext": selftext, "subreddit": subreddit,
            "subreddit_id": "t5_2qh1s" if economics else "t5_2qh13",
            "subreddit_name_prefixed": f"r/{subreddit}",
            "subreddit_subscribers": draws.between(100_000, 2_000_000),
            "subreddit_type": "public", "thumbnail": "default", "thumbnail_height": 78,
            "thumbnail_width": 140, "title": title, "total_awards_received": 0,
            "treatment_tags": [], "upvote_ratio": round(draws.uniform(), 2),
            "url": link if not selftext else "", "whitelist_status": "all_ads", "wls": 6}


def write_reddit(path: Path, submissions: int) -> dict[str, float]:
    """A zstd NDJSON dump of `submissions` submissions (2 GiB window); its counts."""
    import zstandard

    draws = Draws(rng_of(3, submissions))
    gaps = draws.rng.exponential(86_400 / PER_DAY, submissions)
    created = (REDDIT_START + np.cumsum(gaps)).astype(np.int64).tolist()
    params = zstandard.ZstdCompressionParameters.from_level(
        9, window_log=WINDOW_LOG, enable_ldm=True)
    recent: list[str] = []
    raw = 0
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as sink, zstandard.ZstdCompressor(
            compression_params=params).stream_writer(sink) as out:
        for number, when in enumerate(created):
            title = reddit_title(draws, recent)
            recent = [*recent[-49:], title]
            line = (json.dumps(submission(draws, number, when, title)) + "\n").encode("utf-8")
            raw += len(line)
            out.write(line)
    return {"submissions": submissions, "NDJSON MB": raw / 1e6,
            "zstd MB": path.stat().st_size / 1e6}


# --- NLI pairs ----------------------------------------------------------------------------------


def bracketed(words: list[str]) -> tuple[str, str]:
    """MultiNLI's binary parse and Stanford parse of a sentence (right-branching here)."""
    binary = " ".join(f"( {w}" for w in words[:-1]) + f" {words[-1]}" + " )" * (len(words) - 1)
    tags = " ".join(f"(NN {w})" for w in words)
    return binary, f"(ROOT (S {tags}))"


def nli_rows(size: int) -> Iterator[dict[str, Any]]:
    """`size` MultiNLI train rows: a premise and a hypothesis that shares some of its words."""
    draws = Draws(rng_of(4, size))
    for number in range(size):
        premise = tokens(draws, 10, 34, quantity=draws.chance(0.1))
        hypothesis = [*premise[:draws.between(1, 3)], *tokens(draws, 3, 12, False)[1:]]
        label = LABELS[draws.between(0, 2)]
        row: dict[str, Any] = {"annotator_labels": [label], "genre": GENRES[number % 5],
                               "gold_label": label}
        for key, words in (("sentence1", premise), ("sentence2", hypothesis)):
            binary, parse = bracketed(words)
            row |= {f"{key}_binary_parse": binary, f"{key}_parse": parse}
        row |= {"pairID": f"{number}{label[0]}", "promptID": str(number),
                "sentence1": " ".join(premise).replace(" .", "."),
                "sentence2": " ".join(hypothesis).replace(" .", ".")}
        yield row


# --- CNN stories and NewsNLI shards ------------------------------------------------------------

NEWS_SHARDS = 64  # config/paper.yaml: equate.newsnli.shards
SHARD_COLUMNS = ("score", "story", "rank", "sentence1", "sentence2")
NEWS_COUNTS = ("stories", "highlights", "highlights_temporal", "highlights_without_quantity",
               "highlights_used", "flipped")


def story_text(draws: Draws) -> tuple[str, int]:
    """A `.story` text shaped as scale_stories writes them (18 paragraphs of two 21-word
    sentences, one in four with a quantity; 3-4 highlights, half with one); its highlights."""
    def sentence(words: int, quantity: float) -> str:
        """One sentence."""
        return " ".join(tokens(draws, words, words, draws.chance(quantity))).replace(" .", ".")

    paragraphs = [f"{sentence(21, 0.25)} {sentence(21, 0.25)}" for _ in range(18)]
    points = [sentence(13, 0.5).rstrip(".") for _ in range(draws.between(3, 4))]
    blocks = [*paragraphs, *(f"@highlight\n\n{point}" for point in points)]
    return "\n\n".join(blocks) + "\n", len(points)


def news_rows(draws: Draws, story: int, highlights: int) -> list[tuple[Any, ...]]:
    """A story's scored candidates as `equate newsnli-shard` writes them: two premises for each
    highlight with a quantity (half of them, as in the stories)."""
    rows: list[tuple[Any, ...]] = []
    for _ in range(sum(draws.chance(0.5) for _ in range(highlights))):
        point = " ".join(tokens(draws, 13, 13)).replace(" .", "")
        for _ in range(2):
            premise = " ".join(tokens(draws, 21, 21)).replace(" .", ".")
            rows.append((draws.uniform() * 0.5, story, len(rows), premise, point))
    return rows


def write_news(folder: Path, stories: int) -> tuple[Path, list[Path]]:
    """A CNN stories folder (`cnn/stories/<id>.story`) and the 64 shard outputs of `equate
    newsnli-shard` over it (Parquet, counts beside); (stories folder, shard files)."""
    import pandas as pd

    draws = Draws(rng_of(6, stories))
    out = folder / "cnn" / "stories"
    out.mkdir(parents=True, exist_ok=True)
    rows: list[list[tuple[Any, ...]]] = [[] for _ in range(NEWS_SHARDS)]
    counts = [dict.fromkeys(NEWS_COUNTS, 0) for _ in range(NEWS_SHARDS)]
    for number in range(stories):
        text, points = story_text(draws)
        (out / f"{number:08x}.story").write_text(text, encoding="utf-8")
        found = news_rows(draws, number, points)
        shard = counts[number % NEWS_SHARDS]
        shard["stories"] += 1
        shard["highlights"] += points
        shard["highlights_used"] += len(found) // 2
        shard["highlights_without_quantity"] += points - len(found) // 2
        rows[number % NEWS_SHARDS].extend(found)
    shards = []
    for number in range(NEWS_SHARDS):
        path = folder / "shards" / f"{number}.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        pd.DataFrame(rows[number], columns=list(SHARD_COLUMNS)).to_parquet(path, index=False)
        path.with_suffix(".json").write_text(json.dumps(counts[number]) + "\n", "utf-8")
        shards.append(path)
    return out, shards
