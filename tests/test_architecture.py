"""The package keeps the architecture contracts of pyproject.toml's [tool.importlinter]."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from conftest import REPO, missing_tool


@pytest.fixture(autouse=True)
def importlinter_installed() -> None:
    """The contracts need import-linter (a test dependency)."""
    if importlib.util.find_spec("importlinter") is None:
        missing_tool("import-linter is not installed (pip install -e '.[test]')")

PYPROJECT = REPO / "pyproject.toml"
PACKAGE = REPO / "workflow" / "reprobe"
# import-linter's own entry point, run by this interpreter (the package has no __main__).
LINT_IMPORTS = "from importlinter.cli import lint_imports_command; lint_imports_command()"


def contract_name(contract_id: str) -> str:
    """The name of the contract with this id in the repository's configuration."""
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(c["name"] for c in contracts if c["id"] == contract_id)


def contract_names() -> list[str]:
    """The names of every contract in the repository's configuration."""
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    return [c["name"] for c in config["tool"]["importlinter"]["contracts"]]


def lint_imports(root: Path, config: Path) -> subprocess.CompletedProcess:
    """Check the contracts in config against the reprobe package found first under root."""
    env = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "200", "NO_COLOR": "1"}
    command = [sys.executable, "-c", LINT_IMPORTS, "--config", str(config)]
    return subprocess.run(
        [*command, "--no-cache", "--no-logo"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def copy_of_package(tmp_path: Path) -> Path:
    """A copy of reprobe and the repository's configuration in tmp_path; returns the root."""
    shutil.copytree(PACKAGE, tmp_path / "reprobe", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copyfile(PYPROJECT, tmp_path / "pyproject.toml")
    return tmp_path


def add_line(path: Path, line: str) -> None:
    """Append a line of code to a module, creating the module (and its folder) if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    path.write_text(f"{text}\n{line}\n", encoding="utf-8")


def test_the_package_keeps_every_contract():
    result = lint_imports(REPO / "workflow", PYPROJECT)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    for name in contract_names():
        assert f"{name} KEPT" in output, output


@pytest.mark.parametrize(
    ("module", "line", "contract_id", "named"),
    [
        # A ground-floor module reaches up into a paper stage.
        ("io.py", "import reprobe.equate", "ground-floor", "reprobe.io -> reprobe.equate"),
        # One paper stage imports another.
        (
            "equate/__init__.py",
            "from reprobe import numeracy",
            "stages-independent",
            "reprobe.equate -> reprobe.numeracy",
        ),
        # A new top-level package is placed in neither layer.
        ("newstage/__init__.py", "", "ground-floor", "reprobe.newstage"),
    ],
)
def test_a_forbidden_import_breaks_the_contract_by_name(tmp_path, module, line, contract_id, named):
    root = copy_of_package(tmp_path)
    add_line(root / "reprobe" / module, line)
    result = lint_imports(root, root / "pyproject.toml")
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert f"{contract_name(contract_id)} BROKEN" in output, output
    assert named in output, output
