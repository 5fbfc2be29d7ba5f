"""EQUATE's evaluation sets by name, and which of them a configuration scores: the released
files it names, the sets it rebuilds from raw sources, §5.1's perturbation sets, and Table 7's
MultiNLI dev-matched."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SETS = ("rte_quant", "newsnli", "redditnli", "stresstest", "awpnli")
# People labelled these: their rebuilt candidates take labels from the released file.
CANDIDATE_SETS = ("newsnli", "redditnli")
# Labelled by construction: rebuilt whether or not a released file is configured.
SYNTHETIC_SETS = ("stresstest", "awpnli")
# The raw input each rebuilt set is built from: a set whose input the config leaves out is not
# rebuilt (the released-data tier leaves them all out), and HYP needs `nli_train`.
SET_INPUTS = {"rte_quant": None, "newsnli": "cnn_stories", "redditnli": "reddit",
              "stresstest": "aqua", "awpnli": "arithmetic"}
PERTURBATION_SETS = ("unperturbed", "perturbed")
# Table 7's set: MultiNLI dev-matched, on which every row trained on MultiNLI is scored.
MNLI_SETS = ("mnli_dev_matched",)


def rebuildable(inputs: Mapping[str, Any]) -> list[str]:
    """The sets whose raw input the config names (`SET_INPUTS`), in table order."""
    return [name for name in SETS if SET_INPUTS[name] is not None and SET_INPUTS[name] in inputs]


def labelled_candidate_sets(released: Mapping[str, Any],
                            inputs: Mapping[str, Any]) -> list[str]:
    """Candidate sets built here that a released file can label."""
    return [name for name in CANDIDATE_SETS if name in released and name in rebuildable(inputs)]


def compared_synthetic_sets(released: Mapping[str, Any],
                            inputs: Mapping[str, Any]) -> list[str]:
    """Synthetic sets built here with a released file to compare the rebuilt one with."""
    return [name for name in SYNTHETIC_SETS if name in released and name in rebuildable(inputs)]


def evaluation_sets(released: Mapping[str, Any],
                    inputs: Mapping[str, Any]) -> dict[str, list[str]]:
    """Per variant, the sets every row is scored on: the released files configured; the sets
    built here (candidates only when labelled; none whose raw input is left out); §5.1's sets
    when released NewsNLI is there; Table 7's MultiNLI dev-matched when it is configured."""
    return {
        "released": [name for name in SETS if name in released],
        "rebuilt": [*labelled_candidate_sets(released, inputs),
                    *(name for name in SYNTHETIC_SETS if name in rebuildable(inputs))],
        "perturbation": list(PERTURBATION_SETS) if "newsnli" in released else [],
        "mnli": list(MNLI_SETS) if "nli_dev" in inputs else [],
    }
