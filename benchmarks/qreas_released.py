"""The released-code Q-REAS beside Q-REAS (Algorithm 1): pairs per second, side by side in one run.

Both label the same released-layout pairs (those with CoreNLP parses; the released code reads
only those) in one process, one after the other, `--repeat` times each (the least time kept):
- `released code, every`: `reprobe.equate.authors` with every ILP solution searched;
- `released code, pool`: the same with the 50-solution pool reading;
- `Algorithm 1`: `reprobe.equate.qreas.pipeline.predict` (HiGHS for the composition ILP).
It prints one Markdown table (pairs, seconds, pairs/s, time relative to Algorithm 1) and the
accuracy of each in the set's label space, so a speed-up never hides a changed label.

    python benchmarks/qreas_released.py                       # the sample's parsed pairs
    python benchmarks/qreas_released.py --jsonl RTE_Quant.jsonl --wordnet wordnet-3.0 \\
        --jobs jobs.txt --nationalities nationalities.txt --test-set rte_quant
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reprobe.equate.authors.equations import POOL_SOLUTIONS
from reprobe.equate.authors.pruner import Lexicon, read_word_list
from reprobe.equate.authors.reasoner import Reading, has_corenlp, label_pair
from reprobe.equate.evaluate import accuracy
from reprobe.equate.jsonl import read_pairs
from reprobe.equate.labels import is_two_class
from reprobe.equate.qreas.pipeline import Resources, predict
from reprobe.equate.qreas.pruner import load_word_list
from reprobe.equate.qreas.wordnet import load_wordnet
from reprobe.equate.settings import ALGORITHM1, QreasSettings
from reprobe.step_settings import settings_from_schema

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "data/samples/equate"


def timed(label: Callable[[dict[str, Any]], str], rows: list[dict[str, Any]],
          repeat: int) -> tuple[float, list[str]]:
    """The least wall seconds of `repeat` passes, and the labels of the last."""
    best, labels = float("inf"), []
    for _ in range(repeat):
        start = time.perf_counter()
        labels = [label(row) for row in rows]
        best = min(best, time.perf_counter() - start)
    return best, labels


def main() -> None:
    """Time the three rows on the parsed pairs of one file and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jsonl", type=Path, default=SAMPLES / "rte_quant.jsonl")
    parser.add_argument("--test-set", default="rte_quant", help="its label space")
    parser.add_argument("--wordnet", type=Path, default=SAMPLES / "wordnet")
    parser.add_argument("--jobs", type=Path, default=SAMPLES / "jobs.txt")
    parser.add_argument("--nationalities", type=Path, default=SAMPLES / "nationalities.txt")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    rows = [row for row in read_pairs(args.jsonl) if has_corenlp(row)]
    wordnet = load_wordnet(args.wordnet)
    lexicon = Lexicon(wordnet, read_word_list(args.jobs), read_word_list(args.nationalities))
    resources = Resources.for_row(wordnet, load_word_list(args.jobs),
                                  load_word_list(args.nationalities),
                                  settings_from_schema(QreasSettings, "equate.qreas"), ALGORITHM1)
    every = Reading(pool=None, contradiction_on_mismatch=True)
    pool = Reading(pool=POOL_SOLUTIONS, contradiction_on_mismatch=True)
    rows_to_time: dict[str, Callable[[dict[str, Any]], str]] = {
        "released code, every": lambda row: label_pair(row, lexicon, every),
        "released code, pool": lambda row: label_pair(row, lexicon, pool),
        "Algorithm 1": lambda row: predict(row, resources=resources),
    }
    results = {name: timed(label, rows, args.repeat) for name, label in rows_to_time.items()}
    gold = [row["gold_label"] for row in rows]
    two_class = is_two_class(args.test_set)
    base = results["Algorithm 1"][0]
    print(f"{len(rows)} parsed pairs of {args.jsonl.name}, best of {args.repeat}\n")
    print("| row | seconds | pairs/s | time / Algorithm 1 | accuracy |")
    print("|:---|---:|---:|---:|---:|")
    for name, (seconds, labels) in results.items():
        print(f"| {name} | {seconds:.2f} | {len(rows) / seconds:.0f} | {seconds / base:.2f} | "
              f"{accuracy(gold, labels, two_class):.1f} |")


if __name__ == "__main__":
    main()
