"""Probe rows: which test set and which table each score lands in."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reprobe.numeracy.probes import build_test_set, ova_random_choice, probe_rows, random_rows
from reprobe.numeracy.settings import ContrastiveRules
from reprobe.step_settings import settings_from_schema


def write_numerals(path, arabic, english):
    rows = [(t, v, "arabic") for t, v in arabic.items()] + [
        (t, v, "english") for t, v in english.items()]
    pd.DataFrame(rows, columns=["token", "value", "system"]).to_csv(path, sep="\t", index=False)
    return path


def rules(**changes: object) -> dict[str, object]:
    """The test builders' rules: the schema's (numeracy.tie_break, …), but for `changes`."""
    return {**settings_from_schema(ContrastiveRules, "numeracy").keywords(), **changes}


def magnitude_vectors(tokens_values):
    """Vectors whose first coordinate is the value: Euclidean distance is value difference."""
    return {t: np.array([v / 5000.0, 1.0, 0.0]) for t, v in tokens_values.items()}


ARABIC = {"1": 1.0, "3": 3.0, "10": 10.0, "100": 100.0, "1000": 1000.0, "5000": 5000.0}
ENGLISH = {"one": 1.0, "three": 3.0, "ten": 10.0, "hundred": 100.0}


def test_shared_sets_use_numbers_common_to_every_model(tmp_path):
    a = write_numerals(tmp_path / "a.tsv", ARABIC, ENGLISH)
    b = write_numerals(tmp_path / "b.tsv", {k: v for k, v in ARABIC.items() if k != "5000"},
                       {"one": 1.0, "three": 3.0})
    counts = build_test_set([a, b], "mag", tmp_path / "mag", **rules())
    candidates = pd.read_csv(tmp_path / "mag/candidates.tsv", sep="\t", dtype=str)
    assert "5000" not in set(candidates["token"]) and counts["BC"] > 0
    build_test_set([a, b], "num", tmp_path / "num", **rules())
    num_candidates = pd.read_csv(tmp_path / "num/candidates.tsv", sep="\t", dtype=str)
    assert set(num_candidates["token"]) <= {"one", "three"}


def test_off_the_shelf_scores_land_in_tables_2_3_7_8_9_with_random_rows(tmp_path):
    path = write_numerals(tmp_path / "m.tsv", ARABIC, ENGLISH)
    build_test_set([path], "mag", tmp_path / "mag", **rules())
    build_test_set([path], "num", tmp_path / "num", **rules())
    vectors = magnitude_vectors({**ARABIC, **ENGLISH})
    rows = probe_rows("M", "off_the_shelf", vectors,
                      {"mag": tmp_path / "mag", "num": tmp_path / "num"},
                      dim=3, seed=1, with_random=True)
    tables = set(rows["table"])
    assert tables == {"table2", "table3", "table7", "table8", "table9"}
    assert set(rows["setting"]) == {"cosine", "euclidean", "cosine-random", "euclidean-random",
                                    "random-choice"}
    choice = rows[(rows["setting"] == "random-choice") & (rows["metric"] == "OVA-NUM")]
    # Numeration OVA picks among the English numerals: 1/#tests.
    assert choice["value"].iloc[0] == 100.0 / choice["n"].iloc[0]
    # Euclidean distance is the value difference here: every magnitude test passes.
    euclidean = rows[(rows["table"] == "table7") & (rows["setting"] == "euclidean")]
    assert list(euclidean["value"]) == [100.0, 100.0, 100.0]


def test_retrained_scores_land_in_table_4_and_random_rows_are_seeded(tmp_path):
    path = write_numerals(tmp_path / "m.tsv", ARABIC, ENGLISH)
    build_test_set([path], "mag", tmp_path / "mag", **rules())
    build_test_set([path], "num", tmp_path / "num", **rules())
    sets = {"mag": tmp_path / "mag", "num": tmp_path / "num"}
    rows = probe_rows("GloVe-Num", "retrained", magnitude_vectors({**ARABIC, **ENGLISH}), sets,
                      dim=3, seed=1, with_random=False)
    assert set(rows["table"]) == {"table4"} and len(rows) == 8  # six kinds + two random-choice
    first = random_rows("random", "retrained", sets, dim=8, seed=7)
    again = random_rows("random", "retrained", sets, dim=8, seed=7)
    pd.testing.assert_frame_equal(first, again)
    assert set(first["model"]) == {"random"} and len(first) == 6


def test_tie_rules_reach_the_test_files_and_random_choice_skips_excluded(tmp_path):
    path = write_numerals(tmp_path / "m.tsv", {str(i): float(i) for i in range(1, 6)}, {})
    counts = build_test_set([path], "mag", tmp_path / "larger", **rules(tie_break="larger"))
    assert counts == {"OVA": 5, "SC": 5, "BC": 5}
    sc = pd.read_csv(tmp_path / "larger/SC.tsv", sep="\t", dtype=str)
    assert ["3", "4", "5"] in sc.values.tolist()
    # 2, 3 and 4 each leave one equidistant number out of four: chance 1/3; 1 and 5: 1/4.
    assert ova_random_choice(tmp_path / "larger") == pytest.approx(100 * (3 / 3 + 2 / 4) / 5)
    build_test_set([path], "mag", tmp_path / "kept", **rules(exclude_equidistant=False))
    assert ova_random_choice(tmp_path / "kept") == 100.0 / 4

