"""Tiny BERT, RoBERTa and GPT-2 language models built offline from sample text.

The default config and the tests cannot download a hub checkpoint, so the workflow builds its
own: a tokenizer fitted to a few lines of text (WordPiece for BERT, byte-level BPE for RoBERTa and
GPT-2) whose vocabulary holds the 12 NumerSense candidates as single tokens, and a model of a
tiny config trained a few full-batch steps on the same lines (masked LM with 15% masking, or
causal LM). Both are saved with `save_pretrained`, so `AutoTokenizer` and
`AutoModelForMaskedLM` / `AutoModelForCausalLM` load the folder like a real checkpoint.

Every step is deterministic for a seed: the vocabularies are chosen here (no trainer whose
frequency ties break differently run to run), and training runs on one CPU thread with
deterministic kernels.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from string import ascii_lowercase, digits, punctuation
from typing import Any

from reprobe.errors import ReprobeError
from reprobe.io import atomic_directory
from reprobe.numersense.candidates import CANDIDATES, CandidateTokenError, candidate_ids
from reprobe.numersense.mlm import pad_right
from reprobe.torch_runtime import reproducible_torch

KINDS = ("bert", "roberta", "gpt2")
MAX_LENGTH = 128
MASK_RATE = 0.15
_WORDPIECE_SPECIAL = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
_ROBERTA_SPECIAL = ("<s>", "<pad>", "</s>", "<unk>", "<mask>")
_GPT2_SPECIAL = ("<|endoftext|>",)


def forbid_hub_access() -> None:
    """Forbid hub access before transformers is imported: everything here is local."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def wordpiece_vocab(lines: Sequence[str], vocab_size: int) -> list[str]:
    """A lowercase WordPiece vocabulary: specials, characters, the candidates, frequent words."""
    from tokenizers import normalizers, pre_tokenizers

    normalizer = normalizers.BertNormalizer(lowercase=True)
    pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    counts: Counter[str] = Counter()
    for line in lines:
        counts.update(w for w, _ in pre_tokenizer.pre_tokenize_str(normalizer.normalize_str(line)))
    # Every character (ASCII letters, digits, punctuation always) as a start and a continuation,
    # so no word of plain text becomes [UNK]; the candidates next, so a small vocab_size never
    # drops them; then words by frequency, ties by spelling (WordPieceTrainer breaks ties
    # differently on every run).
    always = set(ascii_lowercase + digits + punctuation)
    chars = sorted({ch for word in counts for ch in word} | always)
    head = list(dict.fromkeys([*_WORDPIECE_SPECIAL, *chars, *(f"##{c}" for c in chars),
                               *CANDIDATES]))
    if vocab_size < len(head):
        raise ReprobeError(f"vocab_size {vocab_size} is too small for the tiny BERT: its "
                           f"characters, specials and candidates alone need {len(head)}")
    words = sorted((w for w in counts if w not in head), key=lambda w: (-counts[w], w))
    return head + words[:vocab_size - len(head)]


def _merge_word(symbols: tuple[str, ...], pair: tuple[str, str]) -> tuple[str, ...]:
    """The word's symbols with every occurrence of pair joined, left to right."""
    out: list[str] = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(symbols[i] + symbols[i + 1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def _learn_merges(counts: Counter[str], limit: int,
                  known: Sequence[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    """Up to limit new BPE merges over counted words, after the known ones; ties by spelling."""
    words = {tuple(w): c for w, c in counts.items()}
    # Words start as the known merges leave them, and a known pair is never learnt again: a
    # repeated merge would take a second rank, and the tokenizer keeps only one of them.
    for pair in known:
        words = {_merge_word(s, pair): c for s, c in words.items()}
    seen = set(known)
    merges: list[tuple[str, str]] = []
    while len(merges) < limit:
        pairs: Counter[tuple[str, str]] = Counter()
        for symbols, count in words.items():
            pairs.update({p: count for p in zip(symbols, symbols[1:], strict=False)
                          if p not in seen})
        if not pairs:
            break
        best = min(pairs, key=lambda p: (-pairs[p], p))
        merges.append(best)
        seen.add(best)
        words = {_merge_word(s, best): c for s, c in words.items()}
    return merges


def byte_level_bpe(lines: Sequence[str], vocab_size: int,
                   specials: Sequence[str]) -> tuple[dict[str, int], list[tuple[str, str]]]:
    """Byte-level BPE vocab and merges fitted to lines; each candidate one token, both forms."""
    from tokenizers import pre_tokenizers

    # GPT-2's pre-tokenizer (no prefix space): "Ġfour" after a space, "four" at sentence start.
    pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    text: Counter[str] = Counter()
    for line in lines:
        text.update(w for w, _ in pre_tokenizer.pre_tokenize_str(line))
    forms = Counter(w for word in CANDIDATES for text_form in (word, f" {word}")
                    for w, _ in pre_tokenizer.pre_tokenize_str(text_form))
    base = [*specials, *sorted(pre_tokenizers.ByteLevel.alphabet())]
    # The candidates' merges come first: they then outrank every merge of the text, so encoding
    # replays them exactly and each candidate ends as one token whatever else the text holds.
    merges = _learn_merges(forms, vocab_size)
    # Two merges may spell the same token; it keeps one id, and both merges stay valid.
    vocab = list(dict.fromkeys([*base, *("".join(m) for m in merges)]))
    if len(vocab) > vocab_size:
        raise ReprobeError(f"vocab_size {vocab_size} is too small for a byte-level tiny model: "
                           f"bytes, specials and candidates need {len(vocab)}")
    ids = {t: i for i, t in enumerate(vocab)}
    for merge in _learn_merges(text, vocab_size - len(vocab), merges):
        merges.append(merge)
        if "".join(merge) not in ids:
            ids[merge[0] + merge[1]] = len(ids)
    return ids, merges


def build_tokenizer(kind: str, lines: Sequence[str], vocab_size: int, out_dir: Path) -> Any:
    """The kind's tokenizer fitted to lines, saved to out_dir and read back with AutoTokenizer."""
    from tokenizers import AddedToken
    from transformers import AutoTokenizer, BertTokenizer, GPT2Tokenizer, RobertaTokenizer

    if kind == "bert":
        vocab = wordpiece_vocab(lines, vocab_size)
        tokenizer = BertTokenizer(vocab={t: i for i, t in enumerate(vocab)},
                                  do_lower_case=True, model_max_length=MAX_LENGTH)
    elif kind == "roberta":
        vocab_map, merges = byte_level_bpe(lines, vocab_size, _ROBERTA_SPECIAL)
        # As roberta-base's: the mask takes the space before it.
        tokenizer = RobertaTokenizer(
            vocab=vocab_map, merges=merges, model_max_length=MAX_LENGTH,
            mask_token=AddedToken("<mask>", lstrip=True, rstrip=False, special=True))
    elif kind == "gpt2":
        vocab_map, merges = byte_level_bpe(lines, vocab_size, _GPT2_SPECIAL)
        tokenizer = GPT2Tokenizer(vocab=vocab_map, merges=merges, model_max_length=MAX_LENGTH)
    else:
        raise ReprobeError(f"unknown tiny model kind {kind!r}; use one of {list(KINDS)}")
    tokenizer.save_pretrained(str(out_dir))
    return AutoTokenizer.from_pretrained(str(out_dir), local_files_only=True)


def check_candidates(kind: str, tokenizer: Any) -> None:
    """An error unless every candidate is one token (and at sentence start, byte-level kinds)."""
    # WordPiece gives "four" alike after a space and at sentence start; byte-level BPE does not.
    positions = (False,) if kind == "bert" else (False, True)
    try:
        for sentence_start in positions:
            candidate_ids(tokenizer, sentence_start=sentence_start)
    except CandidateTokenError as error:
        raise ReprobeError(f"the tiny {kind} tokenizer failed its candidate check: "
                           f"{error}") from error


def build_model(kind: str, tokenizer: Any, *, hidden: int, layers: int, heads: int) -> Any:
    """A randomly initialised model of the kind, sized by hidden, layers and heads."""
    from transformers import (
        BertConfig,
        BertForMaskedLM,
        GPT2Config,
        GPT2LMHeadModel,
        RobertaConfig,
        RobertaForMaskedLM,
    )

    # No dropout: a few full-batch steps on a few lines need every update to count.
    sizes = dict(hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads,
                 intermediate_size=2 * hidden, hidden_dropout_prob=0.0,
                 attention_probs_dropout_prob=0.0, vocab_size=len(tokenizer))
    if kind == "bert":
        return BertForMaskedLM(BertConfig(max_position_embeddings=MAX_LENGTH, **sizes))
    if kind == "roberta":
        # RoBERTa numbers positions from pad_id + 1, so it needs two positions more.
        return RobertaForMaskedLM(RobertaConfig(
            max_position_embeddings=MAX_LENGTH + 2, type_vocab_size=1,
            pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.bos_token_id,
            eos_token_id=tokenizer.eos_token_id, **sizes))
    return GPT2LMHeadModel(GPT2Config(
        vocab_size=len(tokenizer), n_positions=MAX_LENGTH, n_embd=hidden, n_layer=layers,
        n_head=heads, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id))


def encode_lines(torch: Any, kind: str, tokenizer: Any, lines: Sequence[str]) -> dict[str, Any]:
    """The lines as one right-padded batch: input_ids, attention_mask, special-token mask."""
    if kind == "gpt2":
        # EOS before and after each line, as causal.py scores with an EOS prefix (bos=True).
        end = tokenizer.eos_token_id
        rows = [[end, *tokenizer(line, add_special_tokens=False)["input_ids"], end]
                for line in lines]
        pad = end
    else:
        rows = [list(ids) for ids in tokenizer(list(lines), truncation=True)["input_ids"]]
        pad = tokenizer.pad_token_id
    ids, attention = pad_right(torch, rows, pad)
    special = torch.isin(ids, torch.tensor(tokenizer.all_special_ids, dtype=torch.long))
    return {"input_ids": ids, "attention_mask": attention, "special": special}


def mlm_batch(torch: Any, batch: dict[str, Any], mask_id: int, generator: Any) -> dict[str, Any]:
    """Inputs with 15% of real, non-special tokens masked, labels set only there."""
    ids, attention = batch["input_ids"], batch["attention_mask"]
    maskable = attention.bool() & ~batch["special"]
    chosen = (torch.rand(ids.shape, generator=generator) < MASK_RATE) & maskable
    if not chosen.any():
        # A step with no masked token has no loss; mask the first maskable one instead.
        chosen.view(-1)[maskable.view(-1).nonzero()[0]] = True
    labels = torch.where(chosen, ids, torch.full_like(ids, -100))
    return {"input_ids": ids.masked_fill(chosen, mask_id), "attention_mask": attention,
            "labels": labels}


def causal_batch(batch: dict[str, Any]) -> dict[str, Any]:
    """Inputs whose labels are the tokens themselves, padding left out of the loss."""
    ids, attention = batch["input_ids"], batch["attention_mask"]
    return {"input_ids": ids, "attention_mask": attention,
            "labels": ids.masked_fill(attention == 0, -100)}


def build_tiny_model(
    kind: str,
    text_lines: Sequence[str],
    out_dir: Path,
    *,
    seed: int,
    hidden: int,
    layers: int,
    heads: int,
    steps: int,
    lr: float,
    vocab_size: int,
) -> Path:
    """Fit a tokenizer and train a tiny kind model on text_lines, offline; save it to out_dir."""
    forbid_hub_access()
    import torch

    if kind not in KINDS:
        raise ReprobeError(f"unknown tiny model kind {kind!r}; use one of {list(KINDS)}")
    lines = [line.strip() for line in text_lines if line.strip()]
    if not lines:
        raise ReprobeError(f"no text to build the tiny {kind} model from")
    out_dir = Path(out_dir)
    with atomic_directory(out_dir) as staging:
        tokenizer = build_tokenizer(kind, lines, vocab_size, staging)
        check_candidates(kind, tokenizer)
        batch = encode_lines(torch, kind, tokenizer, lines)
        with reproducible_torch(torch):
            torch.manual_seed(seed)
            generator = torch.Generator().manual_seed(seed)
            model = build_model(kind, tokenizer, hidden=hidden, layers=layers, heads=heads)
            optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
            model.train()
            # Full-batch steps: the sample is tiny, and one batch keeps the run order-free.
            for _ in range(steps):
                inputs = (causal_batch(batch) if kind == "gpt2"
                          else mlm_batch(torch, batch, tokenizer.mask_token_id, generator))
                optimizer.zero_grad()
                model(**inputs).loss.backward()
                optimizer.step()
        model.eval()
        model.save_pretrained(str(staging))
    return out_dir
