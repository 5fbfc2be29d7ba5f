"""Pieces the baselines share: masks, a BiLSTM that never reads padding, masked pooling, the
pair features, and the input gates CH weighs its states by."""

from __future__ import annotations

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


def mask_of(lengths: torch.Tensor, width: int) -> torch.Tensor:
    """[B, width] True at a sentence's tokens, False at its padding."""
    return torch.arange(width, device=lengths.device)[None, :] < lengths[:, None]


class BiLSTM(nn.Module):
    """A one-layer bidirectional LSTM over packed sequences: a sentence's states do not depend
    on how much padding its batch has; padded positions come out zero."""

    def __init__(self, inputs: int, hidden: int) -> None:
        super().__init__()
        self.lstm = nn.LSTM(inputs, hidden, batch_first=True, bidirectional=True)

    def forward(self, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """States [B, L, 2H] of inputs [B, L, D]."""
        packed = pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, _ = self.lstm(packed)
        states, _ = pad_packed_sequence(out, batch_first=True, total_length=x.shape[1])
        return states


def input_gates(lstm: nn.LSTM, x: torch.Tensor, states: torch.Tensor) -> torch.Tensor:
    """The L2 norm of each token's forward and backward input gates [B, L], recomputed from the
    layer's weights, its inputs and its states (nn.LSTM does not return its gates)."""
    hidden = lstm.hidden_size
    forward, backward = states[..., :hidden], states[..., hidden:]
    # The state each direction read before this token: the forward one's previous, the backward
    # one's next (zero past either end; padding is zero too).
    before = torch.cat([torch.zeros_like(forward[:, :1]), forward[:, :-1]], dim=1)
    after = torch.cat([backward[:, 1:], torch.zeros_like(backward[:, :1])], dim=1)
    gates = []
    for suffix, previous in (("", before), ("_reverse", after)):
        # PyTorch orders an LSTM's gate rows input, forget, cell, output.
        w_ih = getattr(lstm, f"weight_ih_l0{suffix}")[:hidden]
        w_hh = getattr(lstm, f"weight_hh_l0{suffix}")[:hidden]
        bias = (getattr(lstm, f"bias_ih_l0{suffix}")[:hidden]
                + getattr(lstm, f"bias_hh_l0{suffix}")[:hidden])
        gates.append(torch.sigmoid(x @ w_ih.T + previous @ w_hh.T + bias))
    return torch.cat(gates, dim=-1).norm(dim=-1)


def sum_pool(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Sum over a sentence's tokens."""
    return (x * mask[..., None]).sum(dim=1)


def mean_pool(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean over a sentence's tokens."""
    return sum_pool(x, mask) / mask.sum(dim=1, keepdim=True).clamp(min=1)


def max_pool(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Max over a sentence's tokens (padding never wins)."""
    return x.masked_fill(~mask[..., None], float("-inf")).max(dim=1).values


def weighted_pool(x: torch.Tensor, weights: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean over a sentence's tokens weighted by `weights` [B, L]."""
    w = weights * mask
    return (x * w[..., None]).sum(dim=1) / w.sum(dim=1, keepdim=True).clamp(min=1e-8)


def pair_features(u: torch.Tensor, v: torch.Tensor, *, absolute: bool) -> torch.Tensor:
    """[u, v, u - v, u * v] (|u - v| where the paper takes the absolute difference)."""
    difference = (u - v).abs() if absolute else u - v
    return torch.cat([u, v, difference, u * v], dim=-1)


def masked_softmax(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Softmax over the last axis, padding (mask [B, 1 or L, L'] False) given no weight."""
    return torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)
