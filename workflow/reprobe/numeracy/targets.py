"""What the numeracy rules read and which rows its tables have (Naik et al. 2019).

`workflow/rules/numeracy.smk` only wires: every input, parameter and table row set is decided
here, from the config, by `NumeracyTargets`, whose methods take Snakemake's `wildcards` so that a
rule can name them directly as input or params functions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from reprobe.config import local_source_path
from reprobe.errors import ConfigError
from reprobe.numeracy.retrain_settings import RetrainSettings
from reprobe.numeracy.settings import (
    ContrastiveRules,
    KnnSettings,
    PmiSettings,
    SelectionSettings,
    VectorProbeSettings,
)
from reprobe.resources import job_resources
from reprobe.step_settings import settings_json

# Family key in the config → the name the paper's tables use.
FAMILY_NAMES = {"glove": "GloVe", "fasttext": "FastText", "word2vec": "Word2Vec"}
CORPORA = ("Num", "All")
DATA = "data/processed/numeracy"
MODELS = "data/models/numeracy"
RESULTS = "results/numeracy"
RETRAINED_ROLE, OFF_THE_SHELF_ROLE = "retrained", "off_the_shelf"
# The random-embedding rows: "random" in Table 4 (retrained), "Random" in Tables 2 and 7.
RANDOM_ROW = {RETRAINED_ROLE: "random", OFF_THE_SHELF_ROLE: "Random"}


def retrained_models(families: list[str]) -> dict[str, tuple[str, str]]:
    """Retrained model name (e.g. "GloVe-Num") → (family key, corpus file stem)."""
    return {
        f"{FAMILY_NAMES[family]}-{corpus}": (family, corpus.lower())
        for family in families
        for corpus in CORPORA
    }


def contrastive_rules_arguments(numeracy: Mapping[str, Any]) -> list[str]:
    """The settings that fix which contrastive tests exist (tie-break, OVA's equidistant rule),
    as argument tokens."""
    return [f"--settings={settings_json(numeracy, ContrastiveRules)}"]


def numerals_of(models: Any) -> list[str]:
    """The numerals tables of some models."""
    return [f"{RESULTS}/numerals/{model}.tsv" for model in models]


def native_vectors(model: str) -> str:
    """The memory-mappable vectors of a model."""
    return f"{MODELS}/{model}.kv"


def probe_scores(models: Any) -> list[str]:
    """The contrastive-test score files of some models."""
    return [f"{RESULTS}/scores/probes/{model}.csv" for model in models]


def extra_scores(models: Any) -> list[str]:
    """The score files of a person's embeddings (every table's rows of each, in one file)."""
    return [f"{RESULTS}/scores/extra/{model}.csv" for model in models]


class NumeracyTargets:
    """The numeracy stage's inputs and parameters for one configuration."""

    def __init__(self, config: Mapping[str, Any], corpus_parts: Mapping[str, str],
                 raw_target: Callable[[str], str]) -> None:
        numeracy = config["numeracy"]
        self.numeracy = numeracy
        # The corpora come from the dump: its shard count stands for their size (resources).
        self.shards = int(config.get("wikipedia", {}).get("shards", 1))
        self.retrained = retrained_models(numeracy["retrain"]["families"])
        self.off_the_shelf: Mapping[str, Any] = numeracy["off_the_shelf"]
        self.models = [*self.off_the_shelf, *self.retrained]
        # A person's own embeddings: rows beyond the paper, each tested on its own numbers.
        self.extra: Mapping[str, Any] = numeracy["extra_vectors"]
        taken = [name for name in self.extra if name in self.models]
        if taken:
            raise ConfigError(f"numeracy.extra_vectors.{taken[0]}: a model of this name is "
                              "already off the shelf or retrained; name the row otherwise")
        # Every model whose vectors the stage converts (the rules' `model` wildcard).
        self.vector_models = [*self.models, *self.extra]
        # Sources of the corpora: the Wikipedia shards, plus a user's plain-text corpus.
        self.corpus_parts = dict(corpus_parts)
        if numeracy["extra_text"]:
            self.corpus_parts["extra"] = numeracy["extra_text"]
        self.raw_target = raw_target
        self.tables = [f"results/tables/numeracy/table{n}.csv" for n in range(1, 10)]
        self.test_rules = contrastive_rules_arguments(numeracy)

    # -- corpora ----------------------------------------------------------------------------

    def corpus_part(self, wildcards: Any) -> str:
        """The sentences of one corpus part."""
        return self.corpus_parts[wildcards.part]

    def part_index(self, wildcards: Any) -> int:
        """A corpus part's position (it seeds that part's sample)."""
        return list(self.corpus_parts).index(wildcards.part)

    def select_options(self) -> list[str]:
        """The Num/All selection settings (sentence cap, lowercasing), as argument tokens."""
        return [f"--settings={settings_json(self.numeracy, SelectionSettings)}"]

    # -- models -----------------------------------------------------------------------------

    def train_corpus(self, wildcards: Any) -> str:
        """The corpus (Num or All) a retrained model learns from."""
        return f"{DATA}/corpus/{self.retrained[wildcards.model][1]}.txt"

    def family(self, wildcards: Any) -> str:
        """A retrained model's family key (glove, fasttext, word2vec)."""
        return self.retrained[wildcards.model][0]

    def retrain_arguments(self) -> list[str]:
        """`reprobe numeracy train` settings (numeracy.retrain), as argument tokens."""
        return [f"--settings={settings_json(self.numeracy['retrain'], RetrainSettings)}"]

    def vectors_input(self, wildcards: Any) -> str:
        """What a model's vectors are made from: its trained file, or its source (a file, or
        the folder an archive is unpacked into: Snakemake tracks the folder)."""
        if wildcards.model in self.retrained:
            return f"{MODELS}/trained/{wildcards.model}.txt"
        entry = self.pretrained(wildcards.model)
        if "path" in entry:
            # A person's file, read where it is (not copied into data/raw).
            return str(local_source_path(entry, f"numeracy.extra_vectors.{wildcards.model}"))
        return self.raw_target(entry["source"])

    def pretrained(self, model: str) -> Mapping[str, Any]:
        """The config entry of an off-the-shelf model or of a person's embedding."""
        return self.off_the_shelf[model] if model in self.off_the_shelf else self.extra[model]

    def vectors_file(self, wildcards: Any) -> str:
        """The vectors file itself, inside the unpacked folder when the source is an archive."""
        member = None if wildcards.model in self.retrained else self.pretrained(
            wildcards.model).get("member")
        path = self.vectors_input(wildcards)
        return f"{path}/{member}" if member else path

    def vectors_format(self, wildcards: Any) -> str:
        """The file format of a model's vectors (`auto`: from the file's name and bytes)."""
        if wildcards.model in self.retrained:
            return "word2vec_txt"
        return self.pretrained(wildcards.model)["format"]

    def role(self, wildcards: Any) -> str:
        """Whether a model is retrained or off the shelf."""
        return RETRAINED_ROLE if wildcards.model in self.retrained else OFF_THE_SHELF_ROLE

    # -- tests and scores -------------------------------------------------------------------

    def role_numerals(self, wildcards: Any) -> list[str]:
        """The numerals tables a shared test set is built from (its role's models)."""
        retrained = wildcards.role == RETRAINED_ROLE
        return numerals_of(self.retrained if retrained else self.off_the_shelf)

    def mag_tests(self, wildcards: Any) -> str:
        """The magnitude test folder a model is scored on (shared by its role)."""
        return f"{RESULTS}/tests/{self.role(wildcards)}-mag"

    def num_tests(self, wildcards: Any) -> str:
        """The numeration test folder: shared by the retrained models, per model otherwise."""
        if wildcards.model in self.retrained:
            return f"{RESULTS}/tests/retrained-num"
        return f"{RESULTS}/tests/num-{wildcards.model}"

    def random_num_tests(self, wildcards: Any) -> list[str]:
        """Numeration tests of a random row: the retrained set; off-the-shelf numeration tests
        are per model, and their random rows are in Table 3."""
        return [f"{RESULTS}/tests/retrained-num"] if wildcards.role == RETRAINED_ROLE else []

    def random_num_option(self, wildcards: Any, input: Any) -> list[str]:
        """The `--num` option of a random row, when it has numeration tests, as argument
        tokens."""
        return [f"--num={path}" for path in input.num]

    def random_row(self, wildcards: Any) -> str:
        """The random row's name in its table."""
        return RANDOM_ROW[wildcards.role]

    def random_dim(self, wildcards: Any) -> int:
        """The random embedding's dimension: the retrained models', or the configured one."""
        if wildcards.role == RETRAINED_ROLE:
            return self.numeracy["retrain"]["dim"]
        return self.numeracy["random_dim"]

    def knn_models(self) -> list[str]:
        """`--models=NAME` of each model kNN regresses on, in the order of its vectors, as
        argument tokens (one per model: an off-the-shelf name is the config's, and may begin
        with -)."""
        return [f"--models={model}" for model in self.models]

    def knn_arguments(self) -> list[str]:
        """`reprobe numeracy knn` settings (numeracy.knn), as argument tokens."""
        return [f"--settings={settings_json(self.numeracy['knn'], KnnSettings)}"]

    def pmi_sentences(self, wildcards: Any, input: Any) -> list[str]:
        """A params function: `--sentences=PATH` of each corpus part PMI counts in (the
        rule's inputs: the Wikipedia shards and numeracy.extra_text, a person's path), as
        argument tokens."""
        return [f"--sentences={path}" for path in input]

    def pmi_arguments(self) -> list[str]:
        """`reprobe numeracy pmi` settings (numeracy.pmi), as argument tokens."""
        return [f"--settings={settings_json(self.numeracy['pmi'], PmiSettings)}"]

    def knn_set_numerals(self) -> list[str]:
        """§5.2: the numbers common to the off-the-shelf models (the retrained ones if none)."""
        return numerals_of(self.off_the_shelf or self.retrained)

    def extra_probe_arguments(self) -> list[str]:
        """`reprobe numeracy probe --vectors` settings (test rules, numeracy.knn), as argument
        tokens."""
        return [f"--settings={settings_json(self.numeracy, VectorProbeSettings)}"]

    def table_scores(self, wildcards: Any) -> list[str]:
        """The score files one numeracy table is built from (and nothing more)."""
        n = int(wildcards.n)
        if n == 4:
            return [*probe_scores(self.retrained), f"{RESULTS}/scores/random/{RETRAINED_ROLE}.csv"]
        if n == 5:
            return [f"{RESULTS}/scores/pmi.csv"]
        # A person's embeddings have rows in every other table, after the paper's models'.
        extra = extra_scores(self.extra)
        if n == 1:
            return [*(f"{RESULTS}/scores/table1/{model}.csv" for model in self.models), *extra]
        if n in (2, 7):
            return [*probe_scores(self.off_the_shelf),
                    f"{RESULTS}/scores/random/{OFF_THE_SHELF_ROLE}.csv", *extra]
        if n in (3, 8, 9):
            return [*probe_scores(self.off_the_shelf), *extra]
        return [f"{RESULTS}/scores/knn.csv", *extra]

    def beyond_paper_option(self) -> list[str]:
        """The table step's `--beyond-paper` rows (a person's embeddings), as argument tokens."""
        return [f"--beyond-paper={name}" for name in self.extra]

    def resources(self, rule: str) -> dict[str, Any]:
        """mem_mb (by attempt) and runtime of a rule's jobs from its measured costs
        (reprobe/costs.json); the unit is one shard of the dump the corpora come from."""
        return job_resources(rule, self.shards)
