"""ESIM (Chen et al., 2017a) as its authors released it: BiLSTM input encoding, soft alignment
both ways, enhancement [a; ã; a - ã; a * ã], a ReLU projection, a BiLSTM composition, mean and
max pooling of both sentences, a tanh MLP (`architectures.py` holds the sources)."""

from __future__ import annotations

import torch
from torch import nn

from reprobe.equate.trained.batches import Batch
from reprobe.equate.trained.encoders import CLASSES
from reprobe.equate.trained.layers import BiLSTM, mask_of, masked_softmax, max_pool, mean_pool


class ESIM(nn.Module):
    """Enhanced sequential inference: premise and hypothesis share both BiLSTMs."""

    def __init__(self, embedding: nn.Embedding, hidden: int, dropout: float) -> None:
        super().__init__()
        self.embedding, self.dropout = embedding, nn.Dropout(dropout)
        self.encoder = BiLSTM(embedding.embedding_dim, hidden)
        self.projection = nn.Sequential(nn.Linear(8 * hidden, hidden), nn.ReLU(),
                                        nn.Dropout(dropout))
        self.composition = BiLSTM(hidden, hidden)
        self.mlp = nn.Sequential(nn.Dropout(dropout), nn.Linear(8 * hidden, hidden), nn.Tanh(),
                                 nn.Dropout(dropout), nn.Linear(hidden, CLASSES))

    def forward(self, batch: Batch) -> torch.Tensor:
        """Class logits [B, 3]."""
        lp, lh = batch.premise_lengths, batch.hypothesis_lengths
        mp, mh = mask_of(lp, batch.premise.shape[1]), mask_of(lh, batch.hypothesis.shape[1])
        a = self.encoder(self.dropout(self.embedding(batch.premise)), lp)
        b = self.encoder(self.dropout(self.embedding(batch.hypothesis)), lh)
        scores = a @ b.transpose(1, 2)
        a_aligned = masked_softmax(scores, mh[:, None, :]) @ b
        b_aligned = masked_softmax(scores.transpose(1, 2), mp[:, None, :]) @ a
        va = self.composition(self.projection(torch.cat(
            [a, a_aligned, a - a_aligned, a * a_aligned], dim=-1)), lp)
        vb = self.composition(self.projection(torch.cat(
            [b, b_aligned, b - b_aligned, b * b_aligned], dim=-1)), lh)
        pooled = torch.cat([mean_pool(va, mp), max_pool(va, mp), mean_pool(vb, mh),
                            max_pool(vb, mh)], dim=-1)
        return self.mlp(pooled)
