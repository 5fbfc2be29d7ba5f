"""What the WIKI-PSE rules read, and which corpora, embeddings and tables a config asks for.

The rules (`workflow/rules/wikipse*.smk`) only wire: inputs, parameters and target lists come
from `WikiPseTargets`, whose methods take Snakemake's `wildcards` where a rule needs them. Part 1
(typing, corpora, the dataset, the embeddings) is here; the probes' part is in `probe_targets`,
the other tasks' (Tables 3 and 5-8, Figures 3-6) in `task_targets`, the extra embeddings' in
`extra`, and the dataset folders' in `export_targets`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from reprobe.errors import ConfigError
from reprobe.reads import Read, inside
from reprobe.resources import job_resources, per_job_resources
from reprobe.step_settings import settings_json
from reprobe.wikipse.embedding.embedding_settings import EmbeddingSettings
from reprobe.wikipse.extra import ExtraTargets
from reprobe.wikipse.paths import DATA, MODELS, TABLES, WIKI_DIR
from reprobe.wikipse.probe_targets import ProbeTargets
from reprobe.wikipse.settings import SelectionSettings
from reprobe.wikipse.task_targets import AGGREGATES, ANALYSES, PROBED, TaskTargets

CORPORA = ("word", "sclass")
# Table 3 compares the analysed model at one size, which the authors' bundle need not have.
PUBLIC_VARIANTS = ("rebuilt", "released", "authors_corpus")
SHARD_FILES = ("word.txt", "sclass.txt", "mentions.parquet", "tokens.parquet", "stats.json")
# Rules whose measured costs (reprobe/costs.json) are per shard times the largest dimension / 100.
EMBEDDING_RULES = ("wikipse_embed", "wikipse_aggregate", "wikipse_authors_vectors", "wikipse_probe")
# Over the whole dump's tables, within wikipedia.gather_memory_mb.
GATHER_RULES = ("wikipse_typing", "wikipse_corpus", "wikipse_dataset")


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


class WikiPseTargets(ProbeTargets, TaskTargets, ExtraTargets):
    """The WIKI-PSE stage's inputs, parameters and target lists for one configuration."""

    def __init__(self, config: dict[str, Any], raw_target: Callable[[str], str],
                 shards: list[str]) -> None:
        wikipse = config["wikipse"]
        self.wp = wikipse
        self.wikipedia = config.get("wikipedia", {})
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
        return [*(f"--{name.replace('_', '-')}={read.path}"
                  for name, read in self.typing_reads().items()),
                f"--fold={json.dumps(self.wp['fold'])}"]

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
        return [f"--{name.replace('_', '-')}={read.path}"
                for name, read in self.freebase_reads().items()]

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
        return [f"--class-order={self.source(self.released['classes']).path}"]

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
        """`--released-<split>=PATH` options, as argument tokens."""
        return [f"--released-{split}={read.path}" for split, read in self.released_reads().items()]

    def selection_arguments(self) -> list[str]:
        """`reprobe wikipse dataset` options: the minimum frequency and the selection's
        settings (wikipse.selection), as argument tokens."""
        return [f"--min-frequency={self.wp['min_frequency']}",
                f"--settings={settings_json(self.wp['selection'], SelectionSettings)}"]

    def embedding_arguments(self, wildcards: Any) -> list[str]:
        """`reprobe wikipse embed` settings of one embedding, as argument tokens."""
        return [f"--model={wildcards.wp_model}", f"--dim={wildcards.wp_dim}",
                f"--settings={settings_json(self.wp['embeddings'], EmbeddingSettings)}"]

    def workers(self) -> int:
        """Threads of an embedding job."""
        return int(self.wp["embeddings"]["workers"])

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
        return [f"--input={read.path}", f"--format={fmt}"]

    def resources(self, rule: str) -> dict[str, Any]:
        """mem_mb (by attempt) and runtime of a rule's jobs, scaled by the configured data."""
        units = len(self.shards)
        if rule in EMBEDDING_RULES:
            largest = max(self.wp["embeddings"]["dims"])
            # Each job by its own dimension (the largest where a job has none).
            return per_job_resources(rule, lambda wildcards: units * int(
                getattr(wildcards, "wp_dim", largest)) / 100)
        if rule in GATHER_RULES:  # they fill the gather's memory budget before spilling
            return job_resources(rule, units, self.gather_memory_mb())
        return job_resources(rule, units)

    def gather_memory_mb(self) -> int:
        """The memory budget of the jobs over the whole dump (wikipedia.gather_memory_mb; the
        released-data tier, with no dump, gathers nothing)."""
        return int(self.wikipedia.get("gather_memory_mb", 0))
