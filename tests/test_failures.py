"""Tests for the list of failed jobs a run ends with."""

from __future__ import annotations

from pathlib import Path

from reprobe.failures import failed_jobs, summarize_log, summary

LOG = """\
[Mon Nov 23 18:31:08 2026]
Error in rule wikipse_mc:
    message: SLURM-job '61' failed
    jobid: 12
    input: data/raw/wikipse_figer_test_sample/test.txt
    output: results/wikipse/mc.csv
    log: logs/wikipse_mc.log (check log file(s) for error details)
    shell:
        python -m reprobe wikipse mc
        (command exited with non-zero exit code)
Removing output files of failed job wikipse_mc since they might be corrupted:
Error in group equate:
    jobs:
        rule equate_score:
            jobid: 3
    Error in rule equate_score:
        jobid: 3
        wildcards: variant=released, set=conll, model=HYP
        output: results/equate/scores/released/conll/HYP.csv
        log: logs/equate_score/released/conll/HYP.log (check log file(s) for error details)
    Error in rule wikipse_mc:
        jobid: 0
        log: logs/wikipse_mc.log (check log file(s) for error details)
Exiting because a job execution failed. Look above for error messages
"""


def test_each_failed_job_once_with_its_log_and_wildcards() -> None:
    jobs = failed_jobs(LOG.splitlines())
    assert [(j.rule, j.jobid) for j in jobs] == [("wikipse_mc", "12"), ("equate_score", "3")]
    assert jobs[0].log == "logs/wikipse_mc.log"
    assert jobs[1].wildcards == "variant=released, set=conll, model=HYP"


def test_the_summary_names_every_failed_job(tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    log.write_text(LOG, encoding="utf-8")
    text = summarize_log(log)
    assert text.startswith("2 job(s) failed:")
    assert "  - wikipse_mc — log: logs/wikipse_mc.log" in text
    assert "equate_score [variant=released, set=conll, model=HYP] — log:" in text
    assert "No failed job" in summary([])
    assert summarize_log([log]) == text
