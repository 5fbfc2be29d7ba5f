"""Shimaoka et al. (2017)'s attentive mention typer over fixed word embeddings, in torch
(Table 5's MC column of Yaghoobzadeh et al. 2019, who "adapt Shimaoka et al. (2017)'s setup:
training, evaluation (FIGER dataset) and implementation").

As NFGEC's `nn_model.py` (encoder "attentive", no hand-made features, no hierarchical labels):
the mention is the mean of its word vectors, under dropout; the `context` words left of it and
right of it each go through their own bidirectional LSTM (the right context read from its far
end); attention (tanh(h W) u, softmax over all 2 × context positions) sums the LSTM states; a
linear layer without bias maps [mention; context] to one logit per type, trained with the sigmoid
cross-entropy by Adam. Batches are drawn as NFGEC's batcher does: the training set is shuffled
each epoch and `steps_per_epoch` batches are read from it in turn, wrapping around.
The embeddings stay fixed; attention and output weights start uniform in ±0.01 as NFGEC's
`weight_variable`, the LSTMs with torch's own initialisation.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from reprobe.wikipse.settings import TyperSettings

log = logging.getLogger(__name__)

INIT_RANGE = 0.01


def build_typer(torch: Any, embeddings: np.ndarray, types: int, settings: TyperSettings) -> Any:
    """The attentive typer over a fixed embedding matrix (row 0 = padding)."""
    nn = torch.nn

    class AttentiveTyper(nn.Module):
        """Mention mean + attentive bi-LSTM context → one logit per type."""

        def __init__(self) -> None:
            super().__init__()
            dim = embeddings.shape[1]
            self.embed = nn.Embedding.from_pretrained(torch.from_numpy(embeddings), freeze=True)
            self.left = nn.LSTM(dim, settings.lstm_dim, batch_first=True, bidirectional=True)
            self.right = nn.LSTM(dim, settings.lstm_dim, batch_first=True, bidirectional=True)
            self.attend = nn.Linear(2 * settings.lstm_dim, settings.attention_dim, bias=False)
            self.score = nn.Linear(settings.attention_dim, 1, bias=False)
            self.dropout = nn.Dropout(settings.dropout)
            self.out = nn.Linear(dim + 2 * settings.lstm_dim, types, bias=False)
            for layer in (self.attend, self.score, self.out):
                nn.init.uniform_(layer.weight, -INIT_RANGE, INIT_RANGE)

        def forward(self, left: Any, right: Any, mention: Any) -> Any:
            """Logits of a batch: left and right context ids, mention mean vectors."""
            states = torch.cat([self.left(self.embed(left))[0],
                                self.right(self.embed(right.flip(1)))[0]], dim=1)
            weights = torch.softmax(self.score(torch.tanh(self.attend(states))).squeeze(-1), 1)
            context = (weights.unsqueeze(-1) * states).sum(dim=1)
            return self.out(torch.cat([self.dropout(mention), context], dim=1))

    return AttentiveTyper()


def _tensors(torch: Any, left: np.ndarray, right: np.ndarray, mention: np.ndarray,
             device: str) -> tuple[Any, Any, Any]:
    """The three inputs on the device."""
    return (torch.from_numpy(left).to(device), torch.from_numpy(right).to(device),
            torch.from_numpy(mention).to(device))


def predict_probabilities(torch: Any, model: Any, left: np.ndarray, right: np.ndarray,
                          mention: np.ndarray, device: str, batch_size: int = 4096
                          ) -> np.ndarray:
    """(n × types) sigmoid probabilities, dropout off."""
    model.eval()
    parts = []
    with torch.no_grad():
        for start in range(0, len(left), batch_size):
            window = slice(start, start + batch_size)
            logits = model(*_tensors(torch, left[window], right[window], mention[window], device))
            parts.append(torch.sigmoid(logits).cpu().numpy())
    model.train()
    return np.concatenate(parts)


def _batch_order(count: int, batch_size: int, steps: int, rng: np.random.Generator
                 ) -> list[np.ndarray]:
    """One epoch's batches: a fresh permutation read in turn, wrapping, as NFGEC's batcher."""
    size = min(batch_size, count)
    order = rng.permutation(count)
    per_pass = max(1, count // size)
    return [order[(step % per_pass) * size:(step % per_pass + 1) * size] for step in range(steps)]


def train_typer(torch: Any, embeddings: np.ndarray, train: tuple[np.ndarray, ...],
                types: int, settings: TyperSettings, seed: int,
                on_epoch: Callable[[int, Any], None] | None = None) -> Any:
    """A typer trained on (left, right, mention vectors, targets); on_epoch(epoch, model) runs
    after each epoch (the dev scores in the log)."""
    left, right, mention, targets = train
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    model = build_typer(torch, embeddings, types, settings).to(settings.device)
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad],
                                 lr=settings.learning_rate)
    loss_of = torch.nn.BCEWithLogitsLoss()
    for epoch in range(settings.epochs):
        began, seen, total = time.perf_counter(), 0, 0.0
        for batch in _batch_order(len(left), settings.batch_size, settings.steps_per_epoch, rng):
            logits = model(*_tensors(torch, left[batch], right[batch], mention[batch],
                                     settings.device))
            loss = loss_of(logits, torch.from_numpy(targets[batch]).to(settings.device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            seen, total = seen + len(batch), total + loss.item() * len(batch)
        rate = seen / max(time.perf_counter() - began, 1e-9)
        log.info("epoch %d/%d: loss %.4f, %d mentions, %.0f mentions/s", epoch + 1,
                 settings.epochs, total / max(seen, 1), seen, rate)
        if on_epoch is not None:
            on_epoch(epoch, model)
    return model
