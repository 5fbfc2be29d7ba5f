"""The list of failed jobs a run ends with (Snakefile's `onerror:`), read from Snakemake's log.

Snakemake reports each failure where it happens, possibly hundreds of lines before the run
ends (`keep-going` lets the other jobs finish); the summary names every failed job again, with
its wildcards and its log, as the last thing the user sees.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

ERROR = re.compile(r"^(\s*)Error in rule (\S+):\s*$")
FIELD = re.compile(r"^\s*(jobid|wildcards|log|output):\s*(.*)$")


class FailedJob(NamedTuple):
    """One failed job as Snakemake reported it."""

    rule: str
    jobid: str
    wildcards: str
    log: str


def failed_jobs(lines: Iterable[str]) -> list[FailedJob]:
    """Every `Error in rule …` block of a Snakemake log, once per job (a group job's failures
    are reported by the group's own Snakemake too, with other job ids)."""
    found: dict[tuple[str, str, str], FailedJob] = {}
    rule, fields, indent = None, {}, 0

    def close() -> None:
        """Record the block being read."""
        if rule is not None:
            job = FailedJob(rule, fields.get("jobid", ""), fields.get("wildcards", ""),
                            fields.get("log", "").split(" (check")[0])
            found.setdefault((job.rule, job.wildcards, job.log), job)

    for line in lines:
        start = ERROR.match(line)
        if start:
            close()
            rule, fields, indent = start.group(2), {}, len(start.group(1))
            continue
        if rule is None:
            continue
        field = FIELD.match(line)
        if field and len(line) - len(line.lstrip()) > indent:
            fields.setdefault(field.group(1), field.group(2).strip())
        elif line.strip() and len(line) - len(line.lstrip()) <= indent:
            close()
            rule = None
    close()
    return list(found.values())


def summary(jobs: list[FailedJob]) -> str:
    """A few lines naming each failed job, its wildcards and where its log is."""
    if not jobs:
        return "No failed job found in the log (see the messages above)."
    lines = [f"{len(jobs)} job(s) failed:"]
    for job in jobs:
        where = f" [{job.wildcards}]" if job.wildcards else ""
        log = f" — log: {job.log}" if job.log else ""
        lines.append(f"  - {job.rule}{where}{log}")
    lines.append("Fix the cause and run the same command again: finished jobs are kept.")
    return "\n".join(lines)


def summarize_log(log: str | Path | Iterable[str | Path]) -> str:
    """The summary of failed jobs of a Snakemake log file (or of several: Snakemake 9 gives
    `onerror` a list)."""
    paths = [log] if isinstance(log, str | Path) else list(log)
    lines: list[str] = []
    for path in paths:
        with Path(path).open(encoding="utf-8", errors="replace") as handle:
            lines += handle.readlines()
    return summary(failed_jobs(lines))
