"""Every rule's log lies under `logs/<rule>`: benchmarks/default_run.py names a job's rule by
its log's path (reprobe.job_times), and a reader finds a job's log by its rule's name."""

from __future__ import annotations

import re

from conftest import REPO

RULE = re.compile(r"^(?:rule (\w+):|use rule \w+ as (\w+) with:)(.*?)(?=^\S|\Z)", re.S | re.M)
LOG = re.compile(r"\n    log:\s*\n\s+(?:\w+=)?f?\"([^\"]+)\"")


def rule_logs() -> dict[str, str]:
    """Each rule with a log, by name: its log's path pattern, as the rule files write it."""
    logs = {}
    for path in [REPO / "Snakefile", *sorted((REPO / "workflow/rules").glob("*.smk"))]:
        for match in RULE.finditer(path.read_text(encoding="utf-8")):
            name, body = match.group(1) or match.group(2), match.group(3)
            log = LOG.search(body)
            if log:
                logs[name] = log.group(1)
    return logs


def test_every_rule_logs_under_its_own_name():
    logs = rule_logs()
    assert len(logs) > 80
    misplaced = {name: log for name, log in logs.items()
                 if not (log.startswith(f"logs/{name}/") or log == f"logs/{name}.log")}
    assert misplaced == {}
