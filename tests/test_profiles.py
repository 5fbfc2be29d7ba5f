"""Tests for the SLURM profiles: every key explained, the CI profile differing only where a
one-node test cluster needs it, groups naming real rules, resources left to the rules."""

from __future__ import annotations

import functools
import re
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
PROFILES = REPO / "profiles"
# What profiles/slurm-ci may change: the test cluster has no accounts, one partition `ci`, no
# accounting database, a local disk, and one small node, so its jobs go in a few group jobs per
# stage (with the caps of one group job).
CI_DIFFERENCES = {"default-resources.slurm_account", "default-resources.slurm_partition",
                  "slurm-no-account", "slurm-status-command", "latency-wait",
                  "slurm-init-seconds-before-status-checks", "groups", "group-components",
                  "cores", "resources", "set-resource-scopes"}


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


@functools.cache
def rule_names() -> frozenset[str]:
    """Every rule of the workflow, as Snakemake lists them for the default and the paper
    configs (a rule made in a loop, `equate_score_<variant>`, has its name only there)."""
    names: set[str] = set()
    for config in ("config.yaml", "paper.yaml"):
        listed = subprocess.run([sys.executable, "-m", "snakemake", "--list-rules", "-s",
                                 str(REPO / "Snakefile"), "--configfile",
                                 str(REPO / "config" / config)],
                                capture_output=True, text=True, check=True, cwd=REPO).stdout
        names |= set(re.findall(r"^(\w+)$", listed, flags=re.M))
    return frozenset(names)


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


def local_rules() -> set[str]:
    """Rules that run where Snakemake runs (`localrule: True` or a `localrules:` list)."""
    names = set()
    for path in (REPO / "workflow/rules").glob("*.smk"):
        text = path.read_text(encoding="utf-8")
        for block in re.split(r"^(?=rule |localrules:)", text, flags=re.M):
            if block.startswith("localrules:"):
                names |= set(re.findall(r"^    (\w+),", block, flags=re.M))
            elif re.search(r"^    localrule: True", block, flags=re.M):
                names.add(re.match(r"rule (\w+):", block).group(1))
        # `use rule a as b with:` keeps a's localrule.
        for base, name in re.findall(r"^use rule (\w+) as (\w+) with:", text, flags=re.M):
            if base in names:
                names.add(name)
    return names


def test_the_ci_groups_name_real_cluster_rules() -> None:
    groups = profile("slurm-ci")["groups"]
    assert set(groups) <= rule_names(), set(groups) - rule_names()
    assert not set(groups) & local_rules(), set(groups) & local_rules()
    assert set(profile("slurm-ci")["group-components"]) == set(groups.values())


def test_tables_downloads_and_report_pages_are_never_queued() -> None:
    tables = {name for name in rule_names() if "table" in name or "figure" in name}
    assert tables | {"fetch_source", "extract_source", "report_page"} <= local_rules()


def test_the_real_profile_leaves_each_job_its_threads() -> None:
    # A `cores` cap applies to every job's threads under a cluster executor, not only to groups.
    settings = profile("slurm")
    assert "cores" not in settings and "groups" not in settings


def test_the_default_workflow_profile_shows_failures_and_agrees_with_the_others() -> None:
    # Snakemake reads profiles/default without --profile and merges the others over it.
    default = profile("default")
    assert default == {"show-failed-logs": True, "rerun-incomplete": True}
    for name in ("local", "slurm", "slurm-ci"):
        other = profile(name)
        assert all(other.get(key, value) == value for key, value in default.items()), name
