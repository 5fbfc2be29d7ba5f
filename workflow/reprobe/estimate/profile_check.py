"""A run's profile checked before any job is planned: a `$VARIABLE` a profile's default
resources name but the environment leaves unset (profiles/slurm's `slurm_account`, its
`slurm_partition`) would otherwise reach sbatch literally and fail there, job after job."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w*)\}?")
# Resources sbatch refuses when given empty (an account-less cluster drops the key instead).
NOT_EMPTY = ("slurm_account", "slurm_partition")


def default_resources(settings: Any) -> dict[str, str]:
    """The default resources a run was given (Snakemake's `DefaultResources`, or None), each
    with the environment's variables filled in, as Snakemake fills them in for a job."""
    arguments = getattr(settings, "args", None) or []
    return {name: os.path.expandvars(value.strip().strip("'\"")) for name, _, value in
            (str(argument).partition("=") for argument in arguments)}


def unset_values(resources: Mapping[str, str]) -> list[str]:
    """What is wrong with them, one phrase a resource: an unset variable, an empty value."""
    problems = []
    for name, value in resources.items():
        unset = VARIABLE.search(value)
        if unset:
            problems.append(f"{name}: ${unset.group(1)} is not set")
        elif name in NOT_EMPTY and not value:
            problems.append(f"{name} is empty")
    return problems


def profile_problem(settings: Any) -> str | None:
    """One line saying what the profile leaves unset and how to set it, None when nothing."""
    problems = unset_values(default_resources(settings))
    if not problems:
        return None
    return ("the profile's default-resources are not filled in: " + "; ".join(problems)
            + ". Export the variables (export REPROBE_SLURM_ACCOUNT=my_account "
            "REPROBE_SLURM_PARTITION=my_partition) or edit the profile's EDIT HERE block "
            "(profiles/slurm/config.yaml; a cluster without accounts: slurm-no-account: true "
            "and no slurm_account).")
