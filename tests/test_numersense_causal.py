"""Tests for batched causal-LM (GPT-2) scoring of NumerSense probes on a tiny offline model.

A tiny GPT-2 with random weights (drawn wide, so the next-token distributions are peaked and the
candidates' losses far apart) and a byte-level BPE tokenizer trained here on a few sentences with
the number words, both saved and read back with the Auto classes as a real checkpoint would be.
The reference losses come from the model's own `labels=` loss, not from the code under test.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

# Set before transformers or huggingface_hub is imported: they read it at import time.
os.environ["HF_HUB_OFFLINE"] = "1"

import pytest

from reprobe.errors import ReprobeError
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.causal import (
    filled,
    prefix_ids,
    score_one_by_one_causal,
    score_probes_causal,
    score_probes_causal_authors,
)
from test_numersense_candidates import SENTENCES

# Different lengths (so batches pad), sentence-initial masks, and a duplicate, as in the release.
PROBES = (
    "a bird usually has <mask> legs .",
    "<mask> birds usually have two legs .",
    "a car has <mask> wheels and four doors , and the cat has four legs in all .",
    "cats have <mask> legs .",
    "a bird usually has <mask> legs .",
    "<mask> cats .",
    "all cars have <mask> wheels and two doors .",
)
END = "<|endoftext|>"
# The scorers' run settings here: on the CPU, float32, a BOS token first (clean protocol).
CPU = {"device": "cpu", "precision": None, "bos": True}
Model = tuple[Any, Any]


def build_gpt2_tokenizer(out_dir: Path) -> Any:
    """A GPT-2 byte-level BPE tokenizer trained on the test sentences, saved and reloaded."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import AutoTokenizer, GPT2Tokenizer

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    # A vocabulary size above what the text can fill: every word seen becomes one token.
    trainer = trainers.BpeTrainer(vocab_size=5000, min_frequency=1, show_progress=False,
                                  special_tokens=[END],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    bpe.train_from_iterator(SENTENCES, trainer)
    trained = json.loads(bpe.to_str())["model"]
    GPT2Tokenizer(vocab=trained["vocab"], merges=[tuple(m) for m in trained["merges"]],
                  model_max_length=64).save_pretrained(str(out_dir))
    return AutoTokenizer.from_pretrained(str(out_dir), local_files_only=True)


def build_gpt2(out_dir: Path) -> Model:
    """A tiny random-weight GPT-2 and its tokenizer, saved and reloaded."""
    import torch
    from transformers import AutoModelForCausalLM, GPT2Config, GPT2LMHeadModel

    tokenizer = build_gpt2_tokenizer(out_dir)
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=len(tokenizer), n_positions=64, n_embd=32, n_layer=2,
                        n_head=2, initializer_range=0.5, bos_token_id=tokenizer.bos_token_id,
                        eos_token_id=tokenizer.eos_token_id)
    GPT2LMHeadModel(config).save_pretrained(str(out_dir))
    return AutoModelForCausalLM.from_pretrained(str(out_dir), local_files_only=True), tokenizer


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Model:
    """The tiny GPT-2."""
    return build_gpt2(tmp_path_factory.mktemp("gpt2") / "tiny")


@pytest.fixture(scope="module")
def one_by_one(tiny: Model) -> list[list[tuple[str, float]]]:
    """PROBES scored one sentence per forward pass (computed once: 84 passes)."""
    return score_one_by_one_causal(*tiny, PROBES, "cpu", bos=True)


def direct_loss(model: Model, text: str, *, bos: bool = True) -> float:
    """The sentence's mean token loss as the model's own `labels=` loss computes it."""
    import torch

    lm, tokenizer = model
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    ids = [tokenizer.eos_token_id, *ids] if bos else ids
    tensor = torch.tensor([ids])
    with torch.no_grad():
        return float(lm(input_ids=tensor, labels=tensor).loss)


def assert_same(a: list[list[tuple[str, float]]], b: list[list[tuple[str, float]]]) -> None:
    """Two rankings agree word by word, their scores to 1e-5."""
    assert len(a) == len(b)
    for ranked_a, ranked_b in zip(a, b, strict=True):
        assert [w for w, _ in ranked_a] == [w for w, _ in ranked_b]
        for (_, x), (_, y) in zip(ranked_a, ranked_b, strict=True):
            assert x == pytest.approx(y, abs=1e-5)


@pytest.mark.parametrize("batch_size", [1, 2, 3, 64])
def test_batched_scores_equal_one_sentence_at_a_time(
    tiny: Model, one_by_one: list[list[tuple[str, float]]], batch_size: int
) -> None:
    """Length-sorted padded batches, restored to input order, score as one sentence a pass."""
    assert_same(score_probes_causal(*tiny, PROBES, batch_size, **CPU), one_by_one)


@pytest.mark.parametrize("bos", [True, False])
def test_scores_are_minus_the_models_own_mean_loss(tiny: Model, bos: bool) -> None:
    """Each score is −(mean token loss) of the filled-in sentence, with or without the prefix."""
    # A short, a long and a sentence-initial probe, batched together.
    probes = [PROBES[3], PROBES[2], PROBES[1]]
    for probe, result in zip(probes, score_probes_causal(*tiny, probes, 3, **{**CPU, "bos": bos}),
                             strict=True):
        expected = {w: -direct_loss(tiny, filled(probe, w), bos=bos) for w in CANDIDATES}
        assert dict(result) == pytest.approx(expected, abs=1e-5)


def test_ranking_is_lowest_mean_loss_first(tiny: Model) -> None:
    """The candidates come in order of their sentences' losses, computed directly, lowest first."""
    probe = "a bird usually has <mask> legs ."
    losses = {w: direct_loss(tiny, filled(probe, w)) for w in CANDIDATES}
    (result,) = score_probes_causal(*tiny, [probe], 1, **CPU)
    assert [w for w, _ in result] == sorted(CANDIDATES, key=losses.__getitem__)
    # Far enough apart that the order is the model's, not float noise.
    assert len({round(v, 3) for v in losses.values()}) == len(CANDIDATES)


def test_rankings_are_complete_and_descending(tiny: Model) -> None:
    """Every probe gets the 12 candidates once each, highest score (lowest loss) first."""
    for result in score_probes_causal(*tiny, PROBES, 2, **CPU):
        assert sorted(w for w, _ in result) == sorted(CANDIDATES)
        scores = [s for _, s in result]
        assert scores == sorted(scores, reverse=True)
        assert all(s < 0 for s in scores)


def test_the_prefix_makes_a_sentence_initial_candidate_count(tiny: Model) -> None:
    """With the BOS prefix the first word is predicted; without it, it is context only."""
    _, tokenizer = tiny
    assert filled("<mask> cats .", "four") == "four cats ."
    assert filled(" cats have <mask> legs . ", "no") == "cats have no legs ."
    assert prefix_ids(tokenizer, True) == [tokenizer.convert_tokens_to_ids(END)]
    assert prefix_ids(tokenizer, False) == []
    probe = "<mask> birds usually have two legs ."
    (with_bos,) = score_probes_causal(*tiny, [probe], 1, **CPU)
    (without,) = score_probes_causal(*tiny, [probe], 1, **{**CPU, "bos": False})
    assert dict(with_bos) != pytest.approx(dict(without), abs=1e-3)


def test_a_tokenizer_without_bos_or_eos_needs_bos_false() -> None:
    """No token to put first: a clear error naming the model, unless the prefix is off."""
    bare = SimpleNamespace(bos_token_id=None, eos_token_id=None, name_or_path="bare-lm")
    with pytest.raises(ReprobeError, match="bare-lm.*bos=False"):
        prefix_ids(bare, True)
    assert prefix_ids(bare, False) == []


@pytest.mark.parametrize("bad", ["cats have four legs .", "<mask> cats have <mask> legs ."])
def test_a_probe_without_exactly_one_mask_names_its_index(tiny: Model, bad: str) -> None:
    """No mask or two masks: an error naming the probe's 0-based index, before any scoring."""
    probes = [PROBES[0], PROBES[1], bad, PROBES[2]]
    with pytest.raises(ReprobeError, match=r"probe 2 \(0-based\).*found [02]"):
        score_probes_causal(*tiny, probes, 2, **CPU)


def test_a_probe_longer_than_the_model_names_its_index(tiny: Model) -> None:
    """A filled-in sentence past the tokenizer's limit is refused, not truncated."""
    long = "cats have <mask> legs" + " and two legs" * 30 + " ."
    with pytest.raises(ReprobeError, match=r"probe 1 \(0-based\).*more than the model's 64"):
        score_probes_causal(*tiny, [PROBES[0], long], 2, **CPU)


def test_no_probes_score_to_an_empty_list(tiny: Model) -> None:
    """Nothing to score: nothing returned."""
    assert score_probes_causal(*tiny, [], 4, **CPU) == []


def test_throughput_is_logged(tiny: Model, caplog: pytest.LogCaptureFixture) -> None:
    """The log line gives the probe and sentence counts and probes/s."""
    with caplog.at_level(logging.INFO, logger="reprobe.numersense.causal"):
        score_probes_causal(*tiny, PROBES, 4, **CPU)
    assert any("7 probes (84 sentences)" in r.getMessage() and "probes/s" in r.getMessage()
               for r in caplog.records)


def gpt_predict_transcribed(model: Model, masked_sent: str) -> list[tuple[str, float]]:
    """The authors' src/gpt_predict.py loop for one probe, line by line."""
    import torch

    gpt, tokenizer = model
    num_list = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "no", "zero"]
    masked_sent = masked_sent.strip()
    result_list = []
    for num in num_list:
        sent = masked_sent.replace("<mask>", num)
        input_ids = torch.tensor(tokenizer.encode(sent)).unsqueeze(0)
        with torch.no_grad():
            outputs = gpt(input_ids, labels=input_ids)
            loss = outputs[0]
            result_list.append({"word": num, "softmax": 100 - loss.item()})
    result_list.sort(key=lambda x: x["softmax"], reverse=True)
    return [(x["word"], float(x["softmax"])) for x in result_list]


@pytest.mark.parametrize("batch_size", [None, 1, 4])
def test_authors_protocol_equals_their_gpt_predict_loop(tiny: Model, batch_size: int | None
                                                        ) -> None:
    ours = score_probes_causal_authors(*tiny, PROBES, batch_size, "cpu", precision=None)
    theirs = [gpt_predict_transcribed(tiny, p) for p in PROBES]
    for a, b in zip(ours, theirs, strict=True):
        assert dict(a) == pytest.approx(dict(b), abs=1e-5)
        assert [w for w, _ in a] == [w for w, _ in b]
