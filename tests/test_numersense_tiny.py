"""Tests for the tiny BERT, RoBERTa and GPT-2 models the workflow builds offline.

Each kind is built from a few hand-written lines, read back with the Auto classes as a real
checkpoint would be, checked for the 12 candidates as single tokens, used to score probes with
the stage's own scorers, and rebuilt with the same seed to the same weights.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

# Set before transformers or huggingface_hub is imported: they read it at import time.
os.environ["HF_HUB_OFFLINE"] = "1"

import pytest

from reprobe.errors import ReprobeError
from reprobe.numersense.candidates import CANDIDATES, candidate_ids
from reprobe.numersense.causal import score_probes_causal
from reprobe.numersense.mlm import score_probes
from reprobe.numersense.tiny import build_tiny_model

# Lines with only some of the number words: the builder must add the rest itself.
LINES = (
    "A bird usually has two legs.",
    "Most dogs have four legs.",
    "A car has four wheels and two doors.",
    "An insect has six legs.",
    "A spider has eight legs.",
    "A triangle has three sides.",
    "A week has seven days.",
    "Two birds sat on the fence.",
    "Four dogs ran in the park.",
    "A hand has five fingers.",
    "Most people have ten toes.",
    "A snake has no legs.",
    "The cat has one tail.",
    "A square has four corners.",
    "There are nine planets in the old books.",
    "A fish has no legs and two eyes.",
    "Three cats slept on the bed.",
    "A tricycle has three wheels.",
    "An octopus has eight arms.",
    "A dice has six faces.",
)
PROBES = ("a bird usually has <mask> legs .", "<mask> dogs ran in the park .")
SETTINGS = dict(seed=0, hidden=16, layers=1, heads=2, steps=5, lr=3e-3, vocab_size=600)


def load(kind: str, path: Path) -> tuple[Any, Any]:
    """The built model and tokenizer, read back with the Auto classes, offline."""
    from transformers import AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer

    auto = AutoModelForCausalLM if kind == "gpt2" else AutoModelForMaskedLM
    return (auto.from_pretrained(str(path), local_files_only=True),
            AutoTokenizer.from_pretrained(str(path), local_files_only=True))


@pytest.fixture(scope="module", params=["bert", "roberta", "gpt2"])
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple:
    """Each kind built once: (kind, folder)."""
    out = tmp_path_factory.mktemp(request.param) / "tiny"
    return request.param, build_tiny_model(request.param, LINES, out, **SETTINGS)


def test_folder_loads_with_auto_classes_and_holds_no_staging(built: tuple) -> None:
    """The folder is a complete checkpoint; the temporary build folder is gone."""
    kind, path = built
    model, tokenizer = load(kind, path)
    assert model.config.vocab_size == len(tokenizer)
    assert [p.name for p in path.parent.iterdir()] == ["tiny"]


def test_every_candidate_is_one_token(built: tuple) -> None:
    """All 12 words are single known tokens, at sentence start too for byte-level kinds."""
    kind, path = built
    _, tokenizer = load(kind, path)
    after_space = candidate_ids(tokenizer)
    assert list(after_space) == list(CANDIDATES)
    assert len(set(after_space.values())) == len(CANDIDATES)
    if kind != "bert":
        at_start = candidate_ids(tokenizer, sentence_start=True)
        assert set(at_start.values()).isdisjoint(after_space.values())


def test_the_stage_scorers_score_probes(built: tuple) -> None:
    """The masked-LM or causal scorer ranks all 12 candidates for each probe."""
    kind, path = built
    model, tokenizer = load(kind, path)
    scorer = score_probes_causal if kind == "gpt2" else score_probes
    options = {"bos": True} if kind == "gpt2" else {}
    ranked = scorer(model, tokenizer, PROBES, 2, "cpu", precision=None, **options)
    assert len(ranked) == len(PROBES)
    for result in ranked:
        assert sorted(w for w, _ in result) == sorted(CANDIDATES)
        scores = [s for _, s in result]
        assert scores == sorted(scores, reverse=True)


def test_same_seed_gives_the_same_weights(built: tuple, tmp_path: Path) -> None:
    """A second build with the same seed matches vocab and tensors; another seed does not."""
    import torch

    kind, path = built
    again = build_tiny_model(kind, LINES, tmp_path / "again", **SETTINGS)
    other = build_tiny_model(kind, LINES, tmp_path / "other", **{**SETTINGS, "seed": 1})
    first, second, third = (load(kind, p)[0].state_dict() for p in (path, again, other))
    assert load(kind, path)[1].get_vocab() == load(kind, again)[1].get_vocab()
    assert first.keys() == second.keys()
    assert all(torch.equal(first[k], second[k]) for k in first)
    assert not all(torch.equal(first[k], third[k]) for k in first)


def test_training_lowers_the_loss(tmp_path: Path) -> None:
    """More steps fit the text better than none: the model is trained, not just initialised."""
    import torch

    losses = []
    for steps in (0, 20):
        path = build_tiny_model("gpt2", LINES, tmp_path / f"s{steps}", **{**SETTINGS,
                                                                         "steps": steps})
        model, tokenizer = load("gpt2", path)
        ids = torch.tensor([tokenizer(" ".join(LINES[:5]))["input_ids"]])
        with torch.no_grad():
            losses.append(float(model(input_ids=ids, labels=ids).loss))
    assert losses[1] < losses[0]


def test_bad_kind_and_small_vocab_are_clear_errors(tmp_path: Path) -> None:
    """An unknown kind, or a vocabulary too small for the candidates, names the problem."""
    with pytest.raises(ReprobeError, match="unknown tiny model kind 'xlnet'"):
        build_tiny_model("xlnet", LINES, tmp_path / "x", **SETTINGS)
    for kind in ("bert", "roberta"):
        with pytest.raises(ReprobeError, match="vocab_size 50 is too small"):
            build_tiny_model(kind, LINES, tmp_path / kind, **{**SETTINGS, "vocab_size": 50})
        assert not (tmp_path / kind).exists()
    assert list(tmp_path.iterdir()) == []
