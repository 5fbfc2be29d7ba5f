"""Where the NumerSense stage keeps its files, and the names shared by its target modules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DATA = "data/processed/numersense"
MODELS = "data/models/numersense"
RESULTS = "results/numersense"
TABLES = "results/tables/numersense"
# The test sets with released probe text (core, all) and the labelled released set.
TEST_SETS = ("core", "all")
RELEASED_SETS = ("core", "all", "validation")
# The released probe files the overlap table compares (not the plain fine-tuning sentences).
RELEASED_FILES = ("core", "all", "train", "validation")
# numersense.finetune.train_set -> the released key it needs (None: the rebuilt set).
TRAIN_SETS = {"rebuilt": None, "released": "train", "authors": "finetune_sentences"}
VARIANTS = ("rebuilt", "released")
RELEASED_SUFFIX = " (released predictions)"


def model_type(spec: Mapping[str, Any]) -> str:
    """masked or causal: a tiny model's kind decides, else the spec's `type` (the schema's
    default filled in)."""
    if "tiny" in spec:
        return "causal" if spec["tiny"]["kind"] == "gpt2" else "masked"
    return str(spec["type"])


