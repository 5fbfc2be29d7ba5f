"""Any model on any NumerSense set: ranked predictions in the released layout, hit@k under
every convention (`reprobe numersense score`, the command the probing rule runs too).

A protocol says how a model ranks the 12 number words (`numersense.protocols`):
- `authors`: the authors' own procedure, the paper's rows (`authors.score_probes_authors` for
  masked LMs, `causal.score_probes_causal_authors` for causal ones);
- `clean`: the whole-vocabulary softmax at the mask on the probe as written
  (`mlm.score_probes`), or for a causal LM the sentence's mean token log-probability with a BOS
  token before it (`causal.score_probes_causal`).
A set is scored probe by distinct probe and written line by line, a repeated probe repeated,
as the authors' prediction files are.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from reprobe.errors import ReprobeError
from reprobe.numersense.evaluate import (
    CONVENTIONS,
    PredictionLine,
    Ranked,
    score_lines,
    write_predictions,
)
from reprobe.numersense.probes import LabelledProbe
from reprobe.numersense.settings import ProbeSettings
from reprobe.scores import ScoreRow, write_scores

log = logging.getLogger(__name__)

PROTOCOLS = ("authors", "clean")
PAPER = "numersense"
KS = (1, 2, 3)


class ScoredSet(NamedTuple):
    """One set to score: its name, its probe lines, its gold lines (None: no gold given; an
    empty list: a gold file with no line, scored as NaN with n = 0)."""

    name: str
    probes: list[str]
    gold: list[LabelledProbe] | None


def rank_probes(model: Any, tokenizer: Any, kind: str, probes: Sequence[str], protocol: str,
                run: ProbeSettings) -> list[Ranked]:
    """Each probe's 12 number words ranked under a protocol."""
    from reprobe.numersense.authors import score_probes_authors
    from reprobe.numersense.causal import score_probes_causal, score_probes_causal_authors
    from reprobe.numersense.mlm import score_probes

    if protocol not in PROTOCOLS:
        raise ReprobeError(f"unknown protocol {protocol!r}; use one of {list(PROTOCOLS)}")
    options = {"precision": run.precision}
    if kind == "masked":
        scorer = score_probes_authors if protocol == "authors" else score_probes
        return scorer(model, tokenizer, probes, run.batch_size, run.device, **options)
    if protocol == "authors":
        return score_probes_causal_authors(model, tokenizer, probes, run.batch_size, run.device,
                                           **options)
    return score_probes_causal(model, tokenizer, probes, run.batch_size, run.device,
                               bos=run.clean_bos, **options)


def check_multi_token(tokenizer: Any) -> None:
    """An error naming every number word that is not one token of a masked LM's vocabulary
    (the clean protocol reads one token at the mask)."""
    from reprobe.numersense.candidates import CANDIDATES, CandidateTokenError, candidate_token_id

    split = []
    for word in CANDIDATES:
        try:
            candidate_token_id(tokenizer, word)
        except CandidateTokenError as error:
            split.append(f"{word} -> {error.pieces}")
    if split:
        from reprobe.numersense.candidates import model_name

        raise ReprobeError(f"{model_name(tokenizer)}: {len(split)} number words are not one "
                           f"token of this masked LM's vocabulary ({'; '.join(split)}); a "
                           f"masked LM reads one token at the mask, so it cannot be scored "
                           f"here (a causal LM is scored by sentence likelihood instead)")


def prediction_lines(probes: Sequence[str], ranked: Sequence[Ranked]) -> list[PredictionLine]:
    """The predictions of distinct probes spread back over every probe line."""
    by_text = dict(zip(dict.fromkeys(probes), ranked, strict=True))
    return [PredictionLine(probe, by_text[probe]) for probe in probes]


def convention_rows(row: str, test_set: str, gold: Sequence[LabelledProbe],
                    lines: Sequence[PredictionLine]) -> list[ScoreRow]:
    """hit@1/2/3 of one row on one set under every convention (the convention in `setting`)."""
    rows = []
    for convention in CONVENTIONS:
        hits, n = score_lines(gold, lines, ks=KS, convention=convention)
        rows += [ScoreRow(PAPER, "table2", row, convention, f"{test_set} hit@{k}", hits[k], n)
                 for k in KS]
    return rows


def check_gold_covered(name: str, gold: Sequence[LabelledProbe],
                       lines: Sequence[PredictionLine]) -> None:
    """An error naming a gold probe that has no prediction (gold and probes do not match)."""
    from reprobe.numersense.evaluate import probe_key

    predicted = {probe_key(line.probe) for line in lines}
    missing = [p.probe for p in gold if probe_key(p.probe) not in predicted]
    if missing:
        raise ReprobeError(f"{name}: {len(missing)} labelled probes are not among the probes "
                           f"scored, e.g. {missing[0]!r}")


def set_label(name: str) -> str:
    """The set a name stands for in Table 2's columns: `rebuilt-core` -> core, else the name."""
    label = name.rsplit("-", 1)[-1]
    return label if label in ("core", "all", "validation") else name


def score_sets(model: Any, tokenizer: Any, kind: str, row: str, sets: Sequence[ScoredSet],
               protocol: str, run: ProbeSettings, out_dir: Path) -> dict[str, list[ScoreRow]]:
    """Score each set; write `<name>.jsonl` (and `<name>.csv` where gold is given) in out_dir."""
    results = {}
    for scored in sets:
        distinct = list(dict.fromkeys(scored.probes))
        lines = prediction_lines(scored.probes, rank_probes(model, tokenizer, kind, distinct,
                                                            protocol, run))
        write_predictions(out_dir / f"{scored.name}.jsonl", [line.probe for line in lines],
                          [line.ranked for line in lines])
        if scored.gold is None:
            continue
        check_gold_covered(scored.name, scored.gold, lines)
        rows = convention_rows(row, set_label(scored.name), scored.gold, lines)
        write_scores(rows, out_dir / f"{scored.name}.csv")
        results[scored.name] = rows
        log.info("%s on %s (%s): %s", row, scored.name, protocol,
                 "; ".join(f"{r.setting} {r.metric} {r.value:.2f} (n={r.n})" for r in rows
                           if r.metric.endswith("hit@1")))
    return results
