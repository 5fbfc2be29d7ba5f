"""Tests for NewsNLI candidates built from CNN stories."""

from __future__ import annotations

import json
import tarfile
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from reprobe.equate.jsonl import Pair, read_pairs
from reprobe.equate.sets.newsnli import (
    build_newsnli_candidates,
    gather_newsnli_shards,
    is_temporal,
    iter_stories,
    jaccard,
    most_similar,
    orient,
    parse_story,
    story_candidates,
    token_set,
    write_newsnli_shard,
)
from reprobe.equate.sets.newsnli_gather import cut_of, kept_pairs
from reprobe.equate.sets.recovery import as_pair

STORIES = Path(__file__).resolve().parents[1] / "data/samples/equate/cnn_stories"


@pytest.mark.parametrize(("text", "temporal"), [
    ("Rescue crews pulled 40 people from the water on Tuesday", True),
    ("The harvest began in September 2014", True),
    ("The race was held yesterday in sunny weather", True),
    ("Three people died 2 years ago", True),
    ("Unemployment rose after 2008 to 10%", True),
    ("Pear prices fell by 12% as markets filled with fruit", False),
    ("2000 people marched to the square", False),
    ("You may win 5 dollars", False),
    ("He was sentenced to five years in prison", False),
])
def test_temporal_detector(text: str, temporal: bool) -> None:
    """Dates, weekdays, years and relative days are temporal; counts and durations are not."""
    assert is_temporal(text) is temporal


def test_parse_story_splits_article_and_highlights() -> None:
    """Paragraphs come before the first @highlight, one summary point after each."""
    story = parse_story("s", "Para one.\n\nPara two.\n\n@highlight\n\nPoint A\n\n@highlight\n\n"
                             "Point B\n")
    assert story.paragraphs == ("Para one.", "Para two.")
    assert story.highlights == ("Point A", "Point B")


def test_points_need_a_quantity_and_no_temporal_expression() -> None:
    """Of the samples' 12 points, 3 are temporal and 2 have no quantity."""
    stats: Counter[str] = Counter()
    hypotheses = set()
    for _, story in iter_stories(STORIES):
        for _, pair in story_candidates(story, stats):
            hypotheses.update({pair.sentence1, pair.sentence2})
    assert (stats["highlights"], stats["highlights_temporal"],
            stats["highlights_without_quantity"], stats["highlights_used"]) == (12, 3, 2, 7)
    assert "Rescue crews pulled 40 people from the water on Tuesday" not in hypotheses
    assert "The mayor called the vote a victory" not in hypotheses


def test_jaccard_ranks_the_two_most_similar_sentences() -> None:
    """The two best sentences by lowercased-token Jaccard, best first; no-overlap ones never."""
    article = ["Cats sleep.", "The council approved a budget.", "THE COUNCIL met.",
               "The council approved a $4.5 billion budget on time."]
    best = most_similar("The council approved a $4.5 billion budget", article, 2)
    assert [s for _, s in best] == [article[3], article[1]]
    assert best[0][0] == pytest.approx(jaccard(token_set(article[3]),
                                               token_set("the council approved a $4.5 billion "
                                                         "budget")))
    assert most_similar("Dogs bark", article, 2) == []


def test_pronoun_premise_is_flipped() -> None:
    """A premise starting with a pronoun becomes the hypothesis (the named one is premise)."""
    pair, flipped = orient("She sold 40 cars", "Ana Ruiz sold 40 cars")
    assert flipped and (pair.sentence1, pair.sentence2) == ("Ana Ruiz sold 40 cars",
                                                           "She sold 40 cars")
    pair, flipped = orient("Ana Ruiz sold forty cars", "Ana sold 40 cars")
    assert not flipped and pair.sentence1 == "Ana Ruiz sold forty cars"


def test_top_half_by_similarity_in_input_order() -> None:
    """ceil(n/2) best pairs are kept, ties by input order, written back in input order."""
    scores = [0.1, 0.9, 0.5, 0.5, 0.2]
    cut = cut_of(np.array(scores), 0.5)
    kept = list(kept_pairs([(s, str(i), "h") for i, s in enumerate(scores)], cut))
    assert kept == [Pair(str(i), "h", "") for i in (1, 2, 3)] and cut.threshold == 0.5


def test_build_from_folder_and_tgz(tmp_path: Path) -> None:
    """A folder and a streamed .tgz give the same candidates; labels are empty, layout released."""
    archive = tmp_path / "cnn_stories.tgz"
    with tarfile.open(archive, "w:gz") as tar:
        for path in sorted(STORIES.glob("*.story")):
            tar.add(path, arcname=f"cnn/stories/{path.name}")
    from_folder = build_newsnli_candidates(STORIES, tmp_path / "a.jsonl")
    from_tgz = build_newsnli_candidates(archive, tmp_path / "b.jsonl")
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert from_folder["candidates"] == 14 and from_folder["kept"] == 7
    assert from_tgz["stories"] == 4
    rows = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert all(r["gold_label"] == "" and r["annotator_labels"] == [] for r in rows)
    assert all(r["genre"] == "news" and r["sentence1_tokens"] for r in rows)
    written = map(as_pair, read_pairs(tmp_path / "a.jsonl", labelled=False))
    pairs = {(p.sentence1, p.sentence2) for p in written}
    # The article sentence starts with "She", so the summary point is the premise.
    point = "The cooperative sold 1,200 crates of pears to buyers in the capital"
    assert (point, f"She said the {point[4:]}.") in pairs
    card = json.loads((tmp_path / "a.jsonl.card.json").read_text())
    assert card["rows"] == 7 and card["counts"]["flipped"] == 4


def test_shards_gather_to_the_single_process_result(tmp_path: Path) -> None:
    """Any number of shards gives the same pairs, in the same order, as one process."""
    build_newsnli_candidates(STORIES, tmp_path / "one.jsonl")
    parquets = [tmp_path / f"s{shard}.parquet" for shard in range(3)]
    for shard, parquet in enumerate(parquets):
        write_newsnli_shard(STORIES, shard, 3, parquet)
    gathered = gather_newsnli_shards(STORIES, parquets, tmp_path / "three.jsonl")
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "three.jsonl").read_bytes()
    assert gathered["stories"] == 4 and gathered["candidates"] == 14
    # A shard may hold no story at all (more shards than stories).
    write_newsnli_shard(STORIES, 7, 8, tmp_path / "empty.parquet")
    assert json.loads((tmp_path / "empty.json").read_text())["stories"] == 0
