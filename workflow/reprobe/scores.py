"""The long score table: one row per computed number, the contract between stages and tables.

Every stage writes its numbers as rows (paper, table, model, setting, metric, value, n) with
`write_scores`, and every table reads them back with `read_scores`. `value` is the number
(accuracy in %, R², a count, ...), `n` what it was counted over; NaN means no score. A table
cell without a number of ours holds an `NA (reason)` value instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from reprobe.io import atomic_path

if TYPE_CHECKING:  # pandas loads with the first table, not with every command's start
    import pandas as pd

NOT_CONFIGURED = "NA (not configured)"
NO_SCORE = "NA (too few numbers for a test)"


class ScoreRow(NamedTuple):
    """One computed number of one model in one paper's table."""

    paper: str
    table: str
    model: str
    setting: str
    metric: str
    value: float
    n: int


SCORE_COLUMNS = list(ScoreRow._fields)


def score_frame(rows: Iterable[ScoreRow]) -> pd.DataFrame:
    """Score rows as a frame with the score columns (empty rows give an empty frame)."""
    import pandas as pd

    return pd.DataFrame(list(rows), columns=SCORE_COLUMNS)


def write_scores(rows: Iterable[ScoreRow] | pd.DataFrame, path: Path) -> None:
    """Write score rows (or a frame of them) as CSV, atomically."""
    import pandas as pd

    frame = rows if isinstance(rows, pd.DataFrame) else score_frame(rows)
    if list(frame.columns) != SCORE_COLUMNS:
        raise ValueError(f"score columns are {SCORE_COLUMNS}, not {list(frame.columns)}")
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False)


def read_scores(paths: Sequence[Path]) -> pd.DataFrame:
    """Concatenate score files (CSV, the score columns)."""
    import pandas as pd

    frames = [pd.read_csv(path, dtype={"model": str, "setting": str, "metric": str})
              for path in paths]
    if not frames:
        return pd.DataFrame(columns=SCORE_COLUMNS)
    return pd.concat(frames, ignore_index=True)
