"""WIKI-PSE part 1 tables: the corpus and dataset statistics beside the paper's (§3), the
released dataset against the rebuilt one, the fold of FIGER types and the typing counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from reprobe.scores import ScoreRow, score_frame
from reprobe.tables.compare import compare_with_reference, read_reference
from reprobe.tables.shape import View
from reprobe.tables.write import write_table
from reprobe.wikipse.resource.dataset import SPLITS, summary
from reprobe.wikipse.resource.release import Split, WordClasses

PAPER = "wikipse"
ROW = "WIKI-PSE"
TITLES = {
    "stats": "WIKI-PSE corpus and dataset statistics (§3)",
    "stats_released": "The released WIKI-PSE splits' statistics (§3)",
    "released": "Released WIKI-PSE words in the rebuilt dataset",
    "fold": "FIGER types folded into S-classes",
    "typing": "Link targets typed with S-classes",
}


def stats_rows(corpus: Mapping[str, int], vocabulary: int, words: WordClasses,
               splits: Mapping[str, Sequence[str]]) -> list[ScoreRow]:
    """The statistics §3 reports, computed on the rebuilt corpus (its vocabulary: the tokens
    at the minimum frequency) and dataset."""
    annotated = summary(words)
    rows = [("corpus", "sentences", corpus.get("sentences_kept", 0)),
            ("corpus", "tokens", corpus.get("tokens", 0)),
            ("corpus", "vocabulary size", vocabulary),
            ("corpus", "annotated words", annotated["words"]),
            ("corpus", "word/S-class pairs", annotated["pairs"]),
            ("corpus", "mean S-classes per word", annotated["mean_classes"])]
    for split in SPLITS:
        chosen = summary({w: words[w] for w in splits[split]})
        rows += [(split, "words", chosen["words"]),
                 (split, "single-class words", chosen["single_class"]),
                 (split, "multi-class words", chosen["multi_class"]),
                 (split, "mean S-classes per word", chosen["mean_classes"])]
    return [ScoreRow(PAPER, "stats", ROW, setting, metric, float(value), None)
            for setting, metric, value in rows]


def stats_table(rows: Sequence[ScoreRow], reference: pd.DataFrame) -> pd.DataFrame:
    """The statistics beside the paper's (and the release's) numbers."""
    table = compare_with_reference(score_frame(rows), reference, "stats")
    # Our rows in the order they were computed (corpus, then each split), the paper's after.
    order = {key: i for i, key in enumerate((r.setting, r.metric) for r in rows)}
    rank = [order.get(key, len(order)) for key in zip(table["setting"], table["metric"],
                                                      strict=True)]
    return table.assign(_r=rank).sort_values("_r", kind="stable").drop(
        columns=["_r"]).reset_index(drop=True)


def write_stats_table(rows: Sequence[ScoreRow], reference: Path, csv: Path, md: Path) -> None:
    """Write the statistics table (CSV and Markdown)."""
    table = stats_table(rows, read_reference(reference, "stats"))
    view = View(rows=("setting", "metric"), columns=("model",))
    write_table(table, csv, md, TITLES["stats"], view=view, notes=[
        "`paper`: §3's approximate figures (≈) for the corpus; for the splits, the released "
        "files' counts (the text says equal numbers of single- and multi-class words)."])


def released_table(comparisons: Mapping[str, Mapping[str, int]]) -> pd.DataFrame:
    """One row per released split: its words, how many the rebuild has, with the same class
    set, with the same dominant class (counts and shares of the released words)."""
    rows = []
    for split, found in comparisons.items():
        total = found["released_words"] or 1
        rows.append({"split": split, **found,
                     "in_rebuilt %": round(100 * found["in_rebuilt"] / total, 2),
                     "same_classes %": round(100 * found["same_classes"] / total, 2),
                     "same_dominant_class %": round(100 * found["same_dominant_class"] / total,
                                                    2)})
    return pd.DataFrame(rows)


def write_released_table(comparisons: Mapping[str, Mapping[str, int]], csv: Path,
                         md: Path) -> None:
    """Write the released-versus-rebuilt table."""
    write_table(released_table(comparisons), csv, md, TITLES["released"], notes=[
        "Released words looked up among every annotated word of the rebuilt corpus (not only "
        "the rebuilt splits)."])


def write_fold_table(fold: Sequence[tuple[str, str | None, str]], csv: Path, md: Path) -> None:
    """Write every FIGER type with the S-class it folds into and why."""
    table = pd.DataFrame(fold, columns=["figer_type", "sclass", "why"]).fillna("(dropped)")
    write_table(table, csv, md, TITLES["fold"])


def write_typing_table(counts: Mapping[str, int], csv: Path, md: Path) -> None:
    """Write the typing counts: targets, typed, unmapped, typed to no class, links covered."""
    table = pd.DataFrame([{"count": key, "value": value} for key, value in counts.items()])
    write_table(table, csv, md, TITLES["typing"], notes=[
        "Unmapped link targets are counted, never dropped silently: their mentions stay "
        "plain words in the corpora."])


def released_stats_rows(splits: Mapping[str, Split], reading: str) -> list[ScoreRow]:
    """§3's split statistics computed on the released files: words, single- and multi-class
    words (by the configured ambiguity reading), mean distinct S-classes per word."""
    rows = []
    for split, data in splits.items():
        multi = sum(data.multi_class(word, reading) for word in data.classes)
        counts = summary(data.classes)
        rows += [(split, "words", counts["words"]),
                 (split, "single-class words", counts["words"] - multi),
                 (split, "multi-class words", multi),
                 (split, "mean S-classes per word", counts["mean_classes"])]
    return [ScoreRow(PAPER, "stats", ROW, setting, metric, float(value), None)
            for setting, metric, value in rows]


def write_released_stats_table(rows: Sequence[ScoreRow], reading: str, reference: Path,
                               csv: Path, md: Path) -> None:
    """Write the released splits' statistics beside the paper's (CSV and Markdown)."""
    paper = read_reference(reference, "stats")
    paper = paper[paper["setting"].isin({row.setting for row in rows})]
    view = View(rows=("setting", "metric"), columns=("model",))
    write_table(stats_table(rows, paper), csv, md, TITLES["stats_released"], view=view, notes=[
        f"Counted on the released train and test files as read (ambiguity reading "
        f"`{reading}`: multi-class = more than one entry on the line (authors) or more than "
        "one distinct S-class (paper)); `paper`: the split counts §3 and the release give."])
