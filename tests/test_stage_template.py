"""Adding a paper: a throwaway stage made from `workflow/templates/stage/` in a copy of the
project (its three places, its schema and config sections, one registry line) runs through
Snakemake to its table and its report page, and its CLI and its targets test work."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from conftest import REPO

TEMPLATE = REPO / "workflow/templates/stage"
NAME, TITLE = "toy", "Toy et al. 2026, Counting Lines"
# Where each template file goes in the project, by the recipe of the template's README.
PLACES = {"__init__.py": f"workflow/reprobe/{NAME}/__init__.py",
          "commands.py": f"workflow/reprobe/{NAME}/commands.py",
          "targets.py": f"workflow/reprobe/{NAME}/targets.py",
          "counts.py": f"workflow/reprobe/{NAME}/counts.py",
          "rules.smk": f"workflow/rules/{NAME}.smk",
          "test_targets.py": f"tests/test_{NAME}_targets.py"}


def instantiate(name: str) -> str:
    """A template file with the new stage's name and title."""
    text = (TEMPLATE / name).read_text(encoding="utf-8")
    return text.replace("STAGE_NAME", NAME).replace("STAGE_TITLE", TITLE)


def project_copy(root: Path) -> Path:
    """The project's workflow, configs and tests, copied."""
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", ".snakemake")
    for part in ("workflow", "config", "envs", "profiles", "tests"):
        shutil.copytree(REPO / part, root / part, ignore=ignore)
    shutil.copy(REPO / "Snakefile", root / "Snakefile")
    return root


def add_stage(root: Path) -> None:
    """The recipe: the stage's files, its schema section and the registry line."""
    for name, place in PLACES.items():
        (root / place).parent.mkdir(parents=True, exist_ok=True)
        (root / place).write_text(instantiate(name), encoding="utf-8")
    schema_path = root / "workflow/schemas/config.schema.yaml"
    schema = yaml.safe_load(schema_path.read_text(encoding="utf-8"))
    schema["properties"].update(yaml.safe_load(instantiate("schema.yaml")))
    schema_path.write_text(yaml.safe_dump(schema, sort_keys=False), encoding="utf-8")
    registry = root / "workflow/reprobe/stages.py"
    text = registry.read_text(encoding="utf-8")
    text = text.replace("from reprobe.stage import Stage\n",
                        f"from reprobe import {NAME}\nfrom reprobe.stage import Stage\n")
    text = text.replace("    wikipse.STAGE,\n)", f"    wikipse.STAGE,\n    {NAME}.STAGE,\n)")
    registry.write_text(text, encoding="utf-8")


def write_config(root: Path) -> Path:
    """A config with the new stage only, reading one local text file."""
    sample = root / "lines.txt"
    sample.write_text("one\ntwo\n\nthree\n", encoding="utf-8")
    config = {"extends": None, "seed": 1, "sources": {f"{NAME}_sample": {"path": str(sample)}},
              **yaml.safe_load(instantiate("config.yaml"))}
    path = root / "config/toy.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def test_a_stage_from_the_template_runs_to_its_table_and_report_page(tmp_path):
    root = project_copy(tmp_path / "project")
    add_stage(root)
    configfile = write_config(root)
    run = subprocess.run([sys.executable, "-m", "snakemake", "all", "--cores", "1",
                          "-s", str(root / "Snakefile"), "-d", str(tmp_path / "run"),
                          "--configfile", str(configfile)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    table = (tmp_path / "run/results/tables/toy/counts.csv").read_text(encoding="utf-8")
    assert table.splitlines() == ["input,lines", "lines.txt,3"]
    page = (tmp_path / "run/results/report/toy.html").read_text(encoding="utf-8")
    assert TITLE in page
    # Its shortcut target, its CLI help, and its own targets test.
    shortcut = subprocess.run([sys.executable, "-m", "snakemake", NAME, "-n", "-s",
                               str(root / "Snakefile"), "-d", str(tmp_path / "run"),
                               "--configfile", str(configfile)],
                              capture_output=True, text=True, timeout=600)
    assert shortcut.returncode == 0, shortcut.stderr[-2000:]
    environment = {"PYTHONPATH": str(root / "workflow"), "PATH": "/usr/bin:/bin"}
    helped = subprocess.run([sys.executable, "-m", "reprobe", NAME, "counts", "--help"],
                            capture_output=True, text=True, env=environment, cwd=root)
    assert helped.returncode == 0 and "--input" in helped.stdout
    tested = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             str(root / PLACES["test_targets.py"])],
                            capture_output=True, text=True, env=environment, cwd=root)
    assert tested.returncode == 0, tested.stdout[-2000:]
