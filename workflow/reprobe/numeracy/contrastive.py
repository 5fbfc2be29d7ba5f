"""Contrastive tests of magnitude (MAG) and numeration (NUM), after Naik et al. (2019), §2.

A test for a property p is a triple (x, x+, x-) where x+ is the candidate closest to x under p.
Closeness is the absolute difference of values. The three kinds differ only in x-:

* OVA: every candidate other than x and x+ (column `x_minus` is empty; the candidates are the
  rows of `candidates.tsv` written beside the tests, so a folder is self-contained).
* SC: the candidate second-closest to x.
* BC: the candidate furthest from x.

MAG: x is a number of the set, the candidates are the other numbers of the set.
NUM: x is an Arabic numeral, x+ the English numeral of the same value, the candidates are the
English numerals; only values present in both systems take part, as x and as candidates (so the
number of OVA candidates equals the number of tests, as the paper's random-choice note implies).

Decisions the paper leaves open, applied identically to MAG and NUM:

* One value, one number. Tokens that share a value ("1000", "1,000") are one number, spelled
  by its canonical token: the plain decimal rendering if present ("1000", "0.5"), else a token
  without capitals ("three" over "Three"), then the shortest, then the alphabetically first.
  Without this, "1,000" would be x+ of "1000" at distance 0 and tie 999's x+.
* Ties remove tests (footnote 4 generalised): a test exists only when p fixes each member
  uniquely. x+ tied with another candidate removes the OVA, SC and BC test of x; a tie for
  second-closest removes the SC test; a tie for furthest (x is the midpoint of the extremes)
  removes the BC test.
* A test needs x+ and at least one other candidate.
"""

from __future__ import annotations

import math
from decimal import Decimal
from pathlib import Path

import numpy as np
import pandas as pd

from reprobe.io import atomic_path

KINDS = ("OVA", "SC", "BC")
COLUMNS = ["x", "x_plus", "x_minus"]
CANDIDATES = "candidates"


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


def _nearest(
    values: np.ndarray, exact: list[Decimal], v: float, skip: int | None, count: int
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
        # On equal distance the smaller value comes first; callers treat the pair as tied.
        if to_left <= to_right:
            found.append((to_left, left))
            left -= 1
        else:
            found.append((to_right, right))
            right += 1
    return found


def _furthest(exact: list[Decimal], v: float, skip: int | None) -> int | None:
    """Index of the sorted value furthest from v, None when two are equally far."""
    # The furthest value is one of the extremes (skipping x itself).
    low = 1 if skip == 0 else 0
    high = len(exact) - 2 if skip == len(exact) - 1 else len(exact) - 1
    to_low, to_high = _exact(v) - exact[low], exact[high] - _exact(v)
    if to_low == to_high:
        return None
    return low if to_low > to_high else high


def _build(
    xs: list[tuple[str, float, int | None]], candidates: dict[str, float]
) -> dict[str, pd.DataFrame]:
    """Tests for each (x token, x value, x's own index among candidates or None)."""
    tokens = list(candidates)
    values = np.fromiter(candidates.values(), dtype=float, count=len(tokens))
    exact = [_exact(value) for value in values]
    rows: dict[str, list[tuple[str, str, str]]] = {kind: [] for kind in KINDS}
    for x, v, skip in xs:
        near = _nearest(values, exact, v, skip, 3)
        if len(near) < 2:
            continue
        (d_plus, plus), (d_second, second) = near[0], near[1]
        if d_plus == d_second:
            continue
        rows["OVA"].append((x, tokens[plus], ""))
        if len(near) < 3 or near[2][0] != d_second:
            rows["SC"].append((x, tokens[plus], tokens[second]))
        far = _furthest(exact, v, skip)
        if far is not None:
            rows["BC"].append((x, tokens[plus], tokens[far]))
    tests = {kind: pd.DataFrame(rows[kind], columns=COLUMNS) for kind in KINDS}
    tests[CANDIDATES] = pd.DataFrame({"token": tokens, "value": values})
    return tests


def build_magnitude_tests(numbers: dict[str, float]) -> dict[str, pd.DataFrame]:
    """OVA/SC/BC magnitude tests over a number set, plus the `candidates` frame (token, value)."""
    canonical = canonical_numbers(numbers)
    xs = [(token, value, index) for index, (token, value) in enumerate(canonical.items())]
    return _build(xs, canonical)


def build_numeration_tests(
    arabic: dict[str, float], english: dict[str, float]
) -> dict[str, pd.DataFrame]:
    """OVA/SC/BC numeration tests (x Arabic, x+ English of equal value), plus `candidates`."""
    digits = canonical_numbers(arabic)
    words = canonical_numbers(english)
    shared = set(digits.values()) & set(words.values())
    candidates = {token: value for token, value in words.items() if value in shared}
    xs = [(token, value, None) for token, value in digits.items() if value in shared]
    return _build(xs, candidates)


def write_tests(tests: dict[str, pd.DataFrame], folder: Path | str) -> None:
    """Write each frame as `<kind>.tsv` in `folder` (OVA, SC, BC, candidates), atomically."""
    for kind, frame in tests.items():
        with atomic_path(Path(folder) / f"{kind}.tsv") as temporary:
            frame.to_csv(temporary, sep="\t", index=False)


def read_tests(folder: Path | str) -> dict[str, pd.DataFrame]:
    """Read the frames `write_tests` wrote; tokens stay strings, OVA's x_minus stays empty."""
    tests = {}
    for kind in (*KINDS, CANDIDATES):
        path = Path(folder) / f"{kind}.tsv"
        # No NA parsing: an empty x_minus is "", and a token such as "NaN" stays a token.
        frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False, na_filter=False)
        if kind == CANDIDATES:
            frame["value"] = frame["value"].astype(float)
        tests[kind] = frame
    return tests
