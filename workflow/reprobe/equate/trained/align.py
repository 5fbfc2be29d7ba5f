"""ALIGN: a bag-of-words alignment classifier "inspired by MacCartney (2009)" (EQUATE §4.1).

The paper gives nothing more than that phrase and the model's RTE-3 test accuracy (61.12%,
CoNLL footnote 10); no code was released. What is built here, every choice ours: each
hypothesis word is aligned to the premise word most like it (cosine of the fixed pretrained
vectors; the same word counts 1), and each premise word to the hypothesis likewise; a pair is
described by a few alignment statistics (mean and weakest alignment each way, the share of
hypothesis words matched exactly and of those left unaligned, the log length ratio, a
negation present on one side only, hypothesis numbers missing from the premise), and a
multinomial logistic regression trained on MultiNLI reads them as the three classes.
"""

from __future__ import annotations

import re

import numpy as np
import torch
from torch import nn

from reprobe.equate.trained.batches import Batch
from reprobe.equate.trained.encoders import CLASSES
from reprobe.equate.trained.layers import mask_of

NEGATIONS = frozenset({"not", "n't", "no", "never", "nobody", "nothing", "none", "neither",
                       "nor", "without", "cannot"})
_NUMBER = re.compile(r"\d+(?:[.,:/]\d+)*%?")
FEATURES = 9


def word_flags(words: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(is a negation, is a number) of each vocabulary word."""
    negation = np.array([w.lower() in NEGATIONS for w in words], dtype=bool)
    number = np.array([_NUMBER.fullmatch(w) is not None for w in words], dtype=bool)
    return negation, number


class ALIGN(nn.Module):
    """Alignment statistics of a pair, then a linear classifier over them."""

    def __init__(self, embedding: nn.Embedding, words: tuple[str, ...], unaligned: float
                 ) -> None:
        super().__init__()
        self.embedding, self.unaligned = embedding, unaligned
        negation, number = word_flags(words)
        self.register_buffer("negation", torch.from_numpy(negation), persistent=False)
        self.register_buffer("number", torch.from_numpy(number), persistent=False)
        self.classifier = nn.Linear(FEATURES, CLASSES)

    def _best(self, x_ids: torch.Tensor, y_ids: torch.Tensor, x_mask: torch.Tensor,
              y_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(each x word's best alignment into y, whether it is the same word) [B, Lx]."""
        x = nn.functional.normalize(self.embedding(x_ids), dim=-1)
        y = nn.functional.normalize(self.embedding(y_ids), dim=-1)
        same = (x_ids[:, :, None] == y_ids[:, None, :]) & (x_ids[:, :, None] > 1)
        similarity = torch.maximum(x @ y.transpose(1, 2), same.float())
        similarity = similarity.masked_fill(~y_mask[:, None, :], -1.0)
        exact = (same & y_mask[:, None, :]).any(dim=-1) & x_mask
        return similarity.max(dim=-1).values, exact

    def features(self, batch: Batch) -> torch.Tensor:
        """The pair's alignment statistics [B, FEATURES]."""
        p, h = batch.premise, batch.hypothesis
        mp, mh = mask_of(batch.premise_lengths, p.shape[1]), mask_of(batch.hypothesis_lengths,
                                                                    h.shape[1])
        nh, np_ = mh.sum(1).clamp(min=1).float(), mp.sum(1).clamp(min=1).float()
        h_best, h_exact = self._best(h, p, mh, mp)
        p_best, _ = self._best(p, h, mp, mh)
        negated_h = (self.negation[h] & mh).any(1)
        negated_p = (self.negation[p] & mp).any(1)
        numbers = self.number[h] & mh
        missing = (numbers & ~h_exact).sum(1).float() / numbers.sum(1).clamp(min=1).float()
        return torch.stack([
            (h_best * mh).sum(1) / nh, h_best.masked_fill(~mh, 2.0).min(1).values,
            (p_best * mp).sum(1) / np_, p_best.masked_fill(~mp, 2.0).min(1).values,
            h_exact.sum(1).float() / nh, ((h_best < self.unaligned) & mh).sum(1).float() / nh,
            torch.log(nh / np_), (negated_h != negated_p).float(), missing], dim=1)

    def forward(self, batch: Batch) -> torch.Tensor:
        """Class logits [B, 3]."""
        return self.classifier(self.features(batch))
