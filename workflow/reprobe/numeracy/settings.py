"""The settings of the numeracy steps, each from one config section (`--settings JSON`).

A light module: the rules' targets and the CLI read it without loading numpy or gensim. The
schema holds every default; `reprobe.numeracy.retrain_settings` has the training jobs' settings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

# The subsections of `numeracy` that no step reads through the section: the retraining jobs'
# and the models (the targets read them), and two steps' own sections.
_NUMERACY_SUBSECTIONS = ("retrain", "off_the_shelf", "extra_vectors", "knn", "pmi")


@dataclass(frozen=True)
class SelectionSettings:
    """`numeracy` as a shard's Num/All selection (`reprobe numeracy select`) reads it."""

    max_sentences: int | None
    lowercase: bool
    # `extra_text` is one more source (the targets add it); the test rules and `random_dim`
    # belong to other steps.
    NOT_READ: ClassVar[tuple[str, ...]] = (
        "extra_text", "tie_break", "ova_exclude_equidistant", "random_dim",
        *_NUMERACY_SUBSECTIONS)


@dataclass(frozen=True)
class ContrastiveRules:
    """`numeracy` as the contrastive tests and their tables' notes read it (tie-break, OVA)."""

    tie_break: str
    ova_exclude_equidistant: bool
    # The corpora's and the random row's settings belong to other steps.
    NOT_READ: ClassVar[tuple[str, ...]] = (
        "lowercase", "max_sentences", "extra_text", "random_dim", *_NUMERACY_SUBSECTIONS)

    def keywords(self) -> dict[str, object]:
        """The rules as the test builders' and the tables' keyword arguments."""
        return {"tie_break": self.tie_break, "exclude_equidistant": self.ova_exclude_equidistant}


@dataclass(frozen=True)
class KnnSettings:
    """`numeracy.knn`: the kNN regression of magnitude (Table 6)."""

    k: int
    target: str
    test_size: float


@dataclass(frozen=True)
class PmiSettings:
    """`numeracy.pmi`: the PMI context analysis (Table 5)."""

    sentences: int
    lambdas: list[float]
    smoothing: float
    top: int


@dataclass(frozen=True)
class VectorProbeSettings:
    """`numeracy` as one embedding's probe over its own numbers reads it (`reprobe numeracy
    probe --vectors FILE`): the test rules and the kNN regression."""

    tie_break: str
    ova_exclude_equidistant: bool
    knn: dict[str, Any]
    # The corpora's, the retraining's, the models' and the PMI's settings are other steps'.
    NOT_READ: ClassVar[tuple[str, ...]] = (
        "lowercase", "max_sentences", "extra_text", "random_dim", "retrain", "off_the_shelf",
        "extra_vectors", "pmi")

    def rules(self) -> ContrastiveRules:
        """The contrastive tests' rules."""
        return ContrastiveRules(self.tie_break, self.ova_exclude_equidistant)

    def knn_settings(self) -> KnnSettings:
        """The kNN regression's settings (`numeracy.knn`)."""
        return KnnSettings(**self.knn)
