"""Tests for fine-tuning a masked LM on masked number words (NumerSense's "Ft." rows).

The training examples are checked token by token on the tiny BERT WordPiece and RoBERTa
byte-level tokenizers of `tests/test_numersense_candidates.py`; training runs on tiny BERT
models built offline by `reprobe.numersense.tiny` (16 wide, one layer).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

# Set before transformers or huggingface_hub is imported: they read it at import time.
os.environ["HF_HUB_OFFLINE"] = "1"

import pytest

from reprobe.errors import ReprobeError
from reprobe.numersense.candidates import candidate_token_id
from reprobe.numersense.finetune import (
    IGNORE,
    finetune_masked_lm,
    training_example,
)
from reprobe.numersense.probes import LabelledProbe
from reprobe.numersense.tiny import build_tiny_model
from test_numersense_candidates import build_bert_tokenizer, build_roberta_tokenizer
from test_numersense_tiny import LINES, SETTINGS

# A sentence-initial mask, another number word, and words that hold a number word but are none.
ROW = LabelledProbe("<mask> birds usually have two legs and one-way doors , someone has none .",
                    "four")
ROWS = (
    LabelledProbe("a bird usually has <mask> legs .", "two"),
    LabelledProbe("a car has <mask> wheels and two doors .", "four"),
    LabelledProbe("an insect has <mask> legs .", "six"),
    LabelledProbe("a spider has <mask> legs .", "eight"),
    LabelledProbe("<mask> dogs ran in the park .", "four"),
    LabelledProbe("a triangle has <mask> sides .", "three"),
)
FAST = dict(epochs=2, batch_size=4, max_length=32, lr=1e-3, seed=7)


@pytest.fixture(scope="module", params=["bert", "roberta"])
def tokenizer(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Each tiny tokenizer in turn."""
    build = build_bert_tokenizer if request.param == "bert" else build_roberta_tokenizer
    return build(tmp_path_factory.mktemp(request.param) / "tokenizer")


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny BERT masked LM to fine-tune."""
    return build_tiny_model("bert", LINES, tmp_path_factory.mktemp("model") / "tiny-bert",
                            **SETTINGS)


def labelled(ids: list[int], labels: list[int]) -> dict[int, int]:
    """The positions that carry a label, with it."""
    assert len(ids) == len(labels)
    return {i: label for i, label in enumerate(labels) if label != IGNORE}


def test_every_whole_number_word_is_masked_and_labelled(tokenizer: Any) -> None:
    """The mask and 'two' are masked; 'one-way', 'someone' and 'none' are left as they are."""
    ids, labels = training_example(tokenizer, ROW, max_length=64)
    mask = tokenizer.mask_token
    expected = tokenizer(f"{mask} birds usually have{mask} legs and one-way doors , someone "
                         "has none .")["input_ids"]
    assert ids == expected
    positions = [i for i, token in enumerate(ids) if token == tokenizer.mask_token_id]
    assert len(positions) == 2
    assert labelled(ids, labels) == {
        positions[0]: candidate_token_id(tokenizer, "four", sentence_start=True),
        positions[1]: candidate_token_id(tokenizer, "two"),
    }
    # 'one' of 'one-way' is still there, unmasked and unlabelled.
    one = candidate_token_id(tokenizer, "one")
    assert ids.count(one) == 1 and labels[ids.index(one)] == IGNORE


def test_number_words_match_in_any_case(tokenizer: Any) -> None:
    """A capitalised number word at the start is masked, labelled in its sentence-start form."""
    ids, labels = training_example(
        tokenizer, LabelledProbe("Two cats and <mask> dogs .", "three"), max_length=64)
    mask = tokenizer.mask_token
    assert ids == tokenizer(f"{mask} cats and{mask} dogs .")["input_ids"]
    assert sorted(labelled(ids, labels).values()) == sorted([
        candidate_token_id(tokenizer, "two", sentence_start=True),
        candidate_token_id(tokenizer, "three")])


def test_the_rows_own_mask_is_labelled_even_inside_a_compound(tokenizer: Any) -> None:
    """'<mask>-legged' filled with 'three' is no whole word, yet the label says it stood there."""
    ids, labels = training_example(
        tokenizer, LabelledProbe("a <mask>-legged stool has one-way legs .", "three"), 64)
    assert ids.count(tokenizer.mask_token_id) == 1
    assert list(labelled(ids, labels).values()) == [candidate_token_id(tokenizer, "three")]


def test_truncation_labels_only_the_masks_that_remain(tokenizer: Any) -> None:
    """A cut sentence keeps the label of its first mask; one with no mask left is dropped."""
    row = LabelledProbe("a car has <mask> wheels and all the cats have many legs and two eyes .",
                        "four")
    full, _ = training_example(tokenizer, row, max_length=64)
    ids, labels = training_example(tokenizer, row, max_length=8)
    assert len(ids) == 8 and ids[-1] == full[-1] and ids[:7] == full[:7]
    assert list(labelled(ids, labels).values()) == [candidate_token_id(tokenizer, "four")]
    assert training_example(tokenizer, row, max_length=3) == ([], [])


def test_a_label_that_is_no_number_word_is_an_error(tokenizer: Any) -> None:
    """The label must be one of the 12 candidates."""
    with pytest.raises(ReprobeError, match="'many'"):
        training_example(tokenizer, LabelledProbe("a cat has <mask> legs .", "many"), 64)


@pytest.fixture(scope="module")
def tuned(tiny_bert: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The tiny BERT fine-tuned once on ROWS."""
    out = tmp_path_factory.mktemp("tuned") / "ft"
    return out, finetune_masked_lm(tiny_bert, ROWS, out, **FAST)


def test_the_summary_counts_examples_steps_and_epochs(tuned: tuple[Path, dict]) -> None:
    """Six rows in batches of 4 for 2 epochs: 4 steps, one loss per epoch."""
    _, summary = tuned
    assert summary["examples"] == 6 and summary["dropped"] == 0
    assert summary["epochs"] == 2 and summary["steps"] == 4
    assert len(summary["losses"]) == 2 and summary["seconds"] >= 0


def test_the_saved_folder_reloads_with_the_auto_classes(tuned: tuple[Path, dict]) -> None:
    """Model and tokenizer come back from out_dir; no staging folder is left beside it."""
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    out, _ = tuned
    model = AutoModelForMaskedLM.from_pretrained(str(out), local_files_only=True)
    tokenizer = AutoTokenizer.from_pretrained(str(out), local_files_only=True)
    assert model.config.vocab_size == len(tokenizer)
    assert [p.name for p in out.parent.iterdir()] == [out.name]


def test_a_seed_gives_the_same_weights(tiny_bert: Path, tuned: tuple[Path, dict],
                                       tmp_path: Path) -> None:
    """Two runs with one seed save identical weights and losses."""
    import torch
    from transformers import AutoModelForMaskedLM

    out, summary = tuned
    again = finetune_masked_lm(tiny_bert, ROWS, tmp_path / "again", **FAST)
    assert again["losses"] == summary["losses"]
    first, second = (AutoModelForMaskedLM.from_pretrained(str(p), local_files_only=True)
                     for p in (out, tmp_path / "again"))
    original = AutoModelForMaskedLM.from_pretrained(str(tiny_bert), local_files_only=True)
    for name, tensor in first.state_dict().items():
        assert torch.equal(tensor, second.state_dict()[name]), name
    assert any(not torch.equal(t, original.state_dict()[n]) for n, t in first.state_dict().items())


def test_the_loss_goes_down(tiny_bert: Path, tmp_path: Path) -> None:
    """A few rows, a large learning rate: the last epoch's loss is well below the first's."""
    summary = finetune_masked_lm(tiny_bert, ROWS, tmp_path / "ft", epochs=10, batch_size=6,
                                 lr=2e-2, seed=1)
    losses = summary["losses"]
    assert losses == sorted(losses, reverse=True) and losses[-1] < 0.5 * losses[0], losses


def test_no_rows_is_an_error(tiny_bert: Path, tmp_path: Path) -> None:
    """Nothing to train on: a clear error, and nothing saved."""
    with pytest.raises(ReprobeError, match="no training rows"):
        finetune_masked_lm(tiny_bert, [], tmp_path / "ft")
    assert not (tmp_path / "ft").exists()


def test_rows_that_all_lose_their_masks_are_an_error(tiny_bert: Path, tmp_path: Path) -> None:
    """Every number word past max_length: no example survives, an error says so."""
    rows = [LabelledProbe("a bird usually has <mask> legs .", "two")]
    with pytest.raises(ReprobeError, match="none of the 1 training rows"):
        finetune_masked_lm(tiny_bert, rows, tmp_path / "ft", max_length=4)
