"""Tests for EQUATE Table 6 and the §5.1 perturbation table."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from reprobe.equate.tables import (
    BEYOND_PAPER_NOTE,
    SETS,
    canonical_set,
    perturbation_table,
    qreas_notes,
    table6,
    write_perturbation_table,
    write_recovery_table,
    write_table6,
)
from reprobe.errors import ReprobeError
from reprobe.scores import NOT_CONFIGURED, ScoreRow, score_frame, write_scores
from reprobe.tables.beyond import beyond_row
from reprobe.tables.compare import read_reference

REFERENCE = Path(__file__).resolve().parents[1] / "config/reference/equate"
# Accuracies in Table 6's CoNLL column order: RTE-Q, NewsNLI, RedditNLI, NR ST, AWPNLI.
HAND = {
    "MAJ": [60.0, 50.0, 40.0, 30.0, 50.0],
    "GPT": [70.0, 65.0, 40.0, 40.0, 45.0],
    "CBOW": [55.0, 50.0, 45.0, 33.0, None],
}
SPELLINGS = ["rte_quant", "NewsNLI", "redditnli", "Stress Test", "AwpNLI"]


def _scores(accuracies: dict[str, list[float | None]]) -> pd.DataFrame:
    """Hand-made Table 6 score rows, with the probes' spellings of the set names."""
    return score_frame(ScoreRow("equate", "table6", model, "", name, value, 100)
                       for model, values in accuracies.items()
                       for name, value in zip(SPELLINGS, values, strict=True)
                       if value is not None)


def _values(table: pd.DataFrame, model: str) -> dict[str, object]:
    """metric -> value of one model's rows."""
    rows = table[table["model"] == model]
    return dict(zip(rows["metric"], rows["value"], strict=True))


@pytest.fixture(scope="module")
def conll() -> pd.DataFrame:
    """Table 6 of hand-made scores against the CoNLL numbers."""
    reference = read_reference(REFERENCE / "table6_conll.csv", "table6")
    return table6(_scores(HAND), reference)


def test_set_names_are_canonical() -> None:
    """Probe and paper spellings of the test sets map to the CoNLL column names."""
    assert [canonical_set(s) for s in SPELLINGS] == list(SETS)
    assert canonical_set("NR ST. Δ") == "NR ST Δ"
    assert canonical_set("accuracy") == "accuracy"


def test_delta_over_majority(conll: pd.DataFrame) -> None:
    """Δ is the model's accuracy minus MAJ's on the same set; MAJ's own Δ is 0."""
    gpt = _values(conll, "GPT")
    assert gpt["RTE-Q Δ"] == 10 and gpt["NewsNLI Δ"] == 15 and gpt["AWPNLI Δ"] == -5
    assert all(_values(conll, "MAJ")[f"{s} Δ"] == 0 for s in SETS)


def test_averages(conll: pd.DataFrame) -> None:
    """Averages of accuracies and of Δs over the natural, synthetic and all five sets."""
    gpt = _values(conll, "GPT")
    assert gpt["Nat.Avg."] == 58.33 and gpt["Nat.Avg. Δ"] == 8.33
    assert gpt["Synth.Avg."] == 42.5 and gpt["Synth.Avg. Δ"] == 2.5
    assert gpt["All Avg."] == 52 and gpt["All Avg. Δ"] == 6
    # The Δ average is the accuracy average minus MAJ's.
    assert _values(conll, "MAJ")["All Avg."] == 46


def test_paper_values_and_delta_to_paper(conll: pd.DataFrame) -> None:
    """Each computed cell sits beside the CoNLL number, with the difference."""
    row = conll[(conll["model"] == "GPT") & (conll["metric"] == "All Avg. Δ")].iloc[0]
    assert row["paper"] == 5.8 and row["delta"] == pytest.approx(0.2)
    assert set(conll["setting"]) == {"conll"}


def test_missing_set_and_unrun_models_are_explicit(conll: pd.DataFrame) -> None:
    """A set not scored and averages over it say why; models not run are not configured."""
    cbow = _values(conll, "CBOW")
    assert cbow["AWPNLI"] == "NA (not scored)"
    assert cbow["Synth.Avg. Δ"] == "NA (not scored: AWPNLI)"
    assert cbow["Nat.Avg. Δ"] == pytest.approx(-0.0 + (-5 + 0 + 5) / 3)
    assert set(_values(conll, "BERT").values()) == {NOT_CONFIGURED}
    assert set(_values(conll, "Q-REAS").values()) == {NOT_CONFIGURED}
    models = list(dict.fromkeys(conll["model"]))
    assert models[0] == "MAJ" and models.index("GPT") < models.index("BERT")


def test_without_majority_deltas_say_so() -> None:
    """Without MAJ's scores no Δ can be computed, and the rows say so."""
    reference = read_reference(REFERENCE / "table6_conll.csv", "table6")
    gpt = _values(table6(_scores({"GPT": HAND["GPT"]}), reference), "GPT")
    assert gpt["RTE-Q"] == 70 and gpt["RTE-Q Δ"] == "NA (MAJ not scored)"
    assert gpt["All Avg."] == 52 and gpt["All Avg. Δ"] == "NA (MAJ not scored)"


def test_arxiv_names_join(tmp_path: Path) -> None:
    """arXiv row names (OpenAI, IS) join to the same models; its Avg. is of accuracies."""
    scores = _scores({"MAJ": HAND["MAJ"], "OpenAI": HAND["GPT"]})
    reference = read_reference(REFERENCE / "table6_arxiv.csv", "table6")
    table = table6(scores, reference)
    gpt = table[(table["model"] == "GPT") & (table["metric"] == "All Avg.")].iloc[0]
    assert gpt["value"] == 52 and gpt["paper"] == 56.4
    assert "InferSent" in set(table["model"]) and "IS" not in set(table["model"])
    path = tmp_path / "scores.csv"
    write_scores(scores, path)
    write_table6([path], REFERENCE / "table6_arxiv.csv", tmp_path / "t6.csv", tmp_path / "t6.md")
    assert (tmp_path / "t6.md").read_text().startswith("# Table 6")


def test_perturbation_table() -> None:
    """Unperturbed and perturbed accuracy per model, their change, beside §5.1's numbers."""
    scores = score_frame(
        ScoreRow("equate", "s5.1", model, "", metric, value, 218)
        for model, metric, value in [("GPT", "unperturbed", 70.0), ("GPT", "perturbed", 50.0),
                                     ("CBOW", "unperturbed", 60.0), ("CBOW", "perturbed", 55.0)])
    reference = read_reference(REFERENCE / "table6_conll.csv", "s5.1")
    table = perturbation_table(scores, reference)
    gpt = _values(table, "GPT")
    assert gpt["unperturbed"] == 70 and gpt["perturbed"] == 50
    assert gpt["perturbed − unperturbed"] == -20
    assert gpt["neutral share of perturbed errors"] == "NA (not scored)"
    assert _values(table, "CBOW")["perturbed − unperturbed"] == -5
    assert set(_values(table, "Q-REAS").values()) == {NOT_CONFIGURED}
    plain = perturbation_table(scores)
    assert len(plain) == 6 and plain["paper"].isna().all()


def test_recovery_table_gives_rates_in_percent(tmp_path: Path) -> None:
    counts = {"test_set": "newsnli", "candidates": 9, "released": 4, "recovered_exact": 2,
              "recovered_swapped": 1, "recovered_premise_only": 0, "missed": 1,
              "exact_rate": 0.5, "any_rate": 0.75, "recovered_content": 3,
              "content_rate": 0.75, "premises_released": 3, "premises_content": 2,
              "premise_content_rate": 2 / 3}
    path = tmp_path / "newsnli.json"
    path.write_text(json.dumps(counts))
    write_recovery_table([path], tmp_path / "r.csv", tmp_path / "r.md")
    table = pd.read_csv(tmp_path / "r.csv")
    assert table.loc[0, "exact %"] == 50.0 and table.loc[0, "any %"] == 75.0
    assert table.loc[0, "swapped"] == 1 and table.loc[0, "test set"] == "newsnli"
    # The content match sits beside the exact one.
    assert table.loc[0, "content"] == 3 and table.loc[0, "content %"] == 75.0
    assert table.loc[0, "released premises"] == 3 and table.loc[0, "premises (content)"] == 2
    assert table.loc[0, "premises (content) %"] == 66.7


def test_a_row_without_parses_says_so_in_table6() -> None:
    scores = pd.concat([_scores(HAND), score_frame([ScoreRow(
        "equate", "table6", "Q-REAS", "", "NewsNLI", "NA (no CoreNLP parse)", 0)])])
    table = table6(scores, read_reference(REFERENCE / "table6_conll.csv", "table6"))
    assert _values(table, "Q-REAS")["NewsNLI"] == "NA (no CoreNLP parse)"


def test_qreas_notes_count_the_pairs_other_rows_label_otherwise(tmp_path: Path) -> None:
    def predictions(name: str, labels: list[str]) -> Path:
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps({"predicted": x}) + "\n" for x in labels))
        return path

    ours = predictions("ours", ["entailment", "contradiction", "NA"])
    other = predictions("other", ["entailment", "neutral", "entailment"])
    three = qreas_notes({("redditnli", "Q-REAS"): ours, ("redditnli", "Q-REAS (x)"): other})
    assert three[-1] == "RedditNLI, pairs labelled otherwise than by Q-REAS (of 2): Q-REAS (x) 1."
    # On a two-class set contradiction and neutral are one label.
    two = qreas_notes({("rte_quant", "Q-REAS"): ours, ("rte_quant", "Q-REAS (x)"): other})
    assert two[-1].endswith("(of 2): Q-REAS (x) 0.")


def test_perturbation_table_keeps_a_row_reason() -> None:
    scores = score_frame([ScoreRow("equate", "s5.1", "Q-REAS", "", name,
                                   "NA (no CoreNLP parse)", 0)
                          for name in ("unperturbed", "perturbed")])
    table = perturbation_table(scores)
    assert set(table[table["model"] == "Q-REAS"]["value"].head(2)) == {"NA (no CoreNLP parse)"}


def test_rows_beyond_the_paper_are_marked_last_with_a_note(tmp_path: Path) -> None:
    """A configured checkpoint the paper did not test: labelled, below the paper's rows and the
    Q-REAS readings, its Δ over MAJ still computed; the paper's BERT is not marked."""
    hand = {**HAND, "tiny-BERT": [80.0, 60.0, 50.0, 40.0, 60.0], "BERT": HAND["GPT"],
            "Q-REAS (Algorithm 1)": HAND["CBOW"]}
    path = tmp_path / "scores.csv"
    write_scores(_scores(hand), path)
    csv, md = tmp_path / "t6.csv", tmp_path / "t6.md"
    write_table6([path], REFERENCE / "table6_conll.csv", csv, md, beyond_paper=["tiny-BERT"])
    table = pd.read_csv(csv, keep_default_na=False)
    models = list(dict.fromkeys(table["model"]))
    assert models[-1] == beyond_row("tiny-BERT") and models[-2] == "Q-REAS (Algorithm 1)"
    assert "tiny-BERT" not in models and "BERT" in models
    tiny = _values(table, beyond_row("tiny-BERT"))
    assert float(tiny["RTE-Q Δ"]) == 20 and float(tiny["All Avg. Δ"]) == 12
    assert BEYOND_PAPER_NOTE in md.read_text(encoding="utf-8")
    # Without such rows, no note.
    write_table6([path], REFERENCE / "table6_conll.csv", csv, md)
    assert BEYOND_PAPER_NOTE not in md.read_text(encoding="utf-8")
    with pytest.raises(ReprobeError, match="OpenAI"):
        write_table6([path], REFERENCE / "table6_conll.csv", csv, md, beyond_paper=["OpenAI"])


def test_perturbation_rows_beyond_the_paper_are_marked_last(tmp_path: Path) -> None:
    path = tmp_path / "scores.csv"
    write_scores(score_frame(
        ScoreRow("equate", "s5.1", model, "", metric, value, 218)
        for model in ("tiny-BERT", "HYP", "Q-REAS (Algorithm 1)")
        for metric, value in (("unperturbed", 70.0), ("perturbed", 50.0))), path)
    csv, md = tmp_path / "p.csv", tmp_path / "p.md"
    write_perturbation_table([path], REFERENCE / "table6_conll.csv", csv, md,
                             beyond_paper=["tiny-BERT"])
    table = pd.read_csv(csv, keep_default_na=False)
    assert list(dict.fromkeys(table["model"]))[-1] == beyond_row("tiny-BERT")
    assert float(_values(table, beyond_row("tiny-BERT"))["perturbed − unperturbed"]) == -20
    assert BEYOND_PAPER_NOTE in md.read_text(encoding="utf-8")


def test_majs_delta_over_itself_is_by_construction_never_judged(tmp_path: Path) -> None:
    path = tmp_path / "scores.csv"
    write_scores(_scores(HAND), path)
    csv, md = tmp_path / "t6.csv", tmp_path / "t6.md"
    write_table6([path], REFERENCE / "table6_conll.csv", csv, md)
    table = pd.read_csv(csv)
    majority = table[(table["model"] == "MAJ") & table["metric"].str.endswith(" Δ")]
    assert len(majority) and majority["within_tolerance"].isna().all()
    assert majority["note"].str.startswith("by construction").all()
    # Its accuracies are judged; so is another row's Δ.
    sets = table[(table["model"] == "MAJ") & ~table["metric"].str.endswith(" Δ")]
    assert sets["within_tolerance"].notna().any()
    others = table[(table["model"] != "MAJ") & table["metric"].str.endswith(" Δ")
                   & table["value"].notna() & table["paper_value"].notna()]
    assert len(others) and others["within_tolerance"].notna().all()
    assert "| 0 (by construction)" in md.read_text(encoding="utf-8")
