"""The lm-evaluation-harness helpers of reprobe's EQUATE tasks.

Copied beside the task YAMLs as `utils.py`: the harness imports it alone, so it imports nothing
of reprobe (a test keeps its labels equal to reprobe.equate.labels).
"""

from __future__ import annotations

from pathlib import Path

# The three-way choices, in the harness's ANLI order: True, Neither, False.
THREE_WAY = ("entailment", "neutral", "contradiction")


def three_way_target(doc: dict) -> int:
    """The gold choice of a three-way pair (True = entailment, Neither, False)."""
    return THREE_WAY.index(doc["gold_label"])


def two_way_target(doc: dict) -> int:
    """The gold choice of a two-way pair, as the harness's RTE: True = entailment, else False."""
    return 0 if doc["gold_label"] == "entailment" else 1


def exported_dataset(dataset_folder: str, **metadata: object) -> object:
    """The task's data (its `custom_dataset`): the exported dataset folder named relative to
    this file's folder, so that the exports folder can be moved or copied whole."""
    import datasets

    return datasets.load_dataset(str(Path(__file__).resolve().parent / dataset_folder))
