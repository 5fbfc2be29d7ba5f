"""The word embedding layer every neural baseline starts from: the vocabulary's pretrained
vectors, words without one drawn at random (each paper's scale), fixed or fine-tuned."""

from __future__ import annotations

import numpy as np
import torch
from torch import nn


def word_embedding(vectors: np.ndarray, has_vector: np.ndarray, *, oov_scale: float,
                   fine_tune: bool, generator: torch.Generator) -> nn.Embedding:
    """An embedding of the vocabulary: its pretrained rows, N(0, oov_scale²) rows for words the
    vector file lacks, zero padding and UNK rows (Williams et al.'s `emb[0:2,:] = 0`)."""
    matrix = torch.from_numpy(np.array(vectors, dtype=np.float32))
    drawn = torch.randn(matrix.shape, generator=generator) * oov_scale
    missing = torch.from_numpy(~np.asarray(has_vector, dtype=bool))
    matrix = torch.where(missing[:, None], drawn, matrix)
    matrix[:2] = 0.0
    return nn.Embedding.from_pretrained(matrix, freeze=not fine_tune, padding_idx=0)


def scaled(size: int, width: float) -> int:
    """A paper's hidden size times the row's `width` (at least 2)."""
    return max(2, round(size * width))
