"""Tests for the seven trained baselines' models: their output, their independence of padding,
CH's input gates, InferSent's two classifiers and which encoders the sides share."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import torch
from torch import nn

from reprobe.equate.trained.architectures import ARCHITECTURES, RECIPES, RowShape, build_model
from reprobe.equate.trained.batches import BatchMaker, encode_pairs
from reprobe.equate.trained.layers import BiLSTM, input_gates
from reprobe.equate.trained.vocabulary import SPECIAL, Vocabulary
from reprobe.torch_runtime import reproducible_torch

WORDS = ("a", "man", "dog", "runs", "sleeps", "the", "park", "in", "not", "3", ".", "very",
         "long", "sentence", "with", "many", "words", "that", "goes", "on", "and")
LONG_WORD = "supercalifragilisticexpialidocious"  # past MAX_WORD_CHARS: CH cuts it
SHORT = {"sentence1": "a man runs .", "sentence2": "a dog sleeps", "gold_label": "neutral"}
LONG = {"sentence1": " ".join(["a very long sentence with many words that goes on and on"] * 3),
        "sentence2": f"the {LONG_WORD} man runs in the park and the dog sleeps in the park "
                     "not 3 times", "gold_label": "entailment"}


@pytest.fixture(autouse=True)
def one_thread() -> Iterator[None]:
    """One torch thread in each test (the models are tiny; a busy machine's second core only
    slows them), torch's settings restored after."""
    with reproducible_torch(torch):
        yield


@pytest.fixture(scope="module")
def vocabulary() -> tuple[Vocabulary, np.ndarray, np.ndarray]:
    """A hand-made vocabulary, 8-dimensional random vectors, and its has-vector flags (two
    words without a vector)."""
    chars = sorted({c for w in WORDS for c in w})
    vocabulary = Vocabulary((*SPECIAL, *WORDS), ("", "", *chars))
    vectors = np.random.default_rng(0).normal(size=(len(vocabulary.words), 8)).astype(np.float32)
    has = np.ones(len(vocabulary.words), dtype=bool)
    has[:2] = False
    has[[vocabulary.word_id("park"), vocabulary.word_id("many")]] = False
    return vocabulary, vectors, has


def model_and_maker(arch: str, vocab: tuple[Vocabulary, np.ndarray, np.ndarray],
                    rows: list[dict[str, Any]], shape: RowShape | None = None
                    ) -> tuple[nn.Module, BatchMaker]:
    """A seeded small model of an architecture, in eval mode, and a prediction BatchMaker."""
    vocabulary, vectors, has = vocab
    model = build_model(arch, vocabulary, vectors, has, shape or RowShape(width=0.02), seed=3)
    maker = BatchMaker(encode_pairs(rows, vocabulary), vocabulary, has, RECIPES[arch].text,
                       training=False)
    return model.eval(), maker


@pytest.mark.parametrize("arch", ARCHITECTURES)
def test_logits_are_batch_by_three(arch: str, vocabulary: Any) -> None:
    """Every architecture gives finite [B, 3] class logits."""
    model, maker = model_and_maker(arch, vocabulary, [SHORT, LONG, SHORT])
    with torch.no_grad():
        logits = model(maker([0, 1, 2]))
    assert logits.shape == (3, 3) and torch.isfinite(logits).all()


@pytest.mark.parametrize("arch", ARCHITECTURES)
def test_logits_do_not_depend_on_padding(arch: str, vocabulary: Any) -> None:
    """A pair's logits are the same alone and batched beside a far longer pair (more words,
    and for CH a longer word)."""
    model, maker = model_and_maker(arch, vocabulary, [SHORT, LONG])
    alone, padded = maker([0]), maker([1, 0])
    assert padded.premise.shape[1] > alone.premise.shape[1] + 20
    if RECIPES[arch].text.chars:
        assert padded.hypothesis_chars.shape[2] > alone.hypothesis_chars.shape[2]
    with torch.no_grad():
        assert torch.allclose(model(alone)[0], model(padded)[1], atol=1e-5)


def test_input_gates_match_a_step_by_step_lstm() -> None:
    """input_gates equals the norm of both directions' input gates of an explicit LSTM cell
    loop with the same weights, at every token of a padded batch."""
    torch.manual_seed(0)
    hidden, dim = 4, 3
    layer = BiLSTM(dim, hidden)
    lengths = torch.tensor([5, 3])
    x = torch.randn(2, 5, dim)
    x[1, 3:] = 0.0
    with torch.no_grad():
        states = layer(x, lengths)
        got = input_gates(layer.lstm, x, states)
        for row, length in enumerate(lengths.tolist()):
            expected = []
            for suffix, order in (("", range(length)), ("_reverse", reversed(range(length)))):
                w_ih, w_hh = (getattr(layer.lstm, f"weight_{k}_l0{suffix}") for k in ("ih", "hh"))
                bias = (getattr(layer.lstm, f"bias_ih_l0{suffix}")
                        + getattr(layer.lstm, f"bias_hh_l0{suffix}"))
                h, c = torch.zeros(hidden), torch.zeros(hidden)
                gates, outputs = torch.zeros(length, hidden), torch.zeros(length, hidden)
                for t in order:
                    i, f, g, o = (w_ih @ x[row, t] + w_hh @ h + bias).chunk(4)
                    c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
                    h = torch.sigmoid(o) * torch.tanh(c)
                    gates[t], outputs[t] = torch.sigmoid(i), h
                side = slice(0, hidden) if suffix == "" else slice(hidden, 2 * hidden)
                assert torch.allclose(states[row, :length, side], outputs, atol=1e-6)
                expected.append(gates)
            norm = torch.cat(expected, dim=-1).norm(dim=-1)
            assert torch.allclose(got[row, :length], norm, atol=1e-6)


def test_infersent_classifiers_differ(vocabulary: Any) -> None:
    """The paper's classifier has one tanh hidden layer; the released code's default stacks
    three linear layers with no non-linearity."""
    shapes = {name: model_and_maker("infersent", vocabulary, [SHORT],
                                    RowShape(width=0.02, classifier=name))[0].mlp
              for name in ("paper", "released_code")}
    kinds = {name: [type(m) for m in mlp] for name, mlp in shapes.items()}
    assert kinds["paper"] == [nn.Linear, nn.Tanh, nn.Linear]
    assert kinds["released_code"] == [nn.Linear, nn.Linear, nn.Linear]


def bilstm_calls(model: nn.Module, batch: Any) -> list[tuple[str, int]]:
    """(module name, input length) of each BiLSTM call in one forward pass."""
    calls: list[tuple[str, int]] = []
    hooks = [module.register_forward_hook(
        lambda _m, inputs, _out, name=name: calls.append((name, inputs[0].shape[1])))
        for name, module in model.named_modules() if isinstance(module, BiLSTM)]
    with torch.no_grad():
        model(batch)
    for hook in hooks:
        hook.remove()
    return calls


def test_esim_sides_share_one_encoder(vocabulary: Any) -> None:
    """ESIM reads premise and hypothesis with one encoder BiLSTM (and one composition)."""
    model, maker = model_and_maker("esim", vocabulary, [LONG])
    batch = maker([0])
    premise, hypothesis = batch.premise.shape[1], batch.hypothesis.shape[1]
    assert bilstm_calls(model, batch) == [("encoder", premise), ("encoder", hypothesis),
                                          ("composition", premise),
                                          ("composition", hypothesis)]


def test_bilstm_sides_do_not_share(vocabulary: Any) -> None:
    """The BiLSTM baseline reads premise and hypothesis with two separate BiLSTMs."""
    model, maker = model_and_maker("bilstm", vocabulary, [LONG])
    batch = maker([0])
    assert bilstm_calls(model, batch) == [("premise_lstm", batch.premise.shape[1]),
                                          ("hypothesis_lstm", batch.hypothesis.shape[1])]
    assert model.premise_lstm.lstm.weight_ih_l0.data_ptr() != \
        model.hypothesis_lstm.lstm.weight_ih_l0.data_ptr()
