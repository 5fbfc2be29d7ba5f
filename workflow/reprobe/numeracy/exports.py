"""Numeracy's contrastive tests as Hugging Face dataset folders, one per number set.

A number set's folder has a split per test kind and property: `ova_mag`, `sc_mag`, `bc_mag`
(magnitude) and `ova_num`, `sc_num`, `bc_num` (numeration), as the set has them. A row is one
test as the test TSV holds it, with each token's value beside it: `x`, `x_plus` (the candidate
closest to x), `x_minus` (SC's nearest candidate farther than x+, BC's furthest; null for OVA,
whose x- is every other candidate) and `excluded` (OVA: the candidate as close to x as x+, left
out of x-; null otherwise). OVA's candidates are written beside the splits as
`candidates/<property>.parquet` (token, value): the hub's loader reads the splits only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from reprobe.errors import InputFormatError, ReprobeError
from reprobe.hf_dataset import DatasetCard, write_dataset_folder
from reprobe.numeracy.contrastive import CANDIDATES, COLUMNS, EXCLUDED, KINDS
from reprobe.numeracy.settings import ContrastiveRules
from reprobe.numerals import arabic_value

SCHEMA = pa.schema([("x", pa.string()), ("x_value", pa.float64()), ("x_plus", pa.string()),
                    ("x_plus_value", pa.float64()), ("x_minus", pa.string()),
                    ("x_minus_value", pa.float64()), ("excluded", pa.string())])
PROPERTIES = {"mag": "magnitude", "num": "numeration"}
CITATION = """@inproceedings{naik-etal-2019-exploring,
  title = {Exploring Numeracy in Word Embeddings},
  author = {Naik, Aakanksha and Ravichander, Abhilasha and Rose, Carolyn and Hovy, Eduard},
  booktitle = {Proceedings of the 57th Annual Meeting of the Association for Computational
               Linguistics (ACL)},
  year = {2019}
}"""
LICENCE = (
    "The tests are numbers and number words drawn from the vocabularies of the embeddings "
    "named under Sources; no text is copied. The terms of those sources apply to what is "
    "taken from them: Wikipedia text (the retrained models' corpus) is CC BY-SA; published "
    "vectors carry their own licences (GloVe: PDDL 1.0; fastText's: CC BY-SA 3.0; word2vec's "
    "GoogleNews: Apache 2.0; gensim's test data: LGPL 2.1). Naik et al. released no test "
    "sets. Cite the paper when using these tests.")
COMPARISON = (
    "Naik et al. (2019) published no test sets, so there is no released version to compare "
    "with. The workflow's Tables 2-4 and 7-9 (results/tables/numeracy/) set the number of "
    "tests of each kind beside the paper's.")
SCOPES = {
    "retrained": "the numbers common to the vocabularies of the retrained models ({models})",
    "off_the_shelf": "the Arabic numbers common to the vocabularies of the off-the-shelf "
                     "models ({models})",
    "model": "the numerals of the off-the-shelf model {models}",
}


def read_test_file(path: Path, columns: Sequence[str]) -> pd.DataFrame:
    """A test TSV as strings (empty cells stay ""); a missing column names the file."""
    frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False, na_filter=False)
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        raise InputFormatError(path, "header", f"missing columns {missing} (has "
                                               f"{list(frame.columns)})")
    return frame


def read_candidates(folder: Path) -> dict[str, float]:
    """A test folder's candidates, token → value; an error names the file and row."""
    path = Path(folder) / f"{CANDIDATES}.tsv"
    frame = read_test_file(path, ["token", "value"])
    values: dict[str, float] = {}
    for row, (token, value) in enumerate(zip(frame["token"], frame["value"], strict=True), 2):
        try:
            values[token] = float(value)
        except ValueError:
            raise InputFormatError(path, f"line {row}", f"value {value!r} is no number") \
                from None
    return values


def token_value(token: str, candidates: Mapping[str, float], path: Path, row: int) -> float:
    """A test token's value: a candidate's, else an Arabic numeral's (numeration's x)."""
    value = candidates.get(token, arabic_value(token))
    if value is None:
        raise InputFormatError(path, f"line {row}",
                               f"{token!r} is neither a candidate nor an Arabic numeral")
    return float(value)


def kind_table(folder: Path, kind: str, candidates: Mapping[str, float]) -> pa.Table:
    """One kind's tests (OVA.tsv, SC.tsv or BC.tsv of a folder) as the export's rows."""
    path = Path(folder) / f"{kind}.tsv"
    frame = read_test_file(path, [*COLUMNS, EXCLUDED] if kind == "OVA" else COLUMNS)
    rows: dict[str, list[Any]] = {name: [] for name in SCHEMA.names}
    for row, test in enumerate(frame.to_dict("records"), 2):
        minus = test["x_minus"] or None
        for name in ("x", "x_plus"):
            rows[name].append(test[name])
            rows[f"{name}_value"].append(token_value(test[name], candidates, path, row))
        rows["x_minus"].append(minus)
        rows["x_minus_value"].append(token_value(minus, candidates, path, row)
                                     if minus else None)
        rows["excluded"].append(test.get(EXCLUDED) or None)
    return pa.table(rows, schema=SCHEMA)


def built_lines(rules: ContrastiveRules, candidates: Mapping[str, int]) -> list[str]:
    """The card's "how it was built" lines: the rules of §2 and the config's choices."""
    pools = ", ".join(f"{PROPERTIES[name]} {count}" for name, count in candidates.items())
    return [
        "One number per value: tokens of equal value (\"1000\", \"1,000\") are one number, "
        "spelled by its plain decimal token where the vocabulary has it.",
        "x+ is the candidate closest to x (footnote 3); magnitude's candidates are the set's "
        "other numbers, numeration's x is an Arabic numeral and x+ the English numeral of the "
        "same value, among the English numerals whose value is in both systems.",
        "SC's x- is the nearest candidate strictly farther than x+; BC's x- the furthest, "
        "strictly farther than x+; OVA's x- every candidate other than x, x+ and `excluded` "
        f"(the candidates: `candidates/<property>.parquet`; {pools} of them).",
        f"Ties: equally far candidates are taken {rules.tie_break} value first "
        f"(`numeracy.tie_break: {rules.tie_break}`); ties never remove a number's tests.",
        "Footnote 4 (\"examples like (3,2,4) are removed\"): no x- is as close to x as x+; "
        + ("OVA leaves that candidate out of x- and names it in `excluded`"
           if rules.ova_exclude_equidistant else "OVA keeps it in x- (`excluded` is empty)")
        + f" (`numeracy.ova_exclude_equidistant: "
          f"{json.dumps(rules.ova_exclude_equidistant)}`)."]


def export_number_set(folders: Mapping[str, Path], output: Path, *, number_set: str,
                      scope: str, models: Sequence[str], rules: ContrastiveRules,
                      sources: Mapping[str, Any]) -> dict[str, int]:
    """Write one number set's test folders as a dataset folder; return the rows per split."""
    tables: dict[str, pa.Table] = {}
    pools: dict[str, dict[str, float]] = {}
    for prop, folder in folders.items():
        pools[prop] = read_candidates(Path(folder))
        for kind in KINDS:
            tables[f"{kind.lower()}_{prop}"] = kind_table(Path(folder), kind, pools[prop])
    # `datasets` cannot read a Parquet file without rows: a kind without tests is left out.
    splits = {name: table for name, table in tables.items() if table.num_rows}
    if not splits:
        raise ReprobeError(f"{', '.join(map(str, folders.values()))}: no tests (too few "
                           "numbers): nothing to export")
    empty = [name for name in tables if name not in splits]
    what = SCOPES[scope].format(models=", ".join(models))
    card = DatasetCard(
        pretty_name=f"Numeracy contrastive tests ({number_set})",
        summary=("The contrastive tests of Naik et al. (2019), \"Exploring Numeracy in Word "
                 "Embeddings\", §2: does an embedding place x closer to x+ than to x-, by "
                 f"magnitude or by numeration? These are the tests over {what}."),
        license="other", licence_note=LICENCE, task_categories=("feature-extraction",),
        citation=CITATION, built=[
            *built_lines(rules, {p: len(c) for p, c in pools.items()}),
            *([f"No tests of {', '.join(empty)}: too few numbers; those splits are left out."]
              if empty else [])],
        sources=sources, comparison=COMPARISON)
    write_dataset_folder(Path(output), splits, card)
    # Written after the folder, which write_dataset_folder replaces as a whole.
    (Path(output) / "candidates").mkdir()
    for prop, pool in pools.items():
        pq.write_table(pa.table({"token": list(pool), "value": list(pool.values())}),
                       Path(output) / "candidates" / f"{prop}.parquet")
    return {name: table.num_rows for name, table in splits.items()}
