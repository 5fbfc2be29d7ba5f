"""Masked-LM scoring of NumerSense probes (Lin et al. 2020), in length-sorted batches.

Each probe has exactly one `<mask>`; it becomes the tokenizer's mask token, and a candidate's
score is its softmax probability over the whole vocabulary at that position (as the released
scorer computes it), read for the 12 candidates of `reprobe.numersense.candidates`, which are
then ranked best first: the `clean` protocol (the authors' own steps are
`reprobe.numersense.authors`). One probe per forward pass is what their loop ran; here probes are
sorted by token length, cut into batches (so little padding is computed), right-padded with an
attention mask, and the results put back in input order; the prediction head (the projection
onto the vocabulary) runs on the mask positions only. One probe a pass with the whole model is
`score_one_by_one`, and gives the same scores to float rounding.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence
from typing import Any

from reprobe.errors import ReprobeError
from reprobe.numersense.candidates import CANDIDATES, candidate_ids, mask_at_start, model_name
from reprobe.numersense.probes import MASK
from reprobe.torch_runtime import autocast

log = logging.getLogger(__name__)

Ranked = list[tuple[str, float]]
# The mask with the spaces before it: the candidate token carries the space (Ġfour, ▁four).
_MASK_WITH_SPACE = re.compile(r"\s*" + re.escape(MASK))


def check_masks(probes: Sequence[str]) -> None:
    """An error naming the first probe (by 0-based index) without exactly one mask."""
    for index, probe in enumerate(probes):
        if probe.count(MASK) != 1:
            raise ReprobeError(f"probe {index} (0-based) needs exactly one {MASK}, "
                               f"found {probe.count(MASK)}: {probe!r}")


def model_text(probe: str, mask_token: str) -> str:
    """The probe as the model reads it: its mask as mask_token, taking the space before it."""
    # The space belongs to the candidate token (" four" is Ġfour), so the mask absorbs it, as
    # roberta-base's lstrip mask token does; without this a tokenizer whose mask does not strip
    # would put a lone "Ġ" before it. WordPiece splits "has[MASK]" and "has [MASK]" alike.
    return _MASK_WITH_SPACE.sub(lambda _: mask_token, probe.strip(), count=1)


def model_text_all(text: str, mask_token: str) -> str:
    """The text as the model reads it with every mask as mask_token (fine-tuning sentences)."""
    return _MASK_WITH_SPACE.sub(lambda _: mask_token, text.strip())


def length_sorted_batches(lengths: Sequence[int], batch_size: int) -> list[list[int]]:
    """Indices grouped into batches of similar length, longest first (peak memory shows early)."""
    if batch_size < 1:
        raise ReprobeError(f"batch size must be at least 1, got {batch_size}")
    order = sorted(range(len(lengths)), key=lambda i: (-lengths[i], i))
    return [order[start:start + batch_size] for start in range(0, len(order), batch_size)]


def rank(scores: Sequence[float], words: Sequence[str] = CANDIDATES) -> Ranked:
    """The words with their scores, best first; ties keep the order of words."""
    return sorted(zip(words, (float(s) for s in scores), strict=True), key=lambda p: -p[1])


def _encode(tokenizer: Any, probes: Sequence[str]) -> list[list[int]]:
    """Each probe's token ids with the model's special tokens, unpadded."""
    texts = [model_text(p, tokenizer.mask_token) for p in probes]
    encoded = [list(ids) for ids in tokenizer(texts)["input_ids"]]
    limit = tokenizer.model_max_length
    for index, ids in enumerate(encoded):
        found = ids.count(tokenizer.mask_token_id)
        if found != 1:
            raise ReprobeError(f"{model_name(tokenizer)}: probe {index} (0-based) encodes to "
                               f"{found} mask tokens, not 1: {probes[index]!r}")
        # model_max_length is a huge sentinel when a tokenizer does not know its limit.
        if len(ids) > limit:
            raise ReprobeError(f"{model_name(tokenizer)}: probe {index} (0-based) is {len(ids)} "
                               f"tokens, more than the model's {limit}: {probes[index]!r}")
    return encoded


def pad_right(torch: Any, rows: Sequence[Sequence[int]], pad_id: int) -> tuple[Any, Any]:
    """Right-padded input ids and their attention mask, as tensors."""
    # Right padding keeps every real token at the position it has alone (BERT's absolute
    # positions); RoBERTa numbers positions past its pad id, so padding must use that id.
    width = max(len(r) for r in rows)
    ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    attention = torch.zeros((len(rows), width), dtype=torch.long)
    for row, tokens in enumerate(rows):
        ids[row, :len(tokens)] = torch.tensor(tokens, dtype=torch.long)
        attention[row, :len(tokens)] = 1
    return ids, attention


def mask_head(model: Any) -> Any | None:
    """The model's prediction head, when the model is its base model plus that one head."""
    # BERT (cls), RoBERTa (lm_head), ALBERT (predictions) apply their head position by position,
    # so it can run on the mask positions alone; other layouts run the whole model.
    children = dict(model.named_children())
    prefix = getattr(model, "base_model_prefix", "")
    heads = [module for name, module in children.items() if name != prefix]
    return heads[0] if prefix in children and len(heads) == 1 else None


def mask_logits(model: Any, head: Any | None, input_ids: Any, attention: Any,
                mask_id: int) -> Any:
    """The vocabulary logits at each row's mask, in row order."""
    rows, positions = (input_ids == mask_id).nonzero(as_tuple=True)
    if head is None:
        return model(input_ids=input_ids, attention_mask=attention).logits[rows, positions]
    # The projection onto the vocabulary is about a fifth of bert-base's arithmetic a token;
    # only the mask's is needed, so the head sees the mask positions' hidden states only.
    hidden = model.base_model(input_ids=input_ids, attention_mask=attention)[0]
    return head(hidden[rows, positions])


def score_probes(
    model: Any,
    tokenizer: Any,
    probes: Sequence[str],
    batch_size: int,
    device: str,
    *,
    precision: str | None = None,
    head_at_mask: bool = True,
) -> list[Ranked]:
    """Per probe, in input order, the 12 candidates ranked by softmax probability at the mask;
    with head_at_mask the prediction head runs on the mask positions alone (same scores)."""
    import torch

    check_masks(probes)
    if not probes:
        return []
    if tokenizer.pad_token_id is None:
        raise ReprobeError(f"{model_name(tokenizer)}: the tokenizer has no pad token to batch with")
    encoded = _encode(tokenizer, probes)
    # Sentence-initial forms are looked up only when a probe needs them: a vocabulary may lack
    # them and still score every other probe.
    initial = [mask_at_start(p) for p in probes]
    ids = {False: candidate_ids(tokenizer)}
    if any(initial):
        ids[True] = candidate_ids(tokenizer, sentence_start=True)
    columns = {key: list(value.values()) for key, value in ids.items()}
    # The model is moved to the device and left there, in eval mode: dropout off, so a score
    # does not depend on the batch it falls in.
    model.to(device)
    model.eval()
    head = mask_head(model) if head_at_mask else None
    ranked: list[Ranked | None] = [None] * len(probes)
    start = time.perf_counter()
    with torch.inference_mode(), autocast(torch, device, precision):
        for batch in length_sorted_batches([len(e) for e in encoded], batch_size):
            rows = [encoded[i] for i in batch]
            input_ids, attention = pad_right(torch, rows, tokenizer.pad_token_id)
            input_ids, attention = input_ids.to(device), attention.to(device)
            logits = mask_logits(model, head, input_ids, attention, tokenizer.mask_token_id)
            # float32 softmax even under autocast: the scores are compared across batch sizes.
            probs = torch.softmax(logits.float(), dim=-1)
            wanted = torch.tensor([columns[initial[i]] for i in batch], device=probs.device)
            for index, scores in zip(batch, probs.gather(1, wanted).tolist(), strict=True):
                ranked[index] = rank(scores)
    seconds = time.perf_counter() - start
    log.info("%s: scored %d probes in %.2f s (%.1f probes/s, batch size %d, %s)",
             model_name(tokenizer), len(probes), seconds, len(probes) / max(seconds, 1e-9),
             batch_size, device)
    return [r for r in ranked if r is not None]


def score_one_by_one(
    model: Any, tokenizer: Any, probes: Sequence[str], device: str
) -> list[Ranked]:
    """The clean protocol one probe per forward pass (batch size 1, the authors' pace), no
    padding, the vocabulary's logits at every position."""
    return score_probes(model, tokenizer, probes, batch_size=1, device=device, head_at_mask=False)
