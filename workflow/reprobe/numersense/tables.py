"""NumerSense's tables (Lin et al. 2020): Table 2 (hit@k), Table 3 (object bias), Figure 3.

Every number goes through the shared score rows (`reprobe.scores`) and is set beside the
paper's (`config/reference/numersense/`) by `reprobe.tables.compare`; the Markdown is laid out
as the paper prints each table (`reprobe.tables.shape`).
"""

from __future__ import annotations

import csv
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

import pandas as pd

from reprobe.errors import InputFormatError
from reprobe.io import atomic_path, atomic_write_text
from reprobe.numersense.evaluate import (
    CONVENTIONS,
    PredictionLine,
    read_predictions,
    score_lines,
)
from reprobe.numersense.probes import LabelledProbe
from reprobe.scores import NO_SCORE, NOT_CONFIGURED, ScoreRow, read_scores, score_frame
from reprobe.tables.beyond import beyond_note, mark_beyond_paper
from reprobe.tables.compare import compare_with_reference, read_reference
from reprobe.tables.shape import View
from reprobe.tables.verdicts import csv_frame
from reprobe.tables.write import write_table
from reprobe.text import open_text

PAPER = "numersense"
KS = (1, 2, 3)
SETS = ("core", "all", "validation")
CATEGORIES = ("objects", "biology", "geometry", "unit", "math", "physics", "geography", "misc")
NO_PROBES = "NA (no labelled probes)"
NOT_RUN = "NA (people: not run here)"
TITLES = {
    "table2": "Table 2: hit@k (%) of PTLMs on NumerSense, core probes and + adversarial",
    "table3": "Table 3: mean softmax (%) of the top 3 answers, [x] filled with random words",
    "figure3": "Figure 3: hit@1 (%) per category on the core probes",
}
TABLE2_NOTES = {
    "rebuilt": "Probes rebuilt here from OMCS (core) and ConceptNet (all), labelled by the "
               "builder.",
    "released": "The released probes, validation in full. `(released predictions)` rows score "
                "the authors' own prediction files.",
}
CONVENTION_NOTES = {
    "none": "Convention `none`: the words as they are, every gold line with its own label; the "
            "one that gives the paper's numbers from the authors' released predictions.",
    "released": "Convention `released`: what the authors' src/evaluator.py prints (last label of "
                "a repeated probe, every prediction line, \"no\" read as \"zero\").",
    "official": "Convention `official`: \"no\" read as \"zero\", gold line by gold line.",
    "merge": "Convention `merge`: the scores of \"no\" and \"zero\" summed into one entry.",
}
PROTOCOL_NOTE = ("Rows named as the paper's follow the authors' procedure (protocol `authors`); "
                 "`(clean)` rows score the probe as written (whole-vocabulary softmax; a BOS "
                 "token before a causal LM's sentence), a protocol the paper did not use.")
BEYOND_PAPER_NOTE = beyond_note(
    "models the paper did not test (`numersense.models` entries not named as its rows), with "
    "their `(clean)` rows and the fine-tuned rows (`numersense.finetune.rows`) starting from "
    "them")


def marked_beyond_paper(frame: pd.DataFrame, rows: Collection[str],
                        ) -> tuple[pd.DataFrame, list[str]]:
    """The table with `rows` (models the paper did not test) labelled as beyond the paper and
    placed last, and the note on them (none when the table has no such row)."""
    if not frame["model"].isin(set(rows)).any():
        return frame, []
    return mark_beyond_paper(frame, rows), [BEYOND_PAPER_NOTE]


def metric(test_set: str, k: int) -> str:
    """A Table 2 column: `core hit@1`."""
    return f"{test_set} hit@{k}"


def metric_order() -> list[str]:
    """Table 2's columns in the paper's order, then validation."""
    return [metric(s, k) for s in SETS for k in KS]


def _reasons(table: pd.DataFrame) -> pd.DataFrame:
    """NA reasons in this paper's words: people are not run, an empty set has no score."""
    human = table["model"].astype(str).str.startswith("Human")
    table.loc[human & (table["value"] == NOT_CONFIGURED), "value"] = NOT_RUN
    table["value"] = table["value"].replace({NO_SCORE: NO_PROBES})
    return table


def table2(scores: pd.DataFrame, reference: pd.DataFrame) -> pd.DataFrame:
    """Table 2 long: each row × set × k, ours beside the paper's."""
    table = _reasons(compare_with_reference(scores, reference, "table2"))
    order = {m: i for i, m in enumerate(metric_order())}
    rank = {m: i for i, m in enumerate(dict.fromkeys(table["model"]))}
    table = table.assign(_m=table["metric"].map(order), _r=table["model"].map(rank))
    return table.sort_values(["_r", "_m"], kind="stable").drop(columns=["_m", "_r"]).reset_index(
        drop=True)


def one_convention(scores: pd.DataFrame, convention: str) -> pd.DataFrame:
    """The score rows of one convention, its name dropped from `setting` (the paper's has none)."""
    chosen = scores[scores["setting"].astype(str) == convention]
    return chosen.assign(setting="").reset_index(drop=True)


def gold_note(variant: str, gold: str | None) -> list[str]:
    """Where the released core/all labels come from, or that they were re-created."""
    if variant != "released":
        return []
    if gold:
        return [f"Core and all scored on every released test probe, labels from {gold}."]
    return ["Core and all scored only where the builder re-creates a probe (no gold labels "
            "configured: numersense.gold; the test labels were never released officially)."]


def write_table2(scores: Sequence[Path], reference: Path, csv_path: Path, md: Path,
                 variant: str, convention: str, gold: str | None = None, *,
                 beyond_paper_rows: Collection[str]) -> None:
    """Build one Table 2 (rebuilt or released probes) under one convention; CSV and Markdown."""
    frame = table2(one_convention(read_scores(scores), convention),
                   read_reference(reference, "table2"))
    frame, beyond = marked_beyond_paper(frame, beyond_paper_rows)
    view = View(rows=("model",), order=tuple(metric_order()), count_label="#probes")
    write_table(frame, csv_path, md, f"{TITLES['table2']} ({variant})", view=view,
                notes=[TABLE2_NOTES[variant], *gold_note(variant, gold),
                       CONVENTION_NOTES[convention], PROTOCOL_NOTE, *beyond])


def write_table2_conventions(scores: Sequence[Path], csv_path: Path, md: Path, *,
                             beyond_paper_rows: Collection[str]) -> None:
    """Every Table 2 number under each convention, side by side (rows: model × convention)."""
    frame = read_scores(scores)
    order = {c: i for i, c in enumerate(CONVENTIONS)}
    frame = frame.assign(_c=frame["setting"].map(order)).sort_values(
        ["_c"], kind="stable").drop(columns="_c").reset_index(drop=True)
    frame, beyond = marked_beyond_paper(frame, beyond_paper_rows)
    view = View(rows=("model", "setting"), order=tuple(metric_order()), count_label="#lines")
    write_table(frame, csv_path, md, "Table 2 under each no/zero convention", view=view,
                notes=[*CONVENTION_NOTES.values(), "The n of `released` counts prediction "
                       "lines with a gold label; the others count gold lines.", *beyond])


def table3(results: pd.DataFrame, reference: pd.DataFrame, top: int = 3) -> pd.DataFrame:
    """Table 3 long: per row and template, our top answers and the paper's, side by side."""
    ours = results.rename(columns={"template": "setting", "word": "metric",
                                   "mean_softmax_percent": "value", "n_words": "n"})
    ours = ours.assign(table="table3")
    table = compare_with_reference(ours, reference, "table3")
    ranks = ours.set_index(["model", "setting", "metric"])["rank"]
    rank = [ranks.get((m, s, w)) for m, s, w in
            zip(table["model"], table["setting"], table["metric"], strict=True)]
    table = table.assign(rank=rank)
    keep = table["rank"].fillna(top + 1).le(top) | table["paper"].notna()
    # The paper's order: template by template, its rows first, then ours as they came.
    templates = {t: i for i, t in enumerate(dict.fromkeys([*reference["setting"],
                                                            *ours["setting"]]))}
    models = {m: i for i, m in enumerate(dict.fromkeys([*reference["model"], *ours["model"]]))}
    table = table[keep].assign(_t=table["setting"].map(templates),
                               _m=table["model"].map(models))
    table = table.sort_values(["_t", "_m", "rank"], kind="stable", na_position="last")
    return table.drop(columns=["rank", "_t", "_m"]).reset_index(drop=True)


def _top_text(rows: pd.DataFrame, column: str, top: int = 3) -> str:
    """`four: 39.3%, two: 18.3%, …` of the words with a number in column, best first."""
    values = pd.to_numeric(rows[column], errors="coerce")
    best = rows.assign(_v=values).dropna(subset=["_v"]).sort_values("_v", ascending=False,
                                                                      kind="stable")
    return ", ".join(f"{w}: {v:.1f}%" for w, v in zip(best["metric"][:top], best["_v"][:top],
                                                       strict=True))


def table3_view(table: pd.DataFrame) -> pd.DataFrame:
    """Table 3 as the paper prints it: per row and template, the top 3 of ours and the paper's."""
    lines = []
    for (model, template), rows in table.groupby(["model", "setting"], sort=False):
        ours = _top_text(rows, "value") or str(rows["value"].iloc[0])
        counts = pd.to_numeric(rows["n"], errors="coerce").dropna()
        lines.append({"template": template, "model": model, "ours (top 3)": ours,
                      "#words": int(counts.iloc[0]) if len(counts) else "",
                      "paper (top 3)": _top_text(rows, "paper")})
    return pd.DataFrame(lines)


def write_table3(files: Sequence[Path], reference: Path, csv_path: Path, md: Path, *,
                 beyond_paper_rows: Collection[str]) -> None:
    """Build Table 3 from the per-row template results; the long CSV, the paper-shaped
    Markdown."""
    results = pd.concat([pd.read_csv(f, dtype={"model": str, "word": str}) for f in files],
                        ignore_index=True)
    frame = table3(results, read_reference(reference, "table3"))
    frame, beyond = marked_beyond_paper(frame, beyond_paper_rows)
    with atomic_path(csv_path) as tmp:
        csv_frame(frame).to_csv(tmp, index=False)
    body = table3_view(frame).to_markdown(index=False, disable_numparse=True)
    notes = "".join(f"- {note}\n" for note in beyond)
    atomic_write_text(md, f"# {TITLES['table3']}\n\n- Mean softmax (%) over the whole "
                          "vocabulary at the mask, averaged over the templates filled with "
                          "random words; `NA (not configured)`: the paper's row was not run.\n"
                          f"{notes}\n{body}\n")


def read_categories(path: Path) -> list[tuple[LabelledProbe, str]]:
    """(probe, category) rows of the builder's categories file (probe, label, category)."""
    categorised = []
    with open_text(path) as handle:
        for number, row in enumerate(csv.reader(handle, delimiter="\t"), start=1):
            if number == 1 or not row:
                continue
            if len(row) != 3:
                raise InputFormatError(path, f"line {number}", "expected probe, label and "
                                       f"category, tab-separated; found {len(row)} fields")
            categorised.append((LabelledProbe(row[0], row[1]), row[2]))
    return categorised


def category_rows(categorised: Sequence[tuple[LabelledProbe, str]],
                  predictions: Mapping[str, Mapping[str, Sequence[tuple[str, float]]]],
                  convention: str) -> list[ScoreRow]:
    """hit@1 of each row in each category (Figure 3), NaN where a category has no probe."""
    rows = []
    for model, predicted in predictions.items():
        lines = [PredictionLine(probe, ranked) for probe, ranked in predicted.items()]
        for category in CATEGORIES:
            gold = [probe for probe, c in categorised if c == category]
            hits, n = score_lines(gold, lines, ks=(1,), convention=convention)
            rows.append(ScoreRow(PAPER, "figure3", model, category, "hit@1", hits[1], n))
    return rows


def figure3(categories: Path, predictions: Mapping[str, Path], reference: Path,
            convention: str) -> pd.DataFrame:
    """Figure 3 long: each row's per-category hit@1, beside the paper's (human, RoBERTa-L)."""
    read = {model: read_predictions(path) for model, path in predictions.items()}
    ours = score_frame(category_rows(read_categories(categories), read, convention))
    table = _reasons(compare_with_reference(ours, read_reference(reference, "figure3"),
                                            "figure3"))
    order = {c: i for i, c in enumerate(CATEGORIES)}
    return table.assign(_c=table["setting"].map(order)).sort_values(
        ["_c"], kind="stable").drop(columns="_c").reset_index(drop=True)


def plot_figure3(table: pd.DataFrame, png: Path) -> None:
    """Grouped bars: per category, each row's hit@1 and the paper's figures (hatched)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ours = table.assign(value=pd.to_numeric(table["value"], errors="coerce"))
    series = {m: rows.set_index("setting")["value"]
              for m, rows in ours.groupby("model", sort=False) if rows["value"].notna().any()}
    paper = {f"{m} (paper)": table[table["model"] == m].set_index("setting")["paper"]
             for m in dict.fromkeys(table["model"])
             if pd.to_numeric(table[table["model"] == m]["paper"], errors="coerce").notna().any()}
    bars = {**series, **paper}
    figure, axes = plt.subplots(figsize=(12, 4.5))
    width = 0.8 / max(len(bars), 1)
    for index, (name, values) in enumerate(bars.items()):
        heights = [float(pd.to_numeric(values.get(c), errors="coerce") or 0) for c in CATEGORIES]
        axes.bar([x + index * width for x in range(len(CATEGORIES))], heights, width,
                 label=name, hatch="//" if name.endswith("(paper)") else None)
    axes.set_xticks([x + width * (len(bars) - 1) / 2 for x in range(len(CATEGORIES))],
                    [c.capitalize() for c in CATEGORIES])
    axes.set_ylabel("hit@1 (%)")
    axes.set_ylim(0, 100)
    axes.set_title("NumerSense core probes: hit@1 per category")
    # Beside the axes, so no bar is hidden behind it.
    axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    figure.tight_layout()
    with atomic_path(png) as tmp:
        figure.savefig(tmp, format="png", dpi=120)
    plt.close(figure)


def write_figure3(categories: Path, predictions: Mapping[str, Path], reference: Path,
                  csv_path: Path, png: Path, convention: str, *,
                  beyond_paper_rows: Collection[str]) -> None:
    """Figure 3's CSV (and a Markdown beside it) and its PNG."""
    table = figure3(categories, predictions, reference, convention)
    table, beyond = marked_beyond_paper(table, beyond_paper_rows)
    view = View(rows=("model",), columns=("setting",), order=CATEGORIES, count_label="#probes")
    write_table(table, csv_path, csv_path.with_suffix(".md"), TITLES["figure3"], view=view,
                notes=["Categories from the builder's keyword lexicon (the paper's were "
                       "annotated by hand).", *beyond])
    plot_figure3(table, png)
