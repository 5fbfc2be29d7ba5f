"""What the NumerSense probing, scoring and Table 2 rules read and write (a mixin of
`NumerSenseTargets`): one row per model and protocol, the sets each row is scored on, the gold
each set is scored against, the score files each table reads."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from reprobe.numersense.layout import (
    DATA,
    RELEASED_SUFFIX,
    RESULTS,
    TEST_SETS,
    VARIANTS,
    model_type,
)
from reprobe.numersense.settings import ProbeSettings, RunSettings
from reprobe.reads import Read, slug
from reprobe.step_settings import settings_json


class ProbeRow(NamedTuple):
    """One Table 2 row: a model row scored under one protocol."""

    name: str
    model: str
    kind: str
    protocol: str


CLEAN_SUFFIX = " (clean)"


def probe_rows(numersense: Mapping[str, Any]) -> dict[str, ProbeRow]:
    """Table 2 rows as slug -> ProbeRow: each model row under each of its protocols (the
    authors' keeps the row's name, clean adds " (clean)"), then the fine-tuned rows."""
    default = list(numersense["protocols"])
    specs = {**{name: spec for name, spec in numersense["models"].items()},
             **{name: {} for name in numersense["finetune"]["rows"]}}
    rows = {}
    for name, spec in specs.items():
        kind = model_type(spec) if spec else "masked"
        for protocol in spec.get("protocols") or default:
            row = name if protocol == "authors" else name + CLEAN_SUFFIX
            rows[slug(row)] = ProbeRow(row, slug(name), kind, protocol)
    return rows


class ProbeTargets:
    """The probing side of the NumerSense targets (attributes and methods below are
    NumerSenseTargets')."""

    ns: Mapping[str, Any]
    gold: Mapping[str, Any]
    sets: dict[str, list[str]]
    predictions: Mapping[str, Any]
    probe_rows: dict[str, ProbeRow]
    beyond_paper: list[str]

    # Defined by NumerSenseTargets.
    source: Callable[[Mapping[str, Any]], Read]
    released_file: Callable[[str], Read]
    built_model: Callable[[str], list[str]]
    model_location: Callable[[str], str]

    def gold_file(self, test_set: str) -> Read:
        """The labels a released core/all set is scored against: `numersense.gold.<set>`, else
        the builder's labels of the probes it re-creates."""
        if test_set in self.gold:
            return self.source(self.gold[test_set])
        labelled = f"{DATA}/released/test.{test_set}.labelled.tsv"
        return Read(labelled, labelled)

    def gold_note(self) -> str:
        """Where the released core/all labels come from, for Table 2's notes ('' if rebuilt)."""
        return ", ".join(f"{name}: {self.gold[name]['source']}" for name in TEST_SETS
                         if name in self.gold)

    def probe_reads(self, variant: str, test_set: str) -> dict[str, Read]:
        """The probes a job scores and the labels it scores them against."""
        if variant == "rebuilt":
            path = f"{DATA}/rebuilt/test.{test_set}.masked.tsv"
            return {"probes": Read(path, path), "gold": Read(path, path)}
        if test_set == "validation":
            read = self.released_file("validation")
            return {"probes": read, "gold": read}
        return {"probes": self.released_file(test_set), "gold": self.gold_file(test_set)}

    def variant_sets(self) -> list[tuple[str, str]]:
        """Every (variant, set) a row is scored on, in table order."""
        return [(variant, test_set) for variant in VARIANTS for test_set in self.sets[variant]]

    def probe_file(self, row: str, variant: str, test_set: str, suffix: str) -> str:
        """A probe job's predictions (.jsonl) or scores (.csv) of one set."""
        return f"{RESULTS}/probe/{row}/{variant}-{test_set}.{suffix}"

    def prediction_outputs(self) -> list[str]:
        """A probe job's prediction files (one per set; `{ns_row}` left for Snakemake)."""
        return [self.probe_file("{ns_row}", v, s, "jsonl") for v, s in self.variant_sets()]

    def score_outputs(self) -> list[str]:
        """A probe job's score files (one per set; `{ns_row}` left for Snakemake)."""
        return [self.probe_file("{ns_row}", v, s, "csv") for v, s in self.variant_sets()]

    def probe_inputs(self, wildcards: Any) -> dict[str, Any]:
        """A probe job's inputs: every set's probes and labels, the model folder if built here."""
        reads = [read.target for v, s in self.variant_sets()
                 for read in self.probe_reads(v, s).values()]
        inputs: dict[str, Any] = {"sets": list(dict.fromkeys(reads))}
        row = self.probe_rows[wildcards.ns_row]
        built = self.built_model(row.model)
        return {**inputs, "model": built[0]} if built else inputs

    def probe_arguments(self, wildcards: Any) -> list[str]:
        """`reprobe numersense score` arguments of one row: the model and protocol, then one
        `--probes`, `--gold`, `--name` per set, as argument tokens."""
        row = self.probe_rows[wildcards.ns_row]
        arguments = [f"--row={row.name}", f"--type={row.kind}", f"--protocol={row.protocol}",
                     f"--model={self.model_location(row.model)}"]
        for variant, test_set in self.variant_sets():
            reads = self.probe_reads(variant, test_set)
            arguments += [f"--probes={reads['probes'].path}", f"--gold={reads['gold'].path}",
                          f"--name={variant}-{test_set}"]
        return arguments

    def probe_folder(self, wildcards: Any) -> str:
        """The folder a probe job writes its predictions and scores into."""
        return f"{RESULTS}/probe/{wildcards.ns_row}"

    def run_options(self) -> list[str]:
        """A template job's settings (batch size, device, precision), as argument tokens."""
        return [f"--settings={settings_json(self.ns, RunSettings)}"]

    def probe_options(self) -> list[str]:
        """A probing job's settings (a template job's and clean_bos), as argument tokens."""
        return [f"--settings={settings_json(self.ns, ProbeSettings)}"]

    def score_files(self, variant: str) -> list[str]:
        """Every score file of one variant: each row on each set, and for the released variant
        the authors' predictions."""
        files = [self.probe_file(row, variant, test_set, "csv")
                 for test_set in self.sets[variant] for row in self.probe_rows]
        if variant == "released":
            files += [f"{RESULTS}/scores/released_predictions/{test_set}/{slug(row)}.csv"
                      for row, sets in self.predictions.items() for test_set in sets]
        return files

    def table_scores(self, wildcards: Any) -> list[str]:
        """The score files one Table 2 reads."""
        return self.score_files(wildcards.ns_variant)

    def all_scores(self) -> list[str]:
        """Every score file of both variants (the conventions table)."""
        return [*self.score_files("rebuilt"), *self.score_files("released")]

    def beyond_paper_option(self) -> list[str]:
        """A table step's `--beyond-paper` rows (models the paper did not test, with their
        clean and fine-tuned rows), as argument tokens (none without such rows)."""
        return [f"--beyond-paper={row}" for row in self.beyond_paper]

    def table2_arguments(self, wildcards: Any) -> list[str]:
        """`reprobe numersense table2` options: the rows beyond the paper, the convention, and
        the gold's origin, as argument tokens."""
        arguments = [*self.beyond_paper_option(), f"--no-zero={self.ns['no_zero']}"]
        if wildcards.ns_variant == "released" and self.gold_note():
            arguments.append(f"--gold={self.gold_note()}")
        return arguments

    def released_prediction(self, wildcards: Any) -> str:
        """What Snakemake tracks for the authors' predictions of one row and set."""
        return self.source(self._prediction_spec(wildcards)).target

    def _prediction_spec(self, wildcards: Any) -> Mapping[str, Any]:
        """The config of the authors' predictions of one row (by slug) and set."""
        rows = {slug(row): sets for row, sets in self.predictions.items()}
        return rows[wildcards.ns_model][wildcards.ns_set]

    def released_prediction_arguments(self, wildcards: Any) -> list[str]:
        """`reprobe numersense score-released` arguments, as argument tokens."""
        row = next(r for r in self.predictions if slug(r) == wildcards.ns_model)
        return [f"--row={row}{RELEASED_SUFFIX}", f"--set={wildcards.ns_set}",
                f"--predictions={self.source(self._prediction_spec(wildcards)).path}",
                f"--gold={self.gold_file(wildcards.ns_set).path}"]

    def released_prediction_gold(self, wildcards: Any) -> str:
        """What Snakemake tracks of the labels the authors' predictions are scored against."""
        return self.gold_file(wildcards.ns_set).target

    def prediction_slugs(self) -> list[str]:
        """The slugs of the rows with the authors' predictions."""
        return [slug(row) for row in self.predictions]

    def figure_predictions(self) -> dict[str, str]:
        """Row name -> its predictions on the rebuilt core probes (Figure 3): each model's
        first protocol (the paper's rows where authors is listed)."""
        first: dict[str, tuple[str, str]] = {}
        for row_slug, row in self.probe_rows.items():
            first.setdefault(row.model, (row.name, row_slug))
        return {name: self.probe_file(row_slug, "rebuilt", "core", "jsonl")
                for name, row_slug in first.values()}

    def figure_arguments(self) -> list[str]:
        """Figure 3's rows beyond the paper, convention and `ROW=PREDICTIONS` arguments (last,
        after `--`: they are positional, and a row name may begin with -), as argument
        tokens."""
        return [*self.beyond_paper_option(), f"--no-zero={self.ns['no_zero']}", "--",
                *(f"{name}={path}" for name, path in self.figure_predictions().items())]
