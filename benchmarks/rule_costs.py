"""Rewrite the `rules` of workflow/reprobe/costs.json from two measurements.

A rule's costs are a line through two points, in the units its stage's targets.py counts (the
dump's shards, a reader's block pages, the largest dimension, the model's size class):

- the default config's job, measured by `benchmarks/default_run.py --json` (each rule's longest
  job and its largest peak RSS): the floor;
- the paper config's job, extrapolated by `benchmarks/scale.py` from 3+ synthetic sizes
  (costs.json `steps`, whose `paper` figures are one job at paper scale).

A rule the scale benchmark does not cover takes its floor from the default run and keeps its
earlier growth per unit, said in its `from` ("growth per unit not measured"); a rule neither
measured keeps its entry, marked "not measured".
Where the two configs count the same units (a shard reader's block pages), the larger of the two
measurements is the floor. Usage:

    python benchmarks/default_run.py --json /tmp/run.json
    python benchmarks/scale.py --quick --update-readme      # writes costs.json `steps`
    python benchmarks/rule_costs.py --default-run /tmp/run.json --write
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
COSTS = REPO / "workflow" / "reprobe" / "costs.json"
MIN_MB = 64.0  # a Python step's own floor: below this, a measurement is noise
MIN_MIN = 0.05
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
    """Each rule's one paper-scale job from the scale benchmark (the largest step it runs)."""
    found: dict[str, dict[str, float]] = {}
    for name, step in steps.items():
        paper = step.get("paper") or {}
        threads = max(1, int(step.get("threads", 1)))
        for rule in step.get("rules", []):
            point = {"mem_mb": float(paper.get("peak_rss_mb", 0)),
                     "runtime_min": float(paper.get("cpu_s", 0)) / threads / 60,
                     "output_mb": paper.get("output_mb"), "step": name}
            if point["runtime_min"] > found.get(rule, {}).get("runtime_min", -1):
                found[rule] = point
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
    if default is None:
        return dict(old)
    mem0 = max(MIN_MB, default["max_rss_mb"])
    min0 = max(MIN_MIN, default.get("max_wall_s", default["wall_s"] / default["jobs"]) / 60)
    source = (f"default run {run_date}: {default['jobs']:.0f} jobs, peak {mem0:.0f} MB, "
              f"longest {min0 * 60:.1f} s")
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
    mem = line_through((low, mem0), (high, paper["mem_mb"]))
    runtime = line_through((low, min0), (high, paper["runtime_min"]))
    return {"unit": unit, "mem_mb": [round(mem[0], 1), round(mem[1], 3)],
            "runtime_min": [round(runtime[0], 3), round(runtime[1], 4)],
            "from": f"{source}; paper scale: benchmarks/scale.py step {paper['step']} "
                    f"(extrapolated, {high:g} units)"}


def new_rules(costs: Mapping[str, Any], run: Mapping[str, Any],
              configs: tuple[Mapping, Mapping],
              written: Mapping[str, float] | None = None) -> dict[str, Any]:
    """Every rule's entry, from the default run (its job costs and, given, its outputs' sizes)
    and the scale steps."""
    measured = run["rules"]
    paper = scale_points(costs.get("steps", {}))
    date = str(run.get("date", "?"))[:10]
    written = written or {}
    rules = {rule: with_output(rule_entry(rule, old, measured.get(rule), paper.get(rule),
                                          configs, date),
                               rule, written.get(rule), paper.get(rule), configs)
             for rule, old in costs["rules"].items() if "[" not in rule}
    # EQUATE's score jobs ask by kind; the default run has only the "other" kind.
    for key in ("equate_score_shard", "equate_score"):
        if key in measured and "equate_score[other]" in costs["rules"]:
            rules["equate_score[other]"] = rule_entry(
                key, costs["rules"]["equate_score[other]"], measured[key], None, configs, date)
            break
    rules.setdefault("equate_score[other]", costs["rules"].get("equate_score[other]"))
    rules["equate_score[fetched]"] = costs["rules"]["equate_score[fetched]"]
    return dict(sorted(rules.items()))


def read_config(name: str) -> dict[str, Any]:
    """A shipped config file."""
    return yaml.safe_load((REPO / "config" / name).read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    """Rewrite costs.json's rules (or print them with --dry-run)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--default-run", type=Path, required=True,
                        help="benchmarks/default_run.py --json output")
    parser.add_argument("--run-dir", type=Path,
                        help="that run's folder, to measure each rule's outputs")
    parser.add_argument("--costs", type=Path, default=COSTS, help="the costs file")
    parser.add_argument("--write", action="store_true", help="write it (else print)")
    args = parser.parse_args(argv)
    costs = json.loads(args.costs.read_text(encoding="utf-8"))
    run = json.loads(args.default_run.read_text(encoding="utf-8"))
    written = output_sizes(args.run_dir) if args.run_dir else None
    costs["rules"] = new_rules(costs, run, (read_config("config.yaml"), read_config("paper.yaml")),
                               written)
    text = json.dumps(costs, indent=1) + "\n"
    if args.write:
        args.costs.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
