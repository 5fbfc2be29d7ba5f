"""GloVe's vocabulary and bounded-memory co-occurrence counting (runs spilled, then merged)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from reprobe.embeddings.glove_count import (
    build_vocab,
    count_cooccurrences,
    count_shard,
    distance_weights,
)
from reprobe.embeddings.glove_entries import ENTRY
from reprobe.errors import InputFormatError

MB = 1 << 20


def write(path: Path, text: str) -> Path:
    """Write a corpus file and return its path."""
    path.write_text(text, encoding="utf-8")
    return path


def zipf_corpus(path: Path, lines: int = 2000, types: int = 400, seed: int = 0) -> Path:
    """Lines of 1-30 words drawn from a Zipf law over `types` words: many distinct pairs."""
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, types + 1)
    text = []
    for _ in range(lines):
        drawn = rng.choice(types, size=rng.integers(1, 31), p=weights / weights.sum())
        text.append(" ".join(f"w{k}" for k in drawn))
    return write(path, "\n".join(text) + "\n")


def count(corpus: Path, words: list[str], window: int, out: Path, *, workers: int = 1,
          memory_bytes: int = 64 * MB) -> Path:
    """Count into `out` and return it."""
    count_cooccurrences(corpus, words, window, out, workers=workers, memory_bytes=memory_bytes)
    return out


def pairs(words: list[str], path: Path) -> dict[tuple[str, str], float]:
    """The entries of an entries file by word pair."""
    entries = np.fromfile(path, dtype=ENTRY)
    return {(words[i], words[j]): x for i, j, x in entries.tolist()}


def test_vocabulary_keeps_frequent_words_by_count_then_alphabet(tmp_path):
    corpus = write(tmp_path / "c.txt", "b a c a\nb d a c\n")
    words, counts = build_vocab(corpus, min_count=2)
    assert words == ["a", "b", "c"] and counts.tolist() == [3, 2, 2]


def test_counts_weigh_by_inverse_distance_symmetrically_within_lines(tmp_path):
    corpus = write(tmp_path / "c.txt", "a b c\nc a\n")
    words = ["a", "b", "c"]
    counts = pairs(words, count(corpus, words, 2, tmp_path / "x.bin"))
    assert counts == {
        ("a", "b"): 1.0, ("b", "a"): 1.0, ("b", "c"): 1.0, ("c", "b"): 1.0,
        # a-c: distance 2 on line 1, distance 1 on line 2; never across the line break.
        ("a", "c"): 1.5, ("c", "a"): 1.5,
    }


def test_out_of_vocabulary_tokens_are_dropped_before_windowing(tmp_path):
    corpus = write(tmp_path / "c.txt", "a zz zz b\n")
    counts = pairs(["a", "b"], count(corpus, ["a", "b"], 1, tmp_path / "x.bin"))
    assert counts == {("a", "b"): 1.0, ("b", "a"): 1.0}


def test_a_word_next_to_itself_counts_twice_as_in_the_reference(tmp_path):
    corpus = write(tmp_path / "c.txt", "a a\n")
    assert pairs(["a"], count(corpus, ["a"], 5, tmp_path / "x.bin")) == {("a", "a"): 2.0}


def test_weights_are_summed_as_integers_while_exact():
    weights, scale = distance_weights(5)
    assert scale == 60 and weights.tolist() == [60, 30, 20, 15, 12]
    weights, scale = distance_weights(30)  # lcm(1..30) is past 2^32: plain 1/d
    assert scale == 1 and weights[2] == pytest.approx(1 / 3)


def test_a_tiny_budget_spills_many_runs_and_counts_the_same_bytes(tmp_path):
    corpus = zipf_corpus(tmp_path / "c.txt")
    words, _ = build_vocab(corpus, min_count=1)
    folder = tmp_path / "runs"
    folder.mkdir()
    index = {word: i for i, word in enumerate(words)}
    assert len(count_shard(corpus, index, 5, folder, (0, 1), memory_bytes=64 << 10)) > 5
    in_memory = count(corpus, words, 5, tmp_path / "memory.bin")
    tiny = count(corpus, words, 5, tmp_path / "tiny.bin", memory_bytes=64 << 10)
    assert tiny.read_bytes() == in_memory.read_bytes()
    # Against a plain count of every window.
    expected: dict[tuple[str, str], float] = {}
    for line in corpus.read_text().splitlines():
        tokens = line.split()
        for t, left in enumerate(tokens):
            for d, right in enumerate(tokens[t + 1:t + 6], start=1):
                for pair in ((left, right), (right, left)):
                    expected[pair] = expected.get(pair, 0.0) + 1.0 / d
    counted = pairs(words, in_memory)
    assert counted.keys() == expected.keys()
    assert all(counted[pair] == pytest.approx(value, rel=1e-12)
               for pair, value in expected.items())


def test_workers_count_the_same_bytes_and_the_file_is_sorted_and_unique(tmp_path):
    corpus = zipf_corpus(tmp_path / "c.txt", seed=1)
    words, _ = build_vocab(corpus, min_count=1)
    one = count(corpus, words, 3, tmp_path / "one.bin")
    two = count(corpus, words, 3, tmp_path / "two.bin", workers=2, memory_bytes=256 << 10)
    assert two.read_bytes() == one.read_bytes()
    entries = np.fromfile(one, dtype=ENTRY)
    keys = entries["i"].astype(np.int64) * len(words) + entries["j"]
    assert len(entries) > 10_000 and (np.diff(keys) > 0).all()
    assert (entries["x"] > 0).all()
    # Only the outputs are left: the runs' temporary folders are gone.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.txt", "one.bin", "two.bin"]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bad_line_names_itself_and_leaves_no_temporary_files(tmp_path, workers):
    corpus = zipf_corpus(tmp_path / "c.txt", lines=500)
    words, _ = build_vocab(corpus, min_count=1)
    with corpus.open("ab") as handle:
        handle.write(b"w1 \xff w2\n")
    out = tmp_path / "out" / "x.bin"
    with pytest.raises(InputFormatError) as info:
        count(corpus, words, 5, out, workers=workers, memory_bytes=64 << 10)
    assert info.value.where == "line 501" and info.value.path == str(corpus)
    assert list(out.parent.iterdir()) == []
