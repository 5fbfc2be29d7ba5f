"""EQUATE's label vocabulary and the two-class fold, defined once for sets, baselines and Q-REAS.

Every set is labelled entailment / neutral / contradiction. RTE-Quant, NewsNLI and AwpNLI ask
only "entails: yes/no" (paper Table 2), so there neutral and contradiction fold into
non-entailment, for gold and predicted labels alike.
"""

from __future__ import annotations

ENTAILMENT, NEUTRAL, CONTRADICTION = "entailment", "neutral", "contradiction"
LABELS = (ENTAILMENT, NEUTRAL, CONTRADICTION)
NON_ENTAILMENT = "non-entailment"
# What the released-code Q-REAS predicts for a pair without CoreNLP parses (left out of scores).
NO_PARSE = "NA"
# Label space per EQUATE test set (paper Table 2): True means entails=yes/no. Table 7's
# MultiNLI dev-matched is three-way.
TWO_CLASS = {"rte_quant": True, "newsnli": True, "redditnli": False, "stresstest": False,
             "awpnli": True, "mnli_dev_matched": False}


def is_two_class(test_set: str) -> bool:
    """Whether an EQUATE test set (any spelling of its name) is scored as a 2-way decision."""
    key = "".join(ch for ch in test_set.lower() if ch.isalnum())
    for name, two in TWO_CLASS.items():
        if key == name.replace("_", ""):
            return two
    raise KeyError(f"unknown EQUATE test set {test_set!r}; expected one of {sorted(TWO_CLASS)}")


def fold(label: str, two_class: bool) -> str:
    """The label in the test's label space: non-entailment classes merge on 2-class sets."""
    if two_class and label != ENTAILMENT:
        return NON_ENTAILMENT
    return label
