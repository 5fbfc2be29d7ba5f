"""EQUATE's Table 7 (CoNLL appendix A; arXiv §7): every baseline's accuracy on MultiNLI
dev-matched beside the paper's, the check the paper offers that its baselines were set up right
("These scores are very close to the numbers reported by the original publications").

Scores in: long rows with `table` = "table7", `metric` = "MultiNLI dev-matched" (the `mnli`
variant of `reprobe equate score`). The paper's rows are named as Table 6 names them (its
"Hyp Only", "Chen", "NB" and "OpenAI Transformer" are HYP, CH, SSEN and GPT).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from reprobe.equate.evaluate import MNLI_METRIC
from reprobe.equate.targets import canonical_model
from reprobe.scores import read_scores
from reprobe.tables.beyond import beyond_note, is_beyond, mark_beyond_paper
from reprobe.tables.compare import compare_with_reference, read_reference
from reprobe.tables.shape import View
from reprobe.tables.write import write_table

TITLE = "Table 7: accuracy (%) on MultiNLI dev-matched of every row trained on MultiNLI"
NOTE = ("Each model picks its best epoch on this same set, as the released code of every "
        "baseline does; the paper's numbers are its appendix's.")
BEYOND_NOTE = beyond_note("models or stand-ins the paper did not train (`equate.trained` and "
                          "`equate.neural` rows not named as one of its rows)")


def table7(scores: pd.DataFrame, reference: pd.DataFrame,
           beyond_paper: Sequence[str] = ()) -> pd.DataFrame:
    """Table 7 long: every scored row beside the paper's number (rows beyond it marked, last)."""
    ours = scores[scores["table"].astype(str) == "table7"].copy()
    ours["model"] = ours["model"].astype(str).map(canonical_model)
    ours["setting"] = ""
    published = reference[reference["table"].astype(str) == "table7"].copy()
    published["model"] = published["model"].astype(str).map(canonical_model)
    published["setting"] = ""
    table = compare_with_reference(ours, published, "table7")
    return mark_beyond_paper(table, beyond_paper)


def write_table7(scores: list[Path], reference: Path, csv: Path, md: Path,
                 beyond_paper: Sequence[str] = ()) -> None:
    """Build Table 7 from score files and the published numbers; write CSV and Markdown."""
    frame = table7(read_scores(scores), read_reference(reference, "table7"), beyond_paper)
    notes = [NOTE, *([BEYOND_NOTE] if frame["model"].map(is_beyond).any() else [])]
    write_table(frame, csv, md, title=TITLE,
                view=View(rows=("model",), order=(MNLI_METRIC,), count_label="#pairs"),
                notes=notes)
