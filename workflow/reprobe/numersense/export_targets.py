"""What the NumerSense export rules read and write: one dataset folder per set the
configuration builds or names, rebuilt and released alike, and the harness tasks of the
labelled probe sets (`workflow/rules/numersense.smk` only wires these)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from reprobe.hf_dataset import card_path
from reprobe.numersense.layout import DATA
from reprobe.numersense.targets import NumerSenseTargets
from reprobe.reads import Read

EXPORTS = "exports/numersense"
HARNESS = f"{EXPORTS}/lm_eval"
# The raw inputs each rebuilt set is built from (the fine-tuning set is kept apart from the
# rebuilt test probes, so it needs theirs too).
REBUILT_FROM = {"core": ("omcs",), "all": ("omcs", "conceptnet"),
                "train": ("omcs", "conceptnet", "generics")}
# The set name of each exported released file (numersense.released.<key>).
RELEASED_KEYS = {"core": "core", "all": "all", "validation": "validation", "train": "train",
                 "sentences": "finetune_sentences"}
# What the other variant of a set is compared with: validation and the plain sentences have
# no rebuilt twin, so the rebuilt core and the rebuilt fine-tuning rows stand in.
TWIN = {"core": "core", "all": "all", "train": "train", "validation": "core",
        "sentences": "train"}
# The probe sets with labels that the harness scores.
HARNESS_SETS = ("core", "all", "validation")


def export_name(variant: str, set_name: str) -> str:
    """A dataset's folder name: its variant, then its set (`rebuilt-core`)."""
    return f"{variant}-{set_name}"


def rebuilt_file(set_name: str) -> str:
    """The builder's labelled file of a rebuilt set."""
    return f"{DATA}/rebuilt/train.masked.tsv" if set_name == "train" else (
        f"{DATA}/rebuilt/test.{set_name}.masked.tsv")


class NumerSenseExports:
    """The export folders of a configuration's NumerSense datasets, and what each reads."""

    def __init__(self, targets: NumerSenseTargets, sources: Mapping[str, Any]) -> None:
        self.targets, self.sources = targets, sources
        inputs = targets.inputs
        rebuilt = [s for s, needed in REBUILT_FROM.items() if all(k in inputs for k in needed)]
        released = [s for s, key in RELEASED_KEYS.items() if key in targets.released]
        self.datasets: dict[str, tuple[str, str]] = {
            export_name(variant, s): (variant, s)
            for variant, sets in (("rebuilt", rebuilt), ("released", released)) for s in sets}
        self.folders = [f"{EXPORTS}/{name}" for name in self.datasets]
        if self.task_folders():
            self.folders.append(HARNESS)
        # What the rules output and the run asks for: each folder's README.md.
        self.cards = [card_path(folder) for folder in self.folders]

    def task_folders(self) -> list[str]:
        """The exported labelled probe sets the harness tasks score."""
        return [f"{EXPORTS}/{name}" for name, (_, s) in self.datasets.items()
                if s in HARNESS_SETS]

    def task_cards(self) -> list[str]:
        """The cards of the exported labelled probe sets: the harness tasks' inputs."""
        return [card_path(folder) for folder in self.task_folders()]

    def _source_read(self, spec: Mapping[str, Any]) -> tuple[str, Read]:
        """A config input's source name and the file it gives."""
        return spec["source"], self.targets.source(spec)

    def _twin(self, variant: str, set_name: str) -> str | None:
        """The other variant's dataset this one is compared with, if it is exported."""
        other = "released" if variant == "rebuilt" else "rebuilt"
        name = export_name(other, TWIN[set_name])
        return name if name in self.datasets else None

    def _rebuilt_reads(self, set_name: str) -> dict[str, Read]:
        """The files a rebuilt set's export reads, by option name."""
        reads = {"probes": Read(rebuilt_file(set_name), rebuilt_file(set_name))}
        card = f"{DATA}/rebuilt/{set_name}.card.json"
        reads["card_json"] = Read(card, card)
        if set_name == "core":
            categories = f"{DATA}/rebuilt/core.categories.tsv"
            reads["categories"] = Read(categories, categories)
        if self._twin("rebuilt", set_name):
            reads["compare"] = self.targets.released_file(RELEASED_KEYS[set_name])
            if set_name in self.targets.gold:
                reads["compare_labels"] = self.targets.source(self.targets.gold[set_name])
        return reads

    def _released_reads(self, set_name: str) -> dict[str, Read]:
        """The files a released set's export reads, by option name."""
        reads = {"probes": self.targets.released_file(RELEASED_KEYS[set_name])}
        if set_name in ("core", "all"):
            reads["labels"] = self.targets.gold_file(set_name)
        twin = self._twin("released", set_name)
        if twin:
            path = rebuilt_file(self.datasets[twin][1])
            reads["compare"] = Read(path, path)
        return reads

    def reads(self, name: str) -> dict[str, Read]:
        """The files one export reads, by option name."""
        variant, set_name = self.datasets[name]
        if variant == "rebuilt":
            return self._rebuilt_reads(set_name)
        return self._released_reads(set_name)

    def source_reads(self, name: str) -> dict[str, Read]:
        """The configured sources one export comes from, by source name: a rebuilt set's raw
        inputs, a released set's file and its gold labels."""
        variant, set_name = self.datasets[name]
        ns = self.targets
        if variant == "rebuilt":
            specs = [ns.ns["inputs"][key] for key in REBUILT_FROM[set_name]
                     if set_name != "train" or key == "generics"]
        else:
            specs = [ns.released[RELEASED_KEYS[set_name]]]
            if set_name in ns.gold:
                specs.append(ns.gold[set_name])
        return dict(self._source_read(spec) for spec in specs)

    def inputs(self, wildcards: Any) -> list[str]:
        """What Snakemake tracks of the files one export reads."""
        reads = [*self.reads(wildcards.ns_export).values(),
                 *self.source_reads(wildcards.ns_export).values()]
        return list(dict.fromkeys(read.target for read in reads))

    def sources_json(self, name: str) -> str:
        """The card's sources: source name -> the file read and its URL or configured path."""
        listed = {}
        for source, read in self.source_reads(name).items():
            spec = self.sources.get(source, {})
            listed[source] = {"file": read.path,
                              **{key: spec[key] for key in ("url", "path") if spec.get(key)}}
        return json.dumps(listed, sort_keys=True)

    def arguments(self, wildcards: Any) -> list[str]:
        """`reprobe numersense export` arguments of one dataset, as argument tokens."""
        name = wildcards.ns_export
        variant, set_name = self.datasets[name]
        arguments = [f"--dataset={name}",
                     *(f"--{option.replace('_', '-')}={read.path}"
                       for option, read in self.reads(name).items())]
        if variant == "released" and set_name in ("core", "all"):
            labels = "gold" if set_name in self.targets.gold else "builder"
            arguments.append(f"--labels-from={labels}")
        return [*arguments, f"--sources-json={self.sources_json(name)}"]
