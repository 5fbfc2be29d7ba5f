"""Run one Table 6 row (MAJ, HYP, a neural checkpoint or Q-REAS) on one EQUATE evaluation set.

An evaluation set is a released-layout jsonl file named by a test set (rte_quant, newsnli,
redditnli, stresstest, awpnli) and a variant: `released` (the published file, human labels),
`rebuilt` (what this workflow built from raw sources; NewsNLI/RedditNLI candidates carry the
labels of the released pairs they recover) or `perturbation` (§5.1: `unperturbed` and
`perturbed` NewsNLI pairs) or `mnli` (Table 7: MultiNLI dev-matched, its no-consensus pairs
left out).

Every predictor returns three-way labels where it can; the label space of the set is applied
when scoring (`baselines.fold`), so the predictions file keeps what the model said and the
§5.1 "share of errors that are neutral" can be counted on the perturbed pairs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from reprobe.equate.baselines import majority_baseline, predict_hyp
from reprobe.equate.jsonl import read_pairs
from reprobe.equate.labels import NO_PARSE, fold, is_two_class
from reprobe.equate.qreas.reasoner import NEUTRAL
from reprobe.errors import InputFormatError
from reprobe.io import atomic_path, iter_json_objects
from reprobe.scores import ScoreRow, write_scores
from reprobe.text import open_text, require_rows

KINDS = ("majority", "hyp", "trained", "neural", "qreas", "qreas_authors")
# The score of the released-code Q-REAS on a set without CoreNLP parses.
NO_PARSE_SCORE = "NA (no CoreNLP parse)"
VARIANTS = ("released", "rebuilt", "perturbation", "mnli")
# Table 7's one column: accuracy on MultiNLI dev-matched.
MNLI_METRIC = "MultiNLI dev-matched"
NEUTRAL_SHARE = "neutral share of perturbed errors"


@dataclass(frozen=True)
class Predictor:
    """What one Table 6 row needs to label pairs: its kind and the files it reads."""

    kind: str
    hyp_model: Path | None = None
    checkpoint: Path | None = None  # neural: a checkpoint folder; trained: the model's folder
    label_map: Mapping[str, str] | None = None
    batch_size: int | None = None  # neural: the row's `batch_size`
    resources: Any = None  # Q-REAS: qreas.Resources; released code: (Lexicon, Reading)
    threads: int = 1


def two_class_of(test_set: str, variant: str) -> bool:
    """The label space of an evaluation set: the §5.1 sets are NewsNLI pairs (two-class)."""
    return True if variant == "perturbation" else is_two_class(test_set)


def predict_rows(predictor: Predictor, rows: Sequence[dict[str, Any]], *,
                 two_class: bool = False) -> list[str]:
    """Labels of one predictor for rows (three-way, except MAJ on a two-class set)."""
    if predictor.kind == "majority":
        # MAJ sees gold labels by definition (§4.1: the test set's majority class, counted in
        # the set's label space: on a two-class set neutral and contradiction count together).
        return majority_baseline(rows, two_class=two_class)
    if predictor.kind == "hyp":
        if predictor.hyp_model is None:
            raise ValueError("HYP needs a trained hypothesis-only model")
        return predict_hyp(predictor.hyp_model, rows)
    if predictor.kind == "neural":
        if predictor.checkpoint is None:
            raise ValueError("a neural row needs a checkpoint folder")
        import torch

        from reprobe.equate.neural import predict_nli

        # The job's cores, not the node's: torch would otherwise start a thread per CPU it sees.
        torch.set_num_threads(predictor.threads)
        if predictor.batch_size is None:
            raise ValueError("a neural row needs its batch size")
        return predict_nli(predictor.checkpoint, rows, batch_size=predictor.batch_size,
                           label_map=predictor.label_map)
    if predictor.kind == "trained":
        if predictor.checkpoint is None or predictor.batch_size is None:
            raise ValueError("a trained row needs its model folder and batch size")
        import torch

        from reprobe.equate.trained.saved import predict_trained

        torch.set_num_threads(predictor.threads)
        return predict_trained(predictor.checkpoint, rows, batch_size=predictor.batch_size)
    if predictor.kind == "qreas":
        from reprobe.equate.qreas.pipeline import predict

        # A progress bar in the rule's log: the Stress Test has thousands of pairs.
        return [predict(row, resources=predictor.resources, two_class=False)
                for row in tqdm(rows, desc="Q-REAS", unit="pair", mininterval=10)]
    if predictor.kind == "qreas_authors":
        from reprobe.equate.authors.reasoner import has_corenlp, label_pair

        lexicon, reading = predictor.resources
        return [label_pair(row, lexicon, reading) if has_corenlp(row) else NO_PARSE
                for row in tqdm(rows, desc="Q-REAS (released code)", unit="pair",
                                mininterval=10)]
    raise ValueError(f"unknown predictor kind {predictor.kind!r}; expected one of {KINDS}")


def accuracy(gold: Sequence[str], predicted: Sequence[str], two_class: bool) -> float:
    """Percent of predictions equal to gold in the set's label space (NaN for no pairs)."""
    hits = sum(fold(g, two_class) == fold(p, two_class)
               for g, p in zip(gold, predicted, strict=True))
    return 100.0 * hits / len(gold) if gold else float("nan")


def score_rows(gold: Sequence[str], predicted: Sequence[str], *, model: str, test_set: str,
               variant: str) -> list[ScoreRow]:
    """Long score rows (accuracy in %, n) of one model on one evaluation set."""
    two_class = two_class_of(test_set, variant)
    table, setting = {"perturbation": ("s5.1", ""), "mnli": ("table7", "")}.get(
        variant, ("table6", variant))
    metric = MNLI_METRIC if variant == "mnli" else test_set
    # Pairs without a parse are left out of the released code's score; with none, it is NA.
    scored = [(g, p) for g, p in zip(gold, predicted, strict=True) if p != NO_PARSE]
    unparsed = len(gold) - len(scored)
    gold, predicted = [g for g, _ in scored], [p for _, p in scored]
    value: Any = NO_PARSE_SCORE if unparsed and not scored else accuracy(gold, predicted,
                                                                          two_class)
    rows = [ScoreRow("equate", table, model, setting, metric, value, len(gold))]
    if variant == "perturbation" and test_set == "perturbed":
        errors = [p for g, p in zip(gold, predicted, strict=True)
                  if fold(g, two_class) != fold(p, two_class)]
        share = 100.0 * sum(p == NEUTRAL for p in errors) / len(errors) if errors else float("nan")
        rows.append(rows[0]._replace(metric=NEUTRAL_SHARE, value=share, n=len(errors)))
    return rows


def shard_indices(n_rows: int, shard: int, shards: int) -> range:
    """The rows one shard labels: i mod shards == shard (each shard sees every kind of row)."""
    if not 0 <= shard < shards:
        raise ValueError(f"shard {shard} out of range for {shards} shards")
    return range(shard, n_rows, shards)


def predict_shard(predictor: Predictor, pairs_jsonl: Path, *, test_set: str, variant: str,
                  shard: int, shards: int, out_jsonl: Path) -> int:
    """Label one shard of an evaluation set; write (index, predicted) lines; return its size."""
    rows = list(read_pairs(Path(pairs_jsonl), consensus_only=variant == "mnli"))
    require_rows(pairs_jsonl, len(rows), "pairs")
    indices = shard_indices(len(rows), shard, shards)
    two_class = two_class_of(test_set, variant)
    if predictor.kind == "majority":  # the set's majority, not the shard's
        labels = predict_rows(predictor, rows, two_class=two_class)
        predicted = [labels[i] for i in indices]
    else:
        predicted = predict_rows(predictor, [rows[i] for i in indices], two_class=two_class)
    with atomic_path(out_jsonl) as tmp, tmp.open("w", encoding="utf-8") as handle:
        for i, label in zip(indices, predicted, strict=True):
            handle.write(json.dumps({"index": i, "predicted": label}) + "\n")
    return len(indices)


def gather_shards(shard_files: Sequence[Path], n_rows: int) -> list[str]:
    """The predictions of every row, from the shard files; a gap or a repeat names the file."""
    predicted: list[str | None] = [None] * n_rows
    for path in shard_files:
        with open_text(path) as handle:
            records = list(iter_json_objects(path, handle))
        for line_number, record in records:
            i = record.get("index")
            if not isinstance(i, int) or not 0 <= i < n_rows or predicted[i] is not None:
                raise InputFormatError(path, f"line {line_number}", f"row index {i!r} is out "
                                       f"of range or repeated ({n_rows} rows in the set)")
            predicted[i] = str(record["predicted"])
    missing = [i for i, label in enumerate(predicted) if label is None]
    if missing:
        raise InputFormatError(", ".join(str(p) for p in shard_files), f"row {missing[0]}",
                               f"{len(missing)} rows have no prediction in these shards")
    return [label for label in predicted if label is not None]


def evaluate_set(predictor: Predictor, pairs_jsonl: Path, *, model: str, test_set: str,
                 variant: str, scores_csv: Path, predictions_jsonl: Path,
                 shard_files: Sequence[Path] = ()) -> ScoreRow:
    """Label an evaluation set (or gather its shards), write the predictions and the score
    rows; return the first row."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; expected one of {VARIANTS}")
    rows = list(read_pairs(Path(pairs_jsonl), consensus_only=variant == "mnli"))
    require_rows(pairs_jsonl, len(rows), "pairs")
    if shard_files:
        predicted = gather_shards(shard_files, len(rows))
    else:
        predicted = predict_rows(predictor, rows, two_class=two_class_of(test_set, variant))
    gold = [row["gold_label"] for row in rows]
    with atomic_path(predictions_jsonl) as tmp, tmp.open("w", encoding="utf-8") as handle:
        for row, label in zip(rows, predicted, strict=True):
            record = {"sentence1": row["sentence1"], "sentence2": row["sentence2"],
                      "gold_label": row["gold_label"], "predicted": label}
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    scores = score_rows(gold, predicted, model=model, test_set=test_set, variant=variant)
    write_scores(scores, scores_csv)
    return scores[0]
