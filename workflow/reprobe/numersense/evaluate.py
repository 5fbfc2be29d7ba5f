"""hit@k of ranked number-word predictions against gold labels (NumerSense, Lin et al. 2020).

Predictions are written in the released prediction layout, one JSON object a line:
`{"probe": …, "result_list": [{"word": …, "score": …}, …]}`, ranked best first, one line per
probe line of the set scored (a repeated probe is repeated, as the authors' files have it).
Probes are matched lowercased and stripped, as the authors' `src/evaluator.py` matches them
(`truth_dict[ls[0].strip().lower()] = ls[1]`).

"no" and "zero" say the same number. Four conventions (`numersense.no_zero`):
- `none`: the words as they are, every gold line counted with its own label (duplicates
  included). Scoring the authors' released GPT-2, BERT-base and BERT-large predictions this way
  over the released core and all files gives the paper's Table 2 in all 18 cells (338 of 1,132
  core lines = 29.86), so this is the convention compared with the paper;
- `released`: exactly what the authors' `src/evaluator.py` prints. It reads the gold file into a
  dict, so of a probe that occurs twice **the last line's label wins**; it then counts **every
  prediction line** (`num_probes += 1` per line), and rewrites gold and predicted "no" to "zero"
  (`if truth == "no": truth = "zero"  # always use zero`, and `"zero" if item["word"] == "no"`),
  in place, so "zero" can hold two of the top k. Where the gold covers only some probes (the
  builder's re-created labels) the lines without one are left out, which the authors' script
  would stop on (`assert data["probe"] in truth_dict`);
- `official`: the same no→zero rewrite, but gold line by gold line, each with its own label
  (this project's reading before the authors' script was checked; it differs from `released`
  by one line in 10 of 30 cells of the released predictions);
- `merge`: a gold "no" counts as "zero", and the scores of "no" and "zero" are summed into one
  "zero" entry before ranking again (one slot; with loss-like scores, as GPT-2's mean token loss,
  a sum is meaningless).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from reprobe.errors import InputFormatError
from reprobe.io import atomic_path, iter_json_objects
from reprobe.numersense.probes import LabelledProbe
from reprobe.text import open_text, require_rows

CONVENTIONS = ("none", "released", "official", "merge")
NO, ZERO = "no", "zero"
Ranked = Sequence[tuple[str, float]]


class PredictionLine(NamedTuple):
    """One line of a prediction file: the probe as written and its ranked words."""

    probe: str
    ranked: Ranked


def probe_key(probe: str) -> str:
    """How the authors' evaluator matches a prediction to a gold probe."""
    return probe.lower().strip()


def write_predictions(path: Path, probes: Sequence[str], ranked: Sequence[Ranked]) -> None:
    """Write ranked predictions in the released layout (one object a line), atomically."""
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8") as handle:
        for probe, words in zip(probes, ranked, strict=True):
            record = {"probe": probe,
                      "result_list": [{"word": w, "score": float(s)} for w, s in words]}
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")


def read_prediction_lines(path: Path) -> list[PredictionLine]:
    """Every prediction line in file order (repeats kept); a record without `probe` or
    `result_list`, or with an empty one, names its line."""
    lines: list[PredictionLine] = []
    with open_text(path) as handle:
        for number, record in iter_json_objects(path, handle):
            try:
                words = [(str(item["word"]), float(item["score"]))
                         for item in record["result_list"]]
                probe = str(record["probe"])
            except (KeyError, TypeError, ValueError) as error:
                raise InputFormatError(path, f"line {number}",
                                       f"not a prediction record ({error!r})") from error
            if not words:
                raise InputFormatError(path, f"line {number}", "an empty result_list")
            lines.append(PredictionLine(probe, words))
    require_rows(path, len(lines), "prediction records")
    return lines


def by_probe(lines: Iterable[PredictionLine]) -> dict[str, Ranked]:
    """Ranked predictions by probe key (a repeated probe: its last line)."""
    return {probe_key(line.probe): line.ranked for line in lines}


def read_predictions(path: Path) -> dict[str, Ranked]:
    """Ranked predictions by probe key; a record without `probe` or `result_list` names its line."""
    return by_probe(read_prediction_lines(path))


def ranked_words(ranked: Ranked, convention: str) -> list[str]:
    """The predicted words, best first, under a no/zero convention."""
    if convention == "none":
        return [word for word, _ in ranked]
    if convention in ("official", "released"):
        return [ZERO if word == NO else word for word, _ in ranked]
    if convention == "merge":
        scores: dict[str, float] = {}
        for word, score in ranked:
            key = ZERO if word == NO else word
            scores[key] = scores.get(key, 0.0) + score
        order = {word: i for i, word in enumerate(dict.fromkeys(
            ZERO if word == NO else word for word, _ in ranked))}
        # Highest summed score first; ties keep the order of the ranked list.
        return sorted(scores, key=lambda word: (-scores[word], order[word]))
    raise ValueError(f"unknown no/zero convention {convention!r}; expected one of {CONVENTIONS}")


def gold_word(label: str, convention: str) -> str:
    """The gold word as compared: "no" counts as "zero" unless the convention is `none`."""
    return ZERO if label == NO and convention != "none" else label


def released_counts(gold: Iterable[LabelledProbe], lines: Sequence[PredictionLine],
                    ks: Sequence[int]) -> tuple[dict[int, int], int]:
    """The authors' evaluator: hits per k over every prediction line with a gold label (the
    last gold line of a probe gives its label), and how many lines were counted."""
    truth = {probe_key(probe.probe): probe.label for probe in gold}
    hits, counted = dict.fromkeys(ks, 0), 0
    for line in lines:
        label = truth.get(probe_key(line.probe))
        if label is None:
            continue
        counted += 1
        words = ranked_words(line.ranked, "released")
        for k in ks:
            hits[k] += gold_word(label, "released") in words[:k]
    return hits, counted


def gold_counts(gold: Sequence[LabelledProbe], predictions: Mapping[str, Ranked],
                ks: Sequence[int], convention: str) -> dict[int, int]:
    """Hits per k over the gold lines, each with its own label; a gold probe without a
    prediction is an error."""
    hits = dict.fromkeys(ks, 0)
    for probe in gold:
        key = probe_key(probe.probe)
        if key not in predictions:
            raise KeyError(f"no prediction for probe {probe.probe!r}")
        words = ranked_words(predictions[key], convention)
        target = gold_word(probe.label, convention)
        for k in ks:
            hits[k] += target in words[:k]
    return hits


def score_lines(gold: Iterable[LabelledProbe], lines: Sequence[PredictionLine], *,
                ks: Sequence[int] = (1, 2, 3), convention: str
                ) -> tuple[dict[int, float], int]:
    """hit@k in percent for each k under a convention, and the lines it counts (n)."""
    gold = list(gold)
    if convention == "released":
        hits, n = released_counts(gold, lines, ks)
    else:
        hits, n = gold_counts(gold, by_probe(lines), ks, convention), len(gold)
    return {k: 100.0 * hits[k] / n if n else float("nan") for k in ks}, n


def hits_at_k(gold: Iterable[LabelledProbe], predictions: Mapping[str, Ranked], *,
              ks: Sequence[int] = (1, 2, 3), convention: str
              ) -> dict[int, float]:
    """hit@k in percent for each k, gold line by gold line (every convention but released,
    which needs the prediction lines: `score_lines`)."""
    if convention == "released":
        raise ValueError("the released convention counts prediction lines: use score_lines")
    gold = list(gold)
    hits = gold_counts(gold, predictions, ks, convention)
    return {k: 100.0 * hits[k] / len(gold) if gold else float("nan") for k in ks}
