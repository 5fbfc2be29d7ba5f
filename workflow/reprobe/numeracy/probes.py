"""Run the numeracy probes of a model and write long score rows for the paper's tables.

Which test sets a model is scored on, and which table each score lands in (Naik et al. 2019):
- off-the-shelf models: magnitude tests over the numbers common to every off-the-shelf model
  (Table 2 with cosine, Table 7 with Euclidean distance) and numeration tests over the model's
  own numerals (Table 3 with cosine; SC in Table 8 and BC in Table 9 with Euclidean), each beside
  a random embedding of the same vocabulary and dimension ("-random" settings);
- retrained models: magnitude and numeration tests over the numbers common to every retrained
  model (Table 4, cosine);
- the random-embedding rows ("Random" in Tables 2 and 7, "random" in Table 4) score a seeded
  Gaussian embedding on the same sets.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pandas as pd

from reprobe.numeracy.contrastive import (
    CANDIDATES,
    EXCLUDED,
    KINDS,
    TieBreak,
    build_magnitude_tests,
    build_numeration_tests,
    common_numbers,
    read_tests,
    write_tests,
)
from reprobe.numeracy.scoring import (
    Vectors,
    random_choice_accuracy,
    random_vectors,
    score_tests,
)
from reprobe.scores import ScoreRow, score_frame

PAPER = "numeracy"
# (test set role, distance, table per test kind) for each kind of model.
OFF_THE_SHELF_PLAN = [
    ("mag", "cosine", {"OVA": "table2", "SC": "table2", "BC": "table2"}),
    ("mag", "euclidean", {"OVA": "table7", "SC": "table7", "BC": "table7"}),
    ("num", "cosine", {"OVA": "table3", "SC": "table3", "BC": "table3"}),
    ("num", "euclidean", {"SC": "table8", "BC": "table9"}),
]
RETRAINED_PLAN = [
    ("mag", "cosine", {"OVA": "table4", "SC": "table4", "BC": "table4"}),
    ("num", "cosine", {"OVA": "table4", "SC": "table4", "BC": "table4"}),
]
PLANS = {"off_the_shelf": OFF_THE_SHELF_PLAN, "retrained": RETRAINED_PLAN}


def read_numerals(path: Path) -> pd.DataFrame:
    """A model's numerals table (token, value, system)."""
    return pd.read_csv(path, sep="\t", dtype={"token": str}, keep_default_na=False)


def numeral_maps(numerals: pd.DataFrame) -> tuple[dict[str, float], dict[str, float]]:
    """Arabic and English numerals of a vocabulary as token → value maps."""
    arabic = numerals[numerals["system"] == "arabic"]
    english = numerals[numerals["system"] == "english"]
    return (dict(zip(arabic["token"], arabic["value"].astype(float), strict=True)),
            dict(zip(english["token"], english["value"].astype(float), strict=True)))


def build_test_set(
    numeral_files: list[Path], kind: str, folder: Path, *, tie_break: TieBreak,
    exclude_equidistant: bool,
) -> dict[str, int]:
    """Write the magnitude ("mag") or numeration ("num") tests over numbers common to all
    the given vocabularies; return the number of tests of each kind."""
    maps = [numeral_maps(read_numerals(path)) for path in numeral_files]
    arabic = common_numbers([a for a, _ in maps])
    rules = {"tie_break": tie_break, "exclude_equidistant": exclude_equidistant}
    if kind == "mag":
        tests = build_magnitude_tests(arabic, **rules)
    else:
        tests = build_numeration_tests(arabic, common_numbers([e for _, e in maps]), **rules)
    write_tests(tests, folder)
    return {name: len(tests[name]) for name in KINDS}


def score_set(folder: Path, vectors: Vectors, metric: str) -> dict[str, tuple[float, int]]:
    """Accuracy and test count of each kind of a test set folder."""
    tests = read_tests(folder)
    candidates = tests[CANDIDATES]["token"].astype(str).tolist()
    return {
        kind: score_tests(tests[kind], candidates if kind == "OVA" else None, vectors, metric)
        for kind in KINDS
    }


def ova_random_choice(folder: Path) -> float:
    """Percent accuracy of picking x+ at random among an OVA test's candidates, averaged.

    A magnitude test's candidates are the set's other numbers; a numeration test's are the
    English numerals (so 1/#tests, as the note of the paper's Table 3 says); a candidate the
    test excludes (as close to x as x+) is not one to pick."""
    tests = read_tests(folder)
    pool = set(tests[CANDIDATES]["token"])
    ova = tests["OVA"]
    excluded = ova[EXCLUDED] if EXCLUDED in ova else [""] * len(ova)
    sizes = [len(pool) - (x in pool) - bool(left_out)
             for x, left_out in zip(ova["x"], excluded, strict=True)]
    if not sizes:
        return random_choice_accuracy("OVA", 0)
    # Exact fractions: with one pool size for all tests this is exactly 100/size.
    chance = sum((Fraction(1, size) for size in sizes), Fraction(0)) / len(sizes)
    return float(100 * chance)


def set_tokens(folder: Path) -> list[str]:
    """Every token a test set mentions (for a random embedding of the same vocabulary)."""
    tests = read_tests(folder)
    tokens = set(tests[CANDIDATES]["token"].astype(str))
    for kind in KINDS:
        for column in ("x", "x_plus", "x_minus"):
            tokens.update(t for t in tests[kind][column].fillna("").astype(str) if t)
    return sorted(tokens)


def probe_rows(
    model: str,
    role: str,
    vectors: Vectors,
    sets: dict[str, Path],
    *,
    dim: int,
    seed: int,
    with_random: bool,
) -> pd.DataFrame:
    """Score rows of one model on its test sets (role: "off_the_shelf" or "retrained")."""
    rows: list[ScoreRow] = []
    for set_role, metric, tables in PLANS[role]:
        folder = sets[set_role]
        scores = score_set(folder, vectors, metric)
        random_scores = (
            score_set(folder, random_vectors(set_tokens(folder), dim, seed), metric)
            if with_random else {}
        )
        suffix = "MAG" if set_role == "mag" else "NUM"
        for kind, table in tables.items():
            accuracy, n = scores[kind]
            rows.append(ScoreRow(PAPER, table, model, metric, f"{kind}-{suffix}", accuracy, n))
            if kind == "OVA" and metric == "cosine":
                rows.append(ScoreRow(PAPER, table, model, "random-choice", f"OVA-{suffix}",
                                     ova_random_choice(folder), n))
            if with_random:
                accuracy, n = random_scores[kind]
                rows.append(ScoreRow(PAPER, table, model, f"{metric}-random",
                                     f"{kind}-{suffix}", accuracy, n))
    return score_frame(rows)


def random_rows(
    model: str, role: str, sets: dict[str, Path], *, dim: int, seed: int
) -> pd.DataFrame:
    """Score rows of the random-embedding baseline on a role's shared test sets."""
    plan = [entry for entry in PLANS[role] if role == "retrained" or entry[0] == "mag"]
    rows: list[ScoreRow] = []
    for set_role, metric, tables in plan:
        folder = sets[set_role]
        scores = score_set(folder, random_vectors(set_tokens(folder), dim, seed), metric)
        suffix = "MAG" if set_role == "mag" else "NUM"
        for kind, table in tables.items():
            accuracy, n = scores[kind]
            rows.append(ScoreRow(PAPER, table, model, metric, f"{kind}-{suffix}", accuracy, n))
    return score_frame(rows)
