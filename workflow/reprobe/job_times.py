"""What one `reprobe …` process cost, recorded when `REPROBE_JOB_TIMES` names a file.

`benchmarks/default_run.py` sets it for a whole run and sums the records by rule: every rule
runs one `reprobe` process whose standard error is its log, `logs/<rule>/….log` or
`logs/<rule>.log`, so the log's path names the rule. One JSON line a process, appended in one
write (lines of a few hundred bytes from concurrent jobs do not interleave). Linux only: a
process's start and its log are read from /proc.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Sequence
from pathlib import Path

VARIABLE = "REPROBE_JOB_TIMES"


def process_wall_seconds() -> float:
    """Seconds since this process started (the interpreter's own start included)."""
    ticks = os.sysconf("SC_CLK_TCK")
    # /proc/self/stat: field 22 is the start time in clock ticks since boot; the command name
    # (field 2) may hold spaces, so count from the closing parenthesis.
    fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
    started = int(fields[19]) / ticks
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return max(uptime - started, 0.0)


def log_path() -> str:
    """Where this process's standard error goes: the rule's log, under Snakemake."""
    try:
        return os.readlink("/proc/self/fd/2")
    except OSError:
        return ""


def job_record(argv: Sequence[str], status: int) -> dict[str, object]:
    """Wall and CPU seconds (this process and the children it waited for) and peak RSS."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    return {"argv": list(argv), "log": log_path(), "status": status,
            "wall_s": round(process_wall_seconds(), 3), "cpu_s": round(cpu, 3),
            # ru_maxrss is in KiB on Linux: the largest single process, not the sum.
            "max_rss_mb": round(max(own.ru_maxrss, children.ru_maxrss) / 1024, 1),
            "ended": round(time.time(), 3)}


def record_job_time(argv: Sequence[str], status: int) -> None:
    """Append this process's record to the file `REPROBE_JOB_TIMES` names, if it names one."""
    target = os.environ.get(VARIABLE)
    if not target:
        return
    line = json.dumps(job_record(argv, status)) + "\n"
    with open(target, "a", encoding="utf-8") as handle:
        handle.write(line)
