"""A neural NLI row for EQUATE's Table 6: any local Hugging Face sequence-classification checkpoint.

`predict_nli` loads a checkpoint directory with `AutoTokenizer` and
`AutoModelForSequenceClassification` (`local_files_only=True`: nothing is fetched), maps its
`id2label` names onto entailment/neutral/contradiction and classifies premise-hypothesis pairs in
CPU batches. Checkpoints with generic names (`LABEL_0` …) need an explicit `label_map`.

`build_tiny_nli_model` makes the default configuration's checkpoint without any download: a
`tokenizers` WordPiece tokenizer whose vocabulary is fitted to the sample text (characters plus
its most frequent words, chosen deterministically), a small `BertConfig` (the configured
hidden size and layers), a few full-batch fine-tuning steps on the sample pairs,
`save_pretrained`.
It is then read back through the same generic path as a real checkpoint.
"""

from __future__ import annotations

import os
import re
import shutil
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from string import ascii_lowercase, digits
from typing import Any

from tqdm import tqdm

from reprobe.equate.baselines import PairLike, _field
from reprobe.equate.jsonl import read_pairs
from reprobe.equate.labels import LABELS, NON_ENTAILMENT
from reprobe.equate.settings import TinyNliSettings
from reprobe.errors import ReprobeError
from reprobe.io import atomic_directory
from reprobe.text import require_rows
from reprobe.torch_runtime import reproducible_torch

# Names NLI checkpoints use for their classes, normalised (lowercase, letters only).
_ALIASES = {
    "entailment": "entailment", "entails": "entailment", "entail": "entailment",
    "neutral": "neutral",
    "contradiction": "contradiction", "contradicts": "contradiction", "contradict": "contradiction",
    # Two-way (RTE-style) checkpoints: usable only on EQUATE's 2-class sets.
    "notentailment": NON_ENTAILMENT, "nonentailment": NON_ENTAILMENT,
}
_SPECIAL = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


def _offline() -> None:
    """Forbid hub access before transformers is imported: checkpoints must be local."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def canonical_label(name: str) -> str | None:
    """The EQUATE label a checkpoint's class name stands for, or None if it is not recognised."""
    return _ALIASES.get(re.sub(r"[^a-z]", "", name.lower()))


def resolve_labels(
    id2label: Mapping[Any, str], label_map: Mapping[str, str] | None = None
) -> dict[int, str]:
    """Class index -> EQUATE label, from the checkpoint's id2label and an optional override."""
    resolved: dict[int, str] = {}
    for index, name in id2label.items():
        # A label_map may be keyed by the class name ("LABEL_0") or by the index ("0").
        override = None
        if label_map:
            override = label_map.get(name, label_map.get(str(index)))
        label = canonical_label(override) if override is not None else canonical_label(name)
        if label is None:
            raise ReprobeError(
                f"cannot map class {index} ({name!r}) to an NLI label; pass a label_map such as "
                f"{{'{name}': 'entailment'}} (known labels: {list(LABELS)})")
        resolved[int(index)] = label
    return resolved


def load_nli(model_dir: Path) -> tuple[Any, Any]:
    """Load a local checkpoint's tokenizer and model, in eval mode."""
    _offline()
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
    model = AutoModelForSequenceClassification.from_pretrained(str(model_dir),
                                                               local_files_only=True)
    model.eval()
    return tokenizer, model


def _class_logits(tokenizer: Any, model: Any, pairs: Iterable[PairLike], *, batch_size: int,
                  max_length: int) -> Iterator[Any]:
    """The classifier's logits for each batch of (premise, hypothesis) pairs, on the CPU."""
    import torch

    rows = [(_field(p, "sentence1"), _field(p, "sentence2")) for p in pairs]
    with torch.inference_mode():
        for start in tqdm(range(0, len(rows), batch_size), desc="NLI batches", unit="batch",
                          mininterval=10):
            batch = rows[start:start + batch_size]
            # Premise first, as in MultiNLI fine-tuning; truncate only the longer side.
            encoded = tokenizer([p for p, _ in batch], [h for _, h in batch], padding=True,
                                truncation=True, max_length=max_length, return_tensors="pt")
            yield model(**encoded).logits


def predict_nli(
    model_dir: Path,
    pairs: Iterable[PairLike],
    *,
    batch_size: int,
    label_map: Mapping[str, str] | None = None,
    max_length: int = 256,
) -> list[str]:
    """Classify each (premise, hypothesis) pair with a local checkpoint, in CPU batches."""
    tokenizer, model = load_nli(Path(model_dir))
    labels = resolve_labels(model.config.id2label, label_map)
    return [labels[int(i)]
            for logits in _class_logits(tokenizer, model, pairs, batch_size=batch_size,
                                        max_length=max_length)
            for i in logits.argmax(dim=-1).tolist()]


def nli_log_probs(
    model_dir: Path,
    pairs: Iterable[PairLike],
    *,
    batch_size: int,
    label_map: Mapping[str, str] | None = None,
    max_length: int = 256,
) -> list[dict[str, float]]:
    """Each pair's log-probability per EQUATE label, as `predict_nli` reads the checkpoint
    (its argmax is that function's label)."""
    import torch

    tokenizer, model = load_nli(Path(model_dir))
    labels = resolve_labels(model.config.id2label, label_map)
    return [{labels[i]: float(value) for i, value in enumerate(row)}
            for logits in _class_logits(tokenizer, model, pairs, batch_size=batch_size,
                                        max_length=max_length)
            for row in torch.log_softmax(logits.float(), dim=-1).tolist()]


def _train_wordpiece(texts: Sequence[str], vocab_size: int) -> Any:
    """A BERT-style (lowercasing, pair-aware) WordPiece tokenizer whose vocabulary fits texts."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    normalizer = normalizers.BertNormalizer(lowercase=True)
    pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(w for w, _ in pre_tokenizer.pre_tokenize_str(normalizer.normalize_str(text)))
    # Not WordPieceTrainer: in tokenizers 0.23 it breaks frequency ties differently on every run,
    # so the vocabulary (and the model) would change between identical builds. Instead: every
    # character, as a word start and as a continuation, then the most frequent whole words
    # (ties by spelling). Unseen words still split into known pieces.
    # Letters and digits always, so unseen words of plain text never collapse to [UNK].
    chars = sorted({ch for word in counts for ch in word} | set(ascii_lowercase + digits))
    pieces = [*_SPECIAL, *chars, *(f"##{ch}" for ch in chars)]
    words = sorted((w for w in counts if w not in pieces), key=lambda w: (-counts[w], w))
    vocab = pieces + words[:max(0, vocab_size - len(pieces))]
    tokenizer = Tokenizer(models.WordPiece({t: i for i, t in enumerate(vocab)}, unk_token="[UNK]"))
    tokenizer.normalizer = normalizer
    tokenizer.pre_tokenizer = pre_tokenizer
    tokenizer.decoder = decoders.WordPiece()
    cls, sep = vocab.index("[CLS]"), vocab.index("[SEP]")
    # Segment ids 0/1 for premise/hypothesis, as BERT's NLI fine-tuning expects.
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
    return tokenizer


def build_tiny_nli_model(
    out_dir: Path,
    train_jsonl: Path,
    *,
    seed: int,
    settings: TinyNliSettings,
    vocab_size: int = 400,
) -> Path:
    """Train a tiny BERT NLI checkpoint on a jsonl sample, offline; save it to out_dir."""
    _offline()
    import torch
    from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

    rows = list(read_pairs(Path(train_jsonl)))
    require_rows(train_jsonl, len(rows), "training pairs")
    premises = [r["sentence1"] for r in rows]
    hypotheses = [r["sentence2"] for r in rows]
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=_train_wordpiece(premises + hypotheses, vocab_size),
        pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]",
        mask_token="[MASK]", model_max_length=128)
    config = BertConfig(
        vocab_size=len(tokenizer), hidden_size=settings.hidden,
        num_hidden_layers=settings.layers,
        num_attention_heads=2, intermediate_size=2 * settings.hidden, max_position_embeddings=128,
        # No dropout: a few full-batch steps on a tiny sample need every update to count.
        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
        num_labels=len(LABELS), id2label=dict(enumerate(LABELS)),
        label2id={label: i for i, label in enumerate(LABELS)})
    encoded = tokenizer(premises, hypotheses, padding=True, truncation=True, return_tensors="pt")
    target = torch.tensor([LABELS.index(r["gold_label"]) for r in rows])
    with reproducible_torch(torch):
        torch.manual_seed(seed)
        model = BertForSequenceClassification(config)
        optimizer = torch.optim.AdamW(model.parameters(), lr=settings.lr)
        model.train()
        # Full-batch steps: the sample is tiny, and one batch keeps the run order-free.
        for _ in range(settings.steps):
            optimizer.zero_grad()
            loss = model(**encoded, labels=target).loss
            loss.backward()
            optimizer.step()
    model.eval()
    out_dir = Path(out_dir)
    with atomic_directory(out_dir) as staging:
        model.save_pretrained(str(staging))
        tokenizer.save_pretrained(str(staging))
    return out_dir


def assemble_checkpoint(files: Mapping[str, Path], out_dir: Path) -> Path:
    """Gather a checkpoint's fetched files under their hub names in one folder, atomically."""
    out_dir = Path(out_dir)
    for name in files:
        if "/" in name or name in ("", ".", ".."):
            raise ValueError(f"checkpoint file name {name!r} must be a plain file name")
    with atomic_directory(out_dir) as staging:
        for name, source in files.items():
            target = staging / name
            # A hard link costs no space (weights are hundreds of MB); copy across file systems.
            try:
                os.link(source, target)
            except OSError:
                shutil.copy2(source, target)
    return out_dir
