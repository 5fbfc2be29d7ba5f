"""The settings of a fine-tuning job, from config section `numersense.finetune`.

A light module: the rules' targets and the CLI read it without loading torch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class FinetuneSettings:
    """`numersense.finetune` as one fine-tuning job reads it (the schema holds every default)."""

    train_set: str
    procedure: str
    epochs: int
    batch_size: int
    max_length: int
    lr: float
    seed: int
    # Keys of the section that choose the jobs rather than configure one.
    NOT_READ: ClassVar[tuple[str, ...]] = ("rows",)

    @property
    def layout(self) -> str:
        """How the training file is read: one sentence a line (the authors' file) or
        probe<TAB>word lines (a train.masked.tsv)."""
        return "sentences" if self.train_set == "authors" else "labelled"
