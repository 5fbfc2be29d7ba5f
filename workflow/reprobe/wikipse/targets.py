"""What the WIKI-PSE rules read, and which corpora, embeddings and tables a config asks for.

`workflow/rules/wikipse.smk` only wires: inputs, parameters and target lists come from
`WikiPseTargets`, whose methods take Snakemake's `wildcards` where a rule needs them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import Any

from reprobe.errors import ConfigError
from reprobe.reads import Read, inside
from reprobe.resources import Scale, job_resources
from reprobe.step_settings import settings_json
from reprobe.wikipse.embedding.embedding_settings import EmbeddingSettings
from reprobe.wikipse.extra import ExtraTargets
from reprobe.wikipse.settings import EmbeddingProbeSettings, SelectionSettings
from reprobe.wikipse.task_targets import (
    MODEL_NAMES,
    MODELS,
    PROBED,
    RESULTS,
    VECTOR_FOLDERS,
    TaskTargets,
    variant_suffix,
)

DATA = "data/processed/wikipse"
TABLES = "results/tables/wikipse"
WIKI_DIR = "data/processed/wikipedia"
CORPORA = ("word", "sclass")
AGGREGATES = ("unif", "wght")
# Table 3 compares the analysed model at one size, which the authors' bundle need not have.
PUBLIC_VARIANTS = ("rebuilt", "released", "authors_corpus")
ANALYSES = ("figure3a", "figure3b", "figure4", "figure5a", "figure5b", "figure6", "table7")
SHARD_FILES = ("word.txt", "sclass.txt", "mentions.parquet", "tokens.parquet", "stats.json")
# Memory (MB) and run time (minutes) per unit of configured data: a unit is one shard of the
# dump, times the largest dimension / 100 for the rules that hold embeddings. At the paper's 256
# shards and 400d these come to what the jobs need on the full English Wikipedia.
SCALES = {"wikipse_freebase": Scale(1024, 27, 60, 5.4),
          "wikipse_typing": Scale(1024, 58, 30, 0.9),
          "wikipse_corpus_shard": Scale(1024, 12, 30, 0.9),
          "wikipse_corpus": Scale(1024, 58, 30, 1.8),
          "wikipse_dataset": Scale(1024, 27, 30, 0.9),
          "wikipse_embed": Scale(1024, 40, 60, 2.8),
          "wikipse_aggregate": Scale(1024, 7, 30, 0.2),
          "wikipse_probe": Scale(1024, 15, 30, 0.2),
          "wikipse_public": Scale(1024, 121, 30, 0.9),
          "wikipse_nlp": Scale(1024, 58, 30, 0.9),
          "wikipse_mc": Scale(1024, 58, 60, 2.6),
          "wikipse_similarity": Scale(1024, 27, 30, 0.2),
          "wikipse_analyses": Scale(1024, 58, 30, 0.2)}
EMBEDDING_RULES = ("wikipse_embed", "wikipse_aggregate", "wikipse_probe")


def check_typing(typing: Mapping[str, Any]) -> None:
    """An error naming the key the chosen typing method needs and lacks."""
    needed = {"table": ("title_table",), "freebase": ("freebase",)}[typing["method"]]
    for key in needed:
        if key not in typing:
            raise ConfigError(f"wikipse.typing.{key}: needed by method {typing['method']}")


def embedding_names(embeddings: Mapping[str, Any]) -> list[str]:
    """`skip-word-100`, `sskip-sclass-100`, …: every trained embedding."""
    return [f"{model}-{corpus}-{dim}" for model in embeddings["models"]
            for corpus in CORPORA for dim in embeddings["dims"]]


def aggregate_names(embeddings: Mapping[str, Any]) -> list[str]:
    """`skip-unif-100`, `sskip-wght-100`, …: every aggregate of word/S-class vectors."""
    return [f"{model}-{kind}-{dim}" for model in embeddings["models"]
            for kind in AGGREGATES for dim in embeddings["dims"]]


def dataset_variants(released: Mapping[str, Any], authors: Mapping[str, Any],
                     analysis_model: str, rebuild: bool) -> list[str]:
    """The probed variants a config asks for: the rebuild (unless the config leaves it out);
    the released words (with our embeddings where there is a rebuild, else the baselines only),
    with embeddings trained on the authors' corpora, and with the authors' own embeddings, where
    configured (the last two probe the released words, so need them)."""
    has_released = {"train", "test"} <= set(released)
    wanted = {"authors_corpus": "corpora" in authors,
              "authors_embeddings": bool(authors.get("embeddings"))}
    if any(wanted.values()) and not has_released:
        raise ConfigError("wikipse.authors: needs wikipse.released.train and .test (the "
                          "authors' corpus and embeddings are probed on the released words)")
    analysed = authors.get("models")
    if wanted["authors_corpus"] and analysed and analysis_model not in analysed:
        raise ConfigError(f"wikipse.authors.models: needs {analysis_model} "
                          "(probes.analysis_model), whose vectors Tables 3, 5 and 7 read")
    return [*(["rebuilt"] if rebuild else []), *(["released"] if has_released else []),
            *(variant for variant, on in wanted.items() if on)]


def authors_embedding_names(embeddings: Mapping[str, Any]) -> list[str]:
    """What the authors' embeddings are probed as: a word file as itself, a word/S-class file
    as its unifΣ and wghtΣ (`sskip-sclass-400` → `sskip-wght-400`, `sskip-unif-400`), in the
    order of Tables 2 and 4 (model, word/wght/unif, dimension)."""
    names = []
    for name in embeddings:
        model, corpus, dim = name.split("-")
        names += [f"{model}-word-{dim}"] if corpus == "word" else [
            f"{model}-{kind}-{dim}" for kind in AGGREGATES]
    kinds = list(PROBED)
    return sorted(names, key=lambda n: (n.split("-")[0], kinds.index(n.split("-")[1]),
                                        int(n.split("-")[2])))


class WikiPseTargets(TaskTargets, ExtraTargets):
    """The WIKI-PSE stage's inputs, parameters and target lists for one configuration."""

    def __init__(self, config: dict[str, Any], raw_target: Callable[[str], str],
                 shards: list[str]) -> None:
        wikipse = config["wikipse"]
        self.wp = wikipse
        self.raw_target = raw_target
        self.shards = shards
        # The rebuild (typing, corpora, dataset, our embeddings) needs `typing` and the
        # Wikipedia corpus; the released-data tier leaves both out and reads the release only.
        self.rebuild = "typing" in wikipse
        if self.rebuild and not shards:
            raise ConfigError("wikipse.typing: the rebuild reads the Wikipedia corpus, and the "
                              "config has no `wikipedia` section (leave typing out to read "
                              "the released files only)")
        self.typing: Mapping[str, Any] = wikipse.get("typing") or {}
        if self.rebuild:
            check_typing(self.typing)
        self.released = wikipse["released"]
        has_released = {"train", "test"} <= set(self.released)
        self.embeddings = embedding_names(wikipse["embeddings"]) if self.rebuild else []
        self.aggregates = aggregate_names(wikipse["embeddings"]) if self.rebuild else []
        self.tables = [*([f"{TABLES}/stats.csv", f"{TABLES}/fold.csv", f"{TABLES}/typing.csv",
                          *([f"{TABLES}/released_vs_rebuilt.csv"]
                            if {"train", "test"} & set(self.released) else [])]
                         if self.rebuild else []),
                       *([f"{TABLES}/stats_released.csv"] if has_released else [])]
        # Part 2 reads these; the default target builds them.
        self.outputs = [*(f"{MODELS}/{name}" for name in self.embeddings + self.aggregates)]
        self.authors = wikipse["authors"]
        self.variants = dataset_variants(self.released, self.authors,
                                         wikipse["probes"]["analysis_model"], self.rebuild)
        self.probed = [f"{model}-{kind}-{dim}" for model in wikipse["embeddings"]["models"]
                       for kind in PROBED for dim in wikipse["embeddings"]["dims"]]
        self.tables += [*(f"{TABLES}/{table}_{variant}.csv" for table in ("table2", "table4")
                          for variant in [*self.variants, *(
                              ["variants"] if len(self.variants) > 1 else [])]),
                        *(f"{TABLES}/table3_{variant}.csv" for variant in self.variants
                          if wikipse["public"] and variant in PUBLIC_VARIANTS),
                        *([f"{TABLES}/table6.csv"]
                          if wikipse["similarity"] and self.rebuild else []),
                        *([f"{TABLES}/table8.csv"] if wikipse.get("supersense") else []),
                        *([f"{TABLES}/table5.csv"]
                          if self.table5_scores() and self.rebuild else []),
                        *(f"{TABLES}/{name}.csv" for name in ANALYSES if self.rebuild)]
        # The authors' corpus gets the rebuild's other tables too (Tables 5-7, Figures 3-6).
        if "authors_corpus" in self.variants:
            self.tables += [
                *([f"{TABLES}/table5_authors_corpus.csv"] if self.table5_scores() else []),
                *([f"{TABLES}/table6_authors_corpus.csv"] if wikipse["similarity"] else []),
                *(f"{TABLES}/{name}_authors_corpus.csv" for name in ANALYSES)]

    def source(self, spec: Mapping[str, Any]) -> Read:
        """An input of the config: its source's file or folder (and the member inside)."""
        target = self.raw_target(spec["source"])
        return Read(target, inside(target, spec.get("member")))

    def typing_reads(self) -> dict[str, Read]:
        """Every file the typing job reads, by `reprobe wikipse typing` option."""
        reads = {"figer_map": self.source(self.typing["figer_map"]),
                 "links": Read(f"{WIKI_DIR}/links.parquet", f"{WIKI_DIR}/links.parquet")}
        if self.typing["method"] == "table":
            reads["title_table"] = self.source(self.typing["title_table"])
        else:
            for name in ("types", "titles"):
                path = f"{DATA}/freebase/{name}.parquet"
                reads[f"freebase_{name}"] = Read(path, path)
        if "classes" in self.released:
            reads["released_classes"] = self.source(self.released["classes"])
        return reads

    def typing_inputs(self) -> dict[str, str]:
        """The typing job's named inputs (none without a rebuild)."""
        if not self.rebuild:
            return {}
        return {name: read.target for name, read in self.typing_reads().items()}

    def typing_arguments(self) -> list[str]:
        """`reprobe wikipse typing` options: its files and the fold (JSON), as argument tokens."""
        if not self.rebuild:
            return []
        arguments = [part for name, read in self.typing_reads().items()
                     for part in (f"--{name.replace('_', '-')}", read.path)]
        return [*arguments, "--fold", json.dumps(self.wp["fold"])]

    def freebase_reads(self) -> dict[str, Read]:
        """The Freebase job's files: the dump, types.map and the optional MID → title TSV."""
        reads = {"dump": self.source(self.typing["freebase"]),
                 "figer_map": self.source(self.typing["figer_map"])}
        if "mid_titles" in self.typing:
            reads["mid_titles"] = self.source(self.typing["mid_titles"])
        return reads

    def freebase_inputs(self) -> dict[str, str]:
        """The Freebase job's named inputs (none unless the method is freebase)."""
        if self.typing.get("method") != "freebase":
            return {}
        return {name: read.target for name, read in self.freebase_reads().items()}

    def freebase_arguments(self) -> list[str]:
        """`reprobe wikipse freebase` options, as argument tokens (none unless the method is
        freebase)."""
        if self.typing.get("method") != "freebase":
            return []
        return [part for name, read in self.freebase_reads().items()
                for part in (f"--{name.replace('_', '-')}", read.path)]

    def shard_files(self, name: str) -> list[str]:
        """One file of every corpus shard, in shard order."""
        return [f"{DATA}/shards/{shard}/{name}" for shard in self.shards]

    def class_order_file(self) -> list[str]:
        """The released class list, when configured (it orders a mention's classes)."""
        return [self.source(self.released["classes"]).target] if "classes" in self.released \
            else []

    def class_order_option(self) -> list[str]:
        """`--class-order PATH` when the released class list is configured, as argument
        tokens."""
        if "classes" not in self.released:
            return []
        return ["--class-order", self.source(self.released["classes"]).path]

    def released_reads(self) -> dict[str, Read]:
        """The released train/test files configured."""
        return {split: self.source(self.released[split]) for split in ("train", "test")
                if split in self.released}

    def released_targets(self) -> list[str]:
        """What Snakemake tracks of the released train/test files."""
        return [read.target for read in self.released_reads().values()]

    def released_words(self) -> list[str]:
        """The released train and test files, when both are configured."""
        return self.split_files("released") if {"train", "test"} <= set(self.released) else []

    def released_arguments(self) -> list[str]:
        """`--released-<split> PATH` options, as argument tokens."""
        return [part for split, read in self.released_reads().items()
                for part in (f"--released-{split}", read.path)]

    def selection_arguments(self) -> list[str]:
        """`reprobe wikipse dataset` options: the minimum frequency and the selection's
        settings (wikipse.selection), as argument tokens."""
        return ["--min-frequency", str(self.wp["min_frequency"]), "--settings",
                settings_json(self.wp["selection"], SelectionSettings)]

    def embedding_arguments(self, wildcards: Any) -> list[str]:
        """`reprobe wikipse embed` settings of one embedding, as argument tokens."""
        return ["--model", wildcards.wp_model, "--dim", wildcards.wp_dim, "--settings",
                settings_json(self.wp["embeddings"], EmbeddingSettings)]

    def workers(self) -> int:
        """Threads of an embedding job."""
        return int(self.wp["embeddings"]["workers"])

    # -- part 2: probes, tables, analyses -------------------------------------------------

    def split_files(self, variant: str) -> list[str]:
        """The train and test files of one dataset variant (released format): every variant
        but the rebuild probes the released words."""
        if variant != "rebuilt":
            return [self.source(self.released[split]).path for split in ("train", "test")]
        return [f"{DATA}/dataset/{split}.tsv" for split in ("train", "test")]

    def split_inputs(self, wildcards: Any) -> list[str]:
        """What a probe or baseline job tracks of its dataset variant (and class list)."""
        if wildcards.wp_variant != "rebuilt":
            return [self.source(self.released[split]).target for split in ("train", "test")
                    ] + self.class_order_file()
        return self.split_files("rebuilt")

    def split_arguments(self, wildcards: Any) -> list[str]:
        """`--train PATH --test PATH` of a dataset variant, and for the released files the
        class list to check them against (`--classes`), when configured, as argument tokens."""
        train, test = self.split_files(wildcards.wp_variant)
        known = ["--classes", self.source(self.released["classes"]).path] \
            if wildcards.wp_variant != "rebuilt" and "classes" in self.released else []
        return ["--train", train, "--test", test, *known]

    def released_stats_inputs(self) -> list[str]:
        """What the released splits' statistics track: the released files and class list
        (none when the released splits are not configured)."""
        if not self.released_words():
            return []
        return self.split_inputs(SimpleNamespace(wp_variant="released"))

    def released_stats_arguments(self) -> list[str]:
        """`--train PATH --test PATH [--classes PATH]` of the released files, as argument
        tokens."""
        if not self.released_words():
            return []
        return self.split_arguments(SimpleNamespace(wp_variant="released"))

    def ambiguity_argument(self) -> list[str]:
        """`--ambiguity READING`: what makes a word multi-class (wikipse.probes.ambiguity), as
        argument tokens."""
        return ["--ambiguity", self.wp["probes"]["ambiguity"]]

    def row_name(self, wildcards: Any) -> str:
        """Tables 2 and 4's row of a probed embedding: `SSKIP unifΣ`."""
        return f"{MODEL_NAMES[wildcards.wp_model]} {PROBED[wildcards.wp_kind]}"

    def probe_arguments(self, wildcards: Any) -> list[str]:
        """`reprobe wikipse probe` names and settings (wikipse.probes: the classifiers and
        the ambiguity reading) of one embedding, as argument tokens."""
        return ["--row", self.row_name(wildcards), "--dim", wildcards.wp_dim, "--settings",
                settings_json(self.wp["probes"], EmbeddingProbeSettings)]

    def probe_scores(self, wildcards: Any) -> list[str]:
        """Every score file one Table 2, 3 or 4 reads: each embedding, the baselines and the
        extra embeddings, or (Table 3) the public-embedding comparison."""
        variant = wildcards.wp_variant
        if wildcards.wp_table == "table3":
            return [f"{RESULTS}/probes/{variant}/public.csv"]
        # The baselines need only the words: every variant on the released words shares one.
        words = "rebuilt" if variant == "rebuilt" else "released"
        return [*(f"{RESULTS}/probes/{variant}/{name}.csv" for name in self.probed_in(variant)),
                f"{RESULTS}/probes/{words}/baselines.csv", *self.extra_scores(variant)]

    def variants_scores(self, wildcards: Any) -> list[str]:
        """Every score file of every variant of Table 2 or 4."""
        return [path for variant in self.variants for path in self.probe_scores(
            SimpleNamespace(wp_variant=variant, wp_table=wildcards.wp_table))]

    def variants_arguments(self, wildcards: Any) -> list[str]:
        """`VARIANT=PATH` of every score file of Table 2 or 4, as argument tokens."""
        return [f"{variant}={path}" for variant in self.variants
                for path in self.probe_scores(
                    SimpleNamespace(wp_variant=variant, wp_table=wildcards.wp_table))]

    def probed_in(self, variant: str) -> list[str]:
        """The embeddings a variant probes: ours (trained here or on the authors' corpora), or
        the authors' own as configured; none of ours without a rebuild (baselines only)."""
        if variant == "authors_embeddings":
            return authors_embedding_names(self.authors["embeddings"])
        if variant in ("rebuilt", "released") and not self.rebuild:
            return []
        models, dims = self.trained(variant)
        return [f"{model}-{kind}-{dim}" for model in models for kind in PROBED for dim in dims]

    def probe_vectors(self, wildcards: Any) -> str:
        """The vectors folder one probe job reads."""
        return (f"{VECTOR_FOLDERS[wildcards.wp_variant]}/"
                f"{wildcards.wp_model}-{wildcards.wp_kind}-{wildcards.wp_dim}")

    def authors_corpus(self, wildcards: Any) -> Read:
        """The authors' word or word/S-class corpus (a member of their bundle)."""
        return self.source(self.authors["corpora"][wildcards.wp_corpus])

    def authors_corpus_target(self, wildcards: Any) -> str:
        """What an embedding job on the authors' corpus tracks."""
        return self.authors_corpus(wildcards).target

    def authors_corpus_path(self, wildcards: Any) -> str:
        """The authors' corpus file an embedding job trains on."""
        return self.authors_corpus(wildcards).path

    def authors_embedding(self, wildcards: Any) -> tuple[Read, str]:
        """One of the authors' embedding files and its format."""
        spec = self.authors["embeddings"][
            f"{wildcards.wp_model}-{wildcards.wp_corpus}-{wildcards.wp_dim}"]
        return self.source(spec), spec["format"]

    def authors_embedding_target(self, wildcards: Any) -> str:
        """What the import of one of the authors' embeddings tracks."""
        return self.authors_embedding(wildcards)[0].target

    def authors_embedding_arguments(self, wildcards: Any) -> list[str]:
        """`reprobe wikipse import-vectors` options of one of the authors' embeddings, as
        argument tokens."""
        read, fmt = self.authors_embedding(wildcards)
        return ["--input", read.path, "--format", fmt]

    def resources(self, rule: str) -> dict[str, Any]:
        """mem_mb (by attempt) and runtime of a rule's jobs, scaled by the configured data."""
        units = len(self.shards)
        if rule in EMBEDDING_RULES:
            units *= max(self.wp["embeddings"]["dims"]) / 100
        return job_resources(SCALES[rule], units)

    def analysis_outputs(self, variant: str = "rebuilt") -> list[str]:
        """Figures 3-6 (CSV and PNG each) and Table 7 (CSV and Markdown) of a variant."""
        figures = [name for name in ANALYSES if name.startswith("figure")]
        suffix = variant_suffix(variant)
        return [*(f"{TABLES}/{name}{suffix}.{ext}" for name in figures for ext in ("csv", "png")),
                f"{TABLES}/table7{suffix}.csv", f"{TABLES}/table7{suffix}.md"]

    def probe_threads(self) -> int:
        """Processes of a probe job (the per-class classifiers in parallel)."""
        return int(self.wp["probes"]["n_jobs"])
