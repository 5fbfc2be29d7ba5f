"""The authors' masked-LM scoring protocol (Lin et al. 2020), batched: happytransformer's steps.

The paper's masked-LM rows came from `src/mlm_predict.py` of INK-USC/NumerSense, which calls the
vendored `happy-transformer/happytransformer/happy_transformer.py`:
`model.predict_mask(masked_sent, options=num_list, num_results=1000)` with
`num_list = ["one", …, "ten", "no", "zero"]`, on `masked_sent.strip()`. Its steps, followed here:

1. Text (`_get_tokenized_text`): `<mask>` becomes `[MASK]`; `re.sub('([.,!?()])', r' \\1 ', text)`
   spaces the punctuation; the text is split on whitespace and each word lowercased; a separator
   token follows each punctuation word (`char in string.punctuation`, a substring test) that is
   neither the last word nor followed by another punctuation word; `[CLS]` first, a separator
   last. The words are joined by spaces and the whole is tokenized. The authors ran
   transformers 3.0.2, whose `tokenize` strips the spaces on both sides of a special token, but
   keeps the space after RoBERTa's mask token (`AddedToken("<mask>", lstrip=True)`); the same
   pieces are built here whatever the installed version does.
2. Segments (`_get_segment_ids`): every token up to and including the first separator is
   segment 0, the rest segment 1; RoBERTa gets none (`if self.model_name != "ROBERTA"`).
3. Scores: the softmax over the vocabulary at the first mask. BERT (`soft_sum`): an option's
   score is the sum of the softmax over `self.tokenizer.encode(option)`, which in their version
   adds `[CLS]` and `[SEP]` (a constant added to every option: the ranking is the word's).
   RoBERTa: `torch.topk(softmax[0, masked_index], 5000)`; the tokens lose a leading "Ġ"; an
   option's score is that of its first (highest) token in the top 5,000 ("four" or "Ġfour",
   whichever ranks higher), and an option outside gets `lowest_score`, the 5,000th score.
4. Ranking: `sorted(…, key=lambda x: x[1], reverse=True)` twice, stable, so tied options keep
   `num_list`'s order (one … ten, no, zero).

Their loop runs one probe per forward pass, without padding. Here probes are run in
length-sorted, right-padded batches with an attention mask, and the prediction head sees the
mask positions only (`mlm.mask_logits`): the same scores to float rounding (a test holds a
line-by-line transcription of their loop and compares).
"""

from __future__ import annotations

import logging
import re
import string
import time
from collections.abc import Sequence
from typing import Any

from reprobe.errors import ReprobeError
from reprobe.numersense.candidates import model_name
from reprobe.numersense.mlm import (
    Ranked,
    check_masks,
    length_sorted_batches,
    mask_head,
    pad_right,
    rank,
)
from reprobe.numersense.probes import MASK
from reprobe.torch_runtime import autocast

log = logging.getLogger(__name__)

# src/mlm_predict.py's num_list: the options, and the order of tied scores.
AUTHORS_ORDER: tuple[str, ...] = (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "no", "zero",
)
TOP_K = 5000  # happytransformer's torch.topk(…, 5000) for RoBERTa
_PUNCTUATION = re.compile(r"([.,!?()])")
_WORD_MASK = "[MASK]"


def happy_words(probe: str) -> list[str | None]:
    """happytransformer's words of a probe: lowercased, punctuation spaced, None where a
    separator token goes (after mid-sentence punctuation, and last); the mask as `[mask]`."""
    text = probe.strip().replace(MASK, _WORD_MASK).replace("<MASK>", _WORD_MASK)
    split = _PUNCTUATION.sub(r" \1 ", text).split()
    words: list[str | None] = []
    for index, word in enumerate(split):
        words.append(word.lower())
        # `in string.punctuation` is a substring test, as theirs is: "()" counts too.
        last = index + 1 >= len(split)
        if word in string.punctuation and not last and split[index + 1] not in string.punctuation:
            words.append(None)
    words.append(None)
    return words


def roberta_like(model: Any) -> bool:
    """Whether happytransformer's RoBERTa branch applies (byte-level BPE, top-5,000 options)."""
    return "roberta" in str(getattr(model.config, "model_type", ""))


def authors_text(tokenizer: Any, probe: str) -> str:
    """The string happytransformer tokenizes: special tokens and words joined by spaces."""
    words = happy_words(probe)
    joined = " ".join(tokenizer.sep_token if word is None else word for word in words)
    return f"{tokenizer.cls_token} {joined}".replace(_WORD_MASK.lower(), tokenizer.mask_token)


def authors_ids(tokenizer: Any, probe: str, *, space_after_mask: bool) -> list[int]:
    """The token ids happytransformer (on transformers 3.0.2) feeds the model for a probe."""
    specials = {tokenizer.cls_token: tokenizer.cls_token_id,
                tokenizer.sep_token: tokenizer.sep_token_id,
                tokenizer.mask_token: tokenizer.mask_token_id}
    pattern = "(" + "|".join(re.escape(token) for token in specials) + ")"
    pieces = re.split(pattern, authors_text(tokenizer, probe))
    ids: list[int] = []
    for index, piece in enumerate(pieces):
        if index % 2:
            ids.append(int(specials[piece]))
            continue
        # 3.0.2 strips the text on both sides of a special token, but RoBERTa's mask keeps
        # the space after it (lstrip=True, rstrip=False), so the next word starts with "Ġ".
        keep_space = index > 0 and space_after_mask and pieces[index - 1] == tokenizer.mask_token
        text = piece.rstrip() if keep_space else piece.strip()
        if text:
            ids += list(tokenizer.convert_tokens_to_ids(tokenizer.tokenize(text)))
    return ids


def segment_ids(ids: Sequence[int], sep_id: int) -> list[int]:
    """happytransformer's segments: 0 up to and including the first separator, then 1."""
    split = list(ids).index(sep_id)
    return [0 if position <= split else 1 for position in range(len(ids))]


def _option_columns(tokenizer: Any, roberta: bool) -> list[list[int]]:
    """Per option (AUTHORS_ORDER), the vocabulary ids whose softmax makes its score."""
    if not roberta:
        # soft_sum over tokenizer.encode(option): [CLS], the word's pieces, [SEP].
        return [list(tokenizer(option)["input_ids"]) for option in AUTHORS_ORDER]
    # Every token that reads as the option once a leading "Ġ" is removed.
    columns: list[list[int]] = [[] for _ in AUTHORS_ORDER]
    position = {option: i for i, option in enumerate(AUTHORS_ORDER)}
    for token, token_id in tokenizer.get_vocab().items():
        stripped = token[1:] if token[:1] == "Ġ" else token
        if stripped in position:
            columns[position[stripped]].append(int(token_id))
    return columns


def _bert_scores(torch: Any, probs: Any, columns: Sequence[Sequence[int]]) -> Any:
    """Each option's summed softmax (rows: probes, columns: AUTHORS_ORDER)."""
    return torch.stack([probs[:, list(ids)].sum(dim=1) for ids in columns], dim=1)


def _roberta_scores(torch: Any, probs: Any, columns: Sequence[Sequence[int]]) -> Any:
    """Each option's score among the top 5,000 tokens, else the 5,000th score."""
    top = torch.topk(probs, min(TOP_K, probs.shape[1]), dim=1)
    lowest = top.values[:, -1]
    in_top = torch.zeros_like(probs, dtype=torch.bool).scatter_(1, top.indices, True)
    scores = []
    for ids in columns:
        if not ids:
            scores.append(lowest)
            continue
        chosen = torch.where(in_top[:, list(ids)], probs[:, list(ids)], torch.full_like(
            probs[:, list(ids)], -1.0)).max(dim=1).values
        scores.append(torch.where(chosen >= 0, chosen, lowest))
    return torch.stack(scores, dim=1)


def score_probes_authors(
    model: Any,
    tokenizer: Any,
    probes: Sequence[str],
    batch_size: int,
    device: str,
    *,
    precision: str | None,
) -> list[Ranked]:
    """Per probe, in input order, the 12 options ranked as the authors' happytransformer run
    ranks them (scores as their files carry them), in length-sorted batches."""
    import torch

    check_masks(probes)
    if not probes:
        return []
    if tokenizer.pad_token_id is None:
        raise ReprobeError(f"{model_name(tokenizer)}: the tokenizer has no pad token to batch with")
    roberta = roberta_like(model)
    encoded = [authors_ids(tokenizer, p, space_after_mask=roberta) for p in probes]
    limit = tokenizer.model_max_length
    for index, ids in enumerate(encoded):
        if len(ids) > limit:
            raise ReprobeError(f"{model_name(tokenizer)}: probe {index} (0-based) is {len(ids)} "
                               f"tokens, more than the model's {limit}: {probes[index]!r}")
    columns = _option_columns(tokenizer, roberta)
    # Segments only where the model has two (BERT); RoBERTa's single type gets none.
    segments = not roberta and getattr(model.config, "type_vocab_size", 1) > 1
    model.to(device)
    model.eval()
    head = mask_head(model)
    ranked: list[Ranked | None] = [None] * len(probes)
    start = time.perf_counter()
    with torch.inference_mode(), autocast(torch, device, precision):
        for batch in length_sorted_batches([len(e) for e in encoded], batch_size):
            rows = [encoded[i] for i in batch]
            input_ids, attention = pad_right(torch, rows, tokenizer.pad_token_id)
            extra = {}
            if segments:
                types, _ = pad_right(torch, [segment_ids(r, tokenizer.sep_token_id)
                                             for r in rows], 0)
                extra["token_type_ids"] = types.to(device)
            logits = _first_mask_logits(torch, model, head, input_ids.to(device),
                                        attention.to(device), tokenizer.mask_token_id, extra)
            probs = torch.softmax(logits.float(), dim=-1)
            scores = (_roberta_scores if roberta else _bert_scores)(torch, probs, columns)
            for index, row in zip(batch, scores.tolist(), strict=True):
                ranked[index] = rank(row, AUTHORS_ORDER)
    seconds = time.perf_counter() - start
    log.info("%s: scored %d probes the authors' way in %.2f s (%.1f probes/s, batch size %d, %s)",
             model_name(tokenizer), len(probes), seconds, len(probes) / max(seconds, 1e-9),
             batch_size, device)
    return [r for r in ranked if r is not None]


def _first_mask_logits(torch: Any, model: Any, head: Any | None, input_ids: Any, attention: Any,
                       mask_id: int, extra: dict[str, Any]) -> Any:
    """The vocabulary logits at each row's first mask (`tokenized_text.index(mask)`)."""
    rows, positions = (input_ids == mask_id).nonzero(as_tuple=True)
    first = torch.ones_like(rows, dtype=torch.bool)
    first[1:] = rows[1:] != rows[:-1]
    rows, positions = rows[first], positions[first]
    if head is None:
        out = model(input_ids=input_ids, attention_mask=attention, **extra).logits
        return out[rows, positions]
    hidden = model.base_model(input_ids=input_ids, attention_mask=attention, **extra)[0]
    return head(hidden[rows, positions])
