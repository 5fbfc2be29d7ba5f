"""Tests for loading NumerSense models from a folder or the (offline) hub cache."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

# Set before transformers or huggingface_hub is imported: they read it at import time.
os.environ["HF_HUB_OFFLINE"] = "1"

import pytest

from reprobe.errors import ReprobeError
from reprobe.numersense import models
from reprobe.numersense.models import load_model, offline
from reprobe.numersense.tiny import build_tiny_model

LINES = ["a bird usually has two legs .", "a car has four wheels .", "ants have six legs ."]


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-step tiny BERT folder."""
    out = tmp_path_factory.mktemp("models") / "bert"
    return build_tiny_model("bert", LINES, out, seed=0, hidden=16, layers=1, heads=1, steps=1,
                            lr=3e-3, vocab_size=200)


def test_a_folder_loads_as_a_masked_lm_in_eval_mode(tiny_bert: Path) -> None:
    model, tokenizer = load_model(str(tiny_bert), "masked")
    assert not model.training
    assert tokenizer.mask_token == "[MASK]"


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(ReprobeError, match="no such model folder"):
        load_model(str(tmp_path / "absent"), "masked")


def test_an_uncached_hub_model_offline_says_where_it_looked() -> None:
    assert offline()
    with pytest.raises(ReprobeError, match="local Hugging Face cache"):
        load_model("reprobe-test/no-such-model", "causal")


def test_an_unknown_type_is_an_error(tiny_bert: Path) -> None:
    with pytest.raises(ReprobeError, match="unknown model type"):
        load_model(str(tiny_bert), "seq2seq")



def no_resolver(*args: object, **kwargs: object) -> object:
    """A resolver on a machine without network."""
    raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")


def test_a_hub_name_without_network_fails_in_seconds_with_the_offline_hint(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setattr(socket, "getaddrinfo", no_resolver)
    models.hub_unreachable.cache_clear()
    started = time.monotonic()
    try:
        with pytest.raises(ReprobeError, match=r"huggingface.co does not resolve.*"
                           r"download.mirror.*REPROBE_OFFLINE=1"):
            load_model("reprobe-test/no-such-model", "masked")
    finally:
        models.hub_unreachable.cache_clear()
    assert time.monotonic() - started < 10
