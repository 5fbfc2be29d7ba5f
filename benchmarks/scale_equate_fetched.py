"""Generated released EQUATE sets and a fetched checkpoint for the scale benchmark's equate
chains (scale_equate), in the layouts their readers expect (words and numbers as in
scale_equate_inputs: the open Zipf vocabulary, seeded by file and size):

- `released_rows`: EQUATE's released jsonl layout with CoreNLP's `*_tokens`, `*_pos`,
  `*_dep_parse` (arcs) and `*_syntax_parse` (trees) and five annotator labels (~4.7 kB a row
  here; the released Stress Test's 7,596 rows are 50.9 MB); `rebuilt_row`: the layout
  `write_pairs` writes (no parse fields; candidates with an empty label). A premise has a
  quantity; an entailed hypothesis repeats it, the others change it.
- `write_checkpoint`: a BERT sequence-classification checkpoint as the hub serves it
  (config.json, pytorch_model.bin — a torch state dict under transformers' names —, vocab.txt,
  tokenizer_config.json, special_tokens_map.json), 12 layers and bert-base's vocabulary, its
  hidden size chosen so that the parameters come nearest the size asked.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from scale_equate_inputs import LABELS, Draws, rng_of, tokens
from scale_inputs import rank_word


def corenlp(key: str, words: list[str]) -> dict[str, Any]:
    """A side's CoreNLP fields as the release has them (one sentence): tokens, tags, arcs."""
    lower = [w.lower() for w in words]
    tags = ["CD" if w[:1].isdigit() else "." if w == "." else "NN" for w in words]
    arcs = [{"dep": "ROOT" if i == 0 else "dep", "dependent": i + 1, "governor": i,
             "governorGloss": lower[i - 1] if i else "ROOT", "dependentGloss": w}
            for i, w in enumerate(lower)]
    tree = "(ROOT\n  (S\n" + "\n".join(f"    ({t} {w})" for t, w in zip(tags, lower,
                                                                     strict=True)) + "))"
    return {key: " ".join(words), f"{key}_binary_parse": " ".join(words),
            f"{key}_tokens": [lower], f"{key}_pos": [tags], f"{key}_dep_parse": [arcs],
            f"{key}_syntax_parse": [tree]}


Triple = tuple[list[str], list[str], str]  # premise words, hypothesis words, label


def pair_words(draws: Draws, label: str) -> tuple[list[str], list[str]]:
    """A premise with quantities and a hypothesis: an entailed one repeats a quantity of it."""
    premise = tokens(draws, 12, 30)
    first = next(i for i, w in enumerate(premise) if w[:1].isdigit())
    start = max(0, first - draws.between(0, 3))
    kept = premise[start:first + 2] + draws.words(draws.between(1, 4))
    if label != "entailment":
        kept = [draws.number() if w[:1].isdigit() else w for w in kept]
    return premise, [kept[0].capitalize(), *kept[1:], "."]


def labelled_pairs(draws: Draws, count: int) -> list[Triple]:
    """`count` (premise, hypothesis, label) triples, the labels alike."""
    out = []
    for _ in range(count):
        label = LABELS[draws.between(0, 2)]
        out.append((*pair_words(draws, label), label))
    return out


def released_rows(draws: Draws, pairs: list[Triple], genre: str) -> Iterator[dict[str, Any]]:
    """Released-layout rows (CoreNLP fields, five annotator labels) of triples."""
    for premise, hypothesis, label in pairs:
        votes = [label] * 4 + [LABELS[draws.between(0, 2)]]
        yield {"annotator_labels": votes, "genre": genre, "gold_label": label,
               **corenlp("sentence1", premise), **corenlp("sentence2", hypothesis)}


def rebuilt_row(premise: list[str], hypothesis: list[str], label: str, genre: str
                ) -> dict[str, Any]:
    """A row as `write_pairs` writes it (no parse fields; empty label and votes: candidates)."""
    row: dict[str, Any] = {"annotator_labels": [label] if label else [], "genre": genre,
                           "gold_label": label}
    for key, words in (("sentence1", premise), ("sentence2", hypothesis)):
        row |= {key: " ".join(words), f"{key}_binary_parse": " ".join(words),
                f"{key}_tokens": [[w.lower() for w in words]]}
    return row


# --- a BERT checkpoint --------------------------------------------------------------------------

VOCAB, POSITIONS, LAYERS = 30_522, 512, 12  # bert-base-uncased's


def bert_parameters(hidden: int, layers: int = LAYERS) -> int:
    """Parameters of BertForSequenceClassification (3 classes) at a hidden size."""
    embeddings = (VOCAB + POSITIONS + 2) * hidden + 2 * hidden
    layer = 12 * hidden * hidden + 13 * hidden
    return embeddings + layers * layer + hidden * hidden + hidden + 3 * hidden + 3


def hidden_for(parameters: int) -> int:
    """The hidden size (a multiple of 16) whose 12-layer BERT comes nearest `parameters`."""
    return min(range(16, 2_049, 16), key=lambda h: abs(bert_parameters(h) - parameters))


def bert_shapes(hidden: int) -> dict[str, tuple[int, ...]]:
    """The state dict's tensor shapes, under the names transformers saves them."""
    shapes: dict[str, tuple[int, ...]] = {
        "bert.embeddings.word_embeddings.weight": (VOCAB, hidden),
        "bert.embeddings.position_embeddings.weight": (POSITIONS, hidden),
        "bert.embeddings.token_type_embeddings.weight": (2, hidden),
        "bert.embeddings.LayerNorm.weight": (hidden,), "bert.embeddings.LayerNorm.bias": (hidden,)}
    for n in range(LAYERS):
        at = f"bert.encoder.layer.{n}."
        for name in ("attention.self.query", "attention.self.key", "attention.self.value",
                     "attention.output.dense"):
            shapes |= {f"{at}{name}.weight": (hidden, hidden), f"{at}{name}.bias": (hidden,)}
        shapes |= {f"{at}intermediate.dense.weight": (4 * hidden, hidden),
                   f"{at}intermediate.dense.bias": (4 * hidden,),
                   f"{at}output.dense.weight": (hidden, 4 * hidden),
                   f"{at}output.dense.bias": (hidden,)}
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            shapes |= {f"{at}{norm}.weight": (hidden,), f"{at}{norm}.bias": (hidden,)}
    return shapes | {"bert.pooler.dense.weight": (hidden, hidden),
                     "bert.pooler.dense.bias": (hidden,),
                     "classifier.weight": (3, hidden), "classifier.bias": (3,)}


def write_checkpoint(folder: Path, parameters: int) -> tuple[dict[str, Path], int]:
    """The hub files of a BERT MNLI checkpoint of about `parameters` parameters; (files by
    hub name, exact parameters)."""
    import torch

    hidden = hidden_for(parameters)
    rng = rng_of(5, parameters)
    folder.mkdir(parents=True, exist_ok=True)
    state = {name: torch.from_numpy(rng.standard_normal(shape, dtype=np.float32) * 0.02)
             for name, shape in bert_shapes(hidden).items()}
    files = {name: folder / name for name in ("config.json", "pytorch_model.bin", "vocab.txt",
                                              "tokenizer_config.json",
                                              "special_tokens_map.json")}
    torch.save(state, files["pytorch_model.bin"])
    config = {"architectures": ["BertForSequenceClassification"], "model_type": "bert",
              "hidden_size": hidden, "num_hidden_layers": LAYERS,
              "num_attention_heads": hidden // 64 if hidden % 64 == 0 else 1,
              "intermediate_size": 4 * hidden, "max_position_embeddings": POSITIONS,
              "type_vocab_size": 2, "vocab_size": VOCAB, "hidden_act": "gelu",
              "id2label": {str(i): f"LABEL_{i}" for i in range(3)},
              "label2id": {f"LABEL_{i}": i for i in range(3)}}
    files["config.json"].write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    vocab = [*specials, *(rank_word(rank) for rank in range(1, VOCAB - len(specials) + 1))]
    files["vocab.txt"].write_text("\n".join(vocab) + "\n", encoding="utf-8")
    files["tokenizer_config.json"].write_text('{"do_lower_case": true}\n', encoding="utf-8")
    files["special_tokens_map.json"].write_text(json.dumps(
        {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]",
         "mask_token": "[MASK]"}) + "\n", encoding="utf-8")
    return files, sum(int(t.numel()) for t in state.values())
