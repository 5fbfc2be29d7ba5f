"""The sentence-encoder baselines: CBOW, BiLSTM, InferSent, SSEN and CH. Each reads premise
and hypothesis alone and classifies the pair from their two vectors; sizes are the papers'
times the row's `width` (`architectures.py` holds where each choice comes from)."""

from __future__ import annotations

import torch
from torch import nn

from reprobe.equate.trained.batches import Batch
from reprobe.equate.trained.layers import (
    BiLSTM,
    input_gates,
    mask_of,
    max_pool,
    mean_pool,
    pair_features,
    sum_pool,
    weighted_pool,
)

CLASSES = 3


class CBOW(nn.Module):
    """Sum of word embeddings; [u, v, u - v, u * v]; three ReLU layers; a linear classifier."""

    def __init__(self, embedding: nn.Embedding, hidden: int, dropout: float) -> None:
        super().__init__()
        self.embedding, self.dropout = embedding, nn.Dropout(dropout)
        dim = embedding.embedding_dim
        self.mlp = nn.Sequential(nn.Linear(4 * dim, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(dropout),
                                 nn.Linear(hidden, CLASSES))

    def encode(self, ids: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """A sentence's vector: its embeddings summed."""
        return sum_pool(self.dropout(self.embedding(ids)), mask_of(lengths, ids.shape[1]))

    def forward(self, batch: Batch) -> torch.Tensor:
        """Class logits [B, 3]."""
        u = self.encode(batch.premise, batch.premise_lengths)
        v = self.encode(batch.hypothesis, batch.hypothesis_lengths)
        return self.mlp(pair_features(u, v, absolute=False))


class BiLSTMEncoder(nn.Module):
    """A BiLSTM per sentence side (premise and hypothesis do not share weights), mean-pooled;
    [u, v, u - v, u * v]; one ReLU layer; a linear classifier."""

    def __init__(self, embedding: nn.Embedding, hidden: int, dropout: float) -> None:
        super().__init__()
        self.embedding, self.dropout = embedding, nn.Dropout(dropout)
        dim = embedding.embedding_dim
        self.premise_lstm, self.hypothesis_lstm = BiLSTM(dim, hidden), BiLSTM(dim, hidden)
        self.mlp = nn.Sequential(nn.Linear(8 * hidden, hidden), nn.ReLU(), nn.Dropout(dropout),
                                 nn.Linear(hidden, CLASSES))

    def forward(self, batch: Batch) -> torch.Tensor:
        """Class logits [B, 3]."""
        sides = []
        for lstm, ids, lengths in ((self.premise_lstm, batch.premise, batch.premise_lengths),
                                   (self.hypothesis_lstm, batch.hypothesis,
                                    batch.hypothesis_lengths)):
            states = lstm(self.dropout(self.embedding(ids)), lengths)
            sides.append(mean_pool(states, mask_of(lengths, ids.shape[1])))
        return self.mlp(pair_features(*sides, absolute=False))


class InferSent(nn.Module):
    """One shared BiLSTM, max-pooled; [u, v, |u - v|, u * v]; the paper's MLP (one tanh hidden
    layer) or the released code's default (two linear layers, no non-linearity)."""

    def __init__(self, embedding: nn.Embedding, hidden: int, fc: int, classifier: str) -> None:
        super().__init__()
        self.embedding = embedding
        self.lstm = BiLSTM(embedding.embedding_dim, hidden)
        features = 8 * hidden
        if classifier == "paper":
            self.mlp = nn.Sequential(nn.Linear(features, fc), nn.Tanh(), nn.Linear(fc, CLASSES))
        else:
            self.mlp = nn.Sequential(nn.Linear(features, fc), nn.Linear(fc, fc),
                                     nn.Linear(fc, CLASSES))

    def encode(self, ids: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """A sentence's vector: the max of its BiLSTM states."""
        return max_pool(self.lstm(self.embedding(ids), lengths), mask_of(lengths, ids.shape[1]))

    def forward(self, batch: Batch) -> torch.Tensor:
        """Class logits [B, 3]."""
        u = self.encode(batch.premise, batch.premise_lengths)
        v = self.encode(batch.hypothesis, batch.hypothesis_lengths)
        return self.mlp(pair_features(u, v, absolute=True))


class SSEN(nn.Module):
    """Three stacked BiLSTMs (shared), each reading the embeddings and every layer below it
    (shortcut connections); the top layer max-pooled; [u, v, |u - v|, u * v]; two ReLU layers
    with dropout; a linear classifier."""

    def __init__(self, embedding: nn.Embedding, hidden: tuple[int, ...], mlp: int,
                 dropout: float) -> None:
        super().__init__()
        self.embedding = embedding
        dim = embedding.embedding_dim
        layers, inputs = [], dim
        for size in hidden:
            layers.append(BiLSTM(inputs, size))
            inputs += 2 * size
        self.layers = nn.ModuleList(layers)
        top = 2 * hidden[-1]
        self.mlp = nn.Sequential(nn.Linear(4 * top, mlp), nn.ReLU(), nn.Dropout(dropout),
                                 nn.Linear(mlp, mlp), nn.ReLU(), nn.Dropout(dropout),
                                 nn.Linear(mlp, CLASSES))

    def encode(self, ids: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """A sentence's vector: the max of its top layer's states."""
        read = [self.embedding(ids)]
        for layer in self.layers:
            read.append(layer(torch.cat(read, dim=-1), lengths))
        return max_pool(read[-1], mask_of(lengths, ids.shape[1]))

    def forward(self, batch: Batch) -> torch.Tensor:
        """Class logits [B, 3]."""
        u = self.encode(batch.premise, batch.premise_lengths)
        v = self.encode(batch.hypothesis, batch.hypothesis_lengths)
        return self.mlp(pair_features(u, v, absolute=True))


class CharCNN(nn.Module):
    """A word's character vector: convolutions of widths 5, 3 and 1, ReLU, max over the word."""

    def __init__(self, chars: int, dim: int, filters: int, widths: tuple[int, ...]) -> None:
        super().__init__()
        self.embedding = nn.Embedding(chars, dim, padding_idx=0)
        self.convs = nn.ModuleList(nn.Conv1d(dim, filters, w, padding=w // 2) for w in widths)
        self.out_dim = filters * len(widths)

    def forward(self, chars: torch.Tensor) -> torch.Tensor:
        """[B, L, W] character ids -> [B, L, filters x widths]."""
        b, length, width = chars.shape
        flat = chars.reshape(b * length, width)
        x = self.embedding(flat).transpose(1, 2)
        inside = (flat > 0)[:, None, :]
        # ReLU outputs are >= 0, so zeroing positions past the word leaves the max unchanged:
        # a word's vector does not depend on its batch's longest word.
        pooled = [(torch.relu(conv(x))[..., :width] * inside).max(dim=-1).values
                  for conv in self.convs]
        return torch.cat(pooled, dim=-1).reshape(b, length, self.out_dim)


class CH(nn.Module):
    """Chen et al. (2017b): [word; character CNN] inputs, three stacked BiLSTMs (shared) whose
    upper layers read the layer below and the inputs (shortcuts), the top layer pooled by mean,
    max and gated attention (weights: the norm of its input gates); [u, v, |u - v|, u * v];
    two ReLU layers, the second also reading the features; a linear classifier."""

    def __init__(self, embedding: nn.Embedding, chars: CharCNN, hidden: int, mlp: int,
                 dropout: float) -> None:
        super().__init__()
        self.embedding, self.chars, self.dropout = embedding, chars, nn.Dropout(dropout)
        inputs = embedding.embedding_dim + chars.out_dim
        self.layers = nn.ModuleList([BiLSTM(inputs, hidden),
                                     *(BiLSTM(2 * hidden + inputs, hidden) for _ in range(2))])
        features = 4 * 3 * 2 * hidden
        self.first = nn.Sequential(nn.Linear(features, mlp), nn.ReLU(), nn.Dropout(dropout))
        self.second = nn.Sequential(nn.Linear(features + mlp, mlp), nn.ReLU(),
                                    nn.Dropout(dropout))
        self.out = nn.Linear(mlp, CLASSES)

    def encode(self, ids: torch.Tensor, lengths: torch.Tensor, chars: torch.Tensor
               ) -> torch.Tensor:
        """A sentence's vector: [mean; max; gated mean] of its top layer's states."""
        inputs = self.dropout(torch.cat([self.embedding(ids), self.chars(chars)], dim=-1))
        x, states = inputs, inputs
        for index, layer in enumerate(self.layers):
            x = inputs if index == 0 else torch.cat([states, inputs], dim=-1)
            states = layer(x, lengths)
        mask = mask_of(lengths, ids.shape[1])
        gates = input_gates(self.layers[-1].lstm, x, states)
        return torch.cat([mean_pool(states, mask), max_pool(states, mask),
                          weighted_pool(states, gates, mask)], dim=-1)

    def forward(self, batch: Batch) -> torch.Tensor:
        """Class logits [B, 3]."""
        u = self.encode(batch.premise, batch.premise_lengths, batch.premise_chars)
        v = self.encode(batch.hypothesis, batch.hypothesis_lengths, batch.hypothesis_chars)
        features = pair_features(u, v, absolute=True)
        hidden = self.first(features)
        return self.out(self.second(torch.cat([features, hidden], dim=-1)))
