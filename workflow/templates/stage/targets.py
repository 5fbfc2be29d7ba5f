"""What the STAGE_NAME rules read and which tables they write, from the config."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from reprobe.reads import Read, inside

TABLES = "results/tables/STAGE_NAME"


class StageTargets:
    """The stage's inputs and tables for one configuration."""

    def __init__(self, config: Mapping[str, Any], raw_target: Callable[[str], str]) -> None:
        spec = config["STAGE_NAME"]["input"]
        target = raw_target(spec["source"])
        self.input = Read(target, inside(target, spec.get("member")))
        self.tables = [f"{TABLES}/counts.csv", f"{TABLES}/counts.md"]
