"""The WIKI-PSE dataset: annotated words with their S-class frequencies, and the train/test
selection of Section 3 (Yaghoobzadeh et al. 2019).

Words are the annotated mention tokens (`@apple@`) whose corpus frequency reaches the minimum
(paper 20). The paper: "We first add all multiclass words […] to the dataset, divided randomly
into train and test (same size). Then, we add a random set with the same size from single-class
words, divided randomly into train and test". The released splits hold 25,000 single-class and
19,250 multi-class words each, not equal numbers, so both counts per split are settings
(`wikipse.selection`); unset, the multi-class words are all split in halves and the single-class
count equals the multi-class one, as the text says. Draws are seeded.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from reprobe.errors import ReprobeError
from reprobe.io import atomic_path, atomic_write_text
from reprobe.wikipse.resource.release import WordClasses, ordered, write_release

SPLITS = ("train", "test")
DATASET_SCHEMA = pa.schema([
    ("word", pa.string()), ("split", pa.string()), ("classes", pa.list_(pa.string())),
    ("freqs", pa.list_(pa.int64())), ("total", pa.int64()), ("n_classes", pa.int32()),
])


def word_classes(mentions: Mapping[tuple[str, str], int]) -> WordClasses:
    """word → {S-class: mentions} from (word, S-class) counts."""
    words: WordClasses = {}
    for (word, sclass), freq in mentions.items():
        words.setdefault(word, {})[sclass] = int(freq)
    return words


def frequent(words: WordClasses, token_counts: Mapping[str, int], min_frequency: int
             ) -> WordClasses:
    """The words whose corpus frequency reaches min_frequency."""
    return {w: c for w, c in words.items() if token_counts.get(w, 0) >= min_frequency}


def _draw(pool: Sequence[str], count: int, rng: np.random.Generator) -> list[str]:
    """count words drawn without replacement from a sorted pool."""
    order = rng.permutation(len(pool))
    return [pool[i] for i in order[:count]]


def select(words: WordClasses, *, single_per_split: int | None, multi_per_split: int | None,
           seed: int) -> dict[str, list[str]]:
    """train and test word lists: multi-class and single-class words, disjoint, seeded."""
    multi = sorted(w for w, c in words.items() if len(c) > 1)
    single = sorted(w for w, c in words.items() if len(c) == 1)
    n_multi = len(multi) // 2 if multi_per_split is None else multi_per_split
    n_single = n_multi if single_per_split is None else single_per_split
    n_single = min(n_single, len(single) // 2) if single_per_split is None else n_single
    for kind, wanted, pool in (("multi-class", n_multi, multi), ("single-class", n_single,
                                                                  single)):
        if 2 * wanted > len(pool):
            raise ReprobeError(f"wikipse.selection: {wanted} {kind} words per split need "
                               f"{2 * wanted}, the corpus has {len(pool)}")
    rng = np.random.default_rng(seed)
    chosen_multi = _draw(multi, 2 * n_multi, rng)
    chosen_single = _draw(single, 2 * n_single, rng)
    return {"train": sorted(chosen_multi[:n_multi] + chosen_single[:n_single]),
            "test": sorted(chosen_multi[n_multi:] + chosen_single[n_single:])}


def summary(words: WordClasses) -> dict[str, float]:
    """Words, word/S-class pairs, single/multi-class words and mean classes per word."""
    return summary_of_counts(len(words), sum(len(c) for c in words.values()),
                             sum(len(c) > 1 for c in words.values()))


def summary_of_counts(words: int, pairs: int, multi: int) -> dict[str, float]:
    """`summary` from its three counts (a table too big to hold counts them elsewhere)."""
    return {"words": words, "pairs": pairs, "multi_class": multi, "single_class": words - multi,
            "mean_classes": pairs / words if words else float("nan")}


def write_dataset(words: WordClasses, splits: Mapping[str, Sequence[str]], out_dir: Path,
                  card: Mapping[str, object]) -> dict[str, Path]:
    """The splits in the released format, all annotated words as Parquet, and the card."""
    out_dir = Path(out_dir)
    paths = {split: out_dir / f"{split}.tsv" for split in SPLITS}
    for split in SPLITS:
        write_release(((w, words[w]) for w in splits[split]), paths[split])
    split_of = {w: split for split in SPLITS for w in splits[split]}
    rows = [(w, split_of.get(w, ""), ordered(words[w])) for w in sorted(words)]
    table = pa.table({
        "word": [w for w, _, _ in rows], "split": [s for _, s, _ in rows],
        "classes": [[c for c, _ in cs] for _, _, cs in rows],
        "freqs": [[n for _, n in cs] for _, _, cs in rows],
        "total": [sum(n for _, n in cs) for _, _, cs in rows],
        "n_classes": [len(cs) for _, _, cs in rows]}, schema=DATASET_SCHEMA)
    paths["parquet"] = out_dir / "words.parquet"
    with atomic_path(paths["parquet"]) as tmp:
        pq.write_table(table, tmp, compression="zstd")
    split_summaries = {split: summary({w: words[w] for w in splits[split]}) for split in SPLITS}
    paths["card"] = out_dir / "card.json"
    atomic_write_text(paths["card"], json.dumps(
        {**card, "annotated_words": summary(words), "splits": split_summaries},
        indent=2, sort_keys=True) + "\n")
    return paths


def read_dataset(path: Path) -> WordClasses:
    """Every annotated word of a written dataset (its words.parquet) with its classes."""
    table = pq.read_table(path, columns=["word", "classes", "freqs"])
    return {word: dict(zip(classes, freqs, strict=True)) for word, classes, freqs in zip(
        table["word"].to_pylist(), table["classes"].to_pylist(), table["freqs"].to_pylist(),
        strict=True)}


def compare_release(released: WordClasses, rebuilt: WordClasses) -> dict[str, int]:
    """How many released words the rebuild has, with the same class set, and with the same
    dominant (most frequent) class."""
    found = [w for w in released if w in rebuilt]
    return {
        "released_words": len(released),
        "in_rebuilt": len(found),
        "same_classes": sum(set(released[w]) == set(rebuilt[w]) for w in found),
        "same_dominant_class": sum(ordered(released[w])[0][0] == ordered(rebuilt[w])[0][0]
                                   for w in found),
    }
