"""Contrastive tests of magnitude (MAG) and numeration (NUM), after Naik et al. (2019), §2.

A test for a property p is a triple (x, x+, x-) where x+ is the candidate closest to x under p
(footnote 3: "x+ is chosen to be the token closest to x under p"). Closeness is the absolute
difference of values. The three kinds differ only in x-:

* OVA: every candidate other than x and x+ ("x− = {y|y ∈ X − x, y ≠ x+}"). Column `x_minus` is
  empty; the candidates are the rows of `candidates.tsv` written beside the tests, so a folder
  is self-contained, and column `excluded` names a candidate left out of x- (see below).
* SC: "the second-closest to x after x+": the nearest candidate strictly farther than x+.
* BC: "the furthest from x": the furthest candidate, which must be strictly farther than x+.

MAG: x is a number of the set, the candidates are the other numbers of the set.
NUM: x is an Arabic numeral, x+ the English numeral of the same value, the candidates are the
English numerals; only values present in both systems take part, as x and as candidates (so the
number of OVA candidates equals the number of tests, as the paper's random-choice note implies).

Decisions, applied identically to MAG and NUM:

* One value, one number. Tokens that share a value ("1000", "1,000") are one number, spelled
  by its canonical token: the plain decimal rendering if present ("1000", "0.5"), else a token
  without capitals ("three" over "Three"), then the shortest, then the alphabetically first.
  Without this, "1,000" would be x+ of "1000" at distance 0 and tie 999's x+.
* Ties are broken, not tests removed: every number keeps its tests. §2 tests x = 3 although 2
  and 4 are equally close ("SC-MAG: (3, 4, 5)", "BC-MAG: (3, 4, 1000000)"). Candidates equally
  far from x are ordered by `tie_break`: "smaller" (the default) puts the smaller value first,
  "larger" the larger one. It picks x+ among equally close candidates, SC's x- among equally
  close farther ones, and BC's x- when x is the midpoint of the extremes.
* Footnote 4: "we consider 2 and 4 equidistant from 3, so examples like (3,2,4) are removed".
  So no x- is as close to x as x+: SC and BC take x- strictly farther than x+, and OVA leaves
  the candidate equidistant with x+ out of x- when `exclude_equidistant` (the default), since
  OVA is the triples (x, x+, y) over all y and (3, 2, 4) is one of them.
* A test needs x+ and at least one x-; in one dimension at most one other candidate is as
  close to x as x+ (the one on the other side of x).
"""

from __future__ import annotations

import math
from decimal import Decimal
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from reprobe.io import atomic_path

KINDS = ("OVA", "SC", "BC")
COLUMNS = ["x", "x_plus", "x_minus"]
# OVA only: the candidate left out of x- because it is as close to x as x+ ("" if none).
EXCLUDED = "excluded"
CANDIDATES = "candidates"
TieBreak = Literal["smaller", "larger"]
TIE_BREAKS: tuple[TieBreak, ...] = ("smaller", "larger")


def _plain(value: float) -> str:
    """The plain decimal spelling of a value: 1000.0 -> "1000", 0.5 -> "0.5"."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _canonical_key(token: str, value: float) -> tuple[bool, bool, int, str]:
    """Sort key that puts a value's preferred spelling first."""
    return (token != _plain(value), any(c.isupper() for c in token), len(token), token)


def canonical_numbers(numbers: dict[str, float]) -> dict[str, float]:
    """One token per value (see the module notes), ordered by value."""
    best: dict[float, str] = {}
    for token, value in numbers.items():
        value = float(value)
        if math.isnan(value):
            raise ValueError(f"numeral {token!r} has no value (NaN)")
        kept = best.get(value)
        if kept is None or _canonical_key(token, value) < _canonical_key(kept, value):
            best[value] = token
    return {best[value]: value for value in sorted(best)}


def common_numbers(maps: list[dict[str, float]]) -> dict[str, float]:
    """The tokens present in every map, ordered by value then token; values must agree."""
    if not maps:
        return {}
    # Common by token, not by value: each model must have a vector for the very token tested.
    shared = set(maps[0]).intersection(*maps[1:])
    for token in shared:
        values = {float(numbers[token]) for numbers in maps}
        if len(values) > 1:
            raise ValueError(f"numeral {token!r} has different values across maps: {values}")
    return {token: float(maps[0][token])
            for token in sorted(shared, key=lambda t: (float(maps[0][t]), t))}


def _exact(value: float) -> Decimal:
    """A value as the decimal it was written as, so that 0.3 - 0.2 == 0.2 - 0.1 (ties)."""
    return Decimal(repr(float(value)))


def _check_tie_break(tie_break: str) -> bool:
    """Whether the smaller value comes first among equally far candidates."""
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {TIE_BREAKS}, not {tie_break!r}")
    return tie_break == "smaller"


def _nearest(
    values: np.ndarray, exact: list[Decimal], v: float, skip: int | None, count: int,
    smaller_first: bool,
) -> list[tuple[Decimal, int]]:
    """Up to `count` (distance, index) of sorted `values` nearest to v, closest first."""
    # Values are sorted and unique, so the nearest ones lie on both sides of v's insertion point.
    right = int(np.searchsorted(values, v, side="left"))
    left = right - 1
    here = _exact(v)
    found: list[tuple[Decimal, int]] = []
    while len(found) < count and (left >= 0 or right < len(values)):
        if left == skip:
            left -= 1
            continue
        if right == skip:
            right += 1
            continue
        to_left = here - exact[left] if left >= 0 else Decimal("Infinity")
        to_right = exact[right] - here if right < len(values) else Decimal("Infinity")
        # The left neighbour is the smaller value: on equal distance the tie-break decides.
        if to_left < to_right or (to_left == to_right and smaller_first):
            found.append((to_left, left))
            left -= 1
        else:
            found.append((to_right, right))
            right += 1
    return found


def _furthest(
    exact: list[Decimal], v: float, skip: int | None, smaller_first: bool
) -> tuple[Decimal, int]:
    """(distance, index) of the sorted value furthest from v, x itself skipped."""
    # The furthest value is one of the extremes; when both are as far the tie-break decides.
    low = 1 if skip == 0 else 0
    high = len(exact) - 2 if skip == len(exact) - 1 else len(exact) - 1
    to_low, to_high = _exact(v) - exact[low], exact[high] - _exact(v)
    if to_low > to_high or (to_low == to_high and smaller_first):
        return to_low, low
    return to_high, high


def _build(
    xs: list[tuple[str, float, int | None]],
    candidates: dict[str, float],
    tie_break: TieBreak,
    exclude_equidistant: bool,
) -> dict[str, pd.DataFrame]:
    """Tests for each (x token, x value, x's own index among candidates or None)."""
    smaller_first = _check_tie_break(tie_break)
    tokens = list(candidates)
    values = np.fromiter(candidates.values(), dtype=float, count=len(tokens))
    exact = [_exact(value) for value in values]
    rows: dict[str, list[tuple[str, ...]]] = {kind: [] for kind in KINDS}
    for x, v, skip in xs:
        # Three suffice: x+, at most one candidate as close, then the first strictly farther.
        near = _nearest(values, exact, v, skip, 3, smaller_first)
        if not near:
            continue
        d_plus, plus = near[0]
        tied = [index for distance, index in near[1:] if distance == d_plus]
        farther = [index for distance, index in near[1:] if distance > d_plus]
        left_out = tokens[tied[0]] if tied and exclude_equidistant else ""
        if len(tokens) - (skip is not None) - 1 - bool(left_out) > 0:
            rows["OVA"].append((x, tokens[plus], "", left_out))
        if farther:
            rows["SC"].append((x, tokens[plus], tokens[farther[0]]))
            d_far, far = _furthest(exact, v, skip, smaller_first)
            if d_far > d_plus:
                rows["BC"].append((x, tokens[plus], tokens[far]))
    tests = {kind: pd.DataFrame(rows[kind], columns=_columns(kind)) for kind in KINDS}
    tests[CANDIDATES] = pd.DataFrame({"token": tokens, "value": values})
    return tests


def _columns(kind: str) -> list[str]:
    """The columns of a kind's tests: OVA also names the candidate it leaves out of x-."""
    return [*COLUMNS, EXCLUDED] if kind == "OVA" else COLUMNS


def build_magnitude_tests(
    numbers: dict[str, float], *, tie_break: TieBreak, exclude_equidistant: bool,
) -> dict[str, pd.DataFrame]:
    """OVA/SC/BC magnitude tests over a number set, plus the `candidates` frame (token, value)."""
    canonical = canonical_numbers(numbers)
    xs = [(token, value, index) for index, (token, value) in enumerate(canonical.items())]
    return _build(xs, canonical, tie_break, exclude_equidistant)


def build_numeration_tests(
    arabic: dict[str, float], english: dict[str, float], *, tie_break: TieBreak,
    exclude_equidistant: bool,
) -> dict[str, pd.DataFrame]:
    """OVA/SC/BC numeration tests (x Arabic, x+ English of equal value), plus `candidates`."""
    digits = canonical_numbers(arabic)
    words = canonical_numbers(english)
    shared = set(digits.values()) & set(words.values())
    candidates = {token: value for token, value in words.items() if value in shared}
    xs = [(token, value, None) for token, value in digits.items() if value in shared]
    return _build(xs, candidates, tie_break, exclude_equidistant)


def write_tests(tests: dict[str, pd.DataFrame], folder: Path | str) -> None:
    """Write each frame as `<kind>.tsv` in `folder` (OVA, SC, BC, candidates), atomically."""
    for kind, frame in tests.items():
        with atomic_path(Path(folder) / f"{kind}.tsv") as temporary:
            frame.to_csv(temporary, sep="\t", index=False)


def read_tests(folder: Path | str) -> dict[str, pd.DataFrame]:
    """Read the frames `write_tests` wrote; tokens stay strings, empty cells stay ""."""
    tests = {}
    for kind in (*KINDS, CANDIDATES):
        path = Path(folder) / f"{kind}.tsv"
        # No NA parsing: an empty x_minus is "", and a token such as "NaN" stays a token.
        frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False, na_filter=False)
        if kind == CANDIDATES:
            frame["value"] = frame["value"].astype(float)
        tests[kind] = frame
    return tests
