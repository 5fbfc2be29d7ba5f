"""What every benchmark shares: a timed run, its repeats, the machine, and the report's outputs.

A run is one child process. `measure` times it from outside: wall seconds, CPU seconds (user +
system of the child and every descendant it waited for, from os.wait4) and, when given a sampling
interval, the peak RSS of the process tree. Tools run one at a time, round-robin over --repeat
(`round_robin`), and each tool's repeats are merged into its best figures (`best_of`). A report
starts with the command and the machine (`provenance`), and ends as a Markdown block that
--update-readme writes between a section's markers in docs/benchmarks.md and, with --json,
as JSON (`save`). `add_report_options` adds --repeat, --json and --update-readme to a parser.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import psutil

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
README = HERE.parent / "docs" / "benchmarks.md"  # the benchmarks page of the docs
R = TypeVar("R")


# --- measuring a process tree -----------------------------------------------------------------
# Peak memory: a thread polls psutil every `interval` seconds and sums the RSS of the process
# and all its descendants (WikiExtractor forks workers; shared pages are counted once per
# process, as RSS does). ru_maxrss is not used: for a tree it is the maximum over single
# processes, not their sum, and its high-water mark survives exec, so a child forked from this
# (~70 MB) Python process reports at least that much even for bzcat. It is kept only as
# `ru_maxrss_bytes`, an upper bound per process. CPU time comes from os.wait4 on the child,
# which includes every descendant the child waited for (WikiExtractor joins its workers).


@dataclass(frozen=True)
class Measurement:
    """Wall and CPU seconds of one child process, and the peak RSS of its process tree."""

    wall_s: float
    cpu_s: float
    peak_rss_bytes: int = 0  # largest sum of RSS over the process tree; 0 when not sampled
    ru_maxrss_bytes: int = 0  # from os.wait4: largest single process, inflated by fork
    root_cpu_s: float = 0.0  # the child's own CPU seconds, not its descendants'; 0 if not sampled


def tree_rss(root: psutil.Process) -> int:
    """Sum of RSS over a process and its live descendants (0 for any that vanished)."""
    import psutil

    try:
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        processes = [root]
    total = 0
    for process in processes:
        with contextlib.suppress(psutil.Error):
            total += process.memory_info().rss
    return total


def _poll_peak(pid: int, stop: threading.Event, interval: float, peak: list[int],
               root_cpu: list[float]) -> None:
    """Record in peak[0] the largest tree RSS seen until `stop` is set, and in root_cpu[0] the
    root process's own CPU seconds as last seen."""
    import psutil

    try:
        root = psutil.Process(pid)
    except psutil.Error:
        return
    while not stop.is_set():
        peak[0] = max(peak[0], tree_rss(root))
        with contextlib.suppress(psutil.Error):
            times = root.cpu_times()
            root_cpu[0] = times.user + times.system
        stop.wait(interval)


def measure(argv: list[str], log: Path, interval: float | None = None,
            stdout_devnull: bool = False, cwd: Path | None = None,
            env_extra: dict[str, str] | None = None) -> Measurement:
    """Run argv to completion (in `cwd`, with `env_extra` added to the environment), output to
    `log`; its seconds, and its peak RSS every `interval` s."""
    peak, root_cpu = [0], [0.0]
    stop = threading.Event()
    with open(log, "wb") as log_handle:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stderr=log_handle,
                                 stdout=subprocess.DEVNULL if stdout_devnull else log_handle,
                                 cwd=cwd, env={**os.environ, **(env_extra or {})})
        poller = None
        if interval is not None:
            poller = threading.Thread(target=_poll_peak, args=(child.pid, stop, interval, peak,
                                                              root_cpu))
            poller.start()
        _, status, usage = os.wait4(child.pid, 0)  # reaps the child: no Popen.wait() after
        wall = time.perf_counter() - start
        stop.set()
        if poller is not None:
            poller.join()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise SystemExit(f"{shlex.join(argv)} failed with {child.returncode}; log {log}:\n{tail}")
    return Measurement(wall, usage.ru_utime + usage.ru_stime, peak[0], usage.ru_maxrss * 1024,
                       root_cpu[0])


# --- repeats ----------------------------------------------------------------------------------


def round_robin(tools: Sequence[str], repeat: int, run_one: Callable[[str], R],
                summary: Callable[[R], str]) -> dict[str, list[R]]:
    """Run every tool `repeat` times, one at a time, round-robin; each tool's runs in order."""
    runs: dict[str, list[R]] = {tool: [] for tool in tools}
    for index in range(repeat):
        for tool in tools:
            print(f"running {tool} (repeat {index + 1}/{repeat}, load "
                  f"{os.getloadavg()[0]:.2f}) ...", file=sys.stderr, flush=True)
            run = run_one(tool)
            print(f"  {summary(run)}", file=sys.stderr, flush=True)
            runs[tool].append(run)
    return runs


def best_of(runs: Sequence[R]) -> R:
    """The first of a tool's runs (dataclasses) with the least wall and CPU s, largest peak RSS."""
    first: Any = runs[0]
    names = {field.name for field in fields(first)}
    best = {name: min(getattr(run, name) for run in runs) for name in ("wall_s", "cpu_s")}
    best |= {name: max(getattr(run, name) for run in runs)
             for name in ("peak_rss_bytes", "ru_maxrss_bytes") if name in names}
    return replace(first, **best)


# --- the machine ------------------------------------------------------------------------------


def cpu_model() -> str:
    """The processor's model name (lscpu, else /proc/cpuinfo, else the machine type)."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine() or "unknown"


def git_head() -> str:
    """The short hash of the repository's HEAD, or "unknown"."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        return subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip() or "unknown"
    return "unknown"


def machine() -> dict:
    """Cores this process may use, CPU model, Python, platform, load average and git HEAD."""
    return {"cores": len(os.sched_getaffinity(0)), "cpu_model": cpu_model(),
            "python": platform.python_version(), "platform": platform.platform(),
            "load_average_before": list(os.getloadavg()), "git_head": git_head()}


def now() -> str:
    """The date and time in UTC, as reports write it."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


def command_line(script: str, argv: list[str] | None) -> str:
    """The command that ran a benchmark script, for the report."""
    return shlex.join(["python", script, *(sys.argv[1:] if argv is None else argv)])


def provenance(command: str, date: str, host: dict, more: str = "") -> list[str]:
    """The report's first two Markdown lines: the command, and when and where it ran."""
    return [f"Command: `{command}`  ",
            f"Run {date} on {host['cores']} cores ({host['cpu_model']}), Python {host['python']}, "
            f"load average before {host['load_average_before'][0]:.2f}; git HEAD "
            f"{host['git_head']}{more}."]


# --- the report -------------------------------------------------------------------------------


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]],
                   align: str | None = None) -> str:
    """A GitHub Markdown table; `align` has l or r per column (default: first l, the rest r)."""
    align = align or "l" + "r" * (len(header) - 1)
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join(":---" if side == "l" else "---:" for side in align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def markers(section: str) -> tuple[str, str]:
    """The README comments that open and close a benchmark's section of figures."""
    return f"<!-- {section}:begin -->", f"<!-- {section}:end -->"


def update_readme(path: Path, section: str, block: str) -> None:
    """Replace the text between a section's markers in a README with the Markdown block."""
    begin, end = markers(section)
    text = path.read_text(encoding="utf-8")
    if begin not in text or end not in text:
        raise SystemExit(f"{path} lacks the markers {begin} and {end}")
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    path.write_text(f"{head}{begin}\n{block}{end}{tail}", encoding="utf-8")


def write_json(path: Path, data: Any, indent: int = 1) -> None:
    """Write data as JSON, making the folder if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=indent) + "\n", encoding="utf-8")


def save(args: argparse.Namespace, section: str, block: str, data: Any, indent: int = 1) -> None:
    """Write the figures as JSON (--json) and the block into the README (--update-readme)."""
    if args.json:
        write_json(args.json, data, indent)
    if args.update_readme:
        update_readme(args.update_readme, section, block)


# --- command line -----------------------------------------------------------------------------


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def new_parser(doc: str | None, prog: str | None = None,
               epilog: str | None = None) -> argparse.ArgumentParser:
    """A parser whose help shows the script's docstring as written."""
    return argparse.ArgumentParser(prog=prog, description=doc, epilog=epilog,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)


def add_report_options(parser: argparse.ArgumentParser, *, noun: str, keeps: str,
                       json_help: str, section: str) -> None:
    """Add --repeat, --json and --update-readme, as every benchmark takes them."""
    parser.add_argument("--repeat", type=positive_int, default=1, metavar="N",
                        help=f"run every {noun} N times, one at a time, round-robin, and report "
                        f"{keeps} (the machine may be shared; default 1)")
    parser.add_argument("--json", type=Path, metavar="PATH", help=json_help)
    parser.add_argument("--update-readme", nargs="?", type=Path, const=README, metavar="PATH",
                        help=f"write the Markdown block between the `{section}` markers of PATH "
                        "(default docs/benchmarks.md)")
