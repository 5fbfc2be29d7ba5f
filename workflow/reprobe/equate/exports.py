"""The EQUATE evaluation sets as Hugging Face dataset folders (one per variant and set).

Each folder has one `test` split with the MultiNLI-layout fields every EQUATE file has
(`sentence1`, `sentence2`, `gold_label`); the released files' CoreNLP parse fields are left out
(the card says so). The card says how the set was built (a rebuilt set's `.card.json`), which
released pairs it recovers (its recovery counts) and how to cite the paper.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from reprobe.equate.jsonl import read_pairs
from reprobe.hf_dataset import DatasetCard, read_card_json, write_dataset_folder
from reprobe.text import require_rows

FIELDS = ("sentence1", "sentence2", "gold_label")
CITATION = """@inproceedings{ravichander-etal-2019-equate,
  title = {{EQUATE}: A Benchmark Evaluation Framework for Quantitative Reasoning in Natural
           Language Inference},
  author = {Ravichander, Abhilasha and Naik, Aakanksha and Rose, Carolyn and Hovy, Eduard},
  booktitle = {Proceedings of the 23rd Conference on Computational Natural Language Learning
               (CoNLL)},
  year = {2019}
}"""
LICENCE = ("The sets are derived from their sources, whose terms apply: RTE (PASCAL RTE "
           "challenges), CNN stories (the DeepMind Q&A corpus), Reddit posts (Pushshift "
           "dumps), AQuA-RAT (Apache 2.0) and the arithmetic word problems of Roy & Roth. "
           "No single licence covers the collection; check each source before redistributing.")
# What each variant of a set is, for the card.
VARIANTS = {
    "released": "The authors' released file, read as it is.",
    "rebuilt": "Rebuilt by reprobe from the raw sources the config names.",
    "perturbation": "Section 5.1's sets, made by reprobe from the released NewsNLI pairs.",
}


def pairs_frame(path: Path) -> pd.DataFrame:
    """The labelled pairs of an EQUATE jsonl file, in file order (an empty set is an error)."""
    rows = [{field: row[field] for field in FIELDS} for row in read_pairs(Path(path))]
    require_rows(path, len(rows), "labelled pairs")
    return pd.DataFrame(rows, columns=list(FIELDS))


def built_lines(variant: str, built: dict[str, Any]) -> list[str]:
    """The card's "how it was built" lines: the variant, then the build's own record."""
    lines = [VARIANTS[variant], "Kept fields: " + ", ".join(FIELDS) + " (the CoreNLP parse "
             "fields of the released files are left out)."]
    if built.get("parameters"):
        lines.append("Parameters: " + json.dumps(built["parameters"], sort_keys=True))
    for reason, count in sorted(built.get("skipped", {}).items()):
        lines.append(f"Skipped {count}: {reason}.")
    return lines


def comparison_text(recovery: dict[str, Any]) -> str:
    """How a rebuilt set compares with the released one: the released pairs it recovers."""
    if not recovery:
        return ""
    released = recovery.get("released", 0)
    exact = recovery.get("recovered_exact", 0)
    swapped = recovery.get("recovered_swapped", 0)
    return (f"Of the {released} released pairs, {exact} are recovered exactly and {swapped} "
            f"with premise and hypothesis swapped (reprobe's recovery counts: "
            f"{json.dumps(recovery, sort_keys=True)}).")


def export_set(pairs: Path, output: Path, *, variant: str, test_set: str,
               recovery: Path | None, sources: dict[str, Any]) -> None:
    """Write one EQUATE set as a dataset folder with its card."""
    built = read_card_json(pairs)
    counts = json.loads(Path(recovery).read_text(encoding="utf-8")) if recovery else {}
    card = DatasetCard(
        pretty_name=f"EQUATE {test_set} ({variant})",
        summary=(f"The {test_set} set of EQUATE (Ravichander et al., 2019), a benchmark of "
                 "quantitative reasoning in natural language inference: premise "
                 "(`sentence1`), hypothesis (`sentence2`) and label (`gold_label`)."),
        license="other", licence_note=LICENCE, task_categories=("text-classification",),
        citation=CITATION, built=built_lines(variant, built),
        sources=built.get("sources") or sources, comparison=comparison_text(counts))
    write_dataset_folder(Path(output), {"test": pairs_frame(pairs)}, card)
