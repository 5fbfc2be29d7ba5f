"""What the numeracy export rule reads and writes: one dataset folder per number set.

The number sets are those the probes are scored on: the numbers common to the retrained models
(magnitude and numeration tests), those common to the off-the-shelf models (magnitude) and each
off-the-shelf model's own numerals (numeration).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from reprobe.config import source_spec
from reprobe.errors import ConfigError
from reprobe.hf_dataset import card_path
from reprobe.numeracy.targets import (
    OFF_THE_SHELF_ROLE,
    RESULTS,
    RETRAINED_ROLE,
    NumeracyTargets,
    contrastive_rules_arguments,
)

EXPORTS = "exports/numeracy"


class NumeracyExports:
    """The export folders of a configuration's number sets, and what each one reads."""

    def __init__(self, targets: NumeracyTargets, sources: Mapping[str, Any],
                 dump: str | None) -> None:
        self.targets, self.sources, self.dump = targets, sources, dump
        tests = f"{RESULTS}/tests"
        # Number set → (scope, its models, its test folders by property).
        self.sets: dict[str, tuple[str, list[str], dict[str, str]]] = {}
        if targets.retrained:
            self.sets[RETRAINED_ROLE] = (RETRAINED_ROLE, list(targets.retrained), {
                "mag": f"{tests}/{RETRAINED_ROLE}-mag", "num": f"{tests}/{RETRAINED_ROLE}-num"})
        if targets.off_the_shelf:
            self.sets[OFF_THE_SHELF_ROLE] = (OFF_THE_SHELF_ROLE, list(targets.off_the_shelf),
                                             {"mag": f"{tests}/{OFF_THE_SHELF_ROLE}-mag"})
        for model in targets.off_the_shelf:
            if model in self.sets:
                raise ConfigError(f"numeracy.off_the_shelf.{model}: a model may not be named "
                                  "as a number set (retrained, off_the_shelf)")
            self.sets[model] = ("model", [model], {"num": f"{tests}/num-{model}"})
        self.folders = [f"{EXPORTS}/{name}" for name in self.sets]
        # What the rules output and the run asks for: each folder's README.md.
        self.cards = [card_path(folder) for folder in self.folders]

    def inputs(self, wildcards: Any) -> list[str]:
        """The test folders one number set's export reads."""
        return list(self.sets[wildcards.number_set][2].values())

    def source_names(self, number_set: str) -> list[str]:
        """The configured sources a number set's vocabularies come from."""
        scope, models, _ = self.sets[number_set]
        if scope == RETRAINED_ROLE:
            return [self.dump] if self.dump else []
        return [self.targets.off_the_shelf[model]["source"] for model in models]

    def sources_json(self, number_set: str) -> str:
        """A number set's sources as the card shows them (an extra corpus by path), JSON."""
        specs = {name: source_spec(self.sources[name])
                 for name in self.source_names(number_set) if name in self.sources}
        extra = self.targets.numeracy["extra_text"]
        if extra and self.sets[number_set][0] == RETRAINED_ROLE:
            specs["extra_text"] = {"path": extra, "description": "numeracy.extra_text corpus"}
        return json.dumps(specs, sort_keys=True)

    def arguments(self, wildcards: Any) -> list[str]:
        """`reprobe numeracy export` arguments of one number set, as argument tokens."""
        number_set = wildcards.number_set
        scope, models, folders = self.sets[number_set]
        return [f"--number-set={number_set}", f"--scope={scope}",
                *(f"--models={model}" for model in models),
                *(f"--{prop}={folder}" for prop, folder in folders.items()),
                *contrastive_rules_arguments(self.targets.numeracy),
                f"--sources-json={self.sources_json(number_set)}"]
