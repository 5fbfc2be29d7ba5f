"""What the EQUATE export rule reads and writes: one dataset folder per evaluated set."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from reprobe.equate.targets import DATA, EquateTargets
from reprobe.hf_dataset import card_path

EXPORTS = "exports/equate"
HARNESS = f"{EXPORTS}/lm_eval"


# The variants exported as datasets: EQUATE's sets (Table 7's MultiNLI dev-matched is not one).
EXPORTED = ("released", "rebuilt", "perturbation")


def export_name(variant: str, test_set: str) -> str:
    """A set's folder name: its variant, then its name (`released-stresstest`)."""
    return f"{variant}-{test_set}"


class EquateExports:
    """The export folders of a configuration's evaluation sets, and what each one reads."""

    def __init__(self, targets: EquateTargets, sources: Mapping[str, Any]) -> None:
        self.targets, self.sources = targets, sources
        self.sets = {export_name(variant, test_set): (variant, test_set)
                     for variant, names in targets.sets.items() if variant in EXPORTED
                     for test_set in names}
        self.folders = [f"{EXPORTS}/{name}" for name in self.sets]
        # What the rules output and the run asks for: each folder's README.md, the tasks' too.
        self.cards = [*(card_path(folder) for folder in self.folders), card_path(HARNESS)]
        self.set_cards = [card_path(folder) for folder in self.folders]

    def recovery(self, variant: str, test_set: str) -> list[str]:
        """The recovery counts of a rebuilt set compared with its released one (or none)."""
        path = f"{DATA}/recovery/{test_set}.json"
        return [path] if variant == "rebuilt" and path in self.targets.recovery_files else []

    def inputs(self, wildcards: Any) -> dict[str, Any]:
        """The export job's inputs: the set's file (or source) and its recovery counts."""
        variant, test_set = self.sets[wildcards.dataset]
        return {"pairs": self.targets.pairs(variant, test_set).target,
                "recovery": self.recovery(variant, test_set)}

    def arguments(self, wildcards: Any) -> list[str]:
        """`reprobe equate export` arguments of one folder, as argument tokens."""
        variant, test_set = self.sets[wildcards.dataset]
        arguments = [f"--variant={variant}", f"--test-set={test_set}",
                     f"--pairs={self.targets.pairs(variant, test_set).path}"]
        arguments += [f"--recovery={path}" for path in self.recovery(variant, test_set)]
        if variant == "released":
            name = self.targets.released[test_set]["source"]
            spec = {key: self.sources[name][key] for key in ("url", "path", "sha256")
                    if self.sources.get(name, {}).get(key)}
            arguments.append(f"--sources-json={json.dumps({name: spec}, sort_keys=True)}")
        return arguments
