"""What the EQUATE rules read, which sets and Table 6 rows a configuration asks for.

`workflow/rules/equate.smk` only wires: every input, parameter and target list is decided here,
from the config, by `EquateTargets`, whose methods take Snakemake's `wildcards` so that a rule can
name them directly as input, params or resources functions.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from reprobe.config import CHECKOUT, source_instances
from reprobe.equate import STAGE
from reprobe.equate.evaluation_sets import (
    compared_synthetic_sets,
    evaluation_sets,
    labelled_candidate_sets,
)
from reprobe.equate.settings import (
    ALGORITHM1,
    HypSettings,
    QreasSettings,
    RedditSettings,
    TinyNliSettings,
    qreas_row_section,
)
from reprobe.errors import ConfigError
from reprobe.reads import Read, inside, slug
from reprobe.resources import requested, rule_scale
from reprobe.step_settings import settings_json
from reprobe.tables.beyond import paper_models

# The rows Table 7 scores: those trained on MultiNLI (not MAJ, not Q-REAS).
MNLI_KINDS = ("hyp", "trained", "neural")
# The row set beside the paper's Q-REAS cell (a released-code row, `equate.qreas.released_code`)
# and the reimplementation of the paper's Algorithm 1, whose variants (`equate.qreas.variants`)
# are rows of their own.
QREAS = "Q-REAS"
QREAS_KINDS = ("qreas", "qreas_authors")
# The other version's and the probes' spellings of Table 6's rows, to one name per model.
MODEL_ALIASES = {
    "IS": "InferSent", "NB": "SSEN", "RSE": "SSEN", "OpenAI": "GPT", "OpenAI GPT": "GPT",
    "QREAS": QREAS, "Q-Reas": QREAS, "majority": "MAJ", "hyp": "HYP",
}
# The files each predictor kind reads besides the evaluation set, by `reprobe equate score`
# option (with _ for -): the score rules' named inputs and the CLI's required options.
KIND_FILES: dict[str, tuple[str, ...]] = {
    "majority": (), "hyp": ("hyp_model",), "neural": ("checkpoint",),
    "trained": ("trained_model",),
    "qreas": ("wordnet", "jobs", "nationalities"),
    "qreas_authors": ("wordnet", "jobs", "nationalities")}
# The options each kind needs besides its files: a neural or trained row's batch size (a
# Q-REAS row's settings, its part of `equate.qreas`, default to the schema's when not given).
KIND_SETTINGS: dict[str, tuple[str, ...]] = {"neural": ("batch_size",),
                                             "trained": ("batch_size",)}
# MAJ is left out of §5.1: each perturbation set has one label, so MAJ would score 100%.
NOT_PERTURBED = ("MAJ",)
DATA = "data/processed/equate"
MODELS = "data/models/equate"
RESULTS = "results/equate"
TABLES = "results/tables/equate"
VARIANTS = ("released", "rebuilt")


def table_rows(neural: Mapping[str, Any], qreas_variants: Mapping[str, Any] | None = None,
               released_code: Mapping[str, Any] | None = None,
               hyp: bool = True, trained: Mapping[str, Any] | None = None
               ) -> dict[str, tuple[str, str]]:
    """Table 6 rows as file-name slug -> (row name, predictor kind), in table order: MAJ, HYP
    (where an NLI training set is configured), the trained baselines, the neural rows, the
    released-code Q-REAS rows, Q-REAS (Algorithm 1), then each configured variant of it."""
    rows = [("MAJ", "majority"), *([("HYP", "hyp")] if hyp else []),
            *((name, "trained") for name in trained or {}),
            *((name, "neural") for name in neural),
            *((name, "qreas_authors") for name in released_code or {}),
            (ALGORITHM1, "qreas"), *((name, "qreas") for name in qreas_variants or {})]
    slugs = [slug(name) for name, _ in rows]
    clash = sorted({s for s in slugs if slugs.count(s) > 1})
    if clash:
        raise ConfigError(f"equate.neural/equate.trained: row names clash as file names: "
                          f"{clash}")
    return {slug(name): (name, kind) for name, kind in rows}


def canonical_model(model: str) -> str:
    """One name per model across the two versions of the paper."""
    return MODEL_ALIASES.get(model, model)


def paper_rows() -> set[str]:
    """Table 6's rows in either version (config/reference/equate/), one name per model."""
    return {canonical_model(name) for name in paper_models(CHECKOUT / STAGE.reference)}


def beyond_paper_rows(*sections: Mapping[str, Any]) -> list[str]:
    """The `equate.neural` and `equate.trained` rows the paper has no row of (by name): models
    it did not test, and stand-ins."""
    paper = paper_rows()
    return [name for rows in sections for name in rows if canonical_model(name) not in paper]


def qreas_arguments(row: str, qreas: Mapping[str, Any]) -> list[str]:
    """The `reprobe equate score` settings of a Q-REAS row (`equate.qreas`, with this row's
    released-code or variant entry only), as argument tokens."""
    return [f"--settings={settings_json(qreas_row_section(dict(qreas), row), QreasSettings)}"]


def score_shard_files(root: str, variant: str, test_set: str, model: str,
                      shards: Mapping[str, int]) -> list[str]:
    """The shard prediction files one score job gathers (`equate.score_shards`): none for a
    set scored in one job."""
    n = int(shards.get(test_set, 1))
    if n <= 1:
        return []
    return [f"{root}/shards/{variant}/{test_set}/{model}/{k}of{n}.jsonl" for k in range(n)]


def option_flag(option: str) -> str:
    """A `reprobe equate score` option as written on the command line (hyp_model → --hyp-model)."""
    return "--" + option.replace("_", "-")


def perturbation_rows(rows: Mapping[str, tuple[str, str]]) -> list[str]:
    """The rows (slugs) scored on §5.1's sets: every Table 6 row but MAJ."""
    return [model for model, (name, _) in rows.items() if name not in NOT_PERTURBED]


def rows_with(neural: Mapping[str, Any], key: str) -> list[str]:
    """Slugs of the neural rows whose config has `key` (tiny: trained here; files: fetched)."""
    return [slug(name) for name, spec in neural.items() if key in spec]


def stage_tables(versions: list[str], sets: Mapping[str, list[str]], recovered: list[str]
                 ) -> list[str]:
    """The stage's tables: Table 6 per variant and published version; §5.1's table when its
    sets exist; the recovery table when some set is compared with a released one; Table 7
    when MultiNLI dev-matched is configured."""
    return [*(f"{TABLES}/table6_{variant}_{version}.csv"
              for variant in VARIANTS if sets[variant] for version in versions),
            *([f"{TABLES}/perturbation.csv"] if sets["perturbation"] else []),
            *([f"{TABLES}/recovery.csv"] if recovered else []),
            *([f"{TABLES}/table7.csv"] if sets.get("mnli") else [])]


def member_param(spec: Mapping[str, Any], name: int | str = 0) -> Callable[[Any, Any], str]:
    """A params function: the rule's input `name` (its first by default), or the member `spec`
    names inside that extracted folder (taken from the input, not rebuilt, as Snakemake's lint
    asks)."""
    member = spec.get("member")

    def param(wildcards: Any, input: Any) -> str:
        """The input file the command reads."""
        return inside(input[name], member)

    return param


class EquateTargets:
    """The EQUATE stage's inputs, parameters and target lists for one configuration."""

    def __init__(self, config: dict[str, Any], raw_target: Callable[[str], str],
                 raw_file: Callable[[str], str]) -> None:
        equate = config["equate"]
        self.equate = equate
        self.inputs: Mapping[str, Any] = equate["inputs"]
        self.released: Mapping[str, Any] = equate["released"]
        self.raw_target, self.raw_file = raw_target, raw_file
        self.labelled = labelled_candidate_sets(self.released, self.inputs)
        self.compared = compared_synthetic_sets(self.released, self.inputs)
        self.sets = evaluation_sets(self.released, self.inputs)
        # Table 6 rows: file-name slug -> (row name, predictor kind).
        self.rows = table_rows(equate["neural"], equate["qreas"]["variants"],
                               equate["qreas"]["released_code"], hyp="nli_train" in self.inputs,
                               trained=equate["trained"])
        self.perturbation_rows = perturbation_rows(self.rows)
        self.beyond_paper = beyond_paper_rows(equate["trained"], equate["neural"])
        lacking = [key for key in ("nli_train", "nli_dev", "word_vectors")
                   if equate["trained"] and key not in self.inputs]
        if lacking:
            raise ConfigError(f"equate.trained: the baselines train on equate.inputs.{lacking[0]}"
                              ", which the config leaves out")
        self.tiny = rows_with(equate["neural"], "tiny")
        if self.tiny and "nli_train" not in self.inputs:
            raise ConfigError("equate.neural: a tiny row is trained on equate.inputs.nli_train, "
                              "which the config leaves out")
        self.fetched = rows_with(equate["neural"], "files")
        self.reddit_dumps = [instance for name in self.inputs.get("reddit", [])
                             for instance in source_instances(config, name)]
        self.news_shards = [f"{DATA}/shards/newsnli/{shard}.parquet"
                            for shard in range(equate["newsnli"]["shards"])]
        self.recovery_files = [f"{DATA}/recovery/{test_set}.json"
                               for test_set in self.labelled + self.compared]
        self.tables = stage_tables(equate["versions"], self.sets, self.labelled + self.compared)
        # §5.1's table sits beside the first published version of Table 6.
        self.reference_version = equate["versions"][0]

    # -- sources ----------------------------------------------------------------------------

    def source(self, spec: Mapping[str, Any]) -> Read:
        """An input of the config: its source's file or extracted folder, and the member
        inside that folder when the input names one."""
        target = self.raw_target(spec["source"])
        return Read(target, inside(target, spec.get("member")))

    def input_target(self, key: str) -> str:
        """What Snakemake tracks for `equate.inputs.<key>`; where the config leaves the input
        out, a path naming the key (no target asks for what is built from it, and if one did,
        Snakemake's missing-input message would name the key)."""
        if key not in self.inputs:
            return f"not-configured/equate.inputs.{key}"
        return self.source(self.inputs[key]).target

    def input_param(self, key: str, name: int | str = 0) -> Callable[[Any, Any], str]:
        """A params function: the file or folder `equate.inputs.<key>` names, in the rule's
        input `name` (its first by default)."""
        return member_param(self.inputs.get(key, {}), name)

    def fold_targets(self) -> list[str]:
        """AwpNLI's fold files (none: every problem)."""
        return [self.raw_target(name) for name in self.inputs["arithmetic_folds"]]

    def reddit_dump(self, wildcards: Any) -> str:
        """One Pushshift dump (a source instance)."""
        return self.raw_target(wildcards.dump)

    def stresstest_options(self) -> list[str]:
        """The Stress Test's sample size option, when one is configured, as argument tokens."""
        cap = self.equate["stresstest"]["max_premises"]
        return [f"--max-premises={cap}"] if cap else []

    # -- evaluation sets --------------------------------------------------------------------

    def pairs(self, variant: str, test_set: str) -> Read:
        """An evaluation set: a released one lives inside its source, the others are built."""
        if variant == "released":
            return self.source(self.released[test_set])
        if variant == "mnli":
            return self.source(self.inputs["nli_dev"])
        path = f"{DATA}/{variant}/{test_set}.jsonl"
        return Read(path, path)

    def released_target(self, wildcards: Any) -> str:
        """What Snakemake tracks for the released file of a set."""
        return self.pairs("released", wildcards.test_set).target

    def released_file(self, wildcards: Any, input: Any) -> str:
        """A params function: the released jsonl of a set, in the rule's `released` input."""
        return inside(input.released, self.released[wildcards.test_set].get("member"))

    def perturbation_source(self) -> list[str]:
        """What §5.1's sets are made from: released NewsNLI (nothing without it)."""
        return [self.pairs("released", "newsnli").target] if self.sets["perturbation"] else []

    def perturbation_param(self) -> Callable[[Any, Any], str]:
        """A params function: the released NewsNLI jsonl §5.1 perturbs, in the rule's input."""
        return member_param(self.released.get("newsnli", {}))

    # -- models -----------------------------------------------------------------------------

    def tiny_arguments(self, wildcards: Any) -> list[str]:
        """`reprobe equate tiny-model` settings of a tiny neural row, as argument tokens."""
        tiny = self.equate["neural"][self.rows[wildcards.model][0]]["tiny"]
        return [f"--settings={settings_json(tiny, TinyNliSettings)}"]

    def hyp_arguments(self) -> list[str]:
        """`reprobe equate train-hyp` settings (`equate.hyp`), as argument tokens."""
        return [f"--settings={settings_json(self.equate['hyp'], HypSettings)}"]

    def redditnli_arguments(self) -> list[str]:
        """`reprobe equate redditnli` settings (`equate.redditnli`), as argument tokens."""
        return [f"--settings={settings_json(self.equate['redditnli'], RedditSettings)}"]

    def checkpoint_files(self, wildcards: Any) -> dict[str, str]:
        """The fetched files of a configured checkpoint, by their hub names."""
        files = self.equate["neural"][self.rows[wildcards.model][0]]["files"]
        return {filename: self.raw_file(source) for filename, source in files.items()}

    def checkpoint_arguments(self, wildcards: Any) -> list[str]:
        """`reprobe equate checkpoint`'s NAME=PATH arguments, as argument tokens."""
        return [f"{name}={path}" for name, path in self.checkpoint_files(wildcards).items()]

    # -- scores -----------------------------------------------------------------------------

    def predictor_files(self, model: str) -> dict[str, Read]:
        """The files a row's predictor reads, by score option (KIND_FILES)."""
        built = {"hyp_model": f"{MODELS}/hyp.bin", "checkpoint": f"{MODELS}/neural/{model}",
                 "trained_model": f"{MODELS}/trained/{model}"}
        return {option: Read(built[option], built[option]) if option in built
                else self.source(self.inputs[option])
                for option in KIND_FILES[self.rows[model][1]]}

    def score_reads(self, wildcards: Any) -> dict[str, Read]:
        """Everything one score job reads, by score option: the set, then the predictor's."""
        return {"pairs": self.pairs(wildcards.variant, wildcards.test_set),
                **self.predictor_files(wildcards.model)}

    def score_inputs(self, wildcards: Any) -> dict[str, str]:
        """A score job's named inputs (what Snakemake tracks of `score_reads`)."""
        return {option: read.target for option, read in self.score_reads(wildcards).items()}

    def row_settings(self, model: str) -> list[str]:
        """A row's options beyond its files: a neural label map, Q-REAS's limits and readings."""
        name, kind = self.rows[model]
        if kind == "neural":
            spec = self.equate["neural"][name]
            label_map = spec.get("label_map")
            return [f"--batch-size={spec['batch_size']}",
                    *([f"--label-map={json.dumps(label_map)}"] if label_map else [])]
        if kind == "trained":
            return [f"--batch-size={self.equate['trained'][name]['batch_size']}"]
        if kind in QREAS_KINDS:
            return qreas_arguments(name, self.equate["qreas"])
        return []

    def score_arguments(self, wildcards: Any) -> list[str]:
        """The `reprobe equate score` arguments particular to a row on one set, as tokens."""
        pairs = self.pairs(wildcards.variant, wildcards.test_set).path
        return self.row_arguments(wildcards.model, [f"--pairs={pairs}"])

    def row_arguments(self, model: str, sets: list[str]) -> list[str]:
        """A row's `reprobe equate score` arguments around the set arguments given: its kind
        and name, then the sets, its predictor's files and settings, as tokens (each option
        and its value one token, `--model=NAME`: a row name may begin with -)."""
        name, kind = self.rows[model]
        arguments = [f"--kind={kind}", f"--model={name}", *sets]
        for option, read in self.predictor_files(model).items():
            arguments.append(f"{option_flag(option)}={read.path}")
        return [*arguments, *self.row_settings(model)]

    def variant_rows(self, variant: str) -> list[str]:
        """The rows (slugs) scored on a variant's sets (§5.1's: every row but MAJ; Table 7's:
        the rows trained on MultiNLI)."""
        if variant == "mnli":
            return [model for model, (_, kind) in self.rows.items() if kind in MNLI_KINDS]
        return list(self.perturbation_rows if variant == "perturbation" else self.rows)

    def score_shards(self, wildcards: Any) -> list[str]:
        """The shard predictions a score job gathers (empty when the set is one job)."""
        return score_shard_files(RESULTS, wildcards.variant, wildcards.test_set,
                                 wildcards.model, self.equate["score_shards"])

    def gather_options(self, wildcards: Any) -> list[str]:
        """The option that makes a score job gather its shards (none for a one-job set), as
        argument tokens."""
        shards = self.score_shards(wildcards)
        return ["--from-shards", *shards] if shards else []

    def _score_request(self, model: str) -> tuple[int, int]:
        """(mem_mb, runtime) of a score job, by whether the row is a fetched checkpoint (a
        full-size transformer) or not (reprobe/costs.json's `equate_score[…]` entries); a
        trained row asks for at least its training job's memory (its model and vocabulary)."""
        kind = "fetched" if model in self.fetched else "other"
        memory, runtime = requested(rule_scale(f"equate_score[{kind}]"), 0)
        name, row_kind = self.rows[model]
        if row_kind == "trained":
            entry = f"equate_train_baseline[{self.equate['trained'][name]['architecture']}]"
            memory = max(memory, requested(rule_scale(entry), 0)[0])
        return memory, runtime

    def score_mem_mb(self, wildcards: Any) -> int:
        """Memory of a score job (MB)."""
        return self._score_request(wildcards.model)[0]

    def score_runtime(self, wildcards: Any) -> int:
        """Run time of a score job (minutes)."""
        return self._score_request(wildcards.model)[1]

    # -- tables -----------------------------------------------------------------------------

    def variant_scores(self, variant: str) -> list[str]:
        """Every score file of one evaluation variant (§5.1's without MAJ)."""
        return [f"{RESULTS}/scores/{variant}/{test_set}/{model}.csv"
                for test_set in self.sets[variant] for model in self.variant_rows(variant)]

    def qreas_predictions(self, variant: str) -> dict[tuple[str, str], str]:
        """(set, row name) -> predictions file of each Q-REAS row on one variant's sets."""
        return {(test_set, name): f"{RESULTS}/predictions/{variant}/{test_set}/{model}.jsonl"
                for test_set in self.sets[variant]
                for model, (name, kind) in self.rows.items()
                if kind in QREAS_KINDS}

    def table_predictions(self, wildcards: Any) -> list[str]:
        """The Q-REAS predictions one Table 6 reads (its variant's)."""
        return list(self.qreas_predictions(wildcards.variant).values())

    def beyond_paper_option(self) -> list[str]:
        """The table steps' `--beyond-paper` rows (neural rows the paper did not test), as
        argument tokens."""
        return [f"--beyond-paper={name}" for name in self.beyond_paper]

    def table_options(self, wildcards: Any) -> list[str]:
        """`reprobe equate table6`'s rows beyond the paper and --qreas-predictions arguments, as
        argument tokens."""
        return [*self.beyond_paper_option(),
                *(f"--qreas-predictions={test_set}/{name}={path}" for (test_set, name), path
                  in self.qreas_predictions(wildcards.variant).items())]

    def table_scores(self, wildcards: Any) -> list[str]:
        """The score files of one Table 6 (its variant's)."""
        return self.variant_scores(wildcards.variant)
