"""Deterministic kernels on one thread while the tiny models train, the caller's settings back
after, and torch's compiler never loaded for it (1.5 s of a training process's start)."""

from __future__ import annotations

import subprocess
import sys


def test_reproducible_torch_switches_kernels_and_threads_and_restores_them():
    import torch

    from reprobe.torch_runtime import reproducible_torch

    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    with reproducible_torch(torch):
        assert torch.get_num_threads() == 1
        assert torch.are_deterministic_algorithms_enabled()
    assert torch.get_num_threads() == threads
    assert torch.are_deterministic_algorithms_enabled() == deterministic


def test_the_switch_does_not_load_torchs_compiler():
    code = ("import sys, torch\nfrom reprobe.torch_runtime import reproducible_torch\n"
            "with reproducible_torch(torch):\n    torch.ones(2).sum()\n"
            "print(sorted(m for m in ('torch._inductor', 'torch._dynamo') if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert loaded == "[]"
