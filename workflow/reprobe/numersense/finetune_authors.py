"""The authors' fine-tuning procedure (INK-USC/NumerSense `src/finetune_mlm.py`), transcribed.

The README fine-tunes with `--train_data_file=data/gkb_best_filtered.txt --line_by_line --mlm
--block_size 64 --per_gpu_train_batch_size 64 --num_train_epochs 3` (transformers 3.0.2) and
the script's defaults for the rest. What this module follows, line by line of that script:

- data, `LineByLineTextDataset`: `lines = [line for line in f.read().splitlines() if (len(line)
  > 0 and not line.isspace())]`, then `tokenizer.batch_encode_plus(lines,
  add_special_tokens=True, max_length=block_size)`: one example a non-blank line, the line as
  it is (not stripped), cut to block_size tokens with the special tokens (in transformers 3.x
  max_length alone turns truncation on), block_size `min(args.block_size, tokenizer.max_len)`;
- masking, `mask_num_tokens` (`authors_mask`): every token in `num_list`, compared as the
  tokenizer spells it (`current_masked_indices.append(token[1:] in num_list)` for model_type
  roberta, `token in num_list` otherwise), all of them masked, no 80/10/10;
- batches, `collate`: `pad_sequence(examples, batch_first=True,
  padding_value=tokenizer.pad_token_id)` in a `RandomSampler` order, and the forward pass
  `model(inputs, masked_lm_labels=labels)`: no attention mask, so the real tokens of a
  shorter line attend to its padding, as theirs did;
- optimisation, `train`: `no_decay = ["bias", "LayerNorm.weight"]` groups, weight decay
  `args.weight_decay` (default 0.0), `AdamW(..., lr=args.learning_rate,
  eps=args.adam_epsilon)` (1e-8), `get_linear_schedule_with_warmup(optimizer,
  num_warmup_steps=args.warmup_steps, num_training_steps=t_total)` (warmup 0, t_total = batches
  an epoch x epochs), `torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)`
  (1.0) before each `optimizer.step()`, `scheduler.step()`, `model.zero_grad()`;
- seeds, `set_seed`: `random.seed`, `np.random.seed`, `torch.manual_seed` (and CUDA) at start
  and again just before the epoch loop ("Added here for reproducibility").

Where this differs, it is said: torch's AdamW, not transformers 3.0.2's (with decay 0.0 the
two differ only in where eps enters the bias correction); the batch order comes from today's
RandomSampler on the same seed, not torch 1.4's; a batch whose lines hold no number token (a
NaN loss in their script) updates nothing and is counted.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reprobe.errors import InputFormatError, ReprobeError

# `num_list` of mask_num_tokens: the same list, in the same order, as their probing scripts'.
from reprobe.numersense.authors import AUTHORS_ORDER as NUM_LIST
from reprobe.numersense.candidates import model_name

log = logging.getLogger(__name__)

IGNORE = -100  # the label cross-entropy skips (their `labels[~masked_indices] = -100`)
NO_DECAY = ("bias", "LayerNorm.weight")
WEIGHT_DECAY = 0.0  # --weight_decay default
ADAM_EPSILON = 1e-8  # --adam_epsilon default
MAX_GRAD_NORM = 1.0  # --max_grad_norm default
WARMUP_STEPS = 0  # --warmup_steps default

Example = tuple[list[int], list[int]]


def read_sentences(path: Path) -> list[str]:
    """The non-blank lines of a plain-sentence file (gkb_best_filtered.txt), as they are."""
    path = Path(path)
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise InputFormatError(path, f"line {line}", f"not UTF-8: {error.reason} at byte "
                               f"{error.start}") from error
    # Their reader: splitlines, and a line of only whitespace is skipped; nothing is stripped.
    sentences = [line for line in text.splitlines() if line and not line.isspace()]
    if not sentences:
        raise InputFormatError(path, "line 1", "no sentence: the file is empty or blank")
    return sentences


def is_roberta(model: Any) -> bool:
    """Whether their `args.model_type == "roberta"` branch applies (the model's config type)."""
    return getattr(model.config, "model_type", "") == "roberta"


def authors_mask(tokens: Sequence[str], roberta: bool) -> list[bool]:
    """Which tokens mask_num_tokens masks: the token (RoBERTa: all but its first character)
    is one of NUM_LIST."""
    # Byte-level RoBERTa writes " four" as "Ġfour", so dropping the first character finds it;
    # a sentence-initial "Four" or "four" (no Ġ) then reads "our" and is left unmasked, while a
    # piece such as "rone" of "drone" reads "one" and is masked; a WordPiece "nothing" split
    # as "no" "##thing" has its "no" masked. Case counts: BERT-uncased
    # lowercases, so "Four" is "four" there, but a cased vocabulary's "Four" is not matched.
    return [(token[1:] if roberta else token) in NUM_LIST for token in tokens]


def authors_example(tokenizer: Any, sentence: str, block_size: int, roberta: bool) -> Example:
    """Input ids with every number token masked, and labels (the token there, else IGNORE)."""
    ids = list(tokenizer(sentence, add_special_tokens=True, truncation=True,
                         max_length=block_size)["input_ids"])
    masked = authors_mask(tokenizer.convert_ids_to_tokens(ids), roberta)
    labels = [token if hit else IGNORE for token, hit in zip(ids, masked, strict=True)]
    inputs = [tokenizer.mask_token_id if hit else token
              for token, hit in zip(ids, masked, strict=True)]
    return inputs, labels


def authors_examples(tokenizer: Any, sentences: Sequence[str], block_size: int,
                     roberta: bool) -> list[Example]:
    """Every sentence as an example, kept even with no number token (their batches keep it)."""
    block = min(block_size, tokenizer.model_max_length)
    if block <= tokenizer.num_special_tokens_to_add():
        raise ReprobeError(f"block size {block} leaves no room for text beside the "
                           f"{tokenizer.num_special_tokens_to_add()} special tokens")
    return [authors_example(tokenizer, s, block, roberta) for s in sentences]


def set_seed(torch: Any, seed: int) -> None:
    """Their set_seed: Python's, NumPy's and torch's generators (CUDA's with torch's)."""
    import numpy as np

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def parameter_groups(model: Any, weight_decay: float = WEIGHT_DECAY) -> list[dict[str, Any]]:
    """Their two groups: decayed parameters, and biases and LayerNorm weights without decay."""
    named = list(model.named_parameters())
    return [{"params": [p for n, p in named if not any(nd in n for nd in NO_DECAY)],
             "weight_decay": weight_decay},
            {"params": [p for n, p in named if any(nd in n for nd in NO_DECAY)],
             "weight_decay": 0.0}]


def authors_optimizer(torch: Any, model: Any, lr: float, total_steps: int) -> tuple[Any, Any]:
    """AdamW over their groups with their eps, and the linear schedule from lr to 0."""
    from transformers import get_linear_schedule_with_warmup

    optimizer = torch.optim.AdamW(parameter_groups(model), lr=lr, eps=ADAM_EPSILON)
    scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=WARMUP_STEPS,
                                                num_training_steps=total_steps)
    return optimizer, scheduler


def clip_and_step(torch: Any, model: Any, optimizer: Any, scheduler: Any) -> float:
    """Clip the gradients to MAX_GRAD_NORM, step optimizer and schedule; the norm before."""
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_GRAD_NORM)
    optimizer.step()
    scheduler.step()
    return float(norm)


def _collate(torch: Any, examples: Sequence[Example], pad_id: int) -> tuple[Any, Any]:
    """Their collate: inputs right-padded with the pad id, labels with IGNORE."""
    from torch.nn.utils.rnn import pad_sequence

    inputs = pad_sequence([torch.tensor(e[0], dtype=torch.long) for e in examples],
                          batch_first=True, padding_value=pad_id)
    # Their labels are the padded inputs cloned, and a pad token is no number word.
    labels = pad_sequence([torch.tensor(e[1], dtype=torch.long) for e in examples],
                          batch_first=True, padding_value=IGNORE)
    return inputs, labels


def train_authors(torch: Any, model: Any, examples: Sequence[Example], pad_id: int, *,
                  epochs: int, batch_size: int, lr: float, seed: int,
                  device: str) -> dict[str, Any]:
    """Train the model in place as their `train` does; per-epoch losses, steps, last lr."""
    from torch.utils.data import RandomSampler

    batches = -(-len(examples) // batch_size)
    total = batches * epochs
    model.to(device)
    optimizer, scheduler = authors_optimizer(torch, model, lr, total)
    model.zero_grad()
    set_seed(torch, seed)  # "Added here for reproducibility", just before the epochs
    sampler = RandomSampler(range(len(examples)))
    losses, skipped = [], 0
    for epoch in range(1, epochs + 1):
        start, summed, counted = time.perf_counter(), 0.0, 0
        order = list(sampler)
        for first in range(0, len(order), batch_size):
            inputs, labels = _collate(torch, [examples[i] for i in order[first:first + batch_size]],
                                      pad_id)
            model.train()
            if not bool((labels != IGNORE).any()):
                skipped += 1  # their loss would be NaN: nothing to learn, the schedule moves on
                scheduler.step()
                continue
            loss = model(input_ids=inputs.to(device), labels=labels.to(device)).loss
            loss.backward()
            clip_and_step(torch, model, optimizer, scheduler)
            model.zero_grad()
            summed, counted = summed + float(loss.detach()), counted + 1
        losses.append(summed / counted if counted else float("nan"))
        seconds = time.perf_counter() - start
        log.info("fine-tune (authors) epoch %d/%d: mean loss %.4f, lr %.3g, %.1f examples/s",
                 epoch, epochs, losses[-1], scheduler.get_last_lr()[0],
                 len(examples) / max(seconds, 1e-9))
    if skipped:
        log.warning("%d of %d batches held no number token and updated nothing", skipped, total)
    model.eval()
    return {"losses": losses, "steps": total, "skipped_batches": skipped,
            "last_lr": float(scheduler.get_last_lr()[0])}


def prepare_authors(model: Any, tokenizer: Any, sentences: Sequence[str],
                    block_size: int) -> list[Example]:
    """Their model set-up (embeddings resized to the tokenizer) and the masked examples."""
    # `model_to_resize.resize_token_embeddings(len(tokenizer))`: a no-op for a matching vocab.
    if model.get_input_embeddings().num_embeddings != len(tokenizer):
        model.resize_token_embeddings(len(tokenizer))
    examples = authors_examples(tokenizer, sentences, block_size, is_roberta(model))
    unmasked = sum(1 for _, labels in examples if all(x == IGNORE for x in labels))
    if unmasked == len(examples):
        raise ReprobeError(f"{model_name(tokenizer)}: none of the {len(examples)} training "
                           "sentences holds a number token their rule masks")
    if unmasked:
        log.warning("%s: %d of %d sentences hold no number token their rule masks (kept, as "
                    "in their batches)", model_name(tokenizer), unmasked, len(examples))
    return examples
