"""The settings of an embedding job (SKIP, SSKIP), from config section `wikipse.embeddings`.

A light module: the rules' targets and the CLI read it without loading the trainer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class SSkipConfig:
    """Hyperparameters of one SSKIP (or SKIP) training: `EmbeddingSettings.trainer` makes them
    from the config (the schema holds every default)."""

    dim: int
    window: int
    negative: int
    epochs: int
    min_count: int
    alpha: float
    sample: float
    workers: int
    seed: int

    def __post_init__(self) -> None:
        """Reject values the trainer cannot use, naming the field."""
        least = dict.fromkeys(("dim", "window", "epochs", "min_count", "workers"), 1)
        for name, low in {**least, "negative": 0, "sample": 0, "seed": 0, "alpha": 1e-12}.items():
            if (value := getattr(self, name)) < low:
                raise ValueError(f"SSkipConfig.{name} must be at least {low}, not {value}")


@dataclass(frozen=True)
class EmbeddingSettings:
    """`wikipse.embeddings` as one embedding job reads it (`models` and `dims` only say which
    jobs there are): the hyperparameters and the optional wang2vec binary."""

    window: int
    negative: int
    epochs: int
    min_count: int
    sample: float
    alpha: float
    workers: int
    wang2vec: str | None
    wang2vec_models: list[str]
    # Keys of the section that choose the jobs rather than configure one.
    NOT_READ: ClassVar[tuple[str, ...]] = ("models", "dims")

    def trainer(self, dim: int, seed: int) -> SSkipConfig:
        """The training hyperparameters of one embedding of `dim` dimensions."""
        return SSkipConfig(dim=dim, window=self.window, negative=self.negative,
                           epochs=self.epochs, min_count=self.min_count, alpha=self.alpha,
                           sample=self.sample, workers=self.workers, seed=seed)

    def wang2vec_for(self, model: str) -> str | None:
        """The wang2vec binary that trains `model`, or None (gensim or reprobe's SSKIP)."""
        return self.wang2vec if self.wang2vec and model in self.wang2vec_models else None
