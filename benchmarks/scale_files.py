"""The scale benchmark's steps beyond scale_steps' table, by stage: each stage module declares
its chains of generated released-like files (FilesChain), its steps (on those chains or on
the core ones) and what they write, and is listed here once."""

from __future__ import annotations

from scale_types import FilesChain, Step

# Each module holds CHAINS (FilesChain), STEPS (Step) and OUTPUTS (step -> globs in a level).
STAGE_MODULES = ("scale_wiki_tables", "scale_equate", "scale_numersense",
                 "scale_wikipse_sets")


def _stage_parts() -> tuple[dict[str, FilesChain], tuple[Step, ...], dict[str, tuple[str, ...]]]:
    """Every stage module's chains, steps and outputs, in STAGE_MODULES' order."""
    import importlib

    chains: dict[str, FilesChain] = {}
    steps: list[Step] = []
    outputs: dict[str, tuple[str, ...]] = {}
    for name in STAGE_MODULES:
        module = importlib.import_module(name)
        chains |= {chain.name: chain for chain in module.CHAINS}
        steps.extend(module.STEPS)
        outputs |= module.OUTPUTS
    return chains, tuple(steps), outputs


FILE_CHAINS, FILE_STEPS, FILE_OUTPUTS = _stage_parts()
