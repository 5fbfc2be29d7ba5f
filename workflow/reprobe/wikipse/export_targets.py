"""What the WIKI-PSE export rules read and write: one dataset folder per dataset variant, and
one for Table 8's supersense dataset.

The variants are the datasets the workflow has: the rebuild (where the config types Wikipedia)
and the authors' released splits (where configured); the authors' corpora and embeddings probe
the released words, so they add no dataset of their own. The supersense dataset (where the config
has `wikipse.supersense`) is built from UKP's corpus, in a folder of its own.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

from reprobe.config import source_spec
from reprobe.hf_dataset import card_path
from reprobe.wikipse.paths import DATA
from reprobe.wikipse.targets import WikiPseTargets

EXPORTS = "exports/wikipse"
DATASETS = ("rebuilt", "released")
SUPERSENSE = f"{EXPORTS}/supersense"


class WikiPseExports:
    """The export folders of a configuration's WIKI-PSE datasets, and what each one reads."""

    def __init__(self, targets: WikiPseTargets, sources: Mapping[str, Any],
                 dump: str | None) -> None:
        self.targets, self.sources, self.dump = targets, sources, dump
        self.variants = [variant for variant in DATASETS if variant in targets.variants]
        self.supersense = bool(targets.wp.get("supersense"))
        self.folders = [*(f"{EXPORTS}/{variant}" for variant in self.variants),
                        *([SUPERSENSE] if self.supersense else [])]
        # What the rules output and the run asks for: each folder's README.md.
        self.cards = [card_path(folder) for folder in self.folders]

    def other(self, variant: str) -> list[str]:
        """The variant the card compares with: the other one, where the config has both."""
        return [other for other in self.variants if other != variant]

    def inputs(self, wildcards: Any) -> dict[str, list[str]]:
        """The export job's inputs: its splits (and card), and the other variant's splits."""
        variant = wildcards.wp_dataset
        return {"splits": self.targets.split_inputs(SimpleNamespace(wp_variant=variant)),
                "card": [f"{DATA}/dataset/card.json"] if variant == "rebuilt" else [],
                "compare": [path for other in self.other(variant) for path in
                            self.targets.split_inputs(SimpleNamespace(wp_variant=other))]}

    def source_names(self, variant: str) -> list[str]:
        """The configured sources a variant (or the supersense dataset) is made from."""
        if variant == "supersense":
            return [self.targets.wp["supersense"]["corpus"]["source"]]
        if variant == "released":
            spec = self.targets.released
            return [spec[key]["source"] for key in ("train", "test", "classes") if key in spec]
        typing = self.targets.typing
        keys = ("figer_map", "title_table") if typing["method"] == "table" else (
            "figer_map", "freebase", "mid_titles")
        # The released class list, where configured, orders a multi-class mention's classes.
        classes = [self.targets.released["classes"]["source"]] \
            if "classes" in self.targets.released else []
        return [*([self.dump] if self.dump else []),
                *(typing[key]["source"] for key in keys if key in typing), *classes]

    def sources_json(self, variant: str) -> str:
        """The variant's (or the supersense dataset's) configured sources as the card shows
        them, JSON."""
        return json.dumps({name: source_spec(self.sources[name])
                           for name in self.source_names(variant) if name in self.sources},
                          sort_keys=True)

    def arguments(self, wildcards: Any) -> list[str]:
        """`reprobe wikipse export` arguments of one folder, as argument tokens."""
        variant = wildcards.wp_dataset
        train, test = self.targets.split_files(variant)
        arguments = [f"--variant={variant}", f"--train={train}", f"--test={test}",
                     f"--sources-json={self.sources_json(variant)}"]
        if variant == "rebuilt":
            arguments += [f"--card={DATA}/dataset/card.json",
                          f"--typing-method={self.targets.typing['method']}"]
        for other in self.other(variant):
            other_train, other_test = self.targets.split_files(other)
            arguments += [f"--compare-variant={other}", f"--compare-train={other_train}",
                          f"--compare-test={other_test}"]
        return arguments

    def supersense_arguments(self) -> list[str]:
        """`reprobe wikipse supersense-export --sources-json=JSON` (UKP's corpus as the card
        shows it), as argument tokens (none without Table 8)."""
        if not self.supersense:
            return []
        return [f"--sources-json={self.sources_json('supersense')}"]
