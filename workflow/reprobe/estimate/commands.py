"""`reprobe estimate`: CPU-hours, wall-clock, memory and downloads of a run, before it starts."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from reprobe.errors import ReprobeError

DEFAULT_CONFIG = "config/config.yaml"


def sources_of(configfiles: list[Path]) -> dict[str, dict[str, Any]]:
    """The sources the config files name (assembled as the workflow assembles them), expanded
    as the workflow expands them."""
    from reprobe.config import expand_sources
    from reprobe.config_files import assembled_config

    return expand_sources({"sources": {}, **assembled_config(configfiles)})


def cmd_estimate(args: argparse.Namespace) -> None:
    """Estimate a whole run on one machine: per stage and in all, CPU-hours, wall-clock (the
    critical path through the DAG, honouring each job's threads and memory), the largest job's
    memory and the downloads; warn about jobs that cannot run there."""
    from reprobe.estimate.plan import dependencies, planned_jobs, time_downloads
    from reprobe.estimate.schedule import Machine, simulate
    from reprobe.estimate.summary import (
        costliest_rules,
        disk_bytes,
        download_bytes,
        report_lines,
        stage_costs,
    )

    configfiles = [Path(path).resolve() for path in args.configfile]
    machine = Machine(args.cores, args.mem_gb * 1024, args.gpus)
    jobs = planned_jobs(configfiles, args.cores, args.targets)
    sources = sources_of(configfiles)
    time_downloads(jobs, sources, args.download_mb_s * 1e6)
    needs = dependencies(jobs)
    simulation = simulate(jobs, needs, machine)
    stages = stage_costs(jobs, needs, simulation, machine)
    downloads = download_bytes(jobs, sources)
    disk = disk_bytes(jobs, downloads[0])
    costliest = costliest_rules(jobs, machine.cores)
    print("\n".join(report_lines(stages, simulation, machine, downloads, disk, costliest)))
    if args.json:
        Path(args.json).write_text(json.dumps({
            "machine": vars(machine), "wall_h": simulation.makespan_h(),
            "stages": {name: {**vars(stage), "rules": sorted(stage.rules),
                              "not_measured": sorted(stage.not_measured)}
                       for name, stage in stages.items()},
            "download_bytes": downloads[0], "download_unknown": downloads[1],
            "disk_bytes": disk[0], "disk_unmeasured": disk[1],
            "costliest": [{"rule": rule, "jobs": jobs, "core_hours": booked}
                          for rule, jobs, booked in costliest],
            "cannot_run": [job.rule for job in simulation.too_big]}, indent=1) + "\n",
            encoding="utf-8")


def cmd_targets(args: argparse.Namespace) -> None:
    """List every table, figure and report page the config produces, one line each with what
    it holds (from Snakemake's dry run of `all`: offline, a few seconds)."""
    from reprobe.estimate.plan import REPO, planned_jobs
    from reprobe.estimate.targets_list import papers_of, target_lines

    configfiles = [Path(path).resolve() for path in args.configfile]
    jobs = planned_jobs(configfiles, 1)
    # The `all` target's inputs first: they list each stage's tables in the stage's order.
    outputs = [*(path for job in jobs if job.rule == "all" for path in job.inputs),
               *(path for job in jobs for path in job.outputs)]
    lines = target_lines(outputs, REPO, args.paper)
    if not lines:
        raise ReprobeError(f"--paper {args.paper}: the config produces nothing for it (its "
                           f"papers: {', '.join(papers_of(outputs)) or 'none'})")
    print("\n".join(lines))


def _add_configfiles(parser: argparse.ArgumentParser) -> None:
    """`--configfile FILE …`: the run's config files, as snakemake takes them."""
    parser.add_argument("--configfile", nargs="+", default=[], metavar="FILE",
                        help="the run's config files, as given to snakemake (default: the "
                        "embedded default)")


def register(commands: argparse._SubParsersAction, add: Any) -> None:
    """Add the `estimate` and `targets` commands to the CLI."""
    targets = add("targets", cmd_targets, commands)
    targets.epilog = ("example: reprobe targets --configfile config/paper.yaml --paper "
                      "numersense; build one with snakemake --cores all <its path>")
    _add_configfiles(targets)
    targets.add_argument("--paper", help="only this paper's (its folder of results/tables: "
                         "corpus, numersense, …)")
    estimate = add("estimate", cmd_estimate, commands)
    estimate.epilog = ("example: reprobe estimate --configfile config/paper.yaml --cores 32 "
                       "--mem-gb 128")
    _add_configfiles(estimate)
    estimate.add_argument("--cores", type=int, required=True, help="the machine's cores")
    estimate.add_argument("--mem-gb", type=float, required=True, help="the machine's memory")
    estimate.add_argument("--gpus", type=int, default=0,
                          help="the machine's GPUs (jobs that ask for one cannot run without)")
    estimate.add_argument("--download-mb-s", type=float, default=20.0,
                          help="download rate, MB/s, for sources of known size (default 20)")
    estimate.add_argument("--targets", nargs="+", default=["all"],
                          help="what to build (default: all)")
    estimate.add_argument("--json", help="also write the figures here")
