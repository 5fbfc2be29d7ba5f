"""PyTorch settings a stage trains under when its result must not depend on the machine."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def reproducible_torch(torch: Any) -> Iterator[None]:
    """One CPU thread and deterministic kernels inside, the caller's settings restored after."""
    # How a reduction is split across threads changes float sums, so a machine with another core
    # count would train other weights; the tiny models train in seconds on one thread.
    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    try:
        yield
    finally:
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(deterministic)


def device_determinism(torch: Any, device: str) -> contextlib.AbstractContextManager:
    """reproducible_torch on the CPU; on an accelerator, nothing (seeded, not bitwise)."""
    # Deterministic CUDA kernels need CUBLAS_WORKSPACE_CONFIG set before CUDA starts, and one
    # CPU thread would only slow the host side; a GPU run is seeded but may differ in the last bits.
    if torch.device(device).type == "cpu":
        return reproducible_torch(torch)
    return contextlib.nullcontext()
