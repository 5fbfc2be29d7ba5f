"""Tests for batched masked-LM scoring of NumerSense probes on tiny offline models.

Tiny BERT and RoBERTa masked LMs with random weights (drawn wide, so the softmax is peaked and a
padding mistake would move the scores well past the tolerance), saved and reloaded with the
Auto classes, over the tokenizers built in `tests/test_numersense_candidates.py`.
"""

from __future__ import annotations

import copy
import logging
import os
from pathlib import Path
from typing import Any

# Set before transformers or huggingface_hub is imported: they read it at import time.
os.environ["HF_HUB_OFFLINE"] = "1"

import pytest

from reprobe.errors import ReprobeError
from reprobe.numersense.candidates import CANDIDATES, candidate_ids, mask_at_start
from reprobe.numersense.mlm import (
    length_sorted_batches,
    mask_head,
    mask_logits,
    model_text,
    model_text_all,
    rank,
    score_one_by_one,
    score_probes,
)
from test_numersense_candidates import build_bert_tokenizer, build_roberta_tokenizer

# Different lengths (so batches pad), a sentence-initial mask, and a duplicate, as in the release.
PROBES = (
    "a bird usually has <mask> legs .",
    "<mask> birds usually have two legs .",
    "a car has <mask> wheels and four doors , and the cat has four legs in all .",
    "cats have <mask> legs .",
    "most dogs have <mask> legs .",
    "a bird usually has <mask> legs .",
    "<mask> cats .",
    "all cars have <mask> wheels and two doors .",
)
Model = tuple[Any, Any]


def build_masked_lm(kind: str, out_dir: Path) -> Model:
    """A tiny random-weight BERT or RoBERTa masked LM and its tokenizer, saved and reloaded."""
    import torch
    from transformers import (
        AutoModelForMaskedLM,
        BertConfig,
        BertForMaskedLM,
        RobertaConfig,
        RobertaForMaskedLM,
    )

    # A wide initialisation makes logits spread over several units: a peaked softmax.
    sizes = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                 intermediate_size=64, initializer_range=0.5)
    torch.manual_seed(0)
    if kind == "bert":
        tokenizer = build_bert_tokenizer(out_dir)
        model = BertForMaskedLM(BertConfig(vocab_size=len(tokenizer), max_position_embeddings=64,
                                           **sizes))
    else:
        tokenizer = build_roberta_tokenizer(out_dir)
        model = RobertaForMaskedLM(RobertaConfig(
            vocab_size=len(tokenizer), max_position_embeddings=66, type_vocab_size=1,
            pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.bos_token_id,
            eos_token_id=tokenizer.eos_token_id, **sizes))
    # Candidates given most of the probability mass, as a real model gives them at a number's
    # place: the 1e-5 comparisons then bound differences of scores near 0.1, not near 1/vocab.
    with torch.no_grad():
        for sentence_start in (False, True):
            ids = list(candidate_ids(tokenizer, sentence_start=sentence_start).values())
            model.get_output_embeddings().bias[ids] += 6.0
    model.save_pretrained(str(out_dir))
    return AutoModelForMaskedLM.from_pretrained(str(out_dir), local_files_only=True), tokenizer


@pytest.fixture(scope="module", params=["bert", "roberta"])
def tiny(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Model:
    """Each tiny masked LM in turn."""
    return build_masked_lm(request.param, tmp_path_factory.mktemp(request.param) / "tiny")


def direct_scores(model: Model, probe: str) -> dict[str, float]:
    """The candidates' softmax probabilities at the mask, computed here step by step."""
    import torch

    mlm, tokenizer = model
    encoded = tokenizer(model_text(probe, tokenizer.mask_token), return_tensors="pt")
    position = encoded["input_ids"][0].tolist().index(tokenizer.mask_token_id)
    with torch.no_grad():
        probs = mlm(**encoded).logits[0, position].softmax(-1)
    ids = candidate_ids(tokenizer, sentence_start=mask_at_start(probe))
    return {word: float(probs[i]) for word, i in ids.items()}


def assert_same(a: list[list[tuple[str, float]]], b: list[list[tuple[str, float]]]) -> None:
    """Two rankings agree word by word, their scores to 1e-5."""
    assert len(a) == len(b)
    for ranked_a, ranked_b in zip(a, b, strict=True):
        assert [w for w, _ in ranked_a] == [w for w, _ in ranked_b]
        for (_, x), (_, y) in zip(ranked_a, ranked_b, strict=True):
            assert x == pytest.approx(y, abs=1e-5)


@pytest.mark.parametrize("batch_size", [2, 3, 8, 64])
def test_batched_scores_equal_one_at_a_time_scores(tiny: Model, batch_size: int) -> None:
    """Length-sorted padded batches, restored to input order, score as one probe a pass does."""
    mlm, tokenizer = tiny
    one_by_one = score_one_by_one(mlm, tokenizer, PROBES, "cpu")
    assert_same(score_probes(mlm, tokenizer, PROBES, batch_size, "cpu"), one_by_one)


def test_scores_are_the_softmax_over_the_whole_vocabulary(tiny: Model) -> None:
    """Each score is the candidate's probability at the mask; the 12 sum to less than 1."""
    ranked = score_probes(*tiny, PROBES, batch_size=4, device="cpu")
    for probe, result in zip(PROBES, ranked, strict=True):
        expected = direct_scores(tiny, probe)
        assert dict(result) == pytest.approx(expected, abs=1e-5)
        assert 0 < sum(expected.values()) < 1


def test_padding_would_matter_without_the_attention_mask(tiny: Model) -> None:
    """The check above is not vacuous: attending to padding moves the scores well past 1e-5."""
    import torch

    mlm, tokenizer = tiny
    probe = "cats have <mask> legs ."
    ids = tokenizer(model_text(probe, tokenizer.mask_token))["input_ids"]
    padded = torch.tensor([ids + [tokenizer.pad_token_id] * 10])
    position = ids.index(tokenizer.mask_token_id)
    with torch.no_grad():
        probs = mlm(input_ids=padded).logits[0, position].softmax(-1)
    attended = [float(probs[i]) for i in candidate_ids(tokenizer).values()]
    alone = list(direct_scores(tiny, probe).values())
    assert max(abs(x - y) for x, y in zip(attended, alone, strict=True)) > 1e-3


def test_a_sentence_initial_probe_uses_the_bare_forms(tiny: Model) -> None:
    """A probe that begins with its mask is scored on the candidates without a space marker."""
    import torch

    mlm, tokenizer = tiny
    probe = "<mask> birds usually have two legs ."
    (result,) = score_probes(mlm, tokenizer, [probe], batch_size=1, device="cpu")
    encoded = tokenizer(model_text(probe, tokenizer.mask_token), return_tensors="pt")
    with torch.no_grad():
        probs = mlm(**encoded).logits[0, 1].softmax(-1)
    bare = candidate_ids(tokenizer, sentence_start=True)
    assert dict(result) == pytest.approx({w: float(probs[i]) for w, i in bare.items()}, abs=1e-5)


def test_rankings_are_complete_and_descending(tiny: Model) -> None:
    """Every probe gets the 12 candidates once each, best first."""
    for result in score_probes(*tiny, PROBES, batch_size=3, device="cpu"):
        assert sorted(w for w, _ in result) == sorted(CANDIDATES)
        scores = [s for _, s in result]
        assert scores == sorted(scores, reverse=True)


def test_ranking_follows_the_scores(tiny: Model) -> None:
    """Raising two candidates' output biases puts them first and second, in that order."""
    import torch

    mlm, tokenizer = copy.deepcopy(tiny[0]), tiny[1]
    bias = mlm.get_output_embeddings().bias
    ids = candidate_ids(tokenizer)
    with torch.no_grad():
        bias[ids["four"]] += 30.0
        bias[ids["seven"]] += 20.0
    spaced = [p for p in PROBES if not mask_at_start(p)]
    for result in score_probes(mlm, tokenizer, spaced, batch_size=4, device="cpu"):
        assert [w for w, _ in result[:2]] == ["four", "seven"]
        assert result[0][1] > 0.99


def test_the_mask_takes_the_space_before_it(tiny: Model) -> None:
    """The token before the mask is the previous word, never a lone space piece."""
    _, tokenizer = tiny
    text = model_text("a bird usually has <mask> legs .", tokenizer.mask_token)
    tokens = tokenizer.convert_ids_to_tokens(tokenizer(text)["input_ids"])
    before = tokens[tokens.index(tokenizer.mask_token) - 1]
    assert before in ("has", "Ġhas")
    assert model_text(" <mask> cats . ", "[MASK]") == "[MASK] cats ."


@pytest.mark.parametrize("bad", ["cats have four legs .", "<mask> cats have <mask> legs ."])
def test_a_probe_without_exactly_one_mask_names_its_index(tiny: Model, bad: str) -> None:
    """No mask or two masks: an error naming the probe's 0-based index, before any scoring."""
    probes = [PROBES[0], PROBES[1], bad, PROBES[2]]
    with pytest.raises(ReprobeError, match=r"probe 2 \(0-based\).*found [02]"):
        score_probes(*tiny, probes, batch_size=2, device="cpu")


def test_length_sorted_batches_group_similar_lengths() -> None:
    """Longest first, ties in input order, every index once; a batch size below 1 is refused."""
    assert length_sorted_batches([3, 9, 3, 5, 9], 2) == [[1, 4], [3, 0], [2]]
    assert length_sorted_batches([], 4) == []
    with pytest.raises(ReprobeError, match="batch size"):
        length_sorted_batches([1], 0)


def test_rank_breaks_ties_in_candidate_order() -> None:
    """Equal scores keep the order of the candidate list."""
    assert rank([0.5, 0.5, 0.9], ["no", "zero", "one"]) == [
        ("one", 0.9), ("no", 0.5), ("zero", 0.5)]


def test_no_probes_score_to_an_empty_list(tiny: Model) -> None:
    """Nothing to score: nothing returned, no model call."""
    assert score_probes(*tiny, [], batch_size=4, device="cpu") == []


def test_throughput_is_logged(tiny: Model, caplog: pytest.LogCaptureFixture) -> None:
    """The log line gives the probe count and probes/s."""
    with caplog.at_level(logging.INFO, logger="reprobe.numersense.mlm"):
        score_probes(*tiny, PROBES, batch_size=4, device="cpu")
    assert any("8 probes" in r.getMessage() and "probes/s" in r.getMessage()
               for r in caplog.records)


def test_bf16_autocast_scores_close_to_float32(tiny: Model) -> None:
    """Mixed precision runs on CPU too and ranks near the float32 scores; unknown ones fail."""
    mlm, tokenizer = tiny
    full = score_probes(mlm, tokenizer, PROBES[:3], batch_size=2, device="cpu")
    half = score_probes(mlm, tokenizer, PROBES[:3], batch_size=2, device="cpu", precision="bf16")
    for a, b in zip(full, half, strict=True):
        assert dict(a) == pytest.approx(dict(b), abs=0.05)
    with pytest.raises(ReprobeError, match="precision"):
        score_probes(mlm, tokenizer, PROBES[:1], batch_size=1, device="cpu", precision="fp8")


def test_the_head_runs_on_the_mask_positions_alone(tiny: Model) -> None:
    """The head-only-at-the-mask path gives the whole model's logits at the mask."""
    import torch
    from transformers import DistilBertConfig, DistilBertForMaskedLM

    mlm, tokenizer = tiny
    assert mask_head(mlm) is not None
    # A layout that is not base model + one head runs whole.
    assert mask_head(DistilBertForMaskedLM(DistilBertConfig(
        n_layers=1, dim=16, n_heads=2, hidden_dim=32, vocab_size=50))) is None
    ids = torch.tensor([tokenizer(model_text(PROBES[0], tokenizer.mask_token))["input_ids"]])
    attention = torch.ones_like(ids)
    mlm.eval()
    with torch.inference_mode():
        alone = mask_logits(mlm, mask_head(mlm), ids, attention, tokenizer.mask_token_id)
        whole = mask_logits(mlm, None, ids, attention, tokenizer.mask_token_id)
    assert torch.allclose(alone, whole, atol=1e-5)


@pytest.mark.parametrize("probe", [
    "a bird usually has <mask> legs .", "<mask> birds usually have two legs .", "  <mask> cats .",
])
def test_one_mask_reads_as_mlm_model_text(probe: str) -> None:
    """With one mask the several-mask text is exactly the scorer's text."""
    assert model_text_all(probe, "[MASK]") == model_text(probe, "[MASK]")


def test_every_mask_takes_the_space_before_it() -> None:
    """Each mask swallows the blanks before it, not after it."""
    text = model_text_all(" <mask> cars have  <mask> wheels .", "<M>")
    assert text == "<M> cars have<M> wheels ."
