"""The settings of the NumerSense builders and probing steps, one config section each.

A light module: the rules' targets and the CLI read it without loading torch. Every default is
the schema's (`numersense.builder`, `numersense.adversarial`, `numersense`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

# The keys of `numersense` that are no probing job's settings: the data, the rows, the other
# steps' sections, the tables' convention and the protocols (a job's protocol is its name).
NOT_RUN_KEYS: tuple[str, ...] = (
    "inputs", "released", "gold", "released_predictions", "builder", "adversarial", "models",
    "finetune", "templates", "no_zero", "protocols",
)


@dataclass(frozen=True)
class BuilderSettings:
    """`numersense.builder`: the filters of the core probes and the category lexicon."""

    min_tokens: int
    max_tokens: int
    non_numeric_phrases: Sequence[str]
    lexicon: Mapping[str, Sequence[str]]


@dataclass(frozen=True)
class AdversarialSettings:
    """`numersense.adversarial`: which ConceptNet edges give adjectives, and how many."""

    relations: Mapping[str, str]
    min_weight: float
    variants: int


@dataclass(frozen=True)
class RunSettings:
    """`numersense` as a template job reads it: batch size, torch device, autocast precision,
    CPU threads."""

    batch_size: int
    device: str
    precision: str | None
    threads: int
    NOT_READ: ClassVar[tuple[str, ...]] = (*NOT_RUN_KEYS, "clean_bos")


@dataclass(frozen=True)
class ProbeSettings(RunSettings):
    """`numersense` as a probing job reads it: a template job's settings and clean_bos."""

    clean_bos: bool
    NOT_READ: ClassVar[tuple[str, ...]] = NOT_RUN_KEYS


# The schema path of a tiny model row's `tiny` section (every tiny row has one).
TINY_PATH = "$defs.numersense_model.tiny"


@dataclass(frozen=True)
class TinySettings:
    """A tiny model row's `tiny` section: the size and training of the model built here."""

    hidden: int
    layers: int
    heads: int
    steps: int
    lr: float
    vocab_size: int
    # The kind is the job's name (`--kind`), not one of its settings.
    NOT_READ: ClassVar[tuple[str, ...]] = ("kind",)
