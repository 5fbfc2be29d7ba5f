"""Rewrite the `rules` of workflow/reprobe/costs.json from two measurements.

A rule's costs are a line through two points, in the units its stage's targets.py counts (the
dump's shards, a reader's block pages, the largest dimension, the model's size class):

- the default config's job, measured by `benchmarks/default_run.py --json` (each rule's longest
  job and its largest peak RSS): the floor;
- the paper config's job, extrapolated by `benchmarks/scale.py` from 3+ synthetic sizes
  (costs.json `steps`, whose `paper` figures are one job at paper scale).

A rule the scale benchmark does not cover takes its floor from the default run and keeps its
earlier growth per unit, said in its `from` ("growth per unit not measured"); a heavy rule with
no unit keeps its earlier request ("paper-scale input not measured"); a light one (tables,
exports, pages) takes the default run's figures alone; a rule neither measured keeps its entry,
marked "not measured". EQUATE's score jobs and NumerSense's probing take their paper-scale time
from rates measured elsewhere in docs/benchmarks.md (DERIVED, the arithmetic in their `from`).
Where the two configs count the same units (a shard reader's block pages), the larger of the two
measurements is the floor. Each job's outputs are measured in the default run's folder
(`output_mb`, which `reprobe estimate` adds up as disk). EQUATE's trained baselines
(`equate_train_baseline[<architecture>]`, one entry per architecture) and their vocabulary
(`equate_vocabulary`) take their paper-scale figures from `benchmarks/equate_trained.py --json`
(`--equate-trained`): a CPU measurement at the paper's width, extrapolated to MultiNLI, an upper
bound of the paper config's GPU jobs; `--equate-gpu` (`benchmarks/equate_gpu_check.py --json`)
rewrites the baselines' run time from a GPU measurement, their host memory staying the CPU
measurement's (rule_costs_equate.py). Given without --default-run, these rewrite only those
entries. Usage:

    python benchmarks/default_run.py --workdir /tmp/run/reprobe --json /tmp/run/reprobe.json
    python benchmarks/scale.py --quick --update-readme      # writes costs.json `steps`
    python benchmarks/equate_trained.py --json /tmp/run/equate_trained.json
    python benchmarks/rule_costs.py --default-run /tmp/run/reprobe.json \
        --run-dir /tmp/run/reprobe --equate-trained /tmp/run/equate_trained.json --write
    python benchmarks/rule_costs.py --equate-trained /tmp/run/equate_trained.json --write
    bash benchmarks/gpu_check.sh --skip-numersense --equate-json /tmp/gpu.json   # on a GPU
    python benchmarks/rule_costs.py --equate-gpu /tmp/gpu.json --write
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import yaml
from rule_costs_equate import gpu_baselines, trained_baselines

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
COSTS = REPO / "workflow" / "reprobe" / "costs.json"
MIN_MB = 64.0  # a Python step's own floor: below this, a measurement is noise
MIN_MIN = 0.05  # minutes: a step's start and end alone take about this long
# Rules whose work does not grow with the tier's data: tables, exports, pages, small files.
LIGHT = ("_table", "table2", "table3", "table5", "table6", "table8", "_export",
         "_harness_tasks", "_figure3", "report_page", "_score_released", "_released_labels",
         "_released_stats", "_wikipedia_stats", "_conventions", "wikipedia_plan",
         "_variants_table", "_perturbation_table", "_recovery_table", "table5_authors")

Units = Callable[[Mapping[str, Any]], float]


def _shards(config: Mapping[str, Any]) -> float:
    """The dump's shards (what numeracy's and WIKI-PSE's rules count)."""
    return float(config.get("wikipedia", {}).get("shards", 1))


def _shards_by_dim(config: Mapping[str, Any]) -> float:
    """Shards × the largest WIKI-PSE dimension / 100 (the rules that hold embeddings)."""
    return _shards(config) * max(config["wikipse"]["embeddings"]["dims"]) / 100


def _block_pages(config: Mapping[str, Any]) -> float:
    """The pages a Wikipedia reader holds at once."""
    return float(config["wikipedia"]["block_pages"])


def _model_size(config: Mapping[str, Any]) -> float:
    """The largest NumerSense model's size class (0 local, 1 base, 3 large)."""
    classes = [0 if "hub" not in spec else 3 if "large" in str(spec["hub"]).lower() else 1
               for spec in config["numersense"]["models"].values()]
    return float(max(classes, default=0))


# The unit each rule's targets.py passes to reprobe.resources.job_resources (mirrored here so
# that this script needs no Snakemake; tests/test_benchmarks_rule_costs.py checks the mirror).
EMBEDDING_RULES = ("wikipse_embed", "wikipse_aggregate", "wikipse_authors_vectors",
                   "wikipse_probe")


def units_of(rule: str) -> Units | None:
    """How a rule's units follow from a config (None: the rule's costs do not grow)."""
    if rule == "wikipedia_shard":
        return _block_pages
    if rule in EMBEDDING_RULES:
        return _shards_by_dim
    if rule in ("numersense_finetune", "numersense_probe", "numersense_templates"):
        return _model_size
    if rule == "wikipedia_gather" or rule.startswith(("wikipse_", "numeracy_")):
        return _shards
    return None


def config_units(rule: str, config: Mapping[str, Any]) -> float:
    """A rule's units under a config (0 for a rule whose costs do not grow)."""
    units = units_of(rule)
    try:
        return units(config) if units else 0.0
    except KeyError:
        return 0.0


def line_through(low: tuple[float, float], high: tuple[float, float]) -> tuple[float, float]:
    """(floor, per unit) of the line through two (units, cost) points; the larger cost as the
    floor when both count the same units; never below zero."""
    (u0, c0), (u1, c1) = low, high
    if u1 <= u0:
        return max(c0, c1), 0.0
    per_unit = max(0.0, (c1 - c0) / (u1 - u0))
    return max(0.0, c0 - per_unit * u0), per_unit


# Paper-scale jobs that benchmarks/scale.py does not run, derived from measurements of
# docs/benchmarks.md (the arithmetic is in each `from`). A score job's largest paper set is a
# Stress Test shard: 7,596 pairs in config/paper.yaml's 8 shards, ~950 pairs.
SHARD_PAIRS = 950
QREAS_WORST_PAIRS_S = 83.0  # Q-REAS on Stress-Test-like pairs (docs/benchmarks.md, Q-REAS)
BERT_BASE_PROBES_S = 54.9  # batched masked-LM probes of 17.4 tokens, 2 CPU threads (MLM probing)
NLI_PAIR_TOKENS, PROBE_TOKENS = 45.0, 17.4  # a premise and hypothesis; a NumerSense probe
LARGE_OVER_BASE = 3.5  # BERT-large's multiply-adds over BERT-base's (340M / 110M parameters, ~3x)
NUMERSENSE_PROBES = 4_300  # a probe job: the core (1,132) and all (3,145) released probes
LARGE_PAIRS_S = BERT_BASE_PROBES_S * PROBE_TOKENS / NLI_PAIR_TOKENS / LARGE_OVER_BASE
# NumerSense's fine-tuning (config/paper.yaml): 8,979 GenericsKB sentences x 3 epochs, taken as
# probe-length (short generic sentences); a training step costs about 3 forward passes.
FINETUNE_SENTENCES, FINETUNE_EPOCHS, TRAIN_OVER_FORWARD = 8_979, 3, 3.0
FINETUNE_S = FINETUNE_SENTENCES * FINETUNE_EPOCHS / (BERT_BASE_PROBES_S / LARGE_OVER_BASE
                                                       / TRAIN_OVER_FORWARD)
# WIKI-PSE's MC: the attentive typer's CPU step (benchmarks/mention_typer.py, 400d, batch 1,000,
# 2 threads), 10,000 steps an embedding, 5 embeddings a job (ours at 400d: word, wghtΣ, unifΣ;
# GloVe and fastText at 300d, costed at 400d).
TYPER_STEP_S, TYPER_STEPS, MC_EMBEDDINGS = 0.506, 10_000, 5
DERIVED: dict[str, dict[str, Any]] = {
    "equate_score[other]": {
        "runtime_min": SHARD_PAIRS / QREAS_WORST_PAIRS_S / 60,
        "from": f"paper scale derived: Q-REAS's slowest measured rate, {QREAS_WORST_PAIRS_S:g} "
                f"pairs/s (docs/benchmarks.md, Q-REAS), over a ~{SHARD_PAIRS}-pair Stress Test "
                "shard"},
    "equate_score[fetched]": {
        "runtime_min": SHARD_PAIRS / LARGE_PAIRS_S / 60, "mem_mb": 3500.0,
        "from": f"paper scale derived: BERT-base's measured {BERT_BASE_PROBES_S:g} probes/s of "
                f"{PROBE_TOKENS:g} tokens on 2 CPU threads (docs/benchmarks.md, MLM probing), "
                f"at {NLI_PAIR_TOKENS:g} tokens a pair and {LARGE_OVER_BASE:g}x for a large "
                f"model: {LARGE_PAIRS_S:.1f} pairs/s over a ~{SHARD_PAIRS}-pair shard; memory: "
                "a large model's 1.34 GB of float32 weights, activations and torch, estimated"},
    "numersense_probe": {
        "runtime_min": NUMERSENSE_PROBES / (BERT_BASE_PROBES_S / LARGE_OVER_BASE) / 60,
        "step": f"derived: {NUMERSENSE_PROBES:,} probes at BERT-base's measured "
                f"{BERT_BASE_PROBES_S:g} probes/s on 2 CPU threads / {LARGE_OVER_BASE:g} for a "
                "large model (docs/benchmarks.md, MLM probing; a GPU is faster)"},
    "numersense_finetune": {
        "runtime_min": FINETUNE_S / 60,
        "step": f"derived: {FINETUNE_SENTENCES:,} sentences x {FINETUNE_EPOCHS} epochs at "
                f"BERT-base's measured {BERT_BASE_PROBES_S:g} probes/s on 2 CPU threads / "
                f"{LARGE_OVER_BASE:g} for a large model / {TRAIN_OVER_FORWARD:g} for a training "
                "step (docs/benchmarks.md, MLM probing; a GPU is faster)"},
    "wikipse_mc": {
        "runtime_min": TYPER_STEP_S * TYPER_STEPS * MC_EMBEDDINGS / 60,
        "step": f"derived: {MC_EMBEDDINGS} embeddings x {TYPER_STEPS:,} steps at the typer's "
                f"measured {TYPER_STEP_S:g} s a step of 1,000 mentions at 400d on 2 CPU threads "
                "(benchmarks/mention_typer.py; a GPU is faster)"},
}


def file_mb(path: Path) -> float:
    """The size of a file or a folder's files, MB."""
    if path.is_dir():
        return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6
    return path.stat().st_size / 1e6 if path.exists() else 0.0


def output_sizes(run_dir: Path) -> dict[str, float]:
    """Each rule's largest job output (MB) in a finished default run's folder."""
    sys.path.insert(0, str(REPO / "workflow"))
    from reprobe.estimate.plan import planned_jobs

    sizes: dict[str, float] = {}
    for job in planned_jobs([], 2, project=run_dir):
        written = sum(file_mb(run_dir / name) for name in job.outputs)
        sizes[job.rule] = max(sizes.get(job.rule, 0.0), written)
    return sizes


def scale_points(steps: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """Each rule's one paper-scale job from the scale benchmark: the most of each figure over
    the steps it runs (numeracy_train: GloVe's memory, word2vec's time)."""
    found: dict[str, dict[str, Any]] = {}
    for name, step in steps.items():
        paper = step.get("paper") or {}
        threads = max(1, int(step.get("threads", 1)))
        for rule in step.get("rules", []):
            point = found.setdefault(rule, {"mem_mb": 0.0, "runtime_min": 0.0,
                                            "output_mb": None, "step": name, "threads": 1,
                                            "extrapolated": False})
            point["extrapolated"] = point["extrapolated"] or paper.get("extrapolated", True)
            point["threads"] = max(point["threads"], threads)
            runtime = float(paper.get("cpu_s", 0)) / threads / 60
            if runtime > point["runtime_min"]:
                point["runtime_min"] = runtime
            if paper.get("peak_rss_mb", 0) > point["mem_mb"]:
                point["mem_mb"] = float(paper["peak_rss_mb"])
            if paper.get("output_mb") is not None:
                point["output_mb"] = max(point["output_mb"] or 0.0, float(paper["output_mb"]))
            if point["step"] != name and name not in point["step"].split(", "):
                point["step"] = f"{point['step']}, {name}"
    return found


def with_output(entry: dict[str, Any], rule: str, written: float | None,
                paper: Mapping[str, Any] | None, configs: tuple[Mapping, Mapping]) -> dict:
    """The entry with its outputs' size (MB): the default run's, through the paper-scale one
    when measured, or alone for a light rule; left out for a rule whose paper-scale outputs
    were not measured."""
    if written is None:
        return entry
    if paper is not None and paper.get("output_mb") is not None:
        low, high = config_units(rule, configs[0]), config_units(rule, configs[1])
        line = line_through((low, written), (high, float(paper["output_mb"])))
        return {**entry, "output_mb": [round(line[0], 3), round(line[1], 4)]}
    if rule.endswith(LIGHT):
        return {**entry, "output_mb": [round(written, 3), 0.0]}
    return entry


def rule_entry(rule: str, old: Mapping[str, Any], default: Mapping[str, float] | None,
               paper: Mapping[str, Any] | None, configs: tuple[Mapping, Mapping],
               run_date: str) -> dict[str, Any]:
    """One rule's new entry from what was measured of it."""
    if default is None and paper is None:
        return dict(old)
    if default is None:  # no job in the default run: the line starts from nothing
        default = {"jobs": 0, "wall_s": 0.0, "max_wall_s": 0.0, "max_rss_mb": 0.0}
    mem0 = max(MIN_MB, default["max_rss_mb"])
    longest = default.get("max_wall_s", default["wall_s"] / max(default["jobs"], 1))
    min0 = max(MIN_MIN, longest / 60)
    source = (f"default run {run_date}: {default['jobs']:.0f} jobs, peak "
              f"{default['max_rss_mb']:.0f} MB, longest {longest:.1f} s"
              if default["jobs"] else f"no job in the default run ({run_date})")
    unit = old.get("unit")
    if paper is None and unit is None and not rule.endswith(LIGHT):
        # Its paper-scale input is bigger than the default's and not measured, and no unit
        # tells the tiers apart: the earlier request stays.
        return {**old, "from": source + "; paper-scale input not measured: the request "
                                        "before issue 32 stays"}
    if paper is None:
        # Growth not measured: the earlier per-unit request stays, said so.
        grows = unit is not None and (old["mem_mb"][1] or old["runtime_min"][1])
        return {"unit": unit, "mem_mb": [round(mem0, 1), old["mem_mb"][1] if grows else 0.0],
                "runtime_min": [round(min0, 3), old["runtime_min"][1] if grows else 0.0],
                "from": source + ("; growth per unit not measured (the request before "
                                  "issue 32)" if grows else "; as light at every tier")}
    low, high = config_units(rule, configs[0]), config_units(rule, configs[1])
    if not default["jobs"]:
        low = 0.0
    mem = line_through((low, mem0), (high, paper["mem_mb"]))
    runtime = line_through((low, min0), (high, paper["runtime_min"]))
    how = "extrapolated" if paper.get("extrapolated", True) else "measured at the paper's size"
    entry = {"unit": unit, "mem_mb": [round(mem[0], 1), round(mem[1], 3)],
             "runtime_min": [round(runtime[0], 3), round(runtime[1], 4)],
             "from": f"{source}; paper scale: benchmarks/scale.py step {paper['step']} ({how}"
                     + (f", {high:g} units)" if unit is not None else ")")}
    if paper.get("threads", 1) > 1:  # its run time is on this many threads
        entry["threads"] = int(paper["threads"])
    return entry


def new_rules(costs: Mapping[str, Any], run: Mapping[str, Any],
              configs: tuple[Mapping, Mapping],
              written: Mapping[str, float] | None = None) -> dict[str, Any]:
    """Every rule's entry, from the default run (its job costs and, given, its outputs' sizes)
    and the scale steps."""
    measured = run["rules"]
    paper = scale_points(costs.get("steps", {}))
    for rule, derived in DERIVED.items():
        if "step" in derived and rule not in paper and rule in costs["rules"]:
            old = costs["rules"][rule]
            units = config_units(rule, configs[1])
            paper[rule] = {"mem_mb": old["mem_mb"][0] + old["mem_mb"][1] * units,
                           "runtime_min": derived["runtime_min"], "output_mb": None,
                           "step": derived["step"]}
    date = str(run.get("date", "?"))[:10]
    written = written or {}
    rules = {rule: with_output(rule_entry(rule, old, measured.get(rule), paper.get(rule),
                                          configs, date),
                               rule, written.get(rule), paper.get(rule), configs)
             for rule, old in costs["rules"].items() if "[" not in rule}
    rules.update(score_kinds(costs["rules"], measured, date))
    # Entries by a wildcard's value that nothing above rewrites (the trained baselines' by
    # architecture: equate_trained_rules) stay as they are.
    rules.update({rule: dict(old) for rule, old in costs["rules"].items()
                  if "[" in rule and rule not in rules})
    return dict(sorted(rules.items()))


def score_kinds(old: Mapping[str, Any], measured: Mapping[str, Mapping[str, float]],
                date: str) -> dict[str, Any]:
    """EQUATE's score jobs, which ask by their row's kind: memory from the default run's score
    jobs (a fetched checkpoint: estimated), time derived from measured rates (DERIVED)."""
    jobs = [measured[key] for key in ("equate_score_shard", "equate_score") if key in measured]
    peak = max((job["max_rss_mb"] for job in jobs), default=old["equate_score[other]"]
               ["mem_mb"][0])
    found = {}
    for kind in ("other", "fetched"):
        derived = DERIVED[f"equate_score[{kind}]"]
        memory = derived.get("mem_mb", peak)
        found[f"equate_score[{kind}]"] = {
            "unit": None, "mem_mb": [round(memory, 1), 0.0],
            "runtime_min": [round(derived["runtime_min"], 3), 0.0],
            "from": f"default run {date}: score jobs' peak {peak:.0f} MB; {derived['from']}"}
    return found


def equate_trained_rules(old: Mapping[str, Any], data: Mapping[str, Any],
                         default: Mapping[str, float] | None = None,
                         run_date: str = "?") -> dict[str, Any]:
    """`equate_train_baseline[<architecture>]` and `equate_vocabulary` from
    benchmarks/equate_trained.py's JSON: one job at the paper's size (extrapolated from a CPU
    at the paper's width: the paper config's GPU jobs take less); the vocabulary's floor is the
    default run's job where one was measured. Only rules costs.json has are written."""
    found = trained_baselines(old, data)  # checks the width too
    date = str(data.get("date", "?"))[:10]
    if "equate_vocabulary" in old:
        vocabulary = data["vocabulary"]
        paper = vocabulary["paper"]
        mem, runtime = paper["peak_rss_mb"], paper["wall_s"] / 60
        source = (f"no job in the default run ({run_date})" if run_date != "?"
                  else "default run not given")
        if default is not None and default.get("jobs"):
            longest = default.get("max_wall_s", default["wall_s"] / max(default["jobs"], 1))
            source = (f"default run {run_date}: {default['jobs']:.0f} jobs, peak "
                      f"{default['max_rss_mb']:.0f} MB, longest {longest:.1f} s")
            mem, runtime = max(mem, default["max_rss_mb"]), max(runtime, longest / 60)
        lines = max(point["lines"] for point in vocabulary["points"])
        found["equate_vocabulary"] = {
            "unit": None, "mem_mb": [round(max(mem, MIN_MB), 1), 0.0],
            "runtime_min": [round(max(runtime, MIN_MIN), 3), 0.0],
            "from": f"{source}; paper scale: CPU measurement benchmarks/equate_trained.py, "
                    f"extrapolated: {date}, vector files up to {lines:,} lines over "
                    f"{vocabulary['pool_pairs']:,} pairs, to {paper['lines']:,} lines and "
                    f"{paper['pairs']:,} pairs (CPU only: no GPU)"}
    return found


def read_config(name: str) -> dict[str, Any]:
    """A shipped config file."""
    return yaml.safe_load((REPO / "config" / name).read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    """Rewrite costs.json's rules (or print them with --dry-run)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--default-run", type=Path,
                        help="benchmarks/default_run.py --json output (without it, "
                        "--equate-trained and --equate-gpu rewrite only their rules)")
    parser.add_argument("--equate-trained", type=Path, metavar="JSON",
                        help="benchmarks/equate_trained.py --json output: equate_vocabulary "
                        "and equate_train_baseline[…]")
    parser.add_argument("--equate-gpu", type=Path, metavar="JSON",
                        help="benchmarks/equate_gpu_check.py --json output (a GPU, width 1.0): "
                        "equate_train_baseline[…]'s run time (memory: the CPU measurement's)")
    parser.add_argument("--run-dir", type=Path,
                        help="that run's folder, to measure each rule's outputs")
    parser.add_argument("--costs", type=Path, default=COSTS, help="the costs file")
    parser.add_argument("--write", action="store_true", help="write it (else print)")
    args = parser.parse_args(argv)
    if args.default_run is None and args.equate_trained is None and args.equate_gpu is None:
        parser.error("give --default-run, --equate-trained, --equate-gpu or several")
    costs = json.loads(args.costs.read_text(encoding="utf-8"))
    old = dict(costs["rules"])
    run: dict[str, Any] = {"rules": {}}
    trained: dict[str, Any] = {}
    if args.default_run is not None:
        run = json.loads(args.default_run.read_text(encoding="utf-8"))
        written = output_sizes(args.run_dir) if args.run_dir else None
        costs["rules"] = new_rules(costs, run, (read_config("config.yaml"),
                                                read_config("paper.yaml")), written)
    if args.equate_trained is not None:
        trained = json.loads(args.equate_trained.read_text(encoding="utf-8"))
        costs["rules"] = dict(sorted({**costs["rules"], **equate_trained_rules(
            old, trained, run["rules"].get("equate_vocabulary"),
            str(run.get("date", "?"))[:10])}.items()))
    if args.equate_gpu is not None:  # the run time from the GPU, the memory as it now stands
        gpu = json.loads(args.equate_gpu.read_text(encoding="utf-8"))
        precision = read_config("paper.yaml")["equate"]["training"].get("precision") or "fp32"
        costs["rules"] = {**costs["rules"], **gpu_baselines(
            costs["rules"], gpu, trained.get("settings", {}).get("assumed_epochs"), precision)}
    text = json.dumps(costs, indent=1) + "\n"
    if args.write:
        args.costs.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
