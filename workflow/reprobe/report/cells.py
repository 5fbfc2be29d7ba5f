"""One table cell against the paper: read `ours (paper, Δ)` back, and judge it by a tolerance.

A paper-shaped cell is written by `reprobe.tables.shape.cell_text`: `ours (paper, Δ)` with
Δ = ours − paper (and ` n=…` where counts vary), `— (paper)` or `NA (…); paper p` when there is
no number of ours, a bare number when the paper has none. The tolerance is relative to the
paper's number: a cell is beyond it when |Δ| > tolerance × |paper|, so one key serves tables in
%, in fractions and in counts alike.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum

NUMBER = r"[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?"
COMPARED = re.compile(rf"^(?P<ours>{NUMBER}) \((?P<paper>{NUMBER}), (?P<delta>{NUMBER})\)"
                      r"(?: n=\d+)?$")
# Only the paper has a number: `— (p)` under a row label giving the reason, or `NA (…); paper p`.
PAPER_ONLY = re.compile(rf"^(?:— \({NUMBER}\)|.*; paper {NUMBER})$")


class Verdict(Enum):
    """How a cell stands against the paper; the value is its CSS class."""

    WITHIN = "within"
    BEYOND = "beyond"
    PAPER_ONLY = "paper-only"
    # Our number from stand-in data beside the paper's: a plumbing check, never counted.
    STAND_IN = "stand-in"


@dataclass(frozen=True)
class Comparison:
    """Our number, the paper's and Δ = ours − paper, as the table prints them."""

    ours: float
    paper: float
    delta: float

    def allowed(self, tolerance: float) -> float:
        """The largest |Δ| still within `tolerance` (relative to the paper's number)."""
        return tolerance * abs(self.paper)

    def verdict(self, tolerance: float) -> Verdict:
        """WITHIN when |Δ| ≤ tolerance × |paper|, else BEYOND."""
        # The slack absorbs float noise: a Δ printed as exactly the allowance is within it.
        within = abs(self.delta) <= self.allowed(tolerance) + 1e-9
        return Verdict.WITHIN if within else Verdict.BEYOND


def as_float(text: object) -> float | None:
    """A finite number from a cell or CSV value, None for text, blanks and NaN."""
    try:
        number = float(str(text).strip().replace("−", "-"))
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def parse_cell(text: str) -> Comparison | None:
    """The comparison in a paper-shaped cell `ours (paper, Δ)`, None for any other cell."""
    match = COMPARED.match(text.strip())
    if match is None:
        return None
    return Comparison(float(match["ours"]), float(match["paper"]), float(match["delta"]))


def comparison_of(ours: object, paper: object, delta: object) -> Comparison | None:
    """A comparison from separate value, paper and delta columns; None without both numbers."""
    mine, published = as_float(ours), as_float(paper)
    if mine is None or published is None:
        return None
    change = as_float(delta)
    return Comparison(mine, published, mine - published if change is None else change)


def cell_verdict(text: str, tolerance: float) -> Verdict | None:
    """The verdict of a paper-shaped cell; None for labels, counts and blank cells."""
    comparison = parse_cell(text)
    if comparison is not None:
        return comparison.verdict(tolerance)
    if PAPER_ONLY.match(text.strip()):
        return Verdict.PAPER_ONLY
    return None


def percent(tolerance: float) -> str:
    """A tolerance as people say it: 0.05 -> `5%`, 0.025 -> `2.5%`."""
    return f"{tolerance * 100:.2f}".rstrip("0").rstrip(".") + "%"
