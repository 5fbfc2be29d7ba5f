"""EQUATE's trained baselines' costs (`equate_train_baseline[<architecture>]`, one entry per
architecture), for benchmarks/rule_costs.py:

- `trained_baselines`: from `benchmarks/equate_trained.py --json` (`--equate-trained`), a CPU
  measurement at the paper's width extrapolated to MultiNLI: memory and run time, an upper bound
  of the paper config's GPU jobs;
- `gpu_baselines`: from `benchmarks/equate_gpu_check.py --json` (`--equate-gpu`, run by
  `gpu_check.sh --equate-json PATH`), one epoch of each on a GPU. The run time of one job is
  `gpu_job_seconds`: epochs x (392,702 pairs at the measured training pairs/s + 9,815 dev pairs
  at the measured dev rate + a checkpoint) + start-up (the check's process start to the device
  ready, the model's construction, and the rest of its call: moving the model to the device,
  the optimiser), with the epochs the CPU path counts (`equate_trained_report.epochs_of`,
  `equate_trained.ASSUMED_EPOCHS`). Reading MultiNLI and the vocabulary is not in it (nor in the
  CPU path's extrapolation). The host memory (`mem_mb`) stays what the entry holds: the CPU
  measurement's, since a GPU job's host memory is what the CPU run measured (the model's weights,
  the encoded pairs, torch), not what the GPU holds.

A GPU JSON measured on `cpu`, at a width other than 1.0 or in another precision than the paper
config trains in is refused; an architecture that failed there keeps its entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from equate_trained import ASSUMED_EPOCHS
from equate_trained_inputs import PAPER_DEV_PAIRS, PAPER_PAIRS
from equate_trained_report import epochs_of

EQUATE_TRAINED_FROM = ("CPU measurement benchmarks/equate_trained.py, extrapolated; GPU not yet "
                       "measured (benchmarks/gpu_check.sh)")
GPU_FROM = "GPU measurement benchmarks/equate_gpu_check.py"
HOST_MEMORY = ("host memory: the CPU measurement's (benchmarks/equate_trained.py), as a GPU "
               "job's host memory is what the CPU run measured")


def rule_of(architecture: str) -> str:
    """An architecture's entry in costs.json."""
    return f"equate_train_baseline[{architecture}]"


def trained_baselines(old: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """`equate_train_baseline[…]` from equate_trained.py's JSON (only the entries `old` has)."""
    settings = data["settings"]
    if settings.get("tiny") or float(settings["width"]) != 1.0:
        raise SystemExit(f"equate_trained.py ran at width {settings['width']}"
                         f"{' (--tiny)' if settings.get('tiny') else ''}: the costs need the "
                         "paper's width, 1.0")
    date = str(data.get("date", "?"))[:10]
    found: dict[str, Any] = {}
    for architecture, figures in data["architectures"].items():
        if rule_of(architecture) not in old:
            continue
        paper = figures["paper"]
        largest = max(figures["points"], key=lambda point: point["pairs"])
        found[rule_of(architecture)] = {
            "unit": None, "mem_mb": [round(paper["peak_rss_mb"], 1), 0.0],
            "runtime_min": [round(paper["job_wall_s"] / 60, 3), 0.0],
            "from": f"{EQUATE_TRAINED_FROM}: {date}, width 1.0 on {settings['threads']} CPU "
                    f"threads, {largest['pairs']:,} pairs at {paper['pairs_s']:,.1f} pairs/s, "
                    f"peak {largest['peak_rss_mb']:.0f} MB; to {paper['pairs']:,} pairs x "
                    f"{paper['epochs']} epochs ({paper['epochs_from']})"}
    return found


def check_gpu(data: Mapping[str, Any], precision: str = "fp32") -> None:
    """Refuse a GPU JSON that is no GPU measurement of the paper's models."""
    device = str(data["device"])
    if device.split(":")[0] == "cpu":
        raise SystemExit(f"equate_gpu_check.py ran on {device!r} ({data.get('device_name')}): "
                         "that is no GPU measurement; run it with --device cuda")
    if float(data["width"]) != 1.0:
        raise SystemExit(f"equate_gpu_check.py ran at width {data['width']}: the costs need "
                         "the paper's width, 1.0")
    if data.get("precision", "fp32") != precision:
        raise SystemExit(f"equate_gpu_check.py ran in {data['precision']}: the paper config "
                         f"trains in {precision}")


def gpu_job_seconds(figures: Mapping[str, Any], startup_s: float, epochs: int) -> float:
    """One paper-scale job's seconds from an architecture's one GPU epoch (the dev pass at the
    training rate where it was not measured: an upper bound, the dev pass only predicts)."""
    dev_pairs_s = figures.get("dev_pairs_s") or figures["pairs_s"]
    save_s = figures.get("save_s") or 0.0
    epoch_s = PAPER_PAIRS / figures["pairs_s"] + PAPER_DEV_PAIRS / dev_pairs_s + save_s
    rest_s = max(0.0, figures["call_s"] - figures["epoch_s"] - (figures.get("dev_s") or 0.0)
                 - save_s)
    return startup_s + (figures.get("build_s") or 0.0) + rest_s + epochs * epoch_s


def gpu_baselines(rules: Mapping[str, Any], data: Mapping[str, Any],
                  assumed_epochs: int | None = None,
                  precision: str = "fp32") -> dict[str, Any]:
    """`equate_train_baseline[…]` with their run time from equate_gpu_check.py's JSON and their
    host memory as `rules` hold it (the CPU measurement's); only entries `rules` has, and only
    architectures that ran. `assumed_epochs`: those of a recipe with no cap (default
    equate_trained.ASSUMED_EPOCHS; rule_costs.py passes the CPU JSON's where given)."""
    check_gpu(data, precision)
    date = str(data.get("date", "?"))[:10]
    startup_s = float(data.get("startup_s") or 0.0)
    found: dict[str, Any] = {}
    for architecture, figures in data["architectures"].items():
        rule = rule_of(architecture)
        if rule not in rules or figures.get("status", "ok") != "ok":
            continue
        epochs, why = epochs_of(architecture, assumed_epochs or ASSUMED_EPOCHS)
        seconds = gpu_job_seconds(figures, startup_s, epochs)
        start_s = gpu_job_seconds(figures, startup_s, 0)
        mem = rules[rule]["mem_mb"]
        dev = (f"dev {figures['dev_pairs_s']:,.0f} pairs/s" if figures.get("dev_pairs_s")
               else "dev not measured: at the training rate")
        gpu_mb = figures.get("peak_gpu_mb")
        found[rule] = {  # the rest of the entry (unit, memory) as it stands
            **rules[rule], "runtime_min": [round(seconds / 60, 3), 0.0],
            "from": f"{GPU_FROM} on {data.get('device_name', data['device'])}, {date}, "
                    f"extrapolated: width 1.0, {data.get('precision', 'fp32')}, torch "
                    f"{data.get('torch', '?')}, {figures['pairs']:,} pairs at "
                    f"{figures['pairs_s']:,.0f} pairs/s ({dev})"
                    + (f", peak GPU memory {gpu_mb:,.0f} MB" if gpu_mb is not None else "")
                    + f"; to {PAPER_PAIRS:,} pairs x {epochs} epochs ({why}) and "
                    f"{PAPER_DEV_PAIRS:,} dev pairs an epoch, + {start_s:.0f} s start-up; "
                    f"{HOST_MEMORY}: {mem[0]:,.0f} MB"}
    return found
