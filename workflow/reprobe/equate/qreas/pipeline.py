"""Q-REAS end to end (EQUATE §4.2): quantities → pruner → composer → global reasoner → label.

For each side of a pair the quantities are parsed into NUMSETs (`reprobe.equate.quantities`; from
the released CoreNLP tokens, tags and arcs when the row carries them, else from the raw text),
adapted to compose's `Quantity`, pruned with the §4.2.3 heuristics
(`reprobe.equate.qreas.pruner`), composed into justifying equations
(`reprobe.equate.qreas.compose`, depth 3, at most 50 solutions, the paper's arithmetic and range
operators) and labelled by Algorithm 1 (`reprobe.equate.qreas.reasoner`).

Interpretations where §4.2 leaves room:
- Ordinal NUMSETs ("the 3rd") are not quantities to justify and are dropped.
- Quantities compatible with a hypothesis quantity are composed in the hypothesis's unit (its
  compatible units count as one type), and percentages are converted to fractions (or back) to
  match the hypothesis, so "6048 soldiers … 193 soldiers" justifies "5855 troops" when soldier
  and troops are compatible, and "half" matches "50 percent".
- MaxSimilarityClass (footnote 23: a class from the unit match) is contradiction when the two
  quantities move in opposite directions (flux, or an increase vs a decrease verb), otherwise
  entailment; ValueMatch is interval containment (the reasoner's default). Only quantities of
  class entailment are composed: otherwise the one-quantity equation `p = H` (lines 20–23) would
  overwrite every contradiction that Algorithm 1 finds.
- Years (a bare four-digit number used as a date: "in 2005", "fiscal 2005"), on which the paper
  is silent, follow `Resources.years`: `date` (default) gives them the unit "date", so they are
  compared with dates only, by value; `quantity` keeps the parser's unit (the nearest noun, so
  "fiscal 2005" and "fiscal year 2005" may clash); `drop` leaves them out, like ordinals.
- Two-class sets (RTE-Quant, NewsNLI: entailment/neutral; AwpNLI: entailment/contradiction) fold
  neutral and contradiction into `non-entailment`, gold and predicted alike; RedditNLI and the
  Stress Test are three-class. `evaluate` infers this from the gold labels unless told.

Beyond the paper, two readings can be switched on (the `Q-REAS (strict)` row of the config):
- `strict_bounds`: "more than 9", "fewer than 10", "over", "under" … exclude their endpoint
  (§4.2.2 parses "fewer than 10 apples" to the closed [−∞, 10]; "at least", "at most", "no more
  than" stay closed). An open endpoint is moved by `OPEN_MARGIN` of its size, far outside the
  composer's matching tolerance, so "more than 9" no longer matches 9.
- `cross_units`: quantities the pruner finds incompatible with the hypothesis still enter the
  composer in their own unit, where Table 5's one-type match lets × and ÷ combine them ("5
  boats each carrying 3 people" justifies "15 people"); + and − still need one unit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from reprobe.equate.labels import CONTRADICTION, ENTAILMENT
from reprobe.equate.qreas import compose as composer
from reprobe.equate.qreas.compose import Quantity
from reprobe.equate.qreas.pruner import WordNetLike, compatible, normalise
from reprobe.equate.qreas.reasoner import interval_match, reason
from reprobe.equate.quantities import NumSet, equate_parses, parse_quantities
from reprobe.equate.settings import QreasSettings

# The paper's operator set without the comparators (= and ⊆ are added by compose).
PAPER_OPERATORS = tuple(op for op in composer.OPERATORS if op not in composer.COMPARATORS)
INCREASE_VERBS = frozenset({"increase", "rise", "grow", "climb", "jump", "gain", "soar", "raise",
                            "boost", "add", "win", "earn", "expand"})
DECREASE_VERBS = frozenset({"decrease", "fall", "drop", "decline", "cut", "reduce", "lower",
                            "plunge", "slip", "lose", "shrink", "sink", "slump", "spend"})


@dataclass(frozen=True)
class Mention(Quantity):
    """A compose `Quantity` that keeps the NUMSET fields the reasoner looks at."""

    verb: str | None = None
    flux: str | None = None
    approximate: bool = False


YEAR_READINGS = ("date", "quantity", "drop")
DATE_UNIT = "date"
# How far an open bound's endpoint moves, relative to its size (matching tolerance is 1e-9).
OPEN_MARGIN = 1e-6


@dataclass(frozen=True)
class Resources:
    """What Q-REAS reads besides the pair: WordNet, the word lists, limits and readings (the
    config's `equate.qreas`; its schema holds their defaults)."""

    wordnet: WordNetLike | None
    jobs: frozenset[str]
    nationalities: frozenset[str]
    max_depth: int
    max_solutions: int
    years: str
    strict_bounds: bool
    cross_units: bool
    operators: tuple[str, ...] = PAPER_OPERATORS

    @classmethod
    def for_row(cls, wordnet: WordNetLike | None, jobs: frozenset[str],
                nationalities: frozenset[str], settings: QreasSettings, row: str) -> Resources:
        """The resources of one Algorithm 1 row: the limits, and the row's readings (the
        paper's own row switches none on)."""
        readings = settings.variant_readings(row)
        return cls(wordnet, jobs, nationalities, max_depth=settings.max_depth,
                   max_solutions=settings.max_solutions, years=settings.years,
                   strict_bounds=readings.get("strict_bounds", False),
                   cross_units=readings.get("cross_units", False))


def _open_bounds(low: float, high: float) -> tuple[float, float]:
    """A one-sided range with its finite endpoint excluded."""
    if math.isinf(low) and not math.isinf(high):
        return low, high - OPEN_MARGIN * max(abs(high), 1.0)
    if math.isinf(high) and not math.isinf(low):
        return low + OPEN_MARGIN * max(abs(low), 1.0), high
    return low, high


def to_quantity(numset: NumSet, resources: Resources | None = None) -> Mention:
    """Adapt a NUMSET to compose's quantity protocol (unit normalised, "" when missing)."""
    low, high = float(numset.value[0]), float(numset.value[1])
    unit = normalise(numset.unit)
    if resources is not None and numset.year and resources.years == "date":
        unit = DATE_UNIT
    if resources is not None and resources.strict_bounds and numset.strict_bound:
        low, high = _open_bounds(low, high)
    return Mention(low, high, unit, numset.entity, numset.verb, numset.flux, numset.approximate)


def kept(numset: NumSet, resources: Resources | None) -> bool:
    """Whether a NUMSET is a quantity to reason with (not an ordinal, nor a dropped year)."""
    dropped_year = resources is not None and resources.years == "drop" and numset.year
    return not numset.ordinal and not dropped_year


def side_quantities(row: dict[str, Any], side: str,
                    resources: Resources | None = None) -> list[Mention]:
    """Quantities of one side of a jsonl row, from its CoreNLP parses when it has them."""
    if row.get(f"{side}_pos") and row.get(f"{side}_tokens"):
        numsets = [q for parse in equate_parses(row, side)
                   for q in parse_quantities(list(parse.tokens), parse)]
    else:
        numsets = parse_quantities(str(row[side]))
    return [to_quantity(q, resources) for q in numsets if kept(q, resources)]


def align(premise_q: Mention, hypothesis_q: Quantity) -> Mention:
    """A premise quantity in the hypothesis's unit (percent ↔ fraction values converted)."""
    low, high = premise_q.low, premise_q.high
    if premise_q.unit == "fraction" and hypothesis_q.unit == "percent":
        low, high = low * 100, high * 100
    elif premise_q.unit == "percent" and hypothesis_q.unit == "fraction":
        low, high = low / 100, high / 100
    return replace(premise_q, low=low, high=high, unit=hypothesis_q.unit)


def direction(q: Any) -> int:
    """+1 for an increase, −1 for a decrease, 0 when the quantity does not say."""
    flux = (getattr(q, "flux", None) or "").lower()
    verb = (getattr(q, "verb", None) or "").lower()
    if flux.startswith("increase") or verb in INCREASE_VERBS:
        return 1
    if flux.startswith("decrease") or verb in DECREASE_VERBS:
        return -1
    return 0


def similarity_class(premise_q: Any, hypothesis_q: Any) -> str:
    """MaxSimilarityClass: contradiction for opposite directions, else entailment."""
    return CONTRADICTION if direction(premise_q) * direction(hypothesis_q) < 0 else ENTAILMENT


def label_quantities(premise: Sequence[Mention], hypothesis: Sequence[Mention], *,
                     resources: Resources, two_class: bool = False) -> str:
    """Algorithm 1 over parsed quantities, with the pruner and the composer plugged in."""

    def is_compatible(p: Any, h: Any) -> bool:
        return compatible(p, h, wordnet=resources.wordnet, jobs=resources.jobs,
                          nationalities=resources.nationalities)

    def value_match(p: Mention, h: Mention) -> bool:
        # "about $12 billion" is widened by ±2% (§4.2.2); the exact "$12 billion" inside that
        # range still matches it.
        aligned = align(p, h)
        return interval_match(aligned, h) or (p.approximate and interval_match(h, aligned))

    def compose(jh: list[Mention], qh: Mention) -> bool:
        support = [align(p, qh) for p in jh if similarity_class(p, qh) == ENTAILMENT]
        if resources.cross_units and support:
            # Other units join in their own type: only × and ÷ can take them (Table 5).
            support += [p for p in premise if not any(p is q for q in jh)
                        and similarity_class(p, qh) == ENTAILMENT]
        # Algorithm 1 asks only whether an equation exists: the first feasible one answers,
        # the same as asking for `max_solutions` of them.
        return bool(support) and composer.justified(support, qh, max_depth=resources.max_depth,
                                                     operators=resources.operators)

    return reason(premise, hypothesis, compatible=is_compatible, compose=compose,
                  two_class=two_class, similarity_class=similarity_class,
                  value_match=value_match)


def predict(row: dict[str, Any], *, resources: Resources, two_class: bool = False) -> str:
    """The Q-REAS label of one jsonl row (sentence1 = premise, sentence2 = hypothesis)."""
    return label_quantities(side_quantities(row, "sentence1", resources),
                            side_quantities(row, "sentence2", resources),
                            resources=resources, two_class=two_class)
