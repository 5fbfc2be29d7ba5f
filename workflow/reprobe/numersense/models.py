"""Loading any Hugging Face masked or causal LM for NumerSense, from a folder or the hub cache.

A model is named by a local folder (`save_pretrained` layout: a tiny model built here, a
fine-tuned one, a downloaded checkpoint) or by a hub name. The Auto classes load either; with
`HF_HUB_OFFLINE=1` a hub name is read from the local cache only, and a model missing there is an
error that says so rather than a download. Without network (the hub's host does not resolve,
checked once with a short timeout) a hub name is read from the cache alone too, so that a
machine offline fails in seconds with what to do, not after the hub client's retries.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

from reprobe.errors import ReprobeError
from reprobe.sources.offline import HUB_HINT, hub_host, resolves

TYPES = ("masked", "causal")


def offline() -> bool:
    """Whether the hub must not be reached (HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE set)."""
    return any(os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")
               for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


@functools.cache
def hub_unreachable() -> bool:
    """Whether the hub's host does not resolve (asked once per process, seconds at most)."""
    return not resolves(hub_host())


def cache_only(local: bool) -> bool:
    """Whether a model must come from disk: a folder, offline mode, or no network."""
    return local or offline() or hub_unreachable()


def looked_in(local: bool) -> str:
    """Where a model that failed to load was looked for, and what to do when offline."""
    if local:
        return "the folder"
    if offline():
        return "the local Hugging Face cache (HF_HUB_OFFLINE is set)"
    if hub_unreachable():
        return f"the local Hugging Face cache ({HUB_HINT.format(host=hub_host())})"
    return "the hub"


def load_model(location: str, model_type: str) -> tuple[Any, Any]:
    """(model, tokenizer) of a masked or causal LM at a folder or hub name, in eval mode."""
    from transformers import AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer

    if model_type not in TYPES:
        raise ReprobeError(f"unknown model type {model_type!r}; use one of {list(TYPES)}")
    local = Path(location).is_dir()
    if not local and (location.startswith((".", "/")) or location.count("/") > 1):
        raise ReprobeError(f"{location}: no such model folder")
    auto = AutoModelForMaskedLM if model_type == "masked" else AutoModelForCausalLM
    try:
        tokenizer = AutoTokenizer.from_pretrained(location, local_files_only=cache_only(local))
        model = auto.from_pretrained(location, local_files_only=cache_only(local))
    except OSError as error:
        raise ReprobeError(f"{location}: cannot load a {model_type} LM from "
                           f"{looked_in(local)}: {error}") from error
    model.eval()
    return model, tokenizer


def detect_type(location: str) -> str:
    """masked or causal, read from a model's config (its architectures, else is_decoder)."""
    from transformers import AutoConfig

    local = Path(location).is_dir()
    try:
        config = AutoConfig.from_pretrained(location, local_files_only=cache_only(local))
    except OSError as error:
        raise ReprobeError(f"{location}: cannot read the model's config from "
                           f"{looked_in(local)}: {error}") from error
    architectures = [str(a) for a in (getattr(config, "architectures", None) or [])]
    if any(a.endswith("ForMaskedLM") for a in architectures):
        return "masked"
    if any(a.endswith(("ForCausalLM", "LMHeadModel")) for a in architectures):
        return "causal"
    if getattr(config, "is_decoder", False):
        return "causal"
    raise ReprobeError(f"{location}: its config names no masked- or causal-LM architecture "
                       f"({architectures or 'none'}); give --type masked or --type causal")
