"""Generated inputs of the trained baselines' benchmark (equate_trained), seeded, nothing
downloaded: `nli_pairs` makes pairs in MultiNLI's train layout (`pairID`, `promptID`, `genre`,
bracketed `*_binary_parse` and `*_parse`, random labels) whose words follow the scale benchmark's
open Zipf vocabulary (scale_equate_inputs' Draws), premises of ~22 tokens and hypotheses of ~11
that begin with the premise's first words; `pool_facts` and `counting_s_per_pair` say what a
pairs file holds (tokens a side and distinct words, as the baselines split them) and the CPU
seconds `equate vocabulary` spends counting a pair's words; `flat_bytes_per_pair`, what one more
training pair adds to a training job's memory. MultiNLI's sizes and GloVe 840B's lines, which
the measurements are extrapolated to, are here too; the vector files are scale_vectors'.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from scale_equate_inputs import GENRES, LABELS, Draws, bracketed, tokens

PAPER_PAIRS = 392_702  # MultiNLI 1.0 train
PAPER_DEV_PAIRS = 9_815  # dev-matched with a gold label
PAPER_VECTOR_LINES = 2_196_017  # glove.840B.300d.txt
DEV_SHARE = PAPER_DEV_PAIRS / PAPER_PAIRS
# Bytes a training pair holds beyond its tokens: two int64 sentence offsets and an int64
# label (EncodedPairs), and the epoch's index arrays (a permutation, the lengths, the kept
# indices: int64 each) and its batches' Python ints (~36 bytes each).
PAIR_BYTES = 2 * 8 + 8 + 3 * 8 + 36
# Bytes a token holds: its int32 id, and during encoding a pointer in a Python list (which
# over-allocates by about an eighth); the list is gone before training, so this is an upper
# bound.
TOKEN_BYTES = 4 + 8 * 1.125


def nli_pair(draws: Draws, number: int) -> dict[str, Any]:
    """One MultiNLI-layout pair: a premise of ~22 tokens, a hypothesis of ~11 beginning with
    its first words, a random label."""
    premise = tokens(draws, 9, 33, quantity=draws.chance(0.1))
    hypothesis = [*premise[:draws.between(1, 3)], *tokens(draws, 5, 14, False)[1:]]
    label = LABELS[draws.between(0, 2)]
    row: dict[str, Any] = {"annotator_labels": [label], "genre": GENRES[number % len(GENRES)],
                           "gold_label": label}
    for key, words in (("sentence1", premise), ("sentence2", hypothesis)):
        binary, parse = bracketed(words)
        row |= {f"{key}_binary_parse": binary, f"{key}_parse": parse}
    return row | {"pairID": f"{number}{label[0]}", "promptID": str(number),
                  "sentence1": " ".join(premise).replace(" .", "."),
                  "sentence2": " ".join(hypothesis).replace(" .", ".")}


def nli_pairs(count: int, seed: int, salt: int) -> Iterator[dict[str, Any]]:
    """`count` pairs from one seeded generator (salt: which file)."""
    draws = Draws(np.random.default_rng([seed, salt, count]))
    for number in range(count):
        yield nli_pair(draws, number)


def pool_facts(path: Path) -> dict[str, float]:
    """Tokens a premise and a hypothesis hold on average (as the baselines split them), and
    the distinct words, of a pairs file."""
    from reprobe.equate.trained.text import words

    premise, hypothesis, seen = [], [], set()
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            first, second = words(row["sentence1"]), words(row["sentence2"])
            premise.append(len(first))
            hypothesis.append(len(second))
            seen.update(first, second)
    return {"pairs": len(premise), "premise_tokens": float(np.mean(premise)),
            "hypothesis_tokens": float(np.mean(hypothesis)), "distinct_words": len(seen)}


def counting_s_per_pair(path: Path) -> float:
    """CPU seconds `equate vocabulary` spends counting one training pair's words."""
    from reprobe.equate.trained.vocabulary import training_words

    start = time.process_time()
    training_words(path)
    return (time.process_time() - start) / sum(1 for _ in path.open(encoding="utf-8"))


def flat_bytes_per_pair(tokens_per_pair: float) -> float:
    """What one more training pair adds to a training job's memory (upper bound)."""
    return tokens_per_pair * TOKEN_BYTES + PAIR_BYTES
