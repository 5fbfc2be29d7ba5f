"""The tables of Naik et al. (2019), computed, beside the published numbers."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from reprobe.errors import ConfigError
from reprobe.scores import read_scores
from reprobe.tables.beyond import beyond_note
from reprobe.tables.beyond import mark_beyond_paper as mark_rows
from reprobe.tables.compare import compare_with_reference, read_reference
from reprobe.tables.shape import View
from reprobe.tables.write import write_table

TITLES = {
    "table1": "Table 1: English and Arabic numerals in each model's vocabulary",
    "table2": "Table 2: magnitude tests, off-the-shelf embeddings (cosine, % accuracy)",
    "table3": "Table 3: numeration tests, off-the-shelf embeddings (cosine, % accuracy)",
    "table4": "Table 4: magnitude and numeration tests, retrained embeddings (cosine)",
    "table5": "Table 5: top nouns by PMI after primitive vs large numbers (Wikipedia)",
    "table6": "Table 6: kNN regression of magnitude (R²)",
    "table7": "Table 7: magnitude tests with Euclidean distance",
    "table8": "Table 8: SC-NUM with Euclidean distance",
    "table9": "Table 9: BC-NUM with Euclidean distance",
}

# Tables of contrastive tests: their notes say which rules made the tests.
TEST_TABLES = ("table2", "table3", "table4", "table7", "table8", "table9")
# What `n` counts in each table's Markdown (tables not named: the contrastive tests).
COUNT_LABELS = {"table1": "vocabulary", "table6": "#numbers"}
BEYOND_PAPER_NOTE = beyond_note(
    "embeddings the paper did not test (`numeracy.extra_vectors`, or `reprobe numeracy probe "
    "--vectors FILE`), each tested on the numbers of its own vocabulary, so its counts are its "
    "own")


def test_rules_note(tie_break: str, exclude_equidistant: bool) -> str:
    """The tables' note on how the tests were built (§2, footnotes 3 and 4)."""
    ova = ("every other number except x+ and the one as close to x as x+ (footnote 4; "
           if exclude_equidistant else "every other number except x+ (")
    return (
        f"Tests: x+ is the number closest to x, a tie going to the {tie_break} value "
        f"(`numeracy.tie_break: {tie_break}`), as do ties for SC's x− (the nearest number "
        f"strictly farther than x+) and BC's x− (the furthest); OVA's x− is {ova}"
        f"`numeracy.ova_exclude_equidistant: {str(exclude_equidistant).lower()}`). "
        f"Ties never remove a test; `#tests` counts the tests of each kind.")


def pmi_comparison(computed: pd.DataFrame, reference: pd.DataFrame) -> pd.DataFrame:
    """Table 5: our top nouns per (λ, class, rank) beside the paper's Wikipedia column."""
    paper = reference[reference["corpus"] == "Wiki"].copy()
    paper["class"] = paper["class"].replace({"primitives": "primitive"})
    merged = computed[["lambda", "class", "rank", "word", "pmi", "count"]].merge(
        paper[["lambda", "class", "rank", "word"]].rename(columns={"word": "paper_word"}),
        on=["lambda", "class", "rank"], how="outer")
    paper_words = {(row["lambda"], row["class"]): set() for _, row in paper.iterrows()}
    for _, row in paper.iterrows():
        paper_words[(row["lambda"], row["class"])].add(str(row["word"]).lower())
    merged["in_paper_top"] = [
        str(word).lower() in paper_words.get((lam, cls), set())
        for word, lam, cls in zip(merged["word"], merged["lambda"], merged["class"], strict=True)
    ]
    return merged.sort_values(["lambda", "class", "rank"]).reset_index(drop=True)


def mark_beyond_paper(frame: pd.DataFrame, beyond: list[str]) -> pd.DataFrame:
    """The table with the rows of `beyond` models labelled as beyond the paper and placed
    after every other row (their order kept); a model the paper has numbers for is refused."""
    rows = frame["model"].isin(beyond)
    clash = frame.loc[rows & frame["paper"].notna(), "model"]
    if len(clash):
        raise ConfigError(f"numeracy.extra_vectors.{clash.iloc[0]}: the paper has a row of "
                          "this name; name the row otherwise")
    return mark_rows(frame, beyond)


def write_numeracy_table(
    table: str, scores: list[Path], reference: Path, csv: Path, md: Path, *,
    tie_break: str, exclude_equidistant: bool, beyond_paper: list[str],
) -> None:
    """Build one table from score files and the paper's numbers; write the CSV long and the
    Markdown in the paper's shape (Table 5, a word list, stays long)."""
    if table == "table5":
        computed = pd.concat([pd.read_csv(path) for path in scores], ignore_index=True)
        published = pd.read_csv(reference)
        write_table(pmi_comparison(computed, published), csv, md, title=TITLES[table])
        return
    published = read_reference(reference, table)
    frame = compare_with_reference(read_scores(scores), published, table)
    view = View(order=tuple(dict.fromkeys(published["metric"])),
                count_label=COUNT_LABELS.get(table, "#tests"))
    notes = [test_rules_note(tie_break, exclude_equidistant)] if table in TEST_TABLES else []
    if frame["model"].isin(beyond_paper).any():
        frame = mark_beyond_paper(frame, beyond_paper)
        notes.append(BEYOND_PAPER_NOTE)
    write_table(frame, csv, md, title=TITLES[table], view=view, notes=notes)
