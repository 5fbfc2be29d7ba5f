"""What the WIKI-PSE rules read, and which corpora, embeddings and tables a config asks for.

`workflow/rules/wikipse.smk` only wires: inputs, parameters and target lists come from
`WikiPseTargets`, whose methods take Snakemake's `wildcards` where a rule needs them.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from reprobe.errors import ConfigError
from reprobe.resources import Scale, job_resources

DATA = "data/processed/wikipse"
MODELS = "data/models/wikipse"
TABLES = "results/tables/wikipse"
WIKI_DIR = "data/processed/wikipedia"
CORPORA = ("word", "sclass")
AGGREGATES = ("unif", "wght")
RESULTS = "results/wikipse"
# A probed embedding's kind and its row name in Tables 2 and 4.
PROBED = {"word": "word", "wght": "wghtΣ", "unif": "unifΣ"}
MODEL_NAMES = {"skip": "SKIP", "sskip": "SSKIP"}
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


class Read(NamedTuple):
    """One file a job reads: what Snakemake tracks, and the path the command is given."""

    target: str
    path: str


def inside(path: str, member: str | None) -> str:
    """The member inside an extracted folder, or the path itself when there is none."""
    return f"{path}/{member}" if member else path


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


class WikiPseTargets:
    """The WIKI-PSE stage's inputs, parameters and target lists for one configuration."""

    def __init__(self, config: dict[str, Any], raw_target: Callable[[str], str],
                 shards: list[str]) -> None:
        wikipse = config["wikipse"]
        check_typing(wikipse["typing"])
        self.wp = wikipse
        self.raw_target = raw_target
        self.shards = shards
        self.typing = wikipse["typing"]
        self.released = wikipse["released"]
        self.embeddings = embedding_names(wikipse["embeddings"])
        self.aggregates = aggregate_names(wikipse["embeddings"])
        self.tables = [f"{TABLES}/stats.csv", f"{TABLES}/fold.csv", f"{TABLES}/typing.csv",
                       *([f"{TABLES}/released_vs_rebuilt.csv"]
                         if {"train", "test"} & set(self.released) else [])]
        # Part 2 reads these; the default target builds them.
        self.outputs = [*(f"{MODELS}/{name}" for name in self.embeddings + self.aggregates)]
        self.variants = ["rebuilt", *(["released"] if {"train", "test"} <= set(self.released)
                                      else [])]
        self.probed = [f"{model}-{kind}-{dim}" for model in wikipse["embeddings"]["models"]
                       for kind in PROBED for dim in wikipse["embeddings"]["dims"]]
        self.tables += [*(f"{TABLES}/{table}_{variant}.csv" for table in ("table2", "table4")
                          for variant in self.variants),
                        *(f"{TABLES}/table3_{variant}.csv" for variant in self.variants
                          if wikipse["public"]),
                        *([f"{TABLES}/table6.csv"] if wikipse["similarity"] else []),
                        *([f"{TABLES}/table5.csv"] if self.table5_scores() else []),
                        *(f"{TABLES}/{name}.csv" for name in ANALYSES)]

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
        """The typing job's named inputs."""
        return {name: read.target for name, read in self.typing_reads().items()}

    def typing_arguments(self) -> str:
        """`reprobe wikipse typing` options: its files and the fold (JSON), shell-quoted."""
        arguments = [part for name, read in self.typing_reads().items()
                     for part in (f"--{name.replace('_', '-')}", read.path)]
        return shlex.join([*arguments, "--fold", json.dumps(self.wp["fold"])])

    def freebase_reads(self) -> dict[str, Read]:
        """The Freebase job's files: the dump, types.map and the optional MID → title TSV."""
        reads = {"dump": self.source(self.typing["freebase"]),
                 "figer_map": self.source(self.typing["figer_map"])}
        if "mid_titles" in self.typing:
            reads["mid_titles"] = self.source(self.typing["mid_titles"])
        return reads

    def freebase_inputs(self) -> dict[str, str]:
        """The Freebase job's named inputs (none unless the method is freebase)."""
        if self.typing["method"] != "freebase":
            return {}
        return {name: read.target for name, read in self.freebase_reads().items()}

    def freebase_arguments(self) -> str:
        """`reprobe wikipse freebase` options, shell-quoted (none unless the method is
        freebase)."""
        if self.typing["method"] != "freebase":
            return ""
        return shlex.join([part for name, read in self.freebase_reads().items()
                           for part in (f"--{name.replace('_', '-')}", read.path)])

    def shard_files(self, name: str) -> list[str]:
        """One file of every corpus shard, in shard order."""
        return [f"{DATA}/shards/{shard}/{name}" for shard in self.shards]

    def class_order_file(self) -> list[str]:
        """The released class list, when configured (it orders a mention's classes)."""
        return [self.source(self.released["classes"]).target] if "classes" in self.released \
            else []

    def class_order_option(self) -> str:
        """`--class-order PATH` when the released class list is configured."""
        if "classes" not in self.released:
            return ""
        return shlex.join(["--class-order", self.source(self.released["classes"]).path])

    def released_reads(self) -> dict[str, Read]:
        """The released train/test files configured."""
        return {split: self.source(self.released[split]) for split in ("train", "test")
                if split in self.released}

    def released_targets(self) -> list[str]:
        """What Snakemake tracks of the released train/test files."""
        return [read.target for read in self.released_reads().values()]

    def released_arguments(self) -> str:
        """`--released-<split> PATH` options, shell-quoted."""
        return shlex.join([part for split, read in self.released_reads().items()
                           for part in (f"--released-{split}", read.path)])

    def selection_arguments(self) -> str:
        """`reprobe wikipse dataset` selection options."""
        selection = self.wp["selection"]
        arguments = ["--min-frequency", str(self.wp["min_frequency"])]
        for key in ("single_per_split", "multi_per_split"):
            if selection[key] is not None:
                arguments += [f"--{key.replace('_', '-')}", str(selection[key])]
        return shlex.join(arguments)

    def embedding_arguments(self, wildcards: Any) -> str:
        """`reprobe wikipse embed` settings of one embedding, shell-quoted."""
        settings = self.wp["embeddings"]
        arguments = ["--model", wildcards.wp_model, "--dim", wildcards.wp_dim]
        for key in ("window", "negative", "epochs", "min_count", "sample", "alpha", "workers"):
            arguments += [f"--{key.replace('_', '-')}", str(settings[key])]
        if wildcards.wp_model == "sskip" and settings["wang2vec"]:
            arguments += ["--wang2vec", settings["wang2vec"]]
        return shlex.join(arguments)

    def workers(self) -> int:
        """Threads of an embedding job."""
        return int(self.wp["embeddings"]["workers"])

    # -- part 2: probes, tables, analyses -------------------------------------------------

    def split_files(self, variant: str) -> list[str]:
        """The train and test files of one dataset variant (released format)."""
        if variant == "released":
            return [self.source(self.released[split]).path for split in ("train", "test")]
        return [f"{DATA}/dataset/{split}.tsv" for split in ("train", "test")]

    def split_inputs(self, wildcards: Any) -> list[str]:
        """What a probe or baseline job tracks of its dataset variant (and class list)."""
        if wildcards.wp_variant == "released":
            return [self.source(self.released[split]).target for split in ("train", "test")
                    ] + self.class_order_file()
        return self.split_files("rebuilt")

    def split_arguments(self, wildcards: Any) -> str:
        """`--train PATH --test PATH` of a dataset variant, and for the released files the
        class list to check them against (`--classes`), when configured."""
        train, test = self.split_files(wildcards.wp_variant)
        known = ["--classes", self.source(self.released["classes"]).path] \
            if wildcards.wp_variant != "rebuilt" and "classes" in self.released else []
        return shlex.join(["--train", train, "--test", test, *known])

    def ambiguity_argument(self) -> str:
        """`--ambiguity READING`: what makes a word multi-class (wikipse.probes.ambiguity)."""
        return shlex.join(["--ambiguity", self.wp["probes"]["ambiguity"]])

    def row_name(self, wildcards: Any) -> str:
        """Tables 2 and 4's row of a probed embedding: `SSKIP unifΣ`."""
        return f"{MODEL_NAMES[wildcards.wp_model]} {PROBED[wildcards.wp_kind]}"

    def probe_arguments(self, wildcards: Any) -> str:
        """`reprobe wikipse probe` settings of one embedding, shell-quoted."""
        return shlex.join(["--row", self.row_name(wildcards), "--dim", wildcards.wp_dim,
                           *self.classifier_arguments()])

    def classifier_arguments(self) -> list[str]:
        """The classifiers and their settings, as `reprobe wikipse probe|public` take them."""
        probes = self.wp["probes"]
        return ["--classifiers", *probes["classifiers"], "--lr-c", str(probes["lr_c"]),
                "--knn-k", str(probes["knn_k"]), "--mlp-hidden", str(probes["mlp_hidden"]),
                "--mlp-max-iter", str(probes["mlp_max_iter"]), "--n-jobs",
                str(probes["n_jobs"]),
                *(["--mlp-early-stopping"] if probes.get("mlp_early_stopping") else [])]

    def probe_scores(self, wildcards: Any) -> list[str]:
        """Every score file one Table 2, 3 or 4 reads: each embedding and the baselines, or
        (Table 3) the public-embedding comparison."""
        variant = wildcards.wp_variant
        if wildcards.wp_table == "table3":
            return [f"{RESULTS}/probes/{variant}/public.csv"]
        return [*(f"{RESULTS}/probes/{variant}/{name}.csv" for name in self.probed),
                f"{RESULTS}/probes/{variant}/baselines.csv"]

    def analysis_predictions(self) -> dict[str, str]:
        """Series → predictions of the analysed model at its largest dimension (rebuilt)."""
        model = self.wp["probes"]["analysis_model"]
        dim = max(self.wp["embeddings"]["dims"])
        return {f"{MODEL_NAMES[model]} {PROBED[kind]}":
                f"{RESULTS}/probes/rebuilt/{model}-{kind}-{dim}.npz" for kind in PROBED}

    def analysis_arguments(self) -> str:
        """`SERIES=PATH` arguments of the analyses, shell-quoted."""
        return shlex.join(f"{k}={v}" for k, v in self.analysis_predictions().items())

    def analysis_word_vectors(self) -> str:
        """The word vectors Figure 6 searches neighbours in."""
        model = self.wp["probes"]["analysis_model"]
        return f"{MODELS}/{model}-word-{max(self.wp['embeddings']['dims'])}"

    def public_inputs(self, wildcards: Any) -> list[str]:
        """What Table 3's job tracks: the split files, the public embeddings, our vectors."""
        return [*self.split_inputs(wildcards),
                *(self.raw_target(spec["source"]) for spec in self.wp["public"].values()),
                *self.public_ours().values()]

    def public_ours(self) -> dict[str, str]:
        """`SSKIP word 300` → folder: the analysed model's three kinds at its largest size."""
        model = self.wp["probes"]["analysis_model"]
        dim = self.wp["probes"]["public_dim"] or max(self.wp["embeddings"]["dims"])
        return {f"{MODEL_NAMES[model]} {PROBED[kind]} {dim}": f"{MODELS}/{model}-{kind}-{dim}"
                for kind in PROBED}

    def public_arguments(self, wildcards: Any) -> str:
        """`reprobe wikipse public` arguments, shell-quoted."""
        public = [f"{name}={self.source(spec).path}:{spec['format']}"
                  for name, spec in self.wp["public"].items()]
        ours = [f"{name}={path}" for name, path in self.public_ours().items()]
        return shlex.join([*shlex.split(self.split_arguments(wildcards)), "--public", *public,
                           "--ours", *ours, *self.classifier_arguments()])

    def nlp_ours(self) -> dict[str, str]:
        """Table 5's rows of ours (`word`, `wghtΣ`, `unifΣ`) → the vectors folder."""
        model = self.wp["probes"]["analysis_model"]
        dim = max(self.wp["embeddings"]["dims"])
        return {PROBED[kind]: f"{MODELS}/{model}-{kind}-{dim}" for kind in PROBED}

    def nlp_inputs(self) -> list[str]:
        """What the Table 5 job tracks: the task files, our vectors, the public embeddings."""
        return self._table5_inputs([spec for task in self.wp["senteval"]["tasks"].values()
                                    for spec in task.values()])

    def _table5_inputs(self, task_files: list[Mapping[str, Any]]) -> list[str]:
        """A task's files, our vectors and the public embeddings, once each."""
        files = [self.raw_target(spec["source"]) for spec in task_files]
        public = [self.raw_target(spec["source"]) for spec in self.wp["public"].values()]
        return list(dict.fromkeys([*files, *self.nlp_ours().values(), *public]))

    def table5_embeddings(self) -> list[str]:
        """`--ours ROW=FOLDER … --public NAME=PATH:FORMAT …`: Table 5's rows."""
        public = [f"{name}={self.source(spec).path}:{spec['format']}"
                  for name, spec in self.wp["public"].items()]
        return ["--ours", *(f"{k}={v}" for k, v in self.nlp_ours().items()),
                *(["--public", *public] if public else [])]

    def nlp_arguments(self) -> str:
        """`reprobe wikipse nlp` arguments, shell-quoted."""
        tasks = {task: {role: self.source(spec).path for role, spec in files.items()}
                 for task, files in self.wp["senteval"]["tasks"].items()}
        return shlex.join(["--tasks", json.dumps(tasks), "--folds",
                           str(self.wp["senteval"]["folds"]), *self.table5_embeddings()])

    def resources(self, rule: str) -> dict[str, Any]:
        """mem_mb (by attempt) and runtime of a rule's jobs, scaled by the configured data."""
        units = len(self.shards)
        if rule in EMBEDDING_RULES:
            units *= max(self.wp["embeddings"]["dims"]) / 100
        return job_resources(SCALES[rule], units)

    def table5_scores(self) -> list[str]:
        """Table 5's score files: the sentence tasks' and MC's, those the config asks for."""
        return [*([f"{RESULTS}/nlp.csv"] if self.wp["senteval"]["tasks"] else []),
                *([f"{RESULTS}/mc.csv"] if self.wp.get("mention_typing") else [])]

    def mc_inputs(self) -> list[str]:
        """What the MC job tracks: the FIGER splits, our vectors, the public embeddings (none
        when MC is not configured)."""
        if not self.wp.get("mention_typing"):
            return []
        return self._table5_inputs(list(self.wp["mention_typing"]["files"].values()))

    def mc_arguments(self) -> str:
        """`reprobe wikipse mc` arguments, shell-quoted (empty when MC is not configured)."""
        typing = self.wp.get("mention_typing")
        if not typing:
            return ""
        splits = [f"--{split}={self.source(typing['files'][split]).path}"
                  for split in ("train", "dev", "test")]
        return shlex.join([*splits, "--context", str(typing["context"]),
                           *(["--lowercase"] if typing["lowercase"] else []),
                           "--settings", json.dumps(typing["typer"], sort_keys=True),
                           *self.table5_embeddings()])

    def mc_gpus(self) -> int:
        """GPUs the MC job asks the cluster for: one when the typer trains on `cuda`."""
        typing = self.wp.get("mention_typing") or {}
        return int(str((typing.get("typer") or {}).get("device", "cpu")).startswith("cuda"))

    def analysis_outputs(self) -> list[str]:
        """Figures 3-6 (CSV and PNG each) and Table 7 (CSV and Markdown)."""
        figures = [name for name in ANALYSES if name.startswith("figure")]
        return [*(f"{TABLES}/{name}.{ext}" for name in figures for ext in ("csv", "png")),
                f"{TABLES}/table7.csv", f"{TABLES}/table7.md"]

    def probe_threads(self) -> int:
        """Processes of a probe job (the per-class classifiers in parallel)."""
        return int(self.wp["probes"]["n_jobs"])

    def similarity_vectors(self) -> dict[str, str]:
        """`SKIP 100` → the word vectors folder, for Table 6."""
        settings = self.wp["embeddings"]
        return {f"{MODEL_NAMES[model]} {dim}": f"{MODELS}/{model}-word-{dim}"
                for model in settings["models"] for dim in settings["dims"]}

    def similarity_inputs(self) -> list[str]:
        """What the Table 6 job tracks: the datasets' sources and the word vectors."""
        return [*(self.raw_target(spec["source"]) for spec in self.wp["similarity"].values()),
                *self.similarity_vectors().values()]

    def similarity_arguments(self) -> str:
        """`--datasets JSON` and `MODEL DIM=PATH` arguments of Table 6, shell-quoted."""
        datasets = {name: {"path": self.source(spec).path, "kind": spec["kind"]}
                    for name, spec in self.wp["similarity"].items()}
        return shlex.join(["--datasets", json.dumps(datasets),
                           *(f"{k}={v}" for k, v in self.similarity_vectors().items())])
