"""The settings of a retraining job (GloVe, fastText, word2vec), from `numeracy.retrain`.

A light module: the rules' targets and the CLI read it without loading gensim.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class RetrainSettings:
    """`numeracy.retrain` as one training job reads it (the schema holds every default)."""

    dim: int
    window: int
    min_count: int
    epochs: int
    glove: dict[str, Any]
    # `families` chooses the jobs; `workers` reaches a job as its threads (--threads), which
    # Snakemake may lower to --cores.
    NOT_READ: ClassVar[tuple[str, ...]] = ("families", "workers")

    def family_settings(self, family: str) -> dict[str, Any]:
        """The keyword settings of one family's trainer (GloVe has its own epochs and
        weighting; the others share `epochs`)."""
        shared = {"dim": self.dim, "window": self.window, "min_count": self.min_count}
        if family == "glove":
            return {**shared, "x_max": self.glove["x_max"], "alpha": self.glove["alpha"],
                    "epochs": self.glove["epochs"],
                    "learning_rate": self.glove["learning_rate"]}
        return {**shared, "epochs": self.epochs}
