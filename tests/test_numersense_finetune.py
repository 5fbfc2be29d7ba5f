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

from reprobe.errors import InputFormatError, ReprobeError
from reprobe.numersense.candidates import candidate_token_id
from reprobe.numersense.finetune import (
    IGNORE,
    finetune_masked_lm,
    training_example,
)
from reprobe.numersense.finetune_authors import (
    authors_example,
    authors_mask,
    authors_optimizer,
    clip_and_step,
    read_sentences,
)
from reprobe.numersense.finetune_settings import FinetuneSettings
from reprobe.numersense.probes import LabelledProbe
from reprobe.numersense.tiny import build_tiny_model
from reprobe.step_settings import settings_from_schema
from test_numersense_candidates import build_bert_tokenizer, build_roberta_tokenizer
from test_numersense_tiny import LINES, SETTINGS

# Plain sentences as in gkb_best_filtered.txt: number words after a space, one at the start.
SENTENCES = ("A bird usually has two legs.", "Most dogs have four legs.",
             "An insect has six legs.", "A spider has eight legs.", "Four dogs ran in the park.",
             "A snake has no legs.", "A week has seven days.")

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
FAST = dict(procedure="plain", epochs=2, batch_size=4, max_length=32, lr=1e-3, seed=7)


def tune(model: object, rows: object, out: Path, **changes: object) -> dict:
    """Fine-tune with the schema's settings but for FAST and `changes`, on the CPU."""
    settings = settings_from_schema(FinetuneSettings, "numersense.finetune",
                                    **{**FAST, **changes})
    return finetune_masked_lm(model, rows, out, settings, device="cpu")


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
    return out, tune(tiny_bert, ROWS, out)


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
    again = tune(tiny_bert, ROWS, tmp_path / "again")
    assert again["losses"] == summary["losses"]
    first, second = (AutoModelForMaskedLM.from_pretrained(str(p), local_files_only=True)
                     for p in (out, tmp_path / "again"))
    original = AutoModelForMaskedLM.from_pretrained(str(tiny_bert), local_files_only=True)
    for name, tensor in first.state_dict().items():
        assert torch.equal(tensor, second.state_dict()[name]), name
    assert any(not torch.equal(t, original.state_dict()[n]) for n, t in first.state_dict().items())


def test_the_loss_goes_down(tiny_bert: Path, tmp_path: Path) -> None:
    """A few rows, a large learning rate: the last epoch's loss is well below the first's."""
    summary = tune(tiny_bert, ROWS, tmp_path / "ft", epochs=10, batch_size=6, lr=2e-2,
                   seed=1, max_length=64)
    losses = summary["losses"]
    assert losses == sorted(losses, reverse=True) and losses[-1] < 0.5 * losses[0], losses


def test_no_rows_is_an_error(tiny_bert: Path, tmp_path: Path) -> None:
    """Nothing to train on: a clear error, and nothing saved."""
    with pytest.raises(ReprobeError, match="no training rows"):
        tune(tiny_bert, [], tmp_path / "ft")
    assert not (tmp_path / "ft").exists()


def test_rows_that_all_lose_their_masks_are_an_error(tiny_bert: Path, tmp_path: Path) -> None:
    """Every number word past max_length: no example survives, an error says so."""
    # The schema's shortest max_length (8 tokens) keeps none of a probe's words past it.
    rows = [LabelledProbe("a bird that we saw in the garden usually has <mask> legs .", "two")]
    with pytest.raises(ReprobeError, match="none of the 1 training rows"):
        tune(tiny_bert, rows, tmp_path / "ft", max_length=8)


# -- the authors' procedure (finetune_authors) ------------------------------------------------


def test_the_sentence_reader_skips_blank_lines_and_keeps_the_rest(tmp_path: Path) -> None:
    """Blank and whitespace-only lines go; a line is kept as it is (their splitlines)."""
    path = tmp_path / "gkb.txt"
    path.write_bytes(b"A car has four wheels.\r\n\n   \n four legs  \nlast line")
    assert read_sentences(path) == ["A car has four wheels.", " four legs  ", "last line"]


@pytest.mark.parametrize(("data", "where"), [
    (b"", "line 1"), (b"\n  \n", "line 1"), (b"ok one\nok two\nbad \xff three\n", "line 3")])
def test_the_sentence_reader_names_file_and_line(tmp_path: Path, data: bytes,
                                                 where: str) -> None:
    """An empty file or bad UTF-8 is an InputFormatError naming the file and the line."""
    path = tmp_path / "gkb.txt"
    path.write_bytes(data)
    with pytest.raises(InputFormatError, match=rf"gkb\.txt: {where}: ") as error:
        read_sentences(path)
    assert error.value.path == str(path)


def test_the_authors_rule_compares_tokens_as_spelt() -> None:
    """BERT: the token itself; RoBERTa: the token past its first character, whatever it is."""
    assert authors_mask(["[CLS]", "four", "Four", "##one", "no", "none", "[SEP]"], False) == [
        False, True, False, False, True, False, False]
    assert authors_mask(["<s>", "Four", "four", "Ġfour", "rone", "Ġno", "</s>"], True) == [
        False, False, False, True, True, True, False]


def test_authors_masking_on_tiny_tokenizers(tokenizer: Any) -> None:
    """Uncased BERT masks the initial "Four" and "one" of "one-way"; RoBERTa leaves "Four"."""
    roberta = tokenizer.mask_token == "<mask>"
    sentence = "Four dogs have no legs and one-way doors."
    ids = tokenizer(sentence, truncation=True, max_length=64)["input_ids"]
    inputs, labels = authors_example(tokenizer, sentence, 64, roberta)
    masked = [i for i, token in enumerate(inputs) if token == tokenizer.mask_token_id]
    words = [tokenizer.convert_ids_to_tokens(ids[i]).lstrip("Ġ") for i in masked]
    assert words == (["no", "one"] if roberta else ["four", "no", "one"])
    assert labelled(inputs, labels) == {i: ids[i] for i in masked}
    assert all(inputs[i] == ids[i] for i in range(len(ids)) if i not in masked)


def test_authors_lines_are_cut_to_the_block_with_special_tokens(tokenizer: Any) -> None:
    """max_length alone truncates, as in transformers 3.x: the end token stays last."""
    inputs, labels = authors_example(tokenizer, "a car has four wheels and two doors .", 5,
                                     tokenizer.mask_token == "<mask>")
    assert len(inputs) == len(labels) == 5 and inputs[-1] == tokenizer.sep_token_id


class Toy:
    """A module with a dense layer and a LayerNorm, named as in BERT."""

    def __new__(cls) -> Any:
        import torch

        toy = torch.nn.Module()
        toy.dense, toy.LayerNorm = torch.nn.Linear(3, 3), torch.nn.LayerNorm(3)
        return toy


def test_their_groups_eps_and_schedule_reach_zero_at_the_last_step() -> None:
    """No decay on biases and LayerNorm weights, eps 1e-8, lr falls linearly to 0."""
    import torch

    model = Toy()
    optimizer, scheduler = authors_optimizer(torch, model, 0.1, total_steps=4)
    names = {id(p): n for n, p in model.named_parameters()}
    groups = [sorted(names[id(p)] for p in g["params"]) for g in optimizer.param_groups]
    assert groups == [["dense.weight"], ["LayerNorm.bias", "LayerNorm.weight", "dense.bias"]]
    assert [g["weight_decay"] for g in optimizer.param_groups] == [0.0, 0.0]
    assert all(g["eps"] == 1e-8 for g in optimizer.param_groups)
    rates = []
    for _ in range(4):
        rates.append(scheduler.get_last_lr()[0])
        optimizer.step()
        scheduler.step()
    assert rates == pytest.approx([0.1, 0.075, 0.05, 0.025])
    assert scheduler.get_last_lr() == [0.0, 0.0]


def test_gradients_are_clipped_to_norm_one_before_the_step() -> None:
    """A large gradient moves the parameters by a step of norm 1.0 (SGD, lr 1)."""
    import torch

    model = Toy()
    before = [p.detach().clone() for p in model.parameters()]
    for p in model.parameters():
        p.grad = torch.full_like(p, 10.0)
    optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda _: 1.0)
    norm = clip_and_step(torch, model, optimizer, scheduler)
    assert norm == pytest.approx(10.0 * sum(p.numel() for p in before) ** 0.5)
    moved = torch.cat([(b - p.detach()).flatten() for b, p in zip(before, model.parameters(),
                                                                    strict=True)])
    assert float(moved.norm()) == pytest.approx(1.0, rel=1e-5)


@pytest.fixture(scope="module")
def tiny_roberta(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny RoBERTa masked LM to fine-tune."""
    return build_tiny_model("roberta", LINES, tmp_path_factory.mktemp("model") / "tiny-roberta",
                            **SETTINGS)


@pytest.mark.parametrize("procedure", ["authors", "plain"])
@pytest.mark.parametrize("base", ["tiny_bert", "tiny_roberta"])
def test_both_procedures_train_and_save(procedure: str, base: str, tmp_path: Path,
                                        request: pytest.FixtureRequest,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain sentences in, a changed model out that reloads; authors: lr at 0, clipped steps."""
    import torch
    from transformers import AutoModelForMaskedLM

    clipped = []
    clip = torch.nn.utils.clip_grad_norm_
    monkeypatch.setattr(torch.nn.utils, "clip_grad_norm_",
                        lambda params, norm: clipped.append(norm) or clip(params, norm))
    model_dir = request.getfixturevalue(base)
    summary = tune(model_dir, SENTENCES, tmp_path / "ft", procedure=procedure)
    assert summary["procedure"] == procedure and len(summary["losses"]) == 2
    tuned = AutoModelForMaskedLM.from_pretrained(str(tmp_path / "ft"), local_files_only=True)
    original = AutoModelForMaskedLM.from_pretrained(str(model_dir), local_files_only=True)
    assert any(not torch.equal(t, original.state_dict()[n])
               for n, t in tuned.state_dict().items())
    if procedure == "authors":
        assert summary["examples"] == len(SENTENCES) and summary["steps"] == 4
        assert summary["last_lr"] == 0.0
        assert clipped == [1.0] * (4 - summary["skipped_batches"])
    else:
        assert clipped == [] and summary["examples"] == len(SENTENCES)


def test_the_authors_procedure_is_deterministic_for_a_seed(tiny_roberta: Path,
                                                           tmp_path: Path) -> None:
    """Two runs with one seed save identical weights and losses."""
    import torch
    from transformers import AutoModelForMaskedLM

    runs = [tune(tiny_roberta, SENTENCES, tmp_path / name, procedure="authors")
            for name in ("a", "b")]
    assert runs[0]["losses"] == runs[1]["losses"]
    first, second = (AutoModelForMaskedLM.from_pretrained(str(tmp_path / n),
                                                          local_files_only=True).state_dict()
                     for n in ("a", "b"))
    assert all(torch.equal(first[k], second[k]) for k in first)


def test_sentences_with_no_number_token_are_an_error(tiny_roberta: Path, tmp_path: Path) -> None:
    """Only a sentence-initial "Four": their RoBERTa rule masks nothing, so nothing trains."""
    with pytest.raises(ReprobeError, match="none of the 1 training sentences"):
        tune(tiny_roberta, ["Four dogs ran in the park."], tmp_path / "ft",
             procedure="authors")
    assert not (tmp_path / "ft").exists()


def test_a_batch_without_number_tokens_updates_nothing(tiny_bert: Path, tmp_path: Path) -> None:
    """Their loss would be NaN there; the batch is counted, the schedule still ends at 0."""
    import math

    summary = tune(tiny_bert, ["A cat sat on the mat.", "A snake has no legs."],
                   tmp_path / "ft", procedure="authors", batch_size=1)
    assert summary["skipped_batches"] == 2 and summary["steps"] == 4
    assert summary["last_lr"] == 0.0 and not any(math.isnan(x) for x in summary["losses"])
