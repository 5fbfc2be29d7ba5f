"""Which EQUATE sets and Table 6 rows a configuration asks for (the rules' target lists)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from reprobe.errors import ConfigError

SETS = ("rte_quant", "newsnli", "redditnli", "stresstest", "awpnli")
# People labelled these: their rebuilt candidates take labels from the released file.
CANDIDATE_SETS = ("newsnli", "redditnli")
# Labelled by construction: rebuilt whether or not a released file is configured.
SYNTHETIC_SETS = ("stresstest", "awpnli")
PERTURBATION_SETS = ("unperturbed", "perturbed")


def slug(name: str) -> str:
    """A row name as a file name: runs of characters other than letters, digits, . and -
    become one -."""
    return re.sub(r"[^\w.-]+", "-", name).strip("-")


def table_rows(neural: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    """Table 6 rows as file-name slug -> (row name, predictor kind), in table order."""
    rows = [("MAJ", "majority"), ("HYP", "hyp"), *((name, "neural") for name in neural),
            ("Q-REAS", "qreas")]
    slugs = [slug(name) for name, _ in rows]
    clash = sorted({s for s in slugs if slugs.count(s) > 1})
    if clash:
        raise ConfigError(f"equate.neural: row names clash as file names: {clash}")
    return {slug(name): (name, kind) for name, kind in rows}


def labelled_candidate_sets(released: Mapping[str, Any]) -> list[str]:
    """Candidate sets a released file can label."""
    return [name for name in CANDIDATE_SETS if name in released]


def compared_synthetic_sets(released: Mapping[str, Any]) -> list[str]:
    """Synthetic sets with a released file to compare the rebuilt one with."""
    return [name for name in SYNTHETIC_SETS if name in released]


def evaluation_sets(released: Mapping[str, Any]) -> dict[str, list[str]]:
    """Per variant, the sets every row is scored on: the released files configured; the sets
    built here (candidates only when labelled); §5.1's sets when released NewsNLI is there."""
    return {
        "released": [name for name in SETS if name in released],
        "rebuilt": [*labelled_candidate_sets(released), *SYNTHETIC_SETS],
        "perturbation": list(PERTURBATION_SETS) if "newsnli" in released else [],
    }
