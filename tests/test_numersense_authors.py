"""reprobe.numersense.authors: the authors' happytransformer protocol, batched, against a
line-by-line transcription of their one-probe-a-pass loop (written here, in the test only)."""

from __future__ import annotations

import os
import re
import string
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import pytest

from reprobe.numersense import authors
from reprobe.numersense.authors import (
    AUTHORS_ORDER,
    authors_ids,
    happy_words,
    score_probes_authors,
    segment_ids,
)
from test_numersense_mlm import build_masked_lm

PROBES = (
    "a bird, like most birds, has <mask> legs.",
    "cats have <mask> legs!",
    "<mask> dogs (at most) can sit here.",
    "a car has <mask>-wheel drive.",
    "a week has seven days, and <mask> of them are weekend days.",
    "most spiders have <mask> legs",
)
Model = tuple[Any, Any]


@pytest.fixture(scope="module", params=["bert", "roberta"])
def tiny(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Model:
    """Each tiny masked LM in turn."""
    return build_masked_lm(request.param, tmp_path_factory.mktemp(request.param) / "tiny")


def transcribed_tokens(tokenizer: Any, text: str, roberta: bool) -> list[str]:
    """happytransformer's _get_tokenized_text, and transformers 3.0.2's split on special
    tokens (both sides stripped; RoBERTa's mask keeps the space after it)."""
    text = text.replace("<mask>", "[MASK]")
    text = re.sub("([.,!?()])", r" \1 ", text)
    split_text = text.split()
    new_text = [tokenizer.cls_token]
    for i, char in enumerate(split_text):
        new_text.append(char.lower())
        if char not in string.punctuation or i + 1 >= len(split_text):
            pass
        else:
            if split_text[i + 1] in string.punctuation:
                pass
            else:
                new_text.append(tokenizer.sep_token)
    new_text.append(tokenizer.sep_token)
    text = " ".join(new_text).replace("[mask]", tokenizer.mask_token)
    pieces: list[tuple[str, bool]] = [(text, False)]
    for token in (tokenizer.cls_token, tokenizer.sep_token, tokenizer.mask_token):
        split_pieces: list[tuple[str, bool]] = []
        for piece, special in pieces:
            if special:
                split_pieces.append((piece, True))
                continue
            parts = piece.split(token)
            for i, sub in enumerate(parts):
                keep_left = roberta and token == tokenizer.mask_token
                if i < len(parts) - 1:
                    sub = sub.rstrip()
                if i > 0 and not keep_left:
                    sub = sub.lstrip()
                if i > 0:
                    split_pieces.append((token, True))
                if sub:
                    split_pieces.append((sub, False))
        pieces = split_pieces
    tokens: list[str] = []
    for piece, special in pieces:
        tokens += [piece] if special else tokenizer.tokenize(piece)
    return tokens


def transcribed_scores(model: Model, probe: str, top_k: int = 5000) -> list[tuple[str, float]]:
    """One probe, one forward pass, as mlm_predict.py and happytransformer score it."""
    import torch

    mlm, tokenizer = model
    roberta = mlm.config.model_type == "roberta"
    tokenized_text = transcribed_tokens(tokenizer, probe.strip(), roberta)
    masked_index = tokenized_text.index(tokenizer.mask_token)
    indexed = tokenizer.convert_tokens_to_ids(tokenized_text)
    with torch.no_grad():
        if not roberta:
            split_location = tokenized_text.index(tokenizer.sep_token)
            segments = [0 if i <= split_location else 1 for i in range(len(tokenized_text))]
            out = mlm(torch.tensor([indexed]), token_type_ids=torch.tensor([segments]))
        else:
            out = mlm(torch.tensor([indexed]))
    predictions = out[0]
    softmax = predictions.exp() / (predictions.exp().sum(-1)).unsqueeze(-1)
    options = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
               "no", "zero"]
    if not roberta:
        option_ids = [tokenizer.encode(option) for option in options]
        scores = [float(sum(softmax[0][masked_index][op] for op in ids)) for ids in option_ids]
    else:
        top = torch.topk(softmax[0, masked_index], min(top_k, softmax.shape[-1]))
        top_scores = top[0].tolist()
        lowest = min(float(i) for i in top_scores)
        top_options = [t[1:] if t[0] == "\u0120" else t
                       for t in tokenizer.convert_ids_to_tokens(top[1].tolist())]
        scores = [top_scores[top_options.index(o)] if o in top_options else lowest
                  for o in options]
    ranked = sorted(zip(options, scores, strict=True), key=lambda x: x[1], reverse=True)
    return sorted(ranked, key=lambda x: x[1], reverse=True)


def assert_close(batched: list[list[tuple[str, float]]], direct: list[list[tuple[str, float]]]
                 ) -> None:
    """Same scores per word to 1e-5, and the same order where scores are apart."""
    for ours, theirs in zip(batched, direct, strict=True):
        assert dict(ours) == pytest.approx(dict(theirs), abs=1e-5)
        apart = [w for w, s in theirs if all(abs(s - t) > 1e-5 for v, t in theirs if v != w)]
        assert [w for w, _ in ours if w in apart] == [w for w, _ in theirs if w in apart]


@pytest.mark.parametrize("batch_size", [1, 4, 64])
def test_batched_authors_scores_equal_their_one_at_a_time_loop(tiny: Model,
                                                                batch_size: int) -> None:
    batched = score_probes_authors(*tiny, PROBES, batch_size, "cpu", precision=None)
    assert_close(batched, [transcribed_scores(tiny, p) for p in PROBES])


def test_roberta_options_outside_the_top_tokens_take_the_lowest_score(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = build_masked_lm("roberta", tmp_path / "tiny")
    monkeypatch.setattr(authors, "TOP_K", 8)
    batched = score_probes_authors(*model, PROBES, 4, "cpu", precision=None)
    assert_close(batched, [transcribed_scores(model, p, top_k=8) for p in PROBES])
    # Fewer than 12 options fit in 8 tokens: several share the lowest score, in num_list order.
    lowest = batched[0][-1][1]
    tied = [w for w, s in batched[0] if s == lowest]
    assert len(tied) >= 4
    assert tied == [w for w in AUTHORS_ORDER if w in tied]


def test_happy_words_space_punctuation_and_mark_separators() -> None:
    # "," is followed by "(" (punctuation: no separator); "(" and ")" by words.
    assert happy_words(" A car, (old) has <mask> wheels. ") == [
        "a", "car", ",", "(", None, "old", ")", None, "has", "[mask]", "wheels", ".", None]


def test_roberta_words_after_a_special_token_lose_their_space(tmp_path: Path) -> None:
    _, tokenizer = build_masked_lm("roberta", tmp_path / "tiny")
    ids = authors_ids(tokenizer, "cats, dogs have <mask> legs.", space_after_mask=True)
    tokens = tokenizer.convert_ids_to_tokens(ids)
    assert not tokens[1].startswith("\u0120")
    after_sep = tokens.index(tokenizer.sep_token) + 1
    assert not tokens[after_sep].startswith("\u0120")
    assert tokens[tokens.index(tokenizer.mask_token) + 1].startswith("\u0120")


def test_segments_switch_after_the_first_separator() -> None:
    assert segment_ids([101, 7, 102, 8, 9, 102], 102) == [0, 0, 0, 1, 1, 1]


def test_a_probe_without_a_mask_is_refused(tiny: Model) -> None:
    from reprobe.errors import ReprobeError

    with pytest.raises(ReprobeError, match="exactly one"):
        score_probes_authors(*tiny, ["cats have legs."], 2, "cpu", precision=None)
