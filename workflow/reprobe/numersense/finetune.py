"""Fine-tuning a masked LM on masked number words: the "Ft." rows of NumerSense (Lin et al. 2020).

The paper takes its additional supervision (the released `train.masked.tsv`: a probe, a tab, the
number word), masks the number words in each sentence and fine-tunes the masked LMs on them. So
each row's mask is filled with its label and then every whole-word occurrence of the 12
candidates is masked (not 15% of random tokens), with the loss taken only there: the label at a
mask is the candidate's own token, in the form `mlm.score_probes` reads at test time (" four"
after a space, "four" at the sentence start). Training is a plain seeded loop; on the CPU it runs
under `reproducible_torch`, so a seed gives the same weights on every machine.

Two procedures (`numersense.finetune.procedure`): `plain`, the above (this project's reading of
the paper's §3.1), and `authors`, the authors' `src/finetune_mlm.py` as their README runs it
(`reprobe.numersense.finetune_authors`: their token-level masking, AdamW groups and eps, linear
schedule to 0, gradient clipping, seeding). Either trains on labelled rows (their mask filled
with the label) or on plain sentences (`gkb_best_filtered.txt`, one a line).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reprobe.errors import ReprobeError
from reprobe.io import atomic_directory
from reprobe.numersense.candidates import CANDIDATES, candidate_token_id, model_name
from reprobe.numersense.finetune_authors import prepare_authors, set_seed, train_authors
from reprobe.numersense.finetune_settings import FinetuneSettings
from reprobe.numersense.mlm import model_text_all, pad_right
from reprobe.numersense.models import load_model
from reprobe.numersense.probes import MASK, LabelledProbe, whole_words
from reprobe.torch_runtime import device_determinism

log = logging.getLogger(__name__)

IGNORE = -100  # the label cross-entropy skips: every position that is not a masked number word
# A number word as a whole word, as the builder finds it, in any case ("Four dogs ...").
_NUMBER_WORD = whole_words(CANDIDATES, ignore_case=True)

Example = tuple[list[int], list[int]]
Span = tuple[int, int]
Row = LabelledProbe | str  # a labelled probe, or a plain sentence (gkb_best_filtered.txt)
PROCEDURES = ("authors", "plain")


def filled_sentence(row: LabelledProbe) -> tuple[str, Span]:
    """The probe with its mask filled by its label, and the label's span in it."""
    probe, label = row.probe.strip(), row.label.strip().lower()
    if probe.count(MASK) != 1:
        raise ReprobeError(f"a training probe needs exactly one {MASK}, "
                           f"found {probe.count(MASK)}: {probe!r}")
    if label not in CANDIDATES:
        raise ReprobeError(f"the label {row.label!r} of {probe!r} is not one of the "
                           f"number words {list(CANDIDATES)}")
    start = probe.index(MASK)
    return probe[:start] + label + probe[start + len(MASK):], (start, start + len(label))


def sentence_of(row: Row) -> tuple[str, Span | None]:
    """The training sentence of a row, and its label's span (none for a plain sentence)."""
    if isinstance(row, str):
        return row.strip(), None
    return filled_sentence(row)


def number_word_spans(sentence: str, always: Span | None) -> list[Span]:
    """The spans of every whole-word number word in the sentence, with always among them."""
    spans = {m.span() for m in _NUMBER_WORD.finditer(sentence)}
    # The row's own mask is supervised whatever its neighbours ("<mask>-legged" filled with
    # "three" is no whole word, yet the label says what stood there).
    if always is not None:
        spans.add(always)
    return sorted(spans)


def masked_sentence(sentence: str, spans: Sequence[Span]) -> str:
    """The sentence with each span replaced by the mask."""
    parts, end = [], 0
    for start, stop in spans:
        parts += [sentence[end:start], MASK]
        end = stop
    return "".join([*parts, sentence[end:]])


def training_example(tokenizer: Any, row: Row, max_length: int) -> Example:
    """Input ids and labels (IGNORE but at each masked number word); ([], []) if none remain."""
    sentence, label_span = sentence_of(row)
    spans = number_word_spans(sentence, label_span)
    text = model_text_all(masked_sentence(sentence, spans), tokenizer.mask_token)
    ids = list(tokenizer(text, truncation=True, max_length=max_length)["input_ids"])
    positions = [i for i, token in enumerate(ids) if token == tokenizer.mask_token_id]
    # Only a cut encoding may hold fewer masks than spans, so the full count is checked then.
    found = len(positions) if len(ids) < max_length else list(
        tokenizer(text, add_special_tokens=False)["input_ids"]).count(tokenizer.mask_token_id)
    if found != len(spans):
        raise ReprobeError(f"{model_name(tokenizer)}: {text!r} encodes to {found} mask tokens, "
                           f"not the {len(spans)} number words it masks")
    if not positions:
        return [], []
    labels = [IGNORE] * len(ids)
    # Truncation keeps a prefix, so the masks that remain are the first spans, in order.
    for position, (start, stop) in zip(positions, spans, strict=False):
        word = sentence[start:stop].lower()
        labels[position] = candidate_token_id(tokenizer, word, sentence_start=start == 0)
    return ids, labels


def training_examples(tokenizer: Any, rows: Sequence[Row],
                      max_length: int) -> tuple[list[Example], int]:
    """The examples that keep at least one mask, and how many rows were dropped."""
    if max_length <= tokenizer.num_special_tokens_to_add():
        raise ReprobeError(f"max_length {max_length} leaves no room for text beside the "
                           f"{tokenizer.num_special_tokens_to_add()} special tokens")
    examples = [training_example(tokenizer, row, max_length) for row in rows]
    kept = [e for e in examples if e[0]]
    return kept, len(examples) - len(kept)


def _batches(torch: Any, count: int, batch_size: int, generator: Any) -> list[list[int]]:
    """The example indices shuffled by generator and cut into batches."""
    order = torch.randperm(count, generator=generator).tolist()
    return [order[start:start + batch_size] for start in range(0, count, batch_size)]


def _train(torch: Any, model: Any, examples: Sequence[Example], pad_id: int, *,
           epochs: int, batch_size: int, lr: float, seed: int, device: str) -> list[float]:
    """Train the model in place on the examples; the mean batch loss of each epoch."""
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    model.train()
    losses = []
    for epoch in range(1, epochs + 1):
        start, total, batches = time.perf_counter(), 0.0, 0
        for batch in _batches(torch, len(examples), batch_size, generator):
            ids, attention = pad_right(torch, [examples[i][0] for i in batch], pad_id)
            labels, _ = pad_right(torch, [examples[i][1] for i in batch], IGNORE)
            optimizer.zero_grad()
            loss = model(input_ids=ids.to(device), attention_mask=attention.to(device),
                         labels=labels.to(device)).loss
            loss.backward()
            optimizer.step()
            total, batches = total + float(loss.detach()), batches + 1
        seconds = time.perf_counter() - start
        losses.append(total / batches)
        log.info("fine-tune epoch %d/%d: mean loss %.4f, %.1f examples/s", epoch, epochs,
                 losses[-1], len(examples) / max(seconds, 1e-9))
    model.eval()
    return losses


def _save(model: Any, tokenizer: Any, out_dir: Path) -> None:
    """Save model and tokenizer beside out_dir, then swap the folder in whole."""
    with atomic_directory(out_dir) as staging:
        model.save_pretrained(str(staging))
        tokenizer.save_pretrained(str(staging))


def _plain(torch: Any, model: Any, tokenizer: Any, rows: Sequence[Row], *, epochs: int,
           batch_size: int, max_length: int, lr: float, seed: int,
           device: str) -> dict[str, object]:
    """The plain procedure: whole-word masking, a plain AdamW loop; its summary."""
    examples, dropped = training_examples(tokenizer, rows, max_length)
    if not examples:
        raise ReprobeError(f"{model_name(tokenizer)}: none of the {len(rows)} training rows "
                           f"keeps a number word within max_length {max_length}")
    if dropped:
        log.warning("%s: dropped %d of %d rows with no number word within max_length %d",
                    model_name(tokenizer), dropped, len(rows), max_length)
    with device_determinism(torch, device):
        losses = _train(torch, model, examples, tokenizer.pad_token_id, epochs=epochs,
                        batch_size=batch_size, lr=lr, seed=seed, device=device)
    steps = epochs * -(-len(examples) // batch_size)
    return {"examples": len(examples), "dropped": dropped, "steps": steps, "losses": losses}


def _authors(torch: Any, model: Any, tokenizer: Any, rows: Sequence[Row], *, epochs: int,
             batch_size: int, max_length: int, lr: float, seed: int,
             device: str) -> dict[str, object]:
    """The authors' procedure (finetune_authors), max_length as their block_size; its
    summary."""
    sentences = [row if isinstance(row, str) else filled_sentence(row)[0] for row in rows]
    examples = prepare_authors(model, tokenizer, sentences, max_length)
    with device_determinism(torch, device):
        summary = train_authors(torch, model, examples, tokenizer.pad_token_id, epochs=epochs,
                                batch_size=batch_size, lr=lr, seed=seed, device=device)
    return {"examples": len(examples), "dropped": 0, **summary}


def finetune_masked_lm(
    model_dir: Path | str,
    rows: Sequence[Row],
    out_dir: Path,
    settings: FinetuneSettings,
    *,
    device: str,
) -> dict[str, object]:
    """Fine-tune the masked LM at model_dir (a folder or hub name) on rows' masked number
    words by the settings' procedure (authors or plain); save it to out_dir."""
    import torch

    procedure, epochs, batch_size = settings.procedure, settings.epochs, settings.batch_size
    max_length, lr, seed = settings.max_length, settings.lr, settings.seed

    if not rows:
        raise ReprobeError(f"no training rows to fine-tune {model_dir} on")
    if epochs < 1 or batch_size < 1:
        raise ReprobeError(f"epochs and batch size must be at least 1, got {epochs} and "
                           f"{batch_size}")
    if procedure not in PROCEDURES:
        raise ReprobeError(f"unknown fine-tuning procedure {procedure!r}; use one of "
                           f"{list(PROCEDURES)}")
    if procedure == "authors":
        set_seed(torch, seed)  # their main seeds before it loads the model
    # Loaded as the probing step loads a model: a folder, or a hub name (offline: the cache).
    model, tokenizer = load_model(str(model_dir), "masked")
    if tokenizer.mask_token is None or tokenizer.pad_token_id is None:
        raise ReprobeError(f"{model_name(tokenizer)}: fine-tuning needs a mask and a pad token")
    start = time.perf_counter()
    run = _authors if procedure == "authors" else _plain
    summary = run(torch, model, tokenizer, rows, epochs=epochs, batch_size=batch_size,
                  max_length=max_length, lr=lr, seed=seed, device=device)
    seconds = time.perf_counter() - start
    _save(model, tokenizer, Path(out_dir))
    return {"procedure": procedure, **summary, "epochs": epochs, "seconds": seconds}
