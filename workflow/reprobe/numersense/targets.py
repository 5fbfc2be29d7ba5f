"""What the NumerSense rules read, which rows and sets a configuration asks for.

`workflow/rules/numersense.smk` only wires: every input, parameter and target list is decided
here, from the config, by `NumerSenseTargets`, whose methods take Snakemake's `wildcards` so that
a rule can name them directly as input or params functions.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from typing import Any

from reprobe.config import CHECKOUT
from reprobe.errors import ConfigError
from reprobe.numersense import STAGE
from reprobe.numersense.finetune_settings import FinetuneSettings
from reprobe.numersense.layout import (  # noqa: F401 (re-exported for the rules)
    DATA,
    MODELS,
    RELEASED_FILES,
    RELEASED_SETS,
    RELEASED_SUFFIX,
    RESULTS,
    TABLES,
    TEST_SETS,
    TRAIN_SETS,
    VARIANTS,
    model_type,
)
from reprobe.numersense.probe_targets import ProbeRow, ProbeTargets, probe_rows  # noqa: F401
from reprobe.numersense.settings import AdversarialSettings, BuilderSettings, TinySettings
from reprobe.reads import Read, inside, slug
from reprobe.resources import job_resources
from reprobe.step_settings import setting_names, settings_json
from reprobe.tables.beyond import paper_models


def ordered_settings_json(section: Mapping[str, Any], cls: type) -> str:
    """The part of a config section a settings class reads, as JSON: its keys sorted, as
    `settings_json` sorts them, but a map inside kept in the config's order (the builder's
    lexicon gives a probe its first matching category)."""
    return json.dumps({name: section[name] for name in sorted(setting_names(cls))},
                      ensure_ascii=False)


def check_models(numersense: Mapping[str, Any]) -> None:
    """Errors naming the key: a tiny type that contradicts its kind, a fine-tuned row starting
    from an unknown or causal row, a template row that is not a masked LM, clashing slugs."""
    models = numersense["models"]
    for name, spec in models.items():
        if "tiny" in spec and "type" in spec and spec["type"] != model_type(spec):
            raise ConfigError(f"numersense.models.{name}.type: a tiny {spec['tiny']['kind']} "
                              f"model is {model_type(spec)}, not {spec['type']}")
    finetune = numersense["finetune"]
    for row, base in finetune["rows"].items():
        if base not in models:
            raise ConfigError(f"numersense.finetune.rows.{row}: no model row named {base!r}")
        if model_type(models[base]) != "masked":
            raise ConfigError(f"numersense.finetune.rows.{row}: {base!r} is not a masked LM "
                              "(the paper fine-tunes masked LMs only)")
        if row in models:
            raise ConfigError(f"numersense.finetune.rows.{row}: also a numersense.models row")
    inputs = numersense["inputs"]
    for name, spec in models.items():
        if "tiny" in spec and not {"omcs", "generics"} <= set(inputs):
            raise ConfigError(f"numersense.models.{name}.tiny: a tiny model is trained on "
                              "numersense.inputs.omcs and .generics, which the config leaves out")
    if finetune["rows"] and finetune["train_set"] == "rebuilt" and (
            "generics" not in inputs):
        raise ConfigError("numersense.finetune.rows: the rebuilt fine-tuning set is built from "
                          "numersense.inputs.generics, which the config leaves out")
    needed = TRAIN_SETS.get(finetune["train_set"])
    if needed and needed not in numersense["released"]:
        raise ConfigError(f"numersense.finetune.train_set: {finetune['train_set']} needs "
                          f"numersense.released.{needed}")
    for name in (numersense["templates"]["models"] or []):
        if name not in models or model_type(models[name]) != "masked":
            raise ConfigError(f"numersense.templates.models: {name!r} is not a masked-LM row")
    names = [*models, *finetune["rows"]]
    slugs = [slug(n) for n in names]
    clash = sorted({s for s in slugs if slugs.count(s) > 1})
    if clash:
        raise ConfigError(f"numersense.models: row names clash as file names: {clash}")


def table_rows(numersense: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    """Table 2 rows as slug -> (row name, masked | causal): the models, then the fine-tuned."""
    rows = {slug(name): (name, model_type(spec)) for name, spec in numersense["models"].items()}
    for name in numersense["finetune"]["rows"]:
        rows[slug(name)] = (name, "masked")
    return rows


def beyond_paper_models(numersense: Mapping[str, Any], paper: Collection[str]) -> list[str]:
    """The model rows the paper did not test: `numersense.models` entries not named as its
    rows, then the fine-tuned rows starting from one of them (a row follows its base)."""
    models = [name for name in numersense["models"] if name not in paper]
    finetuned = {row: base for row, base in numersense["finetune"]["rows"].items()
                 if base in models}
    for row, base in finetuned.items():
        if row in paper:
            # The paper's numbers would sit beside a model it never fine-tuned.
            raise ConfigError(f"numersense.finetune.rows.{row}: a row of the paper's, but it "
                              f"starts from {base!r}, a model the paper did not test; name "
                              "the row otherwise")
    return [*models, *finetuned]


def beyond_paper_rows(models: Collection[str], rows: Mapping[str, ProbeRow]) -> list[str]:
    """Every table row of those models: the model's own name (Table 3's row) and its row under
    each protocol (`tiny-BERT (clean)`)."""
    slugs = {slug(name) for name in models}
    return list(dict.fromkeys([*models, *(row.name for row in rows.values()
                                          if row.model in slugs)]))


# The raw inputs the rebuilt probes need (core from OMCS, all adds ConceptNet's adversarial
# probes); the overlap with the released files also needs the rebuilt fine-tuning set (GenericsKB).
REBUILD_INPUTS = ("omcs", "conceptnet")
OVERLAP_INPUTS = ("omcs", "conceptnet", "generics")


def rebuilds(inputs: Mapping[str, Any], needed: tuple[str, ...] = REBUILD_INPUTS) -> bool:
    """Whether the config names every raw input of a rebuilt product (the released-data tier
    names none: it scores the released files only)."""
    return all(name in inputs for name in needed)


def evaluation_sets(released: Mapping[str, Any],
                    inputs: Mapping[str, Any]) -> dict[str, list[str]]:
    """Per variant, the sets every row is scored on: rebuilt core and all where the raw inputs
    are configured; the released sets configured (core and all on the probes whose label the
    builder re-creates, or on `numersense.gold`)."""
    return {"rebuilt": list(TEST_SETS) if rebuilds(inputs) else [],
            "released": [name for name in RELEASED_SETS if name in released]}


def model_units(models: Mapping[str, Mapping[str, Any]]) -> int:
    """The largest configured model's size unit: 0 local, 1 base-size hub model, 3 large."""
    units = [0 if "hub" not in spec else 3 if "large" in str(spec["hub"]).lower() else 1
             for spec in models.values()]
    return max(units, default=0)


class NumerSenseTargets(ProbeTargets):
    """The NumerSense stage's inputs, parameters and target lists for one configuration."""

    def __init__(self, config: dict[str, Any], raw_target: Callable[[str], str]) -> None:
        numersense = config["numersense"]
        check_models(numersense)
        self.ns = numersense
        self.raw_target = raw_target
        self.released: Mapping[str, Any] = numersense["released"]
        self.rows = table_rows(numersense)
        self.probe_rows = probe_rows(numersense)
        # Rows of models the paper did not test: the tables mark them and put them last.
        paper = paper_models(CHECKOUT / STAGE.reference)
        self.beyond_paper = beyond_paper_rows(beyond_paper_models(numersense, paper),
                                              self.probe_rows)
        self.gold: Mapping[str, Any] = numersense["gold"]
        self.inputs: Mapping[str, Any] = numersense["inputs"]
        self.sets = evaluation_sets(self.released, self.inputs)
        for name in TEST_SETS:
            # Without gold labels a released test set is scored on the builder's labels.
            if name in self.released and name not in self.gold and not self.sets["rebuilt"]:
                raise ConfigError(f"numersense.released.{name}: scoring it needs "
                                  f"numersense.gold.{name} or the builder's inputs "
                                  "(numersense.inputs.omcs, .conceptnet) to label it")
        self.predictions = numersense["released_predictions"]
        self.tiny = [slug(n) for n, spec in numersense["models"].items() if "tiny" in spec]
        self.finetuned = {slug(row): slug(base)
                          for row, base in numersense["finetune"]["rows"].items()}
        self.template_rows = [slug(n) for n in self._template_names()]
        self.tables = self._tables()
        # A GPU per probing, template and fine-tuning job when the device is one.
        self.gpus = 1 if str(numersense["device"]).startswith("cuda") else 0
        # The cores a probing or template job is given (`numersense.threads`).
        self.job_threads = int(numersense["threads"])

    def _template_names(self) -> list[str]:
        """The masked-LM rows Table 3 runs (the configured ones, else every masked-LM row)."""
        chosen = self.ns["templates"]["models"]
        if chosen is not None:
            return list(chosen)
        return [name for name, kind in self.rows.values() if kind == "masked"]

    def _tables(self) -> list[str]:
        """Every table and figure of the stage."""
        rebuilt = bool(self.sets["rebuilt"])
        tables = [f"{TABLES}/filters.csv", f"{TABLES}/table2_rebuilt.csv"] if rebuilt else []
        if self.all_scores():
            tables.append(f"{TABLES}/table2_conventions.csv")
        if rebuilt:
            tables += [f"{TABLES}/figure3.csv", f"{TABLES}/figure3.png"]
        if self.sets["released"] or self.predictions:
            tables.append(f"{TABLES}/table2_released.csv")
        if rebuilds(self.inputs, OVERLAP_INPUTS) and any(
                name in self.released for name in RELEASED_FILES):
            tables.append(f"{TABLES}/overlap.csv")
        if self.template_rows:
            tables.append(f"{TABLES}/table3.csv")
        return tables

    # -- sources ----------------------------------------------------------------------------

    def source(self, spec: Mapping[str, Any]) -> Read:
        """An input of the config: its source's file or extracted folder (and member)."""
        target = self.raw_target(spec["source"])
        return Read(target, inside(target, spec.get("member")))

    def input_file(self, key: str) -> Read:
        """`numersense.inputs.<key>`; where the config leaves it out, a path naming the key (no
        target asks for what is built from it; if one did, Snakemake's message names it)."""
        if key not in self.inputs:
            missing = f"not-configured/numersense.inputs.{key}"
            return Read(missing, missing)
        return self.source(self.ns["inputs"][key])

    def input_param(self, key: str) -> Callable[[Any, Any], str]:
        """A params function: the file `numersense.inputs.<key>` names, taken from the rule's
        input of that name (the member inside it when extracted), as Snakemake's lint asks."""
        member = self.inputs.get(key, {}).get("member")

        def param(wildcards: Any, input: Any) -> str:
            """The input file the command reads."""
            return inside(input[key], member)

        return param

    def released_file(self, name: str) -> Read:
        """`numersense.released.<name>`."""
        return self.source(self.released[name])

    def released_reads(self) -> dict[str, Read]:
        """Every configured released probe file, by set name."""
        return {name: self.released_file(name) for name in RELEASED_FILES
                if name in self.released}

    def released_targets(self) -> list[str]:
        """What Snakemake tracks of every configured released probe file."""
        return [read.target for read in self.released_reads().values()]

    def released_test_targets(self) -> list[str]:
        """What Snakemake tracks of the released core and all files configured."""
        return [self.released_file(n).target for n in TEST_SETS if n in self.released]

    def released_arguments(self) -> list[str]:
        """`--released-<set> PATH` for each configured released file and `--gold-<set> PATH`
        for each configured gold file, as argument tokens."""
        gold = {name: self.source(self.gold[name]) for name in TEST_SETS if name in self.gold}
        return ([f"--released-{name}={read.path}" for name, read in self.released_reads().items()]
                + [f"--gold-{name}={read.path}" for name, read in gold.items()])

    def gold_targets(self) -> list[str]:
        """What Snakemake tracks of the configured gold files."""
        return [self.source(self.gold[name]).target for name in TEST_SETS if name in self.gold]

    def test_probe_files(self) -> list[str]:
        """What the fine-tuning set is kept apart from: rebuilt and released test probes."""
        rebuilt = [f"{DATA}/rebuilt/test.{name}.masked.tsv" for name in TEST_SETS]
        released = [self.released_file(n).path for n in ("core", "all") if n in self.released]
        return rebuilt + released

    def train_file(self) -> str:
        """The fine-tuning set the Ft. rows train on: rebuilt, the released probes, or the
        authors' plain sentences (released.finetune_sentences)."""
        needed = TRAIN_SETS[self.ns["finetune"]["train_set"]]
        if needed:
            return self.released_file(needed).path
        return f"{DATA}/rebuilt/train.masked.tsv"

    # -- models -----------------------------------------------------------------------------

    def spec(self, model: str) -> Mapping[str, Any]:
        """The config of a (not fine-tuned) model row, by slug."""
        return self.ns["models"][self.rows[model][0]]

    def tiny_options(self, wildcards: Any) -> list[str]:
        """`reprobe numersense tiny` kind and settings of a tiny row, as argument tokens."""
        tiny = self.spec(wildcards.ns_model)["tiny"]
        return [f"--kind={tiny['kind']}", f"--settings={settings_json(tiny, TinySettings)}"]

    def model_location(self, model: str) -> str:
        """Where a row's model is loaded from: a folder built here, a local folder, a hub name."""
        if model in self.finetuned or model in self.tiny:
            return f"{MODELS}/{model}"
        spec = self.spec(model)
        return str(spec.get("path") or spec["hub"])

    def built_model(self, model: str) -> list[str]:
        """The folder of a model row built here (none for a hub or local model)."""
        return [f"{MODELS}/{model}"] if model in self.finetuned or model in self.tiny else []

    def model_input(self, wildcards: Any) -> list[str]:
        """The model folder a job needs built first (none for a hub or local model)."""
        return self.built_model(wildcards.ns_model)

    def base_model(self, wildcards: Any) -> str:
        """The folder or hub name a fine-tuned row starts from."""
        return self.model_location(self.finetuned[wildcards.ns_model])

    def base_input(self, wildcards: Any) -> list[str]:
        """The base model folder a fine-tuning job needs built first."""
        base = self.finetuned[wildcards.ns_model]
        return [f"{MODELS}/{base}"] if base in self.tiny else []

    # -- probing ----------------------------------------------------------------------------

    def template_files(self) -> list[str]:
        """The per-row object-bias results Table 3 reads."""
        return [f"{RESULTS}/templates/{model}.csv" for model in self.template_rows]

    def template_arguments(self, wildcards: Any) -> list[str]:
        """`reprobe numersense templates` arguments of one row, as argument tokens."""
        name, _ = self.rows[wildcards.ns_model]
        return [f"--row={name}", f"--model={self.model_location(wildcards.ns_model)}",
                f"--words={self.ns['templates']['words']}"]

    # -- builders ---------------------------------------------------------------------------

    def builder_arguments(self) -> list[str]:
        """`reprobe numersense build-core` settings, as argument tokens."""
        return [f"--settings={ordered_settings_json(self.ns['builder'], BuilderSettings)}"]

    def adversarial_arguments(self) -> list[str]:
        """`reprobe numersense build-all` settings, as argument tokens."""
        settings = ordered_settings_json(self.ns["adversarial"], AdversarialSettings)
        return [f"--settings={settings}"]

    def finetune_arguments(self) -> list[str]:
        """`reprobe numersense finetune` settings and device, as argument tokens."""
        return [f"--settings={settings_json(self.ns['finetune'], FinetuneSettings)}",
                f"--device={self.ns['device']}"]

    def labelled_arguments(self, wildcards: Any, output: Any) -> list[str]:
        """`--labelled-<set> PATH` for each labelled released file the rule writes, as argument
        tokens."""
        names = [name for name in TEST_SETS if name in self.released]
        return [f"--labelled-{name}={path}"
                for name, path in zip(names, output.labelled, strict=True)]

    def labelled_files(self) -> list[str]:
        """The released test sets with the builder's labels, one per released core/all file."""
        return [f"{DATA}/released/test.{name}.labelled.tsv"
                for name in TEST_SETS if name in self.released]

    def resources(self, rule: str) -> dict[str, Any]:
        """mem_mb (by attempt) and runtime of a rule's jobs, scaled by the largest model."""
        return job_resources(rule, model_units(self.ns["models"]))
