"""Causal-LM (GPT-2) scoring of NumerSense probes (Lin et al. 2020), in length-sorted batches.

The paper's GPT-2 row (its footnote 3): each of the 12 candidates is put in the probe's place of
`<mask>` and the whole sentence is scored by the model's mean token loss, lowest first. Here:

- Substitution keeps the probe as written: the word replaces `<mask>` with the spaces around it
  kept, lowercase as the candidates are (the probes are lowercase; a sentence-initial mask gives
  just the word, "four birds …", not capitalised).
- First token: GPT-2 adds no BOS token, so without one the sentence's first token is context
  only and never predicted, and a sentence-initial candidate would not be scored at all. So by
  default the tokenizer's BOS token (else its EOS token; GPT-2's are both `<|endoftext|>`) is
  put before the sentence and every token of the sentence is predicted; the prefix itself is
  never a target. `bos=False` is what the authors' `src/gpt_predict.py` does
  (`model(ids, labels=ids)` on the bare sentence: every token but the first predicted).
- A sentence's loss is the mean over its predicted tokens of the cross-entropy (nats) of each
  next token; the reported score is its negative, the mean token log-probability, so that the
  prediction layout's "higher is better" holds and `mlm.rank` ranks lowest loss first
  (perplexity is exp(loss), the same order). The authors wrote 100 − loss: same order.

The authors' protocol (`src/gpt_predict.py`, the paper's GPT-2 row): `sent =
masked_sent.replace("<mask>", num)`, `input_ids = tokenizer.encode(sent)` (GPT-2's tokenizer adds
no special token), `outputs = model(input_ids, labels=input_ids)` and `sentence_prob =
100-loss.item()`: no BOS, every token but the first predicted, scores written as 100 − loss,
ties in their `num_list` order (`score_probes_causal_authors`).

Batching: probes are sorted by token length and cut into batches of `batch_size` probes; each
batch is one forward pass over all 12 filled-in sentences of each of its probes (12 × batch_size
rows), right-padded with an attention mask; the mean is taken over each row's real tokens only.
Scores equal those of one sentence per forward pass (`score_one_by_one_causal`) to float rounding.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from reprobe.errors import ReprobeError
from reprobe.numersense.candidates import CANDIDATES, model_name
from reprobe.numersense.mlm import (
    Ranked,
    check_masks,
    length_sorted_batches,
    pad_right,
    rank,
)
from reprobe.numersense.probes import MASK
from reprobe.torch_runtime import autocast

log = logging.getLogger(__name__)


def filled(probe: str, word: str) -> str:
    """The probe with word in place of its mask, as written otherwise (no capitalisation)."""
    return probe.strip().replace(MASK, word, 1)


def prefix_ids(tokenizer: Any, bos: bool) -> list[int]:
    """The token put before every sentence: the BOS token (else EOS) when bos, else none."""
    if not bos:
        return []
    for token_id in (tokenizer.bos_token_id, tokenizer.eos_token_id):
        if token_id is not None:
            return [int(token_id)]
    raise ReprobeError(f"{model_name(tokenizer)}: the tokenizer has neither a BOS nor an EOS "
                       f"token to put before a sentence; score with bos=False")


def _encode(tokenizer: Any, probes: Sequence[str], prefix: list[int | None],
            words: Sequence[str]) -> list[list[list[int]]]:
    """Per probe, per word, the filled-in sentence's token ids after the prefix, unpadded; a
    prefix of [None] leaves the special tokens to the tokenizer (the authors' encode)."""
    encoded = []
    limit = tokenizer.model_max_length
    own = prefix == [None]
    for index, probe in enumerate(probes):
        texts = [filled(probe, word) for word in words]
        # Otherwise the special tokens are the prefix's business: a tokenizer set to add its
        # own BOS (or none) must not change what is predicted.
        rows = [([] if own else list(prefix)) + list(ids)
                for ids in tokenizer(texts, add_special_tokens=own)["input_ids"]]
        longest, shortest = max(len(r) for r in rows), min(len(r) for r in rows)
        # model_max_length is a huge sentinel when a tokenizer does not know its limit.
        if longest > limit:
            raise ReprobeError(f"{model_name(tokenizer)}: probe {index} (0-based) is {longest} "
                               f"tokens filled in, more than the model's {limit}: {probe!r}")
        if shortest < 2:
            raise ReprobeError(f"{model_name(tokenizer)}: probe {index} (0-based) filled in "
                               f"leaves no token to predict: {probe!r}")
        encoded.append(rows)
    return encoded


def _row_losses(torch: Any, logits: Any, input_ids: Any, attention: Any) -> Any:
    """Each row's mean next-token cross-entropy over its real tokens (padding left out)."""
    # float32 even under autocast: the losses are compared across batch sizes.
    targets = input_ids[:, 1:]
    losses = torch.nn.functional.cross_entropy(
        logits[:, :-1].float().transpose(1, 2), targets, reduction="none")
    # A target counts when it is a real token; the first position is never a target.
    real = attention[:, 1:].to(losses.dtype)
    return (losses * real).sum(dim=1) / real.sum(dim=1)


def _mean_losses(model: Any, rows: Sequence[Sequence[int]], batches: Sequence[Sequence[int]],
                 pad_id: int, device: str, precision: str | None) -> list[float]:
    """Each row's mean token loss, the rows run through the model batch by batch."""
    import torch

    # The model is moved to the device and left there, in eval mode: dropout off, so a loss
    # does not depend on the batch it falls in.
    model.to(device)
    model.eval()
    losses = [0.0] * len(rows)
    with torch.inference_mode(), autocast(torch, device, precision):
        for batch in batches:
            input_ids, attention = pad_right(torch, [rows[i] for i in batch], pad_id)
            input_ids, attention = input_ids.to(device), attention.to(device)
            logits = model(input_ids=input_ids, attention_mask=attention).logits
            for index, loss in zip(batch, _row_losses(torch, logits, input_ids, attention)
                                   .tolist(), strict=True):
                losses[index] = loss
    return losses


def _pad_id(tokenizer: Any) -> int:
    """Any id will do for padding: no real token attends to it and it is never a target."""
    # GPT-2 has no pad token; right padding sits after every real token, which a causal model's
    # real tokens never see, and positions count from 0 whatever follows.
    for token_id in (tokenizer.pad_token_id, tokenizer.eos_token_id):
        if token_id is not None:
            return int(token_id)
    return 0


def _losses(model: Any, tokenizer: Any, probes: Sequence[str], batch_size: int | None,
            device: str, precision: str | None, prefix: list[int | None],
            words: Sequence[str]) -> list[list[float]]:
    """Per probe, each word's mean token loss; batch_size None runs one sentence per pass."""
    check_masks(probes)
    if not probes:
        return []
    encoded = _encode(tokenizer, probes, prefix, words)
    width = len(words)
    rows = [row for variants in encoded for row in variants]
    if batch_size is None:
        batches = [[i] for i in range(len(rows))]
    else:
        # Probes (all 12 sentences of each together) sorted by their longest sentence.
        probe_batches = length_sorted_batches([max(map(len, e)) for e in encoded], batch_size)
        batches = [[p * width + w for p in batch for w in range(width)]
                   for batch in probe_batches]
    start = time.perf_counter()
    losses = _mean_losses(model, rows, batches, _pad_id(tokenizer), device, precision)
    seconds = time.perf_counter() - start
    log.info("%s: scored %d probes (%d sentences) in %.2f s (%.1f probes/s, batch size %s, %s)",
             model_name(tokenizer), len(probes), len(rows), seconds,
             len(probes) / max(seconds, 1e-9), batch_size or "1 sentence", device)
    return [losses[p * width:(p + 1) * width] for p in range(len(probes))]


def _score(model: Any, tokenizer: Any, probes: Sequence[str], batch_size: int | None,
           device: str, precision: str | None, bos: bool) -> list[Ranked]:
    """Rank the candidates of every probe by −(mean token loss), best first."""
    losses = _losses(model, tokenizer, probes, batch_size, device, precision,
                     list(prefix_ids(tokenizer, bos)) if probes else [], CANDIDATES)
    # Negated so that higher is better: rank puts the lowest loss first.
    return [rank([-loss for loss in row]) for row in losses]


def score_probes_causal(
    model: Any,
    tokenizer: Any,
    probes: Sequence[str],
    batch_size: int,
    device: str,
    *,
    precision: str | None,
    bos: bool,
) -> list[Ranked]:
    """Per probe, in input order, the 12 candidates ranked by −(mean token loss), best first."""
    return _score(model, tokenizer, probes, batch_size, device, precision, bos)


def score_one_by_one_causal(
    model: Any, tokenizer: Any, probes: Sequence[str], device: str, *, bos: bool
) -> list[Ranked]:
    """The authors' pace: one filled-in sentence per forward pass, no padding."""
    return _score(model, tokenizer, probes, None, device, None, bos)


def score_probes_causal_authors(
    model: Any,
    tokenizer: Any,
    probes: Sequence[str],
    batch_size: int | None,
    device: str,
    *,
    precision: str | None,
) -> list[Ranked]:
    """The authors' GPT-2 protocol: the bare sentence as their tokenizer encodes it, scored
    100 − mean token loss, ties in their order; batch_size None: one sentence per pass."""
    from reprobe.numersense.authors import AUTHORS_ORDER

    losses = _losses(model, tokenizer, probes, batch_size, device, precision, [None],
                     AUTHORS_ORDER)
    return [rank([100.0 - loss for loss in row], AUTHORS_ORDER) for row in losses]
