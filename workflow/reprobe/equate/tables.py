"""EQUATE (Ravichander et al. 2019) Table 6 and the §5.1 perturbation study, computed, beside the
published numbers.

Scores in: long rows (paper, table, model, setting, metric, value, n) with `table` = "table6",
`metric` = a test set (RTE-Q, NewsNLI, RedditNLI, NR ST = the Stress Test, AWPNLI; common
spellings such as "rte_quant", "Stress Test", "AwpNLI" are accepted) and `value` = accuracy in
percent; for §5.1, `table` = "s5.1" and `metric` = "unperturbed" / "perturbed".

Derived here, per model: Δ = accuracy − MAJ's accuracy on the same set, and the averages over
the natural sets (RTE-Q, NewsNLI, RedditNLI), the synthetic sets (NR ST, AWPNLI) and all five,
both of accuracies (`Nat.Avg.`, …) and of Δs (`Nat.Avg. Δ`, …). The CoNLL table prints the Δ
averages (its caption says "average accuracy", but its numbers are the means of the Δ columns,
MAJ's row is +0.0); the arXiv table prints the mean of the five accuracies ("Avg."). The two
differ by MAJ's average, so both are given and each joins to the version that has it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from reprobe.equate.labels import NO_PARSE, fold, is_two_class
from reprobe.equate.targets import QREAS, canonical_model, paper_rows
from reprobe.errors import ReprobeError
from reprobe.io import iter_json_objects
from reprobe.scores import NO_SCORE, NOT_CONFIGURED, read_scores
from reprobe.tables.beyond import beyond_note, is_beyond, mark_beyond_paper
from reprobe.tables.compare import compare_with_reference, read_reference
from reprobe.tables.shape import View
from reprobe.tables.verdicts import BY_CONSTRUCTION
from reprobe.tables.write import write_table
from reprobe.text import open_text

DELTA = "Δ"
MAJORITY = "MAJ"
NATURAL = ("RTE-Q", "NewsNLI", "RedditNLI")
SYNTHETIC = ("NR ST", "AWPNLI")
SETS = (*NATURAL, *SYNTHETIC)
AVERAGES: dict[str, tuple[str, ...]] = {
    "Nat.Avg.": NATURAL, "Synth.Avg.": SYNTHETIC, "All Avg.": SETS}
PERTURBATION = ("unperturbed", "perturbed")
NEUTRAL_SHARE = "neutral share of perturbed errors"
CHANGE = "perturbed − unperturbed"
TITLES = {
    "table6": "Table 6: accuracy (%) on EQUATE's five test sets, Δ over MAJ, averages",
    "s5.1": "§5.1: accuracy (%) on NewsNLI entailed pairs, unperturbed vs perturbed quantity",
    "recovery": "Released pairs found among the rebuilt pairs (NewsNLI/RedditNLI: candidates)",
}
TABLE6_NOTE = (
    f"A column `… {DELTA}` is the model's accuracy minus MAJ's on the same set, as in the "
    "paper; the cell's own Δ is ours − paper.")
QREAS_NOTE = (
    f"{QREAS} is computed as the authors' released code computes it (the row the paper's "
    "numbers come from; it reads the CoreNLP parses in the released files, NA without them); "
    f"{QREAS} (Algorithm 1) follows the paper's Algorithm 1. The released code labels a "
    "value mismatch a contradiction, takes units from the dependency parse and reads fewer "
    "numbers (docs/papers/equate.md).")
BEYOND_PAPER_NOTE = beyond_note(
    "NLI models the paper did not test, and stand-ins (`equate.neural` and `equate.trained` "
    "rows not named as one of its Table 6 rows), scored on the same sets the same way")
RECOVERY_COLUMNS = {
    "test_set": "test set", "candidates": "rebuilt", "released": "released",
    "recovered_exact": "exact", "recovered_swapped": "swapped",
    "recovered_premise_only": "premise only", "missed": "missed",
    "exact_rate": "exact %", "any_rate": "any %",
    # Content match (numbers by value, "and" and punctuation dropped): how close the rebuild is.
    "recovered_content": "content", "content_rate": "content %",
    "premises_released": "released premises", "premises_content": "premises (content)",
    "premise_content_rate": "premises (content) %",
}
RECOVERY_RATES = ("exact_rate", "any_rate", "content_rate", "premise_content_rate")
# Test set names with case and punctuation removed, to the Table 6 column name.
_SET_KEYS = {
    "rteq": "RTE-Q", "rtequant": "RTE-Q", "newsnli": "NewsNLI", "redditnli": "RedditNLI",
    "nrst": "NR ST", "stresstest": "NR ST", "awpnli": "AWPNLI",
}


def _key(name: str) -> str:
    """A name lowercased with everything but letters and digits removed."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def canonical_set(metric: str) -> str:
    """The Table 6 column name of a test set, or the metric unchanged when it is not one."""
    base, delta = (metric[: -len(DELTA)].strip(), True) if metric.endswith(DELTA) else (
        metric, False)
    name = _SET_KEYS.get(_key(base))
    if name is None:
        return metric
    return f"{name} {DELTA}" if delta else name


def metric_order() -> list[str]:
    """Table 6's columns in the CoNLL order: each set then its Δ, then the averages."""
    columns = [m for name in SETS for m in (name, f"{name} {DELTA}")]
    return columns + [m for name in AVERAGES for m in (name, f"{name} {DELTA}")]


def _number(value: object) -> float:
    """A cell as a float, NaN when empty or not a number."""
    number = pd.to_numeric(pd.Series([value]), errors="coerce").iloc[0]
    return float(number)


def accuracies(scores: pd.DataFrame) -> dict[str, dict[str, tuple[float, float]]]:
    """model -> set -> (accuracy, n) from Table 6 score rows (the last row wins)."""
    rows = scores[scores["table"].astype(str) == "table6"] if "table" in scores else scores
    found: dict[str, dict[str, tuple[float, float]]] = {}
    for model, metric, value, n in zip(rows["model"], rows["metric"], rows["value"],
                                       rows["n"], strict=True):
        name = canonical_set(str(metric))
        if name in SETS:
            found.setdefault(canonical_model(str(model)), {})[name] = (_number(value),
                                                                        _number(n))
    return found


def score_reasons(scores: pd.DataFrame, table: str = "table6") -> dict[tuple[str, str], str]:
    """(model, set) -> why a score row has no number, where it says ("NA (no CoreNLP parse)")."""
    rows = scores[scores["table"].astype(str) == table] if "table" in scores else scores
    metric_name = canonical_set if table == "table6" else (lambda m: m.strip().lower())
    return {(canonical_model(str(model)), metric_name(str(metric))): str(value)
            for model, metric, value in zip(rows["model"], rows["metric"], rows["value"],
                                            strict=True)
            if isinstance(value, str) and value.startswith("NA (")}


def _row(model: str, metric: str, value: float, n: float, reason: str = "") -> dict[str, object]:
    """One derived long row."""
    return {"model": model, "metric": metric, "value": value, "n": n, "reason": reason}


def _mean(values: Sequence[float]) -> float:
    """The mean of values, NaN when any is NaN."""
    return float(np.mean(values)) if not any(np.isnan(values)) else np.nan


def derive(found: Mapping[str, Mapping[str, tuple[float, float]]],
           reasons: Mapping[tuple[str, str], str] | None = None) -> pd.DataFrame:
    """Per model: accuracy and Δ over MAJ on each set, and the three averages of each (a set's
    own reason for having no number, where its score row gives one)."""
    majority = found.get(MAJORITY, {})
    reasons = reasons or {}
    rows: list[dict[str, object]] = []
    for model, sets in found.items():
        acc: dict[str, float] = {}
        delta: dict[str, float] = {}
        for name in SETS:
            value, n = sets.get(name, (np.nan, np.nan))
            acc[name] = value
            own = reasons.get((model, name), "")
            rows.append(_row(model, name, value, n,
                             own or ("" if name in sets else "NA (not scored)")))
            base = majority.get(name, (np.nan, np.nan))[0]
            delta[name] = value - base
            reason = own or ("NA (MAJ not scored)" if np.isnan(base) else
                             "" if not np.isnan(value) else "NA (not scored)")
            rows.append(_row(model, f"{name} {DELTA}", delta[name], n, reason))
        for label, group in AVERAGES.items():
            missing = [name for name in group if np.isnan(acc[name])]
            n = float(sum(sets[name][1] for name in group if name in sets)) or np.nan
            reason = f"NA (not scored: {', '.join(missing)})" if missing else ""
            rows.append(_row(model, label, _mean([acc[name] for name in group]), n, reason))
            unbased = [name for name in group if np.isnan(delta[name])]
            delta_reason = reason or ("NA (MAJ not scored)" if unbased else "")
            rows.append(_row(model, f"{label} {DELTA}", _mean([delta[name] for name in group]),
                             n, delta_reason))
    return pd.DataFrame(rows, columns=["model", "metric", "value", "n", "reason"])


def _canonical_reference(reference: pd.DataFrame) -> pd.DataFrame:
    """A reference table with one name per model and per column."""
    frame = reference.copy()
    frame["model"] = frame["model"].astype(str).map(canonical_model)
    frame["metric"] = frame["metric"].astype(str).map(canonical_set)
    frame["setting"] = frame["setting"].fillna("").astype(str)
    return frame


def _setting(reference: pd.DataFrame) -> str:
    """The paper version the reference rows come from ("conll" / "arxiv"), or ""."""
    settings = sorted(set(reference["setting"]))
    return settings[0] if len(settings) == 1 else ""


def _with_reasons(table: pd.DataFrame, derived: pd.DataFrame) -> pd.DataFrame:
    """Replace the generic NA of rows without a value by the reason they have none."""
    reasons = derived[derived["reason"] != ""].set_index(["model", "metric"])["reason"]
    for index, (model, metric) in enumerate(zip(table["model"], table["metric"], strict=True)):
        if (model, metric) in reasons.index and table.at[index, "value"] != NOT_CONFIGURED:
            table.at[index, "value"] = reasons.loc[(model, metric)]
    return table


def _tidy(table: pd.DataFrame) -> pd.DataFrame:
    """Counts as integers and no negative zero in the Δ-to-paper column."""
    table["n"] = pd.to_numeric(table["n"], errors="coerce").round().astype("Int64")
    table["delta"] = table["delta"] + 0.0  # -0.0 + 0.0 is 0.0
    return table


def _ordered(table: pd.DataFrame, models: Sequence[str], metrics: Sequence[str]) -> pd.DataFrame:
    """Rows by model (given order first) then metric (given order first)."""
    model_rank = {m: i for i, m in enumerate(dict.fromkeys([*models, *table["model"]]))}
    metric_rank = {m: i for i, m in enumerate(dict.fromkeys([*metrics, *table["metric"]]))}
    ranks = pd.DataFrame({"m": table["model"].map(model_rank),
                          "c": table["metric"].map(metric_rank)})
    order = ranks.sort_values(["m", "c"], kind="stable").index
    return _tidy(table.loc[order].reset_index(drop=True))


def mark_beyond(table: pd.DataFrame, beyond_paper: Sequence[str]) -> pd.DataFrame:
    """The table with the rows of `beyond_paper` labelled as beyond the paper and placed last
    (after the Q-REAS readings); a name the paper has a row of is refused."""
    paper = paper_rows()
    clash = [name for name in beyond_paper if canonical_model(name) in paper]
    if clash:
        raise ReprobeError(f"--beyond-paper {clash[0]!r}: the paper's Table 6 has this row")
    return mark_beyond_paper(table, beyond_paper)


def beyond_notes(table: pd.DataFrame) -> list[str]:
    """The note on the table's rows beyond the paper (none without such rows)."""
    return [BEYOND_PAPER_NOTE] if table["model"].map(is_beyond).any() else []


def table6(scores: pd.DataFrame, reference: pd.DataFrame,
           beyond_paper: Sequence[str] = ()) -> pd.DataFrame:
    """Table 6 long: every model × column, computed value beside the chosen version's number
    (the rows of `beyond_paper` marked and last)."""
    published = _canonical_reference(reference[reference["table"].astype(str) == "table6"])
    derived = derive(accuracies(scores), score_reasons(scores))
    ours = derived.assign(table="table6", setting=_setting(published))
    table = compare_with_reference(ours, published, "table6")
    table = _with_reasons(table, derived)
    models = [MAJORITY, *dict.fromkeys(published["model"])]
    table = _ordered(table, models, metric_order())
    # MAJ's Δ over MAJ is 0 whatever ran: shown, never counted as matching the paper's 0.
    deltas = table["metric"].astype(str).str.endswith(f" {DELTA}")
    table[BY_CONSTRUCTION] = (table["model"] == MAJORITY) & deltas
    # Marked last: Δ over MAJ and the reasons above are keyed by the configured names.
    return mark_beyond(table, beyond_paper)


def perturbation_table(
    scores: pd.DataFrame, reference: pd.DataFrame | None = None,
    beyond_paper: Sequence[str] = (),
) -> pd.DataFrame:
    """§5.1: each model's accuracy on the unperturbed and perturbed sets, and the change (the
    rows of `beyond_paper` marked and last)."""
    rows = scores[scores["table"].astype(str) == "s5.1"].copy()
    rows["model"] = rows["model"].astype(str).map(canonical_model)
    rows["metric"] = rows["metric"].astype(str).str.strip().str.lower()
    rows["value"] = pd.to_numeric(rows["value"], errors="coerce")
    rows = rows[rows["metric"].isin([*PERTURBATION, NEUTRAL_SHARE])]
    pivot = rows[rows["metric"].isin(PERTURBATION)].pivot_table(
        index="model", columns="metric", values="value", aggfunc="last", sort=False)
    # The change is over the perturbed set's pairs (the neutral-share row counts errors).
    counts = rows[rows["metric"] == "perturbed"].groupby("model", sort=False)["n"].last()
    change = [{"model": model, "metric": CHANGE,
               "value": pivot.loc[model].get("perturbed", np.nan)
               - pivot.loc[model].get("unperturbed", np.nan), "n": counts.get(model)}
              for model in pivot.index]
    setting = ""
    if reference is None:
        published = pd.DataFrame(columns=["table", "model", "setting", "metric", "value", "n"])
    else:
        published = _canonical_reference(reference[reference["table"].astype(str) == "s5.1"])
        setting = _setting(published)
    ours = pd.concat([rows[["model", "metric", "value", "n"]], pd.DataFrame(change)],
                     ignore_index=True).assign(table="s5.1", setting=setting)
    table = compare_with_reference(ours, published, "s5.1")
    reasons = score_reasons(scores, "s5.1")
    table["value"] = [reasons.get((model, metric), "NA (not scored)") if value == NO_SCORE
                      else value for model, metric, value
                      in zip(table["model"], table["metric"], table["value"], strict=True)]
    ordered = _ordered(table, list(dict.fromkeys(published["model"])),
                       [*PERTURBATION, CHANGE, NEUTRAL_SHARE])
    return mark_beyond(ordered, beyond_paper)


def predicted_labels(path: Path) -> list[str]:
    """The `predicted` field of each line of a predictions file."""
    with open_text(path) as handle:
        return [str(record["predicted"]) for _, record in iter_json_objects(path, handle)]


def qreas_notes(predictions: Mapping[tuple[str, str], Path]) -> list[str]:
    """Per set, how many pairs each other Q-REAS row labels differently from Q-REAS (the
    released-code row), in the set's label space, over the pairs both label (the released
    code labels no pair without a parse): what the rules between them move."""
    notes = [QREAS_NOTE] if predictions else []
    for test_set in dict.fromkeys(name for name, _ in predictions):
        rows = {row: path for (name, row), path in predictions.items() if name == test_set}
        if QREAS not in rows:
            continue
        two_class = is_two_class(test_set)
        ours = predicted_labels(rows[QREAS])
        moved, compared = [], 0
        for row, path in rows.items():
            if row == QREAS:
                continue
            both = [(a, b) for a, b in zip(ours, predicted_labels(path), strict=True)
                    if NO_PARSE not in (a, b)]
            compared = len(both)
            changed = sum(fold(a, two_class) != fold(b, two_class) for a, b in both)
            if both:
                moved.append(f"{row} {changed}")
        if moved:
            notes.append(f"{canonical_set(test_set)}, pairs labelled otherwise than by "
                         f"{QREAS} (of {compared}): " + "; ".join(moved) + ".")
    return notes


def write_table6(scores: list[Path], reference: Path, csv: Path, md: Path,
                 qreas_predictions: Mapping[tuple[str, str], Path] | None = None,
                 beyond_paper: Sequence[str] = ()) -> None:
    """Build Table 6 from score files and one version's reference; write CSV and Markdown
    (with the pairs each Q-REAS row moves, where its predictions are given, and the rows of
    `beyond_paper` marked and last)."""
    frame = table6(read_scores(scores), read_reference(reference, "table6"), beyond_paper)
    view = View(rows=("model", "setting"), order=tuple(metric_order()), count_label="#pairs")
    write_table(frame, csv, md, title=TITLES["table6"], view=view,
                notes=[TABLE6_NOTE, *qreas_notes(qreas_predictions or {}),
                       *beyond_notes(frame)])


def write_perturbation_table(
    scores: list[Path], reference: Path | None, csv: Path, md: Path,
    beyond_paper: Sequence[str] = (),
) -> None:
    """Build the §5.1 table from score files (and the reference's s5.1 rows), the rows of
    `beyond_paper` marked and last; write it."""
    published = read_reference(reference, "s5.1") if reference is not None else None
    view = View(order=(*PERTURBATION, CHANGE, NEUTRAL_SHARE), count_label="#pairs")
    frame = perturbation_table(read_scores(scores), published, beyond_paper)
    write_table(frame, csv, md, title=TITLES["s5.1"], view=view, notes=beyond_notes(frame))


def recovery_summary(counts: Sequence[Mapping[str, object]]) -> pd.DataFrame:
    """One row per rebuilt set (or candidate file): how it meets the released pairs."""
    frame = pd.DataFrame(list(counts), columns=list(RECOVERY_COLUMNS))
    for rate in RECOVERY_RATES:
        frame[rate] = (100 * pd.to_numeric(frame[rate])).round(1)
    return frame.rename(columns=RECOVERY_COLUMNS)


def write_recovery_table(recovery: list[Path], csv: Path, md: Path) -> None:
    """Build the recovery table from `equate label`/`equate recovery` JSONs; write it."""
    counts = [json.loads(Path(path).read_text(encoding="utf-8")) for path in recovery]
    write_table(recovery_summary(counts), csv, md, title=TITLES["recovery"])
