"""Q-REAS throughput: pairs per second on 1,000 pairs, and the share of time spent in the ILP.

The pairs are built here from templates with quantities (so the benchmark needs no data set):
sums and differences that composition must justify, direct matches, ranges, mismatches and
pairs without quantities, in a fixed, seeded order. Q-REAS runs on raw text (no released
parses), so the time includes tagging; the WordNet is the project's sample
(`data/samples/equate/wordnet`). The ILP time is the time inside `compose.ilp_feasible` (the
HiGHS feasibility checks), measured by wrapping it.

    python benchmarks/qreas.py --pairs 1000
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from reprobe.equate import compose
from reprobe.equate.qreas import Resources, predict
from reprobe.equate.wordnet import load_wordnet

REPO = Path(__file__).resolve().parents[1]
UNITS = ["soldiers", "people", "dollars", "cars", "votes", "students", "tons", "houses"]


def make_pair(rng: random.Random) -> dict[str, str]:
    """One premise-hypothesis pair from a randomly chosen template."""
    a, b = rng.randint(20, 9000), rng.randint(2, 900)
    unit = rng.choice(UNITS)
    kind = rng.randrange(5)
    if kind == 0:  # a difference that composition must find
        premise = f"The army sent {a + b} {unit} north, and {b} {unit} came back."
        hypothesis = f"{a} {unit} stayed in the north."
    elif kind == 1:  # a sum
        premise = f"The town has {a} {unit} in the east and {b} {unit} in the west."
        hypothesis = f"The town has {a + b} {unit}."
    elif kind == 2:  # a direct match with an approximator
        premise = f"About {a} {unit} were counted on Monday."
        hypothesis = f"Roughly {a} {unit} were counted."
    elif kind == 3:  # a mismatch
        premise = f"Officials reported {a} {unit} in total."
        hypothesis = f"Officials reported more than {a + b} {unit}."
    else:  # a range
        premise = f"Between {b} and {a + b} {unit} took part in the march."
        hypothesis = f"{b + 1} {unit} took part in the march."
    return {"sentence1": premise, "sentence2": hypothesis, "gold_label": "entailment"}


def main() -> None:
    """Time Q-REAS on generated pairs and print pairs/s and the ILP's share."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=1000, help="number of pairs (default 1000)")
    parser.add_argument("--seed", type=int, default=13, help="seed of the pair generator")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    pairs = [make_pair(rng) for _ in range(args.pairs)]
    resources = Resources(load_wordnet(REPO / "data/samples/equate/wordnet"))
    ilp_seconds = [0.0, 0]
    feasible = compose.ilp_feasible

    def timed_feasible(*a: object, **k: object) -> bool:
        """`ilp_feasible`, timed."""
        start = time.perf_counter()
        try:
            return feasible(*a, **k)  # type: ignore[arg-type]
        finally:
            ilp_seconds[0] += time.perf_counter() - start
            ilp_seconds[1] += 1

    compose.ilp_feasible = timed_feasible  # type: ignore[assignment]
    predict(pairs[0], resources=resources)  # imports and tagger load, not timed
    ilp_seconds[:] = [0.0, 0]
    start = time.perf_counter()
    labels = [predict(pair, resources=resources) for pair in pairs]
    seconds = time.perf_counter() - start
    print(f"pairs: {len(pairs)}, wall: {seconds:.2f} s, pairs/s: {len(pairs) / seconds:.1f}")
    print(f"ILP checks: {ilp_seconds[1]}, ILP time: {ilp_seconds[0]:.2f} s "
          f"({100 * ilp_seconds[0] / seconds:.1f}% of the total)")
    counts = {label: labels.count(label) for label in sorted(set(labels))}
    print(f"labels: {counts}")


if __name__ == "__main__":
    main()
