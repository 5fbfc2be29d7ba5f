"""The settings objects of the WIKI-PSE steps (`--settings JSON`), one config section each;
the embedding jobs' are in `embedding.embedding_settings`.

A light module: the CLI builds its parser on every start and the rules' targets read it, so it
loads neither scikit-learn nor torch. No field has a default: the schema is their one home.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from reprobe.errors import ConfigError
from reprobe.step_settings import settings_of

CLASSIFIERS = ("LR", "KNN", "MLP")


@dataclass(frozen=True)
class SelectionSettings:
    """How many single- and multi-class words each split takes (`wikipse.selection`,
    `wikipse.supersense.selection`; null: as many as the corpus allows)."""

    single_per_split: int | None
    multi_per_split: int | None


@dataclass(frozen=True)
class ProbeSettings:
    """What fitting the probing classifiers takes: `ClassifierSettings.fitting` makes it."""

    lr_c: float  # inverse L2 strength of LogisticRegression
    knn_k: int  # neighbours by cosine (= euclidean order on unit vectors), majority vote
    mlp_hidden: int  # units of the one hidden ReLU layer
    mlp_max_iter: int  # epochs of adam at most
    # Hold out 10% of train (stratified) and stop when its accuracy stalls for 10 epochs.
    mlp_early_stopping: bool
    seed: int  # every classifier gets this seed, so results do not depend on n_jobs
    n_jobs: int  # processes that fit the per-class classifiers


@dataclass(frozen=True)
class ClassifierSettings:
    """`wikipse.probes` as a step that fits the classifiers reads it (public, supersense-probe)."""

    classifiers: list[str]
    lr_c: float
    knn_k: int
    mlp_hidden: int
    mlp_max_iter: int
    mlp_early_stopping: bool
    n_jobs: int
    # Which vectors Tables 3, 5 and 7 take (the targets read them), and Table 4's reading.
    NOT_READ: ClassVar[tuple[str, ...]] = ("public_dim", "analysis_model", "ambiguity")

    def __post_init__(self) -> None:
        """Refuse a classifier the probes do not know, naming the key."""
        unknown = [kind for kind in self.classifiers if kind not in CLASSIFIERS]
        if unknown:
            raise ConfigError(f"wikipse.probes.classifiers: unknown {unknown[0]!r} "
                              f"(use {', '.join(CLASSIFIERS)})")

    def fitting(self, seed: int) -> ProbeSettings:
        """The classifiers' fitting settings, seeded."""
        return ProbeSettings(lr_c=self.lr_c, knn_k=self.knn_k, mlp_hidden=self.mlp_hidden,
                             mlp_max_iter=self.mlp_max_iter,
                             mlp_early_stopping=self.mlp_early_stopping, seed=seed,
                             n_jobs=self.n_jobs)


@dataclass(frozen=True)
class EmbeddingProbeSettings(ClassifierSettings):
    """`wikipse.probes` as `wikipse probe` reads it: the classifiers and the ambiguity reading."""

    ambiguity: str
    # Which vectors Tables 3, 5 and 7 take: the targets read them.
    NOT_READ: ClassVar[tuple[str, ...]] = ("public_dim", "analysis_model")


@dataclass(frozen=True)
class SentEvalSettings:
    """`wikipse.senteval` as Table 5's sentence tasks read it (the tasks' files are options)."""

    folds: int
    # The task files: `--tasks`, as paths.
    NOT_READ: ClassVar[tuple[str, ...]] = ("tasks",)


@dataclass(frozen=True)
class TyperSettings:
    """Hyperparameters of the attentive typer and its training (`wikipse.mention_typing.typer`)."""

    lstm_dim: int
    attention_dim: int
    dropout: float
    learning_rate: float
    batch_size: int
    epochs: int
    steps_per_epoch: int
    device: str


@dataclass(frozen=True)
class MentionTypingSettings:
    """`wikipse.mention_typing` as Table 5's MC reads it: the context, the case, the typer."""

    context: int
    lowercase: bool
    typer: TyperSettings
    # The FIGER splits: options, as paths.
    NOT_READ: ClassVar[tuple[str, ...]] = ("files",)

    def __post_init__(self) -> None:
        """The typer's settings as an object (JSON gives a mapping), a wrong key named."""
        if isinstance(self.typer, Mapping):
            object.__setattr__(self, "typer", typer_settings(self.typer))


def typer_settings(values: Mapping[str, Any]) -> TyperSettings:
    """The typer's settings of a mapping; a missing or unknown key is named."""
    return settings_of(values, TyperSettings, "wikipse.mention_typing.typer",
                       where="wikipse.mention_typing")
