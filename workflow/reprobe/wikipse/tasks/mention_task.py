"""Table 5's MC column: FIGER mention classification with each embedding (Yaghoobzadeh et al.
2019, §5.3), the splits read once and a typer trained per embedding.

The score is NFGEC's strict accuracy in percent (the paper does not name its measure; its GloVe
6B value, 58.1, sits beside the strict accuracy Shimaoka et al. report with GloVe, not beside
their loose F1 scores in the 70s); loose macro and micro F1 are logged and kept in the details.
The typer trains on train, the dev scores are logged after each epoch (NFGEC selects nothing on
dev), and test is scored once at the end.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from gensim.models import KeyedVectors

from reprobe.torch_runtime import device_determinism
from reprobe.wikipse.tasks.attentive import TyperSettings, predict_probabilities, train_typer
from reprobe.wikipse.tasks.figer import (
    Mentions,
    embedding_matrix,
    indicator,
    mention_vectors,
    predicted_types,
    read_mentions,
    typing_scores,
)

log = logging.getLogger(__name__)
SPLITS = ("train", "dev", "test")


@dataclass(frozen=True)
class TypingData:
    """The three splits over one shared vocabulary and type list."""

    splits: dict[str, Mentions]
    vocabulary: dict[str, int]
    types: dict[str, int]


def read_typing_data(files: Mapping[str, Path], context: int, lowercase: bool) -> TypingData:
    """train, dev and test of NFGEC's FIGER files, ids shared across them."""
    vocabulary: dict[str, int] = {}
    types: dict[str, int] = {}
    splits = {name: read_mentions(Path(files[name]), vocabulary, types, context=context,
                                  lowercase=lowercase) for name in SPLITS}
    log.info("FIGER: %s mentions, %d words, %d types",
             ", ".join(f"{len(m)} {n}" for n, m in splits.items()), len(vocabulary), len(types))
    return TypingData(splits, vocabulary, types)


def _inputs(split: Mentions, matrix: np.ndarray, types: int) -> tuple[np.ndarray, ...]:
    """left, right, mention vectors and type targets of a split."""
    return split.left, split.right, mention_vectors(split, matrix), indicator(split.labels, types)


def _scores(torch: Any, model: Any, inputs: tuple[np.ndarray, ...], device: str
            ) -> dict[str, float]:
    """Strict, loose macro and loose micro scores of a model on a split's inputs."""
    left, right, mention, gold = inputs
    return typing_scores(gold, predicted_types(
        predict_probabilities(torch, model, left, right, mention, device)))


def classify_mentions(data: TypingData, vectors: KeyedVectors, settings: TyperSettings,
                      seed: int) -> dict[str, float]:
    """Test scores (percent) of a typer trained on one embedding, with its word coverage."""
    import torch

    matrix, coverage = embedding_matrix(data.vocabulary, vectors)
    count = len(data.types)
    train, dev, test = (_inputs(data.splits[name], matrix, count) for name in SPLITS)

    def report(epoch: int, model: Any) -> None:
        """Log the dev scores after an epoch."""
        found = _scores(torch, model, dev, settings.device)
        log.info("dev after epoch %d: strict %.1f, loose macro %.1f, loose micro %.1f",
                 epoch + 1, found["strict"], found["loose_macro"], found["loose_micro"])

    with device_determinism(torch, settings.device):
        model = train_typer(torch, matrix, train, count, settings, seed, on_epoch=report)
        found = _scores(torch, model, test, settings.device)
    return {**found, "coverage": coverage, "n_test": len(data.splits["test"])}
