"""Any embedding probed over its own numbers in one process (`reprobe numeracy probe --vectors`).

The workflow's steps for an off-the-shelf model, run one after the other on a single model:
its numerals and Table 1 counts (`numeracy numerals`), magnitude and numeration tests over the
numbers of its own vocabulary (`numeracy tests`, the model being the only one that shares the
set), the contrastive probes beside a random embedding of the same vocabulary (`numeracy
probe`), and the kNN regression of magnitude over its numbers (`numeracy knn`). The workflow
runs this same code for each `numeracy.extra_vectors` row, so a person's rows here are the
rows the workflow writes, and the tables show them as rows beyond the paper.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

import pandas as pd

from reprobe.errors import ConfigError
from reprobe.numeracy.contrastive import common_numbers
from reprobe.numeracy.knn import TARGETS, knn_r2
from reprobe.numeracy.probes import build_test_set, numeral_maps, probe_rows, read_numerals
from reprobe.numeracy.scoring import Vectors
from reprobe.numeracy.settings import KnnSettings, VectorProbeSettings
from reprobe.numeracy.targets import OFF_THE_SHELF_ROLE
from reprobe.numerals import numeral_counts, vocabulary_numerals
from reprobe.scores import ScoreRow, score_frame

log = logging.getLogger("reprobe.numeracy")
PAPER = "numeracy"


def write_numerals(words: list[str], path: Path) -> None:
    """A vocabulary's numerals table (token, value, system), as `numeracy numerals` writes it."""
    vocabulary_numerals(words).to_csv(path, sep="\t", index=False)


def table1_rows(model: str, words: list[str]) -> list[ScoreRow]:
    """Table 1's rows of one vocabulary: its English and Arabic numerals, counted and as %."""
    counts = numeral_counts(words)
    rows: list[ScoreRow] = []
    for system in ("english", "arabic"):
        share = 100.0 * counts[system] / counts["vocabulary"] if counts["vocabulary"] else 0.0
        rows += [ScoreRow(PAPER, "table1", model, "", f"{system}_count",
                          counts[system], counts["vocabulary"]),
                 ScoreRow(PAPER, "table1", model, "", f"{system}_share",
                          round(share, 2), counts["vocabulary"])]
    return rows


def checked_knn(settings: KnnSettings) -> KnnSettings:
    """The kNN settings, refused before any model when the target is unknown."""
    # Checked first: a model's ValueError in knn_row is logged and scored NaN, not raised.
    if settings.target not in TARGETS:
        raise ConfigError(f"numeracy.knn.target: {settings.target!r} is not one of {TARGETS}")
    return settings


def knn_row(model: str, vectors: Vectors, numbers: dict[str, float], settings: KnnSettings,
            seed: int) -> ScoreRow:
    """Table 6's row of one model: R² of kNN regression of magnitude over the numbers given
    (NaN, with a warning, when they are too few)."""
    if not numbers:
        log.warning("%s: no kNN score: no numbers to regress", model)
        return ScoreRow(PAPER, "table6", model, "", "r2", float("nan"), 0)
    try:
        r2 = round(knn_r2(vectors, numbers, k=settings.k, target=settings.target, seed=seed,
                          test_size=float(settings.test_size)), 4)
    except ValueError as exc:
        log.warning("%s: no kNN score: %s", model, exc)
        r2 = float("nan")
    return ScoreRow(PAPER, "table6", model, "", "r2", r2, len(numbers))


def probe_own_numbers(model: str, vectors: Vectors, words: list[str], dim: int,
                      settings: VectorProbeSettings, seed: int) -> pd.DataFrame:
    """Every score row of one embedding (Tables 1-3 and 6-9), tested on its own numbers."""
    knn = checked_knn(settings.knn_settings())
    with tempfile.TemporaryDirectory(prefix="reprobe-numeracy-") as folder:
        # Through the files the workflow's steps write and read, so that the tests match.
        numerals = Path(folder) / "numerals.tsv"
        write_numerals(words, numerals)
        sets = {kind: Path(folder) / kind for kind in ("mag", "num")}
        for kind, tests in sets.items():
            counts = build_test_set([numerals], kind, tests, **settings.rules().keywords())
            log.info("%s: %s tests %s", model, kind, counts)
        probes = probe_rows(model, OFF_THE_SHELF_ROLE, vectors, sets, dim=dim, seed=seed,
                            with_random=True)
        numbers = common_numbers([numeral_maps(read_numerals(numerals))[0]])
    return pd.concat([score_frame(table1_rows(model, words)), probes,
                      score_frame([knn_row(model, vectors, numbers, knn, seed)])],
                     ignore_index=True)
