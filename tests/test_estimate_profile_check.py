"""A profile's `$REPROBE_SLURM_…` left unset stops the run before planning, in one line."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import REPO
from reprobe.estimate.profile_check import default_resources, profile_problem, unset_values


class Settings:
    """Snakemake's `DefaultResources`, as the Snakefile sees it: the arguments as written."""

    def __init__(self, *args: str) -> None:
        self.args = list(args)


def test_an_unset_variable_and_an_empty_account_are_named(monkeypatch) -> None:
    monkeypatch.delenv("REPROBE_SLURM_ACCOUNT", raising=False)
    monkeypatch.setenv("REPROBE_SLURM_PARTITION", "")
    resources = default_resources(Settings("mem_mb=2048", "slurm_account=$REPROBE_SLURM_ACCOUNT",
                                           "slurm_partition='$REPROBE_SLURM_PARTITION'"))
    assert unset_values(resources) == ["slurm_account: $REPROBE_SLURM_ACCOUNT is not set",
                                       "slurm_partition is empty"]


def test_set_variables_and_no_profile_pass(monkeypatch) -> None:
    monkeypatch.setenv("REPROBE_SLURM_ACCOUNT", "acct")
    assert profile_problem(Settings("slurm_account=$REPROBE_SLURM_ACCOUNT")) is None
    assert profile_problem(Settings("slurm_partition=ci", "mem_mb=2048")) is None
    assert profile_problem(None) is None


def dry_run(profile: str, environment: dict[str, str]) -> subprocess.CompletedProcess:
    """A dry run of `all` under one of the profiles."""
    return subprocess.run([sys.executable, "-m", "snakemake", "-n", "all", "--profile",
                           f"profiles/{profile}"], cwd=REPO, env=environment,
                          capture_output=True, text=True, timeout=180)


@pytest.mark.parametrize("account", [None, ""])
def test_the_slurm_profile_without_an_account_stops_before_planning(account) -> None:
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith("REPROBE_SLURM_")}
    if account is not None:
        environment["REPROBE_SLURM_ACCOUNT"] = account
    environment["REPROBE_SLURM_PARTITION"] = "p"
    done = dry_run("slurm", environment)
    assert done.returncode != 0
    said = done.stdout + done.stderr
    assert "Building DAG" not in said
    assert "slurm_account" in said and "REPROBE_SLURM_ACCOUNT" in said
    assert "slurm_partition" not in said.split("Export")[0]


def test_the_ci_profile_needs_no_account() -> None:
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith("REPROBE_SLURM_")}
    done = dry_run("slurm-ci", environment)
    assert done.returncode == 0, (done.stdout + done.stderr)[-2000:]
