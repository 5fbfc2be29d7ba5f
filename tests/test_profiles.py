"""Tests for the SLURM profiles: every key explained, the CI profile differing only where a
one-node test cluster needs it, groups naming real rules, resources left to the rules."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
PROFILES = REPO / "profiles"
# What profiles/slurm-ci may change: the test cluster has no accounts, one partition `ci`, no
# accounting database, a local disk, one small node (its caps), and no other node to spread
# jobs over (so each stage is one group job).
CI_DIFFERENCES = {"default-resources.slurm_account", "default-resources.slurm_partition",
                  "slurm-no-account", "slurm-status-command", "latency-wait",
                  "slurm-init-seconds-before-status-checks", "groups", "group-components",
                  "resources"}


def profile(name: str) -> dict:
    """A profile's settings."""
    return yaml.safe_load((PROFILES / name / "config.yaml").read_text(encoding="utf-8"))


def flat(settings: dict) -> dict[str, object]:
    """Settings with one level of nesting flattened to `key.subkey`."""
    found: dict[str, object] = {}
    for key, value in settings.items():
        if isinstance(value, dict) and key in ("default-resources",):
            found.update({f"{key}.{sub}": v for sub, v in value.items()})
        else:
            found[key] = value
    return found


def rule_names() -> set[str]:
    """Every rule of the workflow."""
    text = "".join(path.read_text(encoding="utf-8")
                   for path in (REPO / "workflow/rules").glob("*.smk"))
    return set(re.findall(r"^(?:rule|checkpoint) (\w+):", text, flags=re.M))


def test_every_top_level_key_of_the_cluster_profile_is_explained() -> None:
    lines = (PROFILES / "slurm/config.yaml").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        if re.match(r"^[a-z-]+:", line):
            assert lines[number - 1].startswith("#") or "#" in line, line


def test_the_ci_profile_differs_only_where_a_test_cluster_needs_it() -> None:
    real, ci = flat(profile("slurm")), flat(profile("slurm-ci"))
    differing = {key for key in real.keys() | ci.keys() if real.get(key) != ci.get(key)}
    assert differing <= CI_DIFFERENCES, differing - CI_DIFFERENCES
    assert ci["default-resources.slurm_partition"] == "ci"
    assert ci["slurm-status-command"] == "squeue"


def test_the_user_edits_one_marked_place() -> None:
    text = (PROFILES / "slurm/config.yaml").read_text(encoding="utf-8")
    assert text.count("EDIT HERE") == 1
    resources = profile("slurm")["default-resources"]
    assert resources["slurm_account"] == "$REPROBE_SLURM_ACCOUNT"
    assert resources["slurm_partition"] == "$REPROBE_SLURM_PARTITION"


def test_resources_are_left_to_the_rules() -> None:
    for name in ("slurm", "slurm-ci"):
        settings = profile(name)
        assert "set-resources" not in settings and "set-threads" not in settings
        assert settings["retries"] == 0


def test_groups_name_real_rules() -> None:
    rules = rule_names()
    for name in ("slurm", "slurm-ci"):
        groups = profile(name)["groups"]
        assert set(groups) <= rules, set(groups) - rules
        assert set(profile(name)["group-components"]) <= set(groups.values())
