"""Tests for NumerSense's object-bias templates (Table 3) on tiny offline masked LMs.

The tiny BERT and RoBERTa masked LMs of `tests/test_numersense_mlm.py` (random weights, the
candidates given most of the probability mass) score the filled templates.
"""

from __future__ import annotations

import os
from typing import Any

# Set before transformers or huggingface_hub is imported: they read it at import time.
os.environ["HF_HUB_OFFLINE"] = "1"

import pytest

from reprobe.errors import ReprobeError
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.mlm import score_one_by_one
from reprobe.numersense.settings import RunSettings
from reprobe.numersense.templates import (
    SLOT,
    TEMPLATES,
    object_bias,
    top_rows,
    vocabulary_words,
    whole_words,
)
from test_numersense_mlm import build_masked_lm

Model = tuple[Any, Any]
WORDS = ("birds", "cars", "dogs", "usually", "wheels")


def run(batch_size: int) -> RunSettings:
    """A template run on the CPU in float32."""
    return RunSettings(batch_size=batch_size, device="cpu", precision=None, threads=1)


@pytest.fixture(scope="module", params=["bert", "roberta"])
def tiny(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Model:
    """Each tiny masked LM in turn."""
    return build_masked_lm(request.param, tmp_path_factory.mktemp(request.param) / "tiny")


def test_the_templates_are_the_papers_three() -> None:
    """Legs, wheels, sides: each with one slot and one mask."""
    assert TEMPLATES == ("a [x] usually has <mask> legs.", "most [x] have <mask> wheels.",
                         "all [x] have <mask> sides.")
    assert all(t.count(SLOT) == 1 and t.count("<mask>") == 1 for t in TEMPLATES)


def test_whole_words_are_plain_lowercase_words_of_the_vocabulary(tiny: Model) -> None:
    """No pieces, no specials, no candidates, no single letters; each one token after a space."""
    _, tokenizer = tiny
    words = whole_words(tokenizer)
    assert words == sorted(set(words)) and len(words) >= 10
    for word in words:
        assert word.isascii() and word.isalpha() and word.islower() and len(word) >= 2
        assert word not in CANDIDATES
        assert len(tokenizer(f" {word}", add_special_tokens=False)["input_ids"]) == 1
    assert {"birds", "usually", "wheels"} <= set(words)


def test_vocabulary_words_are_reproducible_for_a_seed(tiny: Model) -> None:
    """One seed, one draw; another seed, another draw; distinct words from the pool."""
    _, tokenizer = tiny
    first = vocabulary_words(tokenizer, 6, seed=3)
    assert first == vocabulary_words(tokenizer, 6, seed=3)
    assert first != vocabulary_words(tokenizer, 6, seed=4)
    assert len(set(first)) == 6 and set(first) <= set(whole_words(tokenizer))


def test_asking_for_more_words_than_exist_gives_all_of_them(tiny: Model) -> None:
    """Every whole word, shuffled by the seed."""
    _, tokenizer = tiny
    pool = whole_words(tokenizer)
    drawn = vocabulary_words(tokenizer, len(pool) + 100, seed=0)
    assert sorted(drawn) == pool
    assert drawn == vocabulary_words(tokenizer, len(pool) + 100, seed=0)
    assert vocabulary_words(tokenizer, 0, seed=0) == []


def test_object_bias_is_the_mean_of_one_at_a_time_scores(tiny: Model) -> None:
    """Each mean is the average of the candidate's probability over the fillings, in percent."""
    model, tokenizer = tiny
    results = object_bias(model, tokenizer, TEMPLATES, WORDS, run(4))
    assert [template for template, _ in results] == list(TEMPLATES)
    for template, ranked in results:
        probes = [template.replace(SLOT, word) for word in WORDS]
        scores = [dict(r) for r in score_one_by_one(model, tokenizer, probes, "cpu")]
        assert sorted(w for w, _ in ranked) == sorted(CANDIDATES)
        for word, percent in ranked:
            expected = 100 * sum(s[word] for s in scores) / len(WORDS)
            assert percent == pytest.approx(expected, abs=1e-3)
        percents = [p for _, p in ranked]
        assert percents == sorted(percents, reverse=True)
        assert all(0.0 <= p <= 100.0 for p in percents) and sum(percents) <= 100.0 + 1e-6


def test_top_rows_are_three_per_template(tiny: Model) -> None:
    """Ranks 1-3 per template, the best words first, with the number of fillings."""
    model, tokenizer = tiny
    results = object_bias(model, tokenizer, TEMPLATES, WORDS, run(8))
    rows = top_rows(results, n_words=len(WORDS))
    assert len(rows) == 3 * len(TEMPLATES)
    assert set(rows[0]) == {"template", "rank", "word", "mean_softmax_percent", "n_words"}
    for index, (template, ranked) in enumerate(results):
        block = rows[3 * index:3 * index + 3]
        assert [r["rank"] for r in block] == [1, 2, 3]
        assert [(r["word"], r["mean_softmax_percent"]) for r in block] == ranked[:3]
        assert all(r["template"] == template and r["n_words"] == len(WORDS) for r in block)
        assert all(0.0 <= r["mean_softmax_percent"] <= 100.0 for r in block)
    assert len(top_rows(results, top=1, n_words=5)) == len(TEMPLATES)


def test_a_template_without_its_slot_or_no_words_is_an_error(tiny: Model) -> None:
    """Both would give a table of nothing: clear errors instead."""
    model, tokenizer = tiny
    with pytest.raises(ReprobeError, match=r"\[x\]"):
        object_bias(model, tokenizer, ["cats have <mask> legs."], WORDS, run(2))
    with pytest.raises(ReprobeError, match="at least one word"):
        object_bias(model, tokenizer, TEMPLATES, [], run(2))
