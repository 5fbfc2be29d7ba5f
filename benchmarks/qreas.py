"""Q-REAS throughput by stage, before and after the look-up search, side by side in one run.

Two passes over the same pairs:
- before: every candidate expression tree enumerated up to the depth limit, all matches sorted
  and ILP-checked until 50 are feasible (how Q-REAS composed before the look-up search; the
  enumeration budget of 200,000 subtrees is kept);
- after: the workflow's `compose.justified` (full-depth trees found by value look-up, leaf
  counts in order, stopping at the first feasible equation).
ILP verdicts are shared across pairs in both (per equation signature, as the workflow does). The
script fails if any prediction differs. Time is split by stage by wrapping the stage functions:
parsing (`side_quantities`: tagging and NUMSETs), pruning (`compatible`), composition (the
search) and the ILP (`ilp_feasible`, HiGHS); composition is reported without the ILP.

Pairs (`--input`):
- `stress`: Stress-Test-like pairs built here: AQuA-style word problems with several quantities
  (templates, seeded), the premise is the whole problem, the hypothesis one of its sentences
  rewritten by the project's Stress Test generator (`stresstest.premise_pairs`: "more/less
  than", a changed value, reversed for neutral), as in Naik et al.'s released test;
- `generated`: one-sentence pairs from templates (sums, differences, ranges, mismatches);
- `--jsonl FILE …`: released-layout files (e.g. RTE_Quant.jsonl, whose CoreNLP parses are used).
WordNet: the project's sample, or `--wordnet` (a WNdb folder, e.g. WordNet 3.0).

    python benchmarks/qreas.py --input stress --pairs 600
    python benchmarks/qreas.py --jsonl RTE_Quant.jsonl --wordnet wordnet-3.0
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from reprobe.equate.jsonl import read_pairs
from reprobe.equate.qreas import compose, ilp
from reprobe.equate.qreas import pipeline as qreas
from reprobe.equate.qreas.pipeline import Resources, predict
from reprobe.equate.qreas.wordnet import load_wordnet
from reprobe.equate.sets import stresstest
from reprobe.equate.settings import ALGORITHM1, QreasSettings
from reprobe.step_settings import settings_from_schema

REPO = Path(__file__).resolve().parents[1]
UNITS = ["soldiers", "people", "dollars", "cars", "votes", "students", "tons", "houses"]
# AQuA-style problems: several quantities of a few units each (rates, counts, money, time).
PROBLEMS = [
    "A shop sold {a} shirts at {b} dollars each and {c} trousers at {d} dollars each. "
    "It paid {e} dollars in rent and {f} dollars in wages.",
    "A train {a} meters long runs at {b} km per hour. It passes a platform {c} meters long "
    "in {d} seconds and a pole in {e} seconds.",
    "Tom has {a} apples and {b} oranges. He gives {c} apples to Sam and buys {d} oranges. "
    "His sister has {e} apples.",
    "A tank holds {a} liters. Pipe A fills {b} liters per minute and pipe B drains {c} liters "
    "per minute. After {d} minutes a worker adds {e} liters.",
    "In a class of {a} students, {b} students play cricket and {c} students play football. "
    "{d} students play both and {e} students were absent.",
    "A farmer has {a} cows and {b} hens. Each cow gives {c} liters of milk a day. He sells "
    "{d} liters and keeps {e} liters. He bought {f} hens last week.",
]
# The enumeration budget the search had before the look-up (subtrees kept per composition).
BEFORE_MAX_TERMS = 200_000


def make_pair(rng: random.Random) -> dict[str, str]:
    """One one-sentence pair from a randomly chosen template (the `generated` input)."""
    a, b = rng.randint(20, 9000), rng.randint(2, 900)
    unit = rng.choice(UNITS)
    premise, hypothesis = [
        (f"The army sent {a + b} {unit} north, and {b} {unit} came back.",
         f"{a} {unit} stayed in the north."),
        (f"The town has {a} {unit} in the east and {b} {unit} in the west.",
         f"The town has {a + b} {unit}."),
        (f"About {a} {unit} were counted on Monday.", f"Roughly {a} {unit} were counted."),
        (f"Officials reported {a} {unit} in total.",
         f"Officials reported more than {a + b} {unit}."),
        (f"Between {b} and {a + b} {unit} took part in the march.",
         f"{b + 1} {unit} took part in the march."),
    ][rng.randrange(5)]
    return {"sentence1": premise, "sentence2": hypothesis, "gold_label": "entailment"}


def stress_pairs(rng: random.Random, count: int) -> list[dict[str, str]]:
    """Stress-Test-like pairs: a whole problem as premise, one sentence of it rewritten."""
    pairs: list[dict[str, str]] = []
    while len(pairs) < count:
        values = {key: rng.randint(2, 400) for key in "abcdef"}
        problem = rng.choice(PROBLEMS).format(**values)
        sentences = stresstest.sentences(problem)
        chosen = rng.choice([s for s in sentences if stresstest.is_premise(s)])
        for pair in stresstest.premise_pairs(chosen, rng):
            # Neutral pairs are the entailed ones reversed: their premise is the bound sentence.
            premise = pair.sentence1 if pair.gold_label == "neutral" else problem
            pairs.append({"sentence1": premise, "sentence2": pair.sentence2,
                          "gold_label": pair.gold_label})
    return pairs[:count]


def before_justified(premise: list, target: Any, *, max_depth: int,
                     operators: tuple[str, ...] = compose.ARITHMETIC) -> bool:
    """The search before the look-up: enumerate every tree, sort the matches, ILP-check up to
    50 of them (the budget as it was)."""
    ops = compose._operators(operators)
    comparator = compose.SUBSET if compose.is_range(target) else compose.EQ
    target_type = compose.unit_type(target)
    found = [compose.Expression(e.tree, target, comparator)
             for e in compose._enumerate(premise, ops, max_depth, BEFORE_MAX_TERMS)
             if compose._accepts(e, target, target_type)]
    found.sort(key=lambda e: compose._sort_key(e, ops))
    return any(ilp.feasible(premise, e, max_depth=max_depth) for e in found[:50])


@contextmanager
def timed(module: Any, name: str, seconds: dict[str, float], stage: str) -> Iterator[None]:
    """Accumulate the time spent in `module.name` under `stage` while the block runs."""
    original: Callable = getattr(module, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            seconds[stage] += time.perf_counter() - start

    setattr(module, name, wrapper)
    try:
        yield
    finally:
        setattr(module, name, original)


def run(pairs: list[dict], resources: Resources, search: Callable) -> tuple[list[str], dict]:
    """Labels and seconds by stage of one pass, with `search` as the composer."""
    seconds: dict[str, float] = defaultdict(float)
    ilp._VERDICTS.clear()
    start = time.perf_counter()
    with (timed(qreas, "side_quantities", seconds, "parsing"),
          timed(qreas, "compatible", seconds, "pruning"),
          timed(ilp, "ilp_feasible", seconds, "ILP")):
        original = compose.justified
        compose.justified = search
        try:
            with timed(compose, "justified", seconds, "composition"):
                labels = [predict(pair, resources=resources) for pair in pairs]
        finally:
            compose.justified = original
    seconds["total"] = time.perf_counter() - start
    seconds["composition"] -= seconds["ILP"]  # the ILP runs inside the composition
    return labels, dict(seconds)


def report(name: str, n: int, seconds: dict[str, float]) -> str:
    """One line: pairs/s overall and the seconds of each stage."""
    stages = ", ".join(f"{stage} {seconds.get(stage, 0.0):.2f} s"
                       for stage in ("parsing", "pruning", "composition", "ILP"))
    return (f"{name}: {n} pairs in {seconds['total']:.2f} s = {n / seconds['total']:.1f} "
            f"pairs/s ({stages})")


def load_pairs(args: argparse.Namespace) -> list[dict]:
    """The pairs the options ask for."""
    rng = random.Random(args.seed)
    if args.jsonl:
        return [row for path in args.jsonl for row in read_pairs(path)][:args.pairs]
    if args.input == "stress":
        return stress_pairs(rng, args.pairs)
    return [make_pair(rng) for _ in range(args.pairs)]


def main() -> None:
    """Time Q-REAS before and after the look-up search; print pairs/s and stage times."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", choices=["stress", "generated"], default="stress",
                        help="pairs built here (default: Stress-Test-like)")
    parser.add_argument("--pairs", type=int, default=600, help="number of pairs (default 600)")
    parser.add_argument("--seed", type=int, default=13, help="seed of the pair generator")
    parser.add_argument("--jsonl", type=Path, nargs="+", help="time these released-layout files")
    parser.add_argument("--wordnet", type=Path, default=REPO / "data/samples/equate/wordnet",
                        help="WNdb folder (default: the project's sample)")
    parser.add_argument("--after-only", action="store_true",
                        help="skip the slow 'before' pass (large inputs)")
    args = parser.parse_args()

    pairs = load_pairs(args)
    # Algorithm 1 with the schema's limits, without the job and nationality lists.
    resources = Resources.for_row(load_wordnet(args.wordnet), frozenset(), frozenset(),
                                  settings_from_schema(QreasSettings, "equate.qreas"),
                                  ALGORITHM1)
    predict(pairs[0], resources=resources)  # imports and tagger load, not timed
    passes = [("after", compose.justified)]
    if not args.after_only:
        passes.insert(0, ("before", before_justified))
    results = {}
    for name, search in passes:
        labels, seconds = run(pairs, resources, search)
        results[name] = (labels, seconds)
        print(report(name, len(pairs), seconds))
    if "before" in results:
        (before, slow), (after, fast) = results["before"], results["after"]
        if before != after:
            changed = sum(a != b for a, b in zip(before, after, strict=True))
            raise SystemExit(f"the look-up search changed {changed} predictions")
        print(f"speed-up: {slow['total'] / fast['total']:.1f}x overall, composition + ILP "
              f"{(slow['composition'] + slow['ILP']) / (fast['composition'] + fast['ILP']):.1f}x"
              " (same predictions)")
    labels = results["after"][0]
    print(f"labels: { {label: labels.count(label) for label in sorted(set(labels))} }")


if __name__ == "__main__":
    main()
