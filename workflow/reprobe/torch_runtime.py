"""PyTorch settings a stage trains under when its result must not depend on the machine."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from reprobe.errors import ReprobeError


def set_deterministic(torch: Any, mode: bool) -> None:
    """torch.use_deterministic_algorithms(mode), without loading torch's compiler."""
    # The public call also sets the compiler's (inductor's) own flag, importing torch._dynamo
    # and torch._inductor to do so: 1.5 s of every training process's start. reprobe never
    # compiles a model, so only the kernels' switch matters; the public call where it is absent.
    setter = getattr(torch._C, "_set_deterministic_algorithms", None)
    if setter is None:
        torch.use_deterministic_algorithms(mode)
    else:
        setter(mode)


@contextlib.contextmanager
def torch_threads(torch: Any, threads: int, deterministic: bool) -> Iterator[None]:
    """torch on this many CPU threads, its deterministic kernels on or off, inside; the
    caller's settings restored after."""
    before = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    torch.set_num_threads(threads)
    set_deterministic(torch, deterministic)
    try:
        yield
    finally:
        torch.set_num_threads(before[0])
        set_deterministic(torch, before[1])


def reproducible_torch(torch: Any) -> contextlib.AbstractContextManager:
    """One CPU thread and deterministic kernels inside, the caller's settings restored after."""
    # How a reduction is split across threads changes float sums, so a machine with another core
    # count would train other weights; the tiny models train in seconds on one thread.
    return torch_threads(torch, 1, True)


def device_determinism(torch: Any, device: str) -> contextlib.AbstractContextManager:
    """reproducible_torch on the CPU; on an accelerator, nothing (seeded, not bitwise)."""
    # Deterministic CUDA kernels need CUBLAS_WORKSPACE_CONFIG set before CUDA starts, and one
    # CPU thread would only slow the host side; a GPU run is seeded but may differ in the last bits.
    if torch.device(device).type == "cpu":
        return reproducible_torch(torch)
    return contextlib.nullcontext()


# Autocast precisions by config name (`precision` of numersense and equate.training).
AUTOCAST = {"bf16": "bfloat16", "fp16": "float16"}


def autocast(torch: Any, device: str, precision: str | None) -> contextlib.AbstractContextManager:
    """Mixed precision for the forward pass when asked (bf16, fp16), else nothing."""
    if precision is None:
        return contextlib.nullcontext()
    if precision not in AUTOCAST:
        raise ReprobeError(f"unknown precision {precision!r}; use one of {sorted(AUTOCAST)}")
    return torch.autocast(device_type=torch.device(device).type,
                          dtype=getattr(torch, AUTOCAST[precision]))
