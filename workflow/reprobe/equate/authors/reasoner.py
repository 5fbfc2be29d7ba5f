"""The label of one pair, as the released global reasoner decides it.

Follows `global_reasoner.py` (EntailmentReasoner: extract_parses ≈ lines 34-58, prune_pairs
≈ 60-92, generate_equations ≈ 94-140, shallow_logical_reasoner ≈ 142-268, predict ≈ 270-318)
and `utils_reasoner.py` (preprocess). Where it differs from the paper's Algorithm 1, on purpose:
- a unit-compatible premise quantity with another value marks the hypothesis quantity
  CONTRADICTION (lines ≈ 221-223, 237-239, 249-251); Algorithm 1 marks it false, which ends
  as neutral (its lines 15-16: "if !ValueMatch(qp, qh) then L[qh] = false"). Any
  CONTRADICTION makes the pair a contradiction;
- the similarity class is entailment unless the two quantities agree on no field at all;
- there is no early neutral exit (Algorithm 1 line 9: "if Jh = ∅ then return n"): a
  hypothesis quantity without a compatible premise quantity is left unjustified, and the pair
  is neutral unless another quantity is a CONTRADICTION;
- an equation found for the k-th hypothesis quantity that has a value marks position k of
  the justification list, which is the k-th quantity only when every earlier one has a value.
`contradiction_on_mismatch=False` turns the first rule into Algorithm 1's, to count the
pairs it moves (the report's notes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reprobe.equate.authors.equations import POOL_SOLUTIONS, EquationSearch
from reprobe.equate.authors.numset import Numset, le, lt
from reprobe.equate.authors.parser import get_numsets
from reprobe.equate.authors.pruner import Lexicon, compatible_groups, similarity, similarity_class
from reprobe.equate.labels import CONTRADICTION, ENTAILMENT, NEUTRAL

CORENLP_FIELDS = tuple(f"sentence{i}_{kind}" for i in (1, 2)
                       for kind in ("tokens", "pos", "dep_parse", "syntax_parse"))
MATCH, MISMATCH = "ENTAILMENT", "CONTRADICTION"


def has_corenlp(row: dict[str, Any]) -> bool:
    """Whether a released row carries the CoreNLP annotations the released code reads."""
    return all(row.get(key) for key in CORENLP_FIELDS)


def preprocess(text: str) -> str:
    """utils_reasoner.preprocess: lowercased, hyphens spaced."""
    return text.lower().replace("-", " - ")


@dataclass(frozen=True)
class Reading:
    """How the released code is read where it leaves room: `pool` (None: every sequence the
    ILP admits; 50: the solve loop's 50 pool solutions, see `equations`) and, to count what
    the rule moves, `contradiction_on_mismatch` (False: Algorithm 1's lines 15-16)."""

    pool: int | None
    contradiction_on_mismatch: bool

    @classmethod
    def of(cls, spec: Mapping[str, str]) -> Reading:
        """The reading of one `equate.qreas.released_code` row (solutions, mismatch)."""
        return cls(pool=POOL_SOLUTIONS if spec["solutions"] == "pool" else None,
                   contradiction_on_mismatch=spec["mismatch"] == "contradiction")


@dataclass
class Parsed:
    """One pair's NUMSETs and the compatible (premise, hypothesis) pairs the pruner kept."""

    premise: list[Numset]
    hypothesis: list[Numset]
    groups: list[list[Numset]]

    def partners(self, hypothesis: Numset) -> list[Numset]:
        """Premise quantities paired with a hypothesis quantity (by its mention's tokens)."""
        return [group[0] for group in self.groups
                if len(group) == 2 and group[1].mention == hypothesis.mention]


def parse_pair(row: dict[str, Any], lexicon: Lexicon) -> Parsed:
    """extract_parses and prune_pairs: NUMSETs of both sides, then the compatible groups."""
    premise = get_numsets(row, "sentence1", preprocess(str(row["sentence1"])))
    hypothesis = get_numsets(row, "sentence2", preprocess(str(row["sentence2"])))
    return Parsed(premise, hypothesis, compatible_groups(premise, hypothesis, lexicon))


def equation_found(parsed: Parsed, hypothesis: Numset, pool: int | None) -> bool:
    """generate_equations for one hypothesis quantity: its partners, single values first then
    ranges (each once), and whether some equation over them holds."""
    partners = parsed.partners(hypothesis)
    singles: list[Numset] = []
    ranges: list[Numset] = []
    for numset in partners:
        if numset.value and len(numset.value[1]) == 1 and not any(numset is s for s in singles):
            singles.append(numset)
        if numset.value and len(numset.value[1]) == 2 and not any(numset is r for r in ranges):
            ranges.append(numset)
    return EquationSearch([*singles, *ranges], hypothesis, pool).justified()


def value_verdict(premise: Numset, hypothesis: Numset, lexicon: Lexicon,
                  contradiction_on_mismatch: bool) -> str | None:
    """One (premise, hypothesis) comparison of shallow_logical_reasoner: MATCH, MISMATCH or
    None (no verdict), by value shape (single/single, range/range, single/range)."""
    h, p = hypothesis.value[1], premise.value[1]
    best = similarity_class(similarity(premise, hypothesis, lexicon))
    if len(h) == 1 and len(p) == 1:
        same = h[0] == p[0]
    elif len(p) == 2 and len(h) == 2:
        same = p[0] == h[0] and h[1] == p[1]
    elif len(p) == 1 and len(h) == 2:
        inside = lt(h[0], p[0]) and lt(p[0], h[1])
        outside = lt(p[0], h[0]) or le(h[1], p[0])
        if best == 0 and inside:
            return MATCH
        if best == 2 and inside:
            return MISMATCH
        if best == 0 and outside:
            return MISMATCH if contradiction_on_mismatch else None
        return None
    else:
        return None
    if best == 0 and same:
        return MATCH
    if best == 2 and same:
        return MISMATCH
    if best == 0 and not same:
        return MISMATCH if contradiction_on_mismatch else None
    return None


def justifications(parsed: Parsed, lexicon: Lexicon, reading: Reading) -> list[str | bool]:
    """shallow_logical_reasoner's list: per hypothesis quantity, the last verdict of its
    partners, then ENTAILMENT at each position k whose k-th equation holds."""
    justified: list[str | bool] = [False] * len(parsed.hypothesis)
    for k, hypothesis in enumerate(parsed.hypothesis):
        if not hypothesis.value:
            continue
        for premise in parsed.partners(hypothesis):
            if not premise.value:
                continue
            verdict = value_verdict(premise, hypothesis, lexicon,
                                    reading.contradiction_on_mismatch)
            if verdict is not None:
                justified[k] = verdict
    with_value = [h for h in parsed.hypothesis if h.value and len(h.value[1]) <= 2]
    for k, hypothesis in enumerate(with_value):
        if equation_found(parsed, hypothesis, reading.pool):
            justified[k] = MATCH
    return justified


def label_pair(row: dict[str, Any], lexicon: Lexicon, reading: Reading) -> str:
    """The released code's three-way label of one pair (predict's loop body)."""
    parsed = parse_pair(row, lexicon)
    if not parsed.groups:
        return NEUTRAL
    justified = justifications(parsed, lexicon, reading)
    label = NEUTRAL
    if justified.count(MATCH) == len(justified):
        label = ENTAILMENT
    elif False in justified:
        label = NEUTRAL
    if MISMATCH in justified:
        label = CONTRADICTION
    return label


def label_rows(rows: Sequence[dict[str, Any]], lexicon: Lexicon, reading: Reading
               ) -> list[str]:
    """Labels of rows that all carry CoreNLP annotations."""
    return [label_pair(row, lexicon, reading) for row in rows]
