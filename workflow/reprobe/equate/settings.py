"""The settings objects of the EQUATE steps, each one config section (the schema holds every
default). A light module: the rules' targets and the CLI read it without loading a model."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

# Where a tiny neural row's training settings live in the schema (every row has its own).
TINY_PATH = "$defs.neural_model.tiny"
# The Q-REAS row that follows Algorithm 1 as the paper writes it: no variant readings.
ALGORITHM1 = "Q-REAS (Algorithm 1)"


@dataclass(frozen=True)
class HypSettings:
    """`equate.hyp`: the hypothesis-only fastText classifier's training."""

    epochs: int
    dim: int
    lr: float
    word_ngrams: int


@dataclass(frozen=True)
class TinyNliSettings:
    """`equate.neural.<row>.tiny`: the tiny BERT NLI model trained here."""

    hidden: int
    layers: int
    steps: int
    lr: float


@dataclass(frozen=True)
class RedditSettings:
    """`equate.redditnli`: how RedditNLI's candidate pairs are chosen."""

    top: int
    days: float


@dataclass(frozen=True)
class QreasSettings:
    """`equate.qreas` as one Q-REAS row reads it: the limits, the year reading, and this row's
    entry of `released_code` or `variants` (the others are left out, so that changing one row
    reruns that row alone).

    The schema's limits are the paper's (§4.2.4): "We limit tree depth to 3 and retrieve a
    maximum of 50 solutions per hypothesis NUMSET".
    """

    max_depth: int
    max_solutions: int
    years: str
    released_code: dict[str, dict[str, Any]]
    variants: dict[str, dict[str, Any]]

    def variant_readings(self, row: str) -> dict[str, Any]:
        """The readings beyond the paper an Algorithm 1 row switches on (none for the paper's
        row)."""
        return {} if row == ALGORITHM1 else dict(self.variants[row])

    def released_code_reading(self, row: str) -> dict[str, Any]:
        """How a released-code row reads the authors' ILP (solutions, mismatch)."""
        return dict(self.released_code[row])


def qreas_row_section(qreas: dict[str, Any], row: str) -> dict[str, Any]:
    """The `equate.qreas` section as one row passes it: its own `released_code`/`variants`
    entry only."""
    return {**qreas,
            "released_code": {k: v for k, v in qreas["released_code"].items() if k == row},
            "variants": {k: v for k, v in qreas["variants"].items() if k == row}}


# Where a trained baseline's row settings live in the schema (every row has its own).
TRAINED_PATH = "$defs.trained_model"


@dataclass(frozen=True)
class TrainedRowSettings:
    """`equate.trained.<row>`: which baseline a row is and how it differs from the paper's."""

    # The row's scoring batch (`equate score --batch-size`): no part of how it trains.
    NOT_READ: ClassVar[tuple[str, ...]] = ("batch_size",)

    architecture: str
    width: float
    max_epochs: int | None
    classifier: str
    unaligned: float


@dataclass(frozen=True)
class TrainingSettings:
    """`equate.training`: where the trained baselines train."""

    # The job's cores: the rule gives them (`--threads`), as Snakemake's `threads:`.
    NOT_READ: ClassVar[tuple[str, ...]] = ("threads",)

    device: str
    precision: str | None
