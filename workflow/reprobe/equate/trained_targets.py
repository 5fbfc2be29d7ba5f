"""What the trained baselines' rules read and Table 7's rule gathers, from the config (the
rules in workflow/rules/equate_trained.smk only wire)."""

from __future__ import annotations

import re
from typing import Any

from reprobe.equate.settings import TrainedRowSettings, TrainingSettings
from reprobe.equate.targets import MODELS, RESULTS, TABLES, EquateTargets
from reprobe.resources import requested, rule_scale
from reprobe.step_settings import settings_json

VOCABULARY = f"{MODELS}/trained/vocabulary"


class TrainedTargets:
    """The trained baselines' inputs, settings and resources, and Table 7's score files."""

    def __init__(self, targets: EquateTargets) -> None:
        self.targets = targets
        self.trained: dict[str, Any] = targets.equate["trained"]
        self.training: dict[str, Any] = targets.equate["training"]
        # Row slug -> row name, for the trained rows.
        self.rows = {model: name for model, (name, kind) in targets.rows.items()
                     if kind == "trained"}
        self.table7 = f"{TABLES}/table7.csv"
        # A GPU per training job when the device is one.
        self.gpus = 1 if str(self.training["device"]).startswith("cuda") else 0
        self.threads = int(self.training["threads"])

    def vocabulary_inputs(self) -> dict[str, str]:
        """The vocabulary job's inputs: the training pairs and the word vectors."""
        return {"train": self.targets.input_target("nli_train"),
                "vectors": self.targets.input_target("word_vectors")}

    def train_inputs(self, wildcards: Any) -> dict[str, str]:
        """One training job's inputs: training and dev pairs, and the vocabulary."""
        return {"train": self.targets.input_target("nli_train"),
                "dev": self.targets.input_target("nli_dev"), "vocabulary": VOCABULARY}

    def row_settings(self, wildcards: Any) -> list[str]:
        """`reprobe equate train-baseline`'s settings of a row and of `equate.training`, as
        argument tokens."""
        row = self.trained[self.rows[wildcards.model]]
        return [f"--settings={settings_json(row, TrainedRowSettings)}",
                f"--training={settings_json(self.training, TrainingSettings)}"]

    def _request(self, model: str) -> tuple[int, int]:
        """(mem_mb, runtime) of a training job, by the row's architecture (reprobe/costs.json's
        `equate_train_baseline[…]` entries)."""
        architecture = self.trained[self.rows[model]]["architecture"]
        return requested(rule_scale(f"equate_train_baseline[{architecture}]"), 0)

    def train_mem_mb(self, wildcards: Any) -> int:
        """Memory of a training job (MB)."""
        return self._request(wildcards.model)[0]

    def train_runtime(self, wildcards: Any) -> int:
        """Run time of a training job (minutes)."""
        return self._request(wildcards.model)[1]

    def model_pattern(self) -> str:
        """The `model` wildcard's constraint of the training rule."""
        return "|".join(re.escape(model) for model in self.rows) or "no-models"

    def table7_scores(self) -> list[str]:
        """Every score file Table 7 reads (the `mnli` variant's)."""
        return [f"{RESULTS}/scores/mnli/{test_set}/{model}.csv"
                for test_set in self.targets.sets["mnli"]
                for model in self.targets.variant_rows("mnli")]
