"""The "stories" chain of the scale benchmark: N CNN stories, as EQUATE's NewsNLI reads them.

A level is a folder of `.story` files in the CNN release's layout (`cnn/stories/<id>.story`:
article paragraphs, then `@highlight` blocks), shaped like the release: about 760 words an
article in 18 paragraphs of two sentences (CNN/Daily Mail's CNN half averages ~760 words and
3.7 highlights), 3 or 4 highlights of about 13 words, half of them with a quantity, and one
article sentence in four with a number; words from the scale benchmark's open vocabulary.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from scale_inputs import FORMAT_VERSION, cached, numerals, zipf_words

PARAGRAPHS, SENTENCE_WORDS, HIGHLIGHT_WORDS = 18, 21, 13
UNITS = ("people", "percent", "million", "dollars", "miles", "years old", "points")
# config/paper.yaml: 92,579 CNN stories in 64 shard jobs.
STORIES, SHARDS = 92_579, 64


@dataclass(frozen=True)
class StoriesInfo:
    """A generated stories folder and what it holds."""

    path: str  # the folder the rule's `--stories` names
    stories: int
    seed: int
    format_version: int = FORMAT_VERSION


def sentence(rng: np.random.Generator, words: int, quantity: bool) -> str:
    """One sentence of `words` words, with a number and a unit if `quantity`."""
    drawn = zipf_words(rng, words)
    if quantity:
        at = int(rng.integers(0, words))
        drawn[at:at] = [str(numerals(rng, 1)[0]), UNITS[int(rng.integers(len(UNITS)))]]
    return " ".join(drawn).capitalize() + "."


def story_text(rng: np.random.Generator) -> str:
    """One story: its article's paragraphs, then its highlights."""
    paragraphs = [" ".join(sentence(rng, SENTENCE_WORDS, rng.random() < 0.25)
                           for _ in range(2)) for _ in range(PARAGRAPHS)]
    points = [sentence(rng, HIGHLIGHT_WORDS, rng.random() < 0.5).rstrip(".")
              for _ in range(int(rng.integers(3, 5)))]
    return "\n\n".join([*paragraphs, *(f"@highlight\n\n{point}" for point in points)]) + "\n"


def write_stories(folder: Path, stories: int, seed: int = 0) -> StoriesInfo:
    """The level's stories folder (cached by its description)."""
    meta = folder / "stories.json"
    found = cached(meta, StoriesInfo, stories=stories, seed=seed, format_version=FORMAT_VERSION)
    if isinstance(found, StoriesInfo):
        return found
    out = folder / "cnn" / "stories"
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng([seed, stories])
    for number in range(stories):
        (out / f"{number:08x}.story").write_text(story_text(rng), encoding="utf-8")
    info = StoriesInfo(str(out), stories, seed)
    meta.write_text(json.dumps(asdict(info), indent=1) + "\n", encoding="utf-8")
    return info
