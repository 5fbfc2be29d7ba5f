"""A paper's stage as the workflow, the CLI and the report see it, declared once in the stage's
package (`STAGE` in `reprobe/<name>/__init__.py`); `reprobe.stages` lists them all.

Everything else follows from the name, one convention for every stage: its config section, its
package, its rules file, its tables' folder, its published numbers, its report page and its
shortcut target (`snakemake <name>`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Stage:
    """One paper's stage: its name (config section, package, folders, target) and title."""

    name: str
    title: str

    @property
    def rules(self) -> str:
        """Its rules file, relative to the Snakefile."""
        return f"workflow/rules/{self.name}.smk"

    @property
    def commands(self) -> str:
        """The module whose `register(subparsers, add)` adds its `reprobe <name> …` steps."""
        return f"reprobe.{self.name}.commands"

    @property
    def targets(self) -> str:
        """The module deciding what each of its rules reads and which tables it writes."""
        return f"reprobe.{self.name}.targets"

    @property
    def tables(self) -> str:
        """The folder its tables are written to (one report page per folder)."""
        return f"results/tables/{self.name}"

    @property
    def reference(self) -> str:
        """The folder of its paper's published numbers (long CSV)."""
        return f"config/reference/{self.name}"

    @property
    def report_page(self) -> str:
        """Its page of the report."""
        return f"results/report/{self.name}.html"

    @property
    def shortcut(self) -> str:
        """The Snakemake target that builds all its tables."""
        return self.name
