"""What Table 3's public embeddings, the analyses (Figures 3-6, Table 7), Table 5's NLP tasks,
Table 6's similarity sets and Table 8's supersense probes read: the part of `WikiPseTargets`
beyond the S-class and ambiguity probes."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import Any

from reprobe.reads import Read
from reprobe.step_settings import settings_json
from reprobe.wikipse.paths import MODELS, RESULTS, TABLES
from reprobe.wikipse.settings import (
    ClassifierSettings,
    MentionTypingSettings,
    SelectionSettings,
    SentEvalSettings,
)

AGGREGATES = ("unif", "wght")
ANALYSES = ("figure3a", "figure3b", "figure4", "figure5a", "figure5b", "figure6", "table7")
# A probed embedding's kind and its row name in Tables 2 and 4.
PROBED = {"word": "word", "wght": "wghtΣ", "unif": "unifΣ"}
MODEL_NAMES = {"skip": "SKIP", "sskip": "SSKIP"}
# Where each probed variant's vectors live: ours, trained on the authors' corpora, theirs.
VECTOR_FOLDERS = {"rebuilt": MODELS, "released": MODELS,
                  "authors_corpus": f"{MODELS}/authors_corpus",
                  "authors_embeddings": f"{MODELS}/authors_embeddings"}


def variant_suffix(variant: str) -> str:
    """A file-name suffix per variant: none for the rebuild (its files keep their names)."""
    return "" if variant == "rebuilt" else f"_{variant}"


class TaskTargets:
    """Inputs and arguments of Tables 3 and 5-8 and Figures 3-6, for `WikiPseTargets` (which
    sets `wp`, `raw_target`, `source`, the variants and the splits' files and options)."""

    wp: dict[str, Any]
    variants: list[str]
    raw_target: Callable[[str], str]
    source: Callable[[Mapping[str, Any]], Read]
    split_inputs: Callable[[Any], list[str]]
    split_arguments: Callable[[Any], list[str]]
    ambiguity_argument: Callable[[], list[str]]
    extra_folders: Callable[[str], dict[str, str]]
    extra_similarity_arguments: Callable[[str], list[str]]

    def trained(self, variant: str = "rebuilt") -> tuple[list[str], list[int]]:
        """The models and dimensions of a variant's trained embeddings: the rebuild's
        (wikipse.embeddings), or for the authors' corpus those wikipse.authors names, if any."""
        settings, authors = self.wp["embeddings"], self.wp.get("authors") or {}
        if variant == "authors_corpus":
            return (authors.get("models") or settings["models"],
                    authors.get("dims") or settings["dims"])
        return settings["models"], settings["dims"]

    def analysis_predictions(self, variant: str = "rebuilt") -> dict[str, str]:
        """Series → predictions of the analysed model at its largest dimension."""
        model = self.wp["probes"]["analysis_model"]
        dim = max(self.trained(variant)[1])
        return {f"{MODEL_NAMES[model]} {PROBED[kind]}":
                f"{RESULTS}/probes/{variant}/{model}-{kind}-{dim}.npz" for kind in PROBED}

    def analysis_arguments(self, variant: str = "rebuilt") -> list[str]:
        """`SERIES=PATH` arguments of the analyses (positional, last), and the variant's train
        and test files and ambiguity reading, as argument tokens (no `--suffix` for the rebuild,
        whose is empty)."""
        if variant not in self.variants:
            return []
        suffix = variant_suffix(variant)
        return [*self.split_arguments(SimpleNamespace(wp_variant=variant)),
                *self.ambiguity_argument(), *([f"--suffix={suffix}"] if suffix else []),
                *(f"{k}={v}" for k, v in self.analysis_predictions(variant).items())]

    def analysis_inputs(self, variant: str = "rebuilt") -> dict[str, Any]:
        """What the analyses job tracks: the predictions, the splits and the word vectors
        (nothing for a variant the config does not ask for)."""
        if variant not in self.variants:
            return {}
        return {"predictions": list(self.analysis_predictions(variant).values()),
                "splits": self.split_inputs(SimpleNamespace(wp_variant=variant)),
                "vectors": self.analysis_word_vectors(variant)}

    def analysis_word_vectors(self, variant: str = "rebuilt") -> str:
        """The word vectors Figure 6 searches neighbours in."""
        model = self.wp["probes"]["analysis_model"]
        return f"{VECTOR_FOLDERS[variant]}/{model}-word-{max(self.trained(variant)[1])}"

    def analysis_outputs(self, variant: str = "rebuilt") -> list[str]:
        """Figures 3-6 (CSV and PNG each) and Table 7 (CSV and Markdown) of a variant."""
        figures = [name for name in ANALYSES if name.startswith("figure")]
        suffix = variant_suffix(variant)
        return [*(f"{TABLES}/{name}{suffix}.{ext}" for name in figures for ext in ("csv", "png")),
                f"{TABLES}/table7{suffix}.csv", f"{TABLES}/table7{suffix}.md"]

    def public_inputs(self, wildcards: Any) -> list[str]:
        """What Table 3's job tracks: the split files, the public embeddings, our vectors."""
        return [*self.split_inputs(wildcards),
                *(self.raw_target(spec["source"]) for spec in self.wp["public"].values()),
                *self.public_ours(wildcards.wp_variant).values()]

    def public_ours(self, variant: str = "rebuilt") -> dict[str, str]:
        """`SSKIP word 300` → folder: the analysed model's three kinds at one size (public_dim,
        else the largest), trained here or on the authors' corpora."""
        model = self.wp["probes"]["analysis_model"]
        dims = self.trained(variant)[1]
        wanted = self.wp["probes"]["public_dim"]
        dim = wanted if wanted in dims else max(dims)
        return {f"{MODEL_NAMES[model]} {PROBED[kind]} {dim}":
                f"{VECTOR_FOLDERS[variant]}/{model}-{kind}-{dim}" for kind in PROBED}

    def public_arguments(self, wildcards: Any) -> list[str]:
        """`reprobe wikipse public` arguments, as argument tokens."""
        public = [f"{name}={self.source(spec).path}:{spec['format']}"
                  for name, spec in self.wp["public"].items()]
        ours = [f"{name}={path}"
                for name, path in self.public_ours(wildcards.wp_variant).items()]
        return [*self.split_arguments(wildcards), *(f"--public={item}" for item in public),
                *(f"--ours={item}" for item in ours), *self.classifier_settings()]

    def nlp_ours(self, variant: str = "rebuilt") -> dict[str, str]:
        """Table 5's rows of ours (`word`, `wghtΣ`, `unifΣ`) → the vectors folder: the analysed
        model at its largest size, trained here or on the authors' corpora."""
        model = self.wp["probes"]["analysis_model"]
        dim = max(self.trained(variant)[1])
        return {PROBED[kind]: f"{VECTOR_FOLDERS[variant]}/{model}-{kind}-{dim}"
                for kind in PROBED}

    def nlp_inputs(self, variant: str = "rebuilt") -> list[str]:
        """What the Table 5 job tracks: the task files, our vectors, the public embeddings."""
        return self._table5_inputs([spec for task in self.wp["senteval"]["tasks"].values()
                                    for spec in task.values()], variant)

    def _public_rows(self, variant: str) -> dict[str, Any]:
        """The public embeddings of Table 5: beside the rebuild only (the authors' corpus
        variant compares its own rows; the public ones do not change)."""
        return self.wp["public"] if variant == "rebuilt" else {}

    def _table5_inputs(self, task_files: list[Mapping[str, Any]], variant: str) -> list[str]:
        """A task's files, our vectors and the public embeddings, once each."""
        files = [self.raw_target(spec["source"]) for spec in task_files]
        public = [self.raw_target(spec["source"]) for spec in self._public_rows(variant).values()]
        return list(dict.fromkeys([*files, *self.nlp_ours(variant).values(), *public]))

    def table5_embeddings(self, variant: str = "rebuilt") -> list[str]:
        """`--ours=ROW=FOLDER …` and `--public=NAME=PATH:FORMAT …` (one token each: a public
        embedding's name is the config's, and may begin with -): Table 5's rows."""
        return [*(f"--ours={row}={folder}" for row, folder in self.nlp_ours(variant).items()),
                *(f"--public={name}={self.source(spec).path}:{spec['format']}"
                  for name, spec in self._public_rows(variant).items())]

    def nlp_arguments(self, variant: str = "rebuilt") -> list[str]:
        """`reprobe wikipse nlp` arguments, as argument tokens."""
        tasks = {task: {role: self.source(spec).path for role, spec in files.items()}
                 for task, files in self.wp["senteval"]["tasks"].items()}
        return [f"--tasks={json.dumps(tasks)}",
                f"--settings={settings_json(self.wp['senteval'], SentEvalSettings)}",
                *self.table5_embeddings(variant)]

    def table5_scores(self, variant: str = "rebuilt") -> list[str]:
        """Table 5's score files: the sentence tasks' and MC's, those the config asks for."""
        suffix = variant_suffix(variant)
        return [*([f"{RESULTS}/nlp{suffix}.csv"] if self.wp["senteval"]["tasks"] else []),
                *([f"{RESULTS}/mc{suffix}.csv"] if self.wp.get("mention_typing") else [])]

    def mc_inputs(self, variant: str = "rebuilt") -> list[str]:
        """What the MC job tracks: the FIGER splits, our vectors, the public embeddings (none
        when MC is not configured)."""
        if not self.wp.get("mention_typing"):
            return []
        return self._table5_inputs(list(self.wp["mention_typing"]["files"].values()), variant)

    def mc_arguments(self, variant: str = "rebuilt") -> list[str]:
        """`reprobe wikipse mc` arguments, as argument tokens (none when MC is not configured)."""
        typing = self.wp.get("mention_typing")
        if not typing:
            return []
        splits = [f"--{split}={self.source(typing['files'][split]).path}"
                  for split in ("train", "dev", "test")]
        return [*splits, f"--settings={settings_json(typing, MentionTypingSettings)}",
                *self.table5_embeddings(variant)]

    def mc_gpus(self) -> int:
        """GPUs the MC job asks the cluster for: one when the typer trains on `cuda`."""
        typing = self.wp.get("mention_typing") or {}
        return int(str((typing.get("typer") or {}).get("device", "cpu")).startswith("cuda"))

    def similarity_vectors(self, variant: str = "rebuilt") -> dict[str, str]:
        """`SKIP 100` → the word vectors folder, for Table 6."""
        models, dims = self.trained(variant)
        return {f"{MODEL_NAMES[model]} {dim}": f"{VECTOR_FOLDERS[variant]}/{model}-word-{dim}"
                for model in models for dim in dims}

    def similarity_inputs(self, variant: str = "rebuilt") -> list[str]:
        """What the Table 6 job tracks: the datasets' sources, the word vectors and the extra
        embeddings' folders."""
        return [*(self.raw_target(spec["source"]) for spec in self.wp["similarity"].values()),
                *self.similarity_vectors(variant).values(), *self.extra_folders(variant).values()]

    def similarity_arguments(self, variant: str = "rebuilt") -> list[str]:
        """`--beyond=NAME=PATH …` (the extra embeddings), `--variant`, `--datasets=JSON` and
        the positional `MODEL DIM=PATH` arguments of Table 6 (last), as argument tokens."""
        datasets = {name: {"path": self.source(spec).path, "kind": spec["kind"]}
                    for name, spec in self.wp["similarity"].items()}
        return [*self.extra_similarity_arguments(variant), f"--variant={variant}",
                f"--datasets={json.dumps(datasets)}",
                *(f"{k}={v}" for k, v in self.similarity_vectors(variant).items())]

    def supersense_inputs(self) -> dict[str, str]:
        """What Table 8's jobs track of the config: the corpus folder and the embeddings."""
        if not self.wp.get("supersense"):
            return {}
        return {name: self.source(self.wp["supersense"][name]).target
                for name in ("corpus", "embeddings")}

    def supersense_dataset_arguments(self) -> list[str]:
        """`reprobe wikipse supersense-dataset` options: the corpus, the minimum frequency and
        the selection's settings (wikipse.supersense.selection), as argument tokens."""
        settings = self.wp.get("supersense")
        if not settings:
            return []
        return [f"--corpus={self.source(settings['corpus']).path}",
                f"--min-frequency={settings['min_frequency']}",
                f"--settings={settings_json(settings['selection'], SelectionSettings)}"]

    def supersense_probe_arguments(self) -> list[str]:
        """`reprobe wikipse supersense-probe` options: the embeddings and the classifiers, as
        argument tokens."""
        spec = (self.wp.get("supersense") or {}).get("embeddings")
        if not spec:
            return []
        return [f"--vectors={self.source(spec).path}", f"--format={spec['format']}",
                *self.classifier_settings()]

    def classifier_settings(self) -> list[str]:
        """`--settings=JSON` of the classifiers (wikipse.probes), as `reprobe wikipse public`
        and `supersense-probe` take them, as argument tokens."""
        return [f"--settings={settings_json(self.wp['probes'], ClassifierSettings)}"]
