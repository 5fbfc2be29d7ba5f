"""The scale benchmark's wikipse chains of generated released-like files (being written)."""

from __future__ import annotations

from scale_types import FilesChain, Step

CHAINS: tuple[FilesChain, ...] = ()
STEPS: tuple[Step, ...] = ()
OUTPUTS: dict[str, tuple[str, ...]] = {}
