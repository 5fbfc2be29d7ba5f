"""The lm-evaluation-harness helpers of reprobe's EQUATE tasks.

Copied beside the task YAMLs as `utils.py`: the harness imports it alone, so it imports nothing
of reprobe (a test keeps its labels equal to reprobe.equate.labels).
"""

# The three-way choices, in the harness's ANLI order: True, Neither, False.
THREE_WAY = ("entailment", "neutral", "contradiction")


def three_way_target(doc: dict) -> int:
    """The gold choice of a three-way pair (True = entailment, Neither, False)."""
    return THREE_WAY.index(doc["gold_label"])


def two_way_target(doc: dict) -> int:
    """The gold choice of a two-way pair, as the harness's RTE: True = entailment, else False."""
    return 0 if doc["gold_label"] == "entailment" else 1
