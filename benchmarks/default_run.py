"""The default run, timed: README's run command in a fresh copy of the project, on N cores.

The copy holds the files a clone would have, plus uncommitted ones (`git ls-files --cached
--others --exclude-standard`), so a change is measured before it is committed. In it the
script runs `python -m snakemake --cores N all` (README's command, without the `pip install`:
the installed reprobe is used), timed from outside with os.wait4 (wall, CPU of the whole process
tree) and, where psutil is installed, the tree's peak RSS. Every `reprobe` process of the run
records its own wall and CPU seconds and peak RSS (`REPROBE_JOB_TIMES`,
reprobe.job_times); its log's path (`logs/<rule>/…`) names its rule, and the records are summed
by rule. The report gives the total, how much of the CPU went to the jobs and how much to
Snakemake itself, and the ten rules that take the most CPU and the most wall time.

    python benchmarks/default_run.py --cores 2 --update-readme

The suite's one default run is made with it (tests/conftest.py, `default_run`), in the folder
REPROBE_DEFAULT_RUN names when set (`.ci/run` names one; tests/cluster/run.sh then reads it).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from harness import (
    README,
    REPO,
    machine,
    markdown_table,
    measure,
    new_parser,
    now,
    positive_int,
    provenance,
    save,
)

SECTION = "default-run"
TOP = 10


def project_files(repo: Path) -> list[str]:
    """The files a fresh clone would have, and the uncommitted ones not ignored."""
    listed = subprocess.run(["git", "-C", str(repo), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=True).stdout
    return sorted({name for name in listed.decode().split("\0")
                   if name and (repo / name).is_file()})


def fresh_copy(repo: Path, target: Path) -> Path:
    """Copy the project's files into `target` (made anew)."""
    if target.exists():
        shutil.rmtree(target)
    for name in project_files(repo):
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(repo / name, target / name)
    return target


def rule_of(log: str, workdir: Path) -> str:
    """The rule a job's log belongs to: `logs/<rule>/…` or `logs/<rule>.log`."""
    try:
        parts = Path(log).resolve().relative_to(workdir.resolve() / "logs").parts
    except ValueError:
        return "(no rule log)"
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".log")


def by_rule(records: Iterable[dict], workdir: Path) -> dict[str, dict[str, float]]:
    """Jobs, summed wall and CPU seconds, and the longest job and largest peak RSS of each
    rule's processes."""
    rules: dict[str, dict[str, float]] = defaultdict(
        lambda: {"jobs": 0, "wall_s": 0.0, "cpu_s": 0.0, "max_wall_s": 0.0, "max_rss_mb": 0.0})
    for record in records:
        rule = rules[rule_of(record["log"], workdir)]
        rule["jobs"] += 1
        rule["wall_s"] += record["wall_s"]
        rule["cpu_s"] += record["cpu_s"]
        rule["max_wall_s"] = max(rule["max_wall_s"], record["wall_s"])
        rule["max_rss_mb"] = max(rule["max_rss_mb"], record["max_rss_mb"])
    return dict(rules)


def read_records(path: Path) -> list[dict]:
    """The job records of a run (none when no step ran)."""
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def top_rules(rules: dict[str, dict[str, float]], key: str, count: int = TOP) -> list[str]:
    """The `count` rules with the most `key` (wall_s or cpu_s)."""
    return sorted(rules, key=lambda name: (-rules[name][key], name))[:count]


def rule_table(rules: dict[str, dict[str, float]], names: list[str]) -> str:
    """Markdown: each rule's jobs, summed wall and CPU seconds, mean wall and peak RSS."""
    rows = [[f"`{name}`", f"{rules[name]['jobs']:.0f}", f"{rules[name]['wall_s']:.1f}",
             f"{rules[name]['cpu_s']:.1f}", f"{rules[name]['wall_s'] / rules[name]['jobs']:.2f}",
             f"{rules[name]['max_rss_mb']:.0f}"] for name in names]
    return markdown_table(["rule", "jobs", "wall s (sum)", "CPU s (sum)", "wall s / job",
                           "peak RSS MB (one job)"], rows)


def report(figures: dict, rules: dict[str, dict[str, float]], lines: list[str]) -> str:
    """The Markdown block: provenance, the totals, then the top rules by CPU and by wall."""
    jobs_cpu = sum(rule["cpu_s"] for rule in rules.values())
    jobs_wall = sum(rule["wall_s"] for rule in rules.values())
    jobs = sum(int(rule["jobs"]) for rule in rules.values())
    total = figures["wall_s"]
    rss = (f"{figures['peak_rss_mb']:.0f} MB" if figures["peak_rss_mb"]
           else "not sampled (no psutil)")
    block = [*lines, "",
             f"**Total: {total:.0f} s ({total / 60:.1f} min) wall** on {figures['cores']} cores; "
             f"{figures['cpu_s']:.0f} CPU s in all, of which {jobs_cpu:.0f} in the {jobs} "
             f"`reprobe` processes ({jobs_wall:.0f} s of their wall time summed), "
             f"{figures['snakemake_cpu_s']:.0f} in Snakemake's own process (planning, "
             f"scheduling, bookkeeping; sampled every 0.5 s) and "
             f"{figures['cpu_s'] - jobs_cpu - figures['snakemake_cpu_s']:.0f} elsewhere (the "
             f"jobs' shells and anything else the tree ran); peak RSS of "
             f"the whole tree {rss}.",
             "", f"The {TOP} rules that take the most CPU:", "",
             rule_table(rules, top_rules(rules, "cpu_s")), "",
             f"The {TOP} rules that take the most wall time (summed over their jobs):", "",
             rule_table(rules, top_rules(rules, "wall_s")), ""]
    return "\n".join(block) + "\n"


def run(args: argparse.Namespace) -> tuple[dict, dict[str, dict[str, float]]]:
    """Copy the project, run the workflow in the copy, and gather the figures."""
    workdir = fresh_copy(REPO, args.workdir.resolve())
    times = workdir / "logs" / "job_times.jsonl"
    times.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "snakemake", "--cores", str(args.cores), "all"]
    print(f"[default-run] {' '.join(command[2:])} in {workdir} ...", file=sys.stderr, flush=True)
    try:
        import psutil  # noqa: F401  (the tree's peak RSS is sampled with it)

        interval: float | None = 0.5
    except ImportError:
        interval = None
    measured = measure(command, workdir / "logs" / "snakemake.log", interval=interval,
                       cwd=workdir, env_extra={"REPROBE_JOB_TIMES": str(times)})
    figures = {"wall_s": round(measured.wall_s, 1), "cpu_s": round(measured.cpu_s, 1),
               "snakemake_cpu_s": round(measured.root_cpu_s, 1),
               "peak_rss_mb": round(measured.peak_rss_bytes / 2**20), "cores": args.cores}
    return figures, by_rule(read_records(times), workdir)


def main(argv: list[str] | None = None) -> int:
    """Time the default run and report it."""
    parser = new_parser(__doc__)
    parser.add_argument("--cores", type=positive_int, default=2,
                        help="Snakemake's --cores (default 2, the project's machine)")
    parser.add_argument("--workdir", type=Path, metavar="DIR",
                        help="make the copy and run there, and keep it (default: a temporary "
                        "folder, removed afterwards)")
    parser.add_argument("--json", type=Path, metavar="PATH",
                        help="write the figures and every rule's totals as JSON")
    parser.add_argument("--update-readme", nargs="?", type=Path, const=README, metavar="PATH",
                        help=f"write the Markdown block between the `{SECTION}` markers of PATH "
                        "(default docs/benchmarks.md)")
    args = parser.parse_args(argv)
    host, date = machine(), now()
    keep = args.workdir is not None
    if not keep:
        args.workdir = Path(tempfile.mkdtemp(prefix="reprobe-default-run-")) / "reprobe"
    try:
        figures, rules = run(args)
    finally:
        if not keep:
            shutil.rmtree(args.workdir.parent, ignore_errors=True)
    command = "python benchmarks/default_run.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    block = report(figures, rules, provenance(command.strip(), date, host))
    print(block)
    save(args, SECTION, block, {"machine": host, "date": date, **figures, "rules": rules})
    return 0


if __name__ == "__main__":
    sys.exit(main())
