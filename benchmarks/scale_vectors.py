"""The "vectors" chain of the scale benchmark: an off-the-shelf embedding file of N words.

The numeracy rules that read a published embedding (`numeracy_vectors`, `numeracy_numerals`,
`numeracy_probe`, `numeracy_knn`) grow with its vocabulary. A level is a GloVe-format text file
(`word v1 … v300`, no header, as glove.840B.300d.txt and Levy's .words) of N words: the open
vocabulary's words by rank, with numerals among them as a real vocabulary holds them (one word
in NUMERAL_EVERY, integers log-uniform up to a million, as scale_inputs draws them, plus their
decimal forms), and seeded Gaussian vectors written with 5 decimals, as GloVe writes them.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from scale_inputs import FORMAT_VERSION, cached, numerals, rank_word

DIM = 300  # the published files' dimension (GloVe 6B aside)
NUMERAL_EVERY = 20  # one word in 20 is a numeral
# The paper's largest file: glove.840B.300d.txt, 2,196,017 words (its README). The numeracy
# config converts 17 files; their words x dimension / 300, summed: GloVe 6B 0.4M x (50 + 100 +
# 200 + 300) / 300, 42B 1.917M, 840B 2.196M, wiki-news 1.0M, crawl 2.0M, Levy's three ~0.175M
# each, and six retrained 100d files of ~2M words (estimated: scale_steps.NUMERACY_VOCAB).
LARGEST_WORDS = 2_196_017
ALL_FILES_WORDS = 0.4e6 * 650 / 300 + 1.917e6 + 2.196e6 + 1.0e6 + 2.0e6 + 3 * 0.175e6 \
    + 6 * 2.0e6 * 100 / 300


@dataclass(frozen=True)
class VectorsInfo:
    """A generated embedding file and what it holds."""

    path: str
    words: int
    numerals: int
    dim: int
    seed: int
    format_version: int = FORMAT_VERSION


def vocabulary(words: int, seed: int) -> list[str]:
    """`words` distinct words: the open vocabulary by rank, every NUMERAL_EVERY-th a numeral
    (distinct numerals, as many as the vocabulary's share allows)."""
    rng = np.random.default_rng([seed, words])
    wanted = words // NUMERAL_EVERY
    drawn = numerals(rng, 4 * wanted + 16).tolist()
    found = list(dict.fromkeys(drawn + [f"{value}.5" for value in drawn]))[:wanted]
    vocab: list[str] = []
    rank = 1
    for index in range(words):
        if index % NUMERAL_EVERY == NUMERAL_EVERY - 1 and found:
            vocab.append(found.pop())
        else:
            vocab.append(rank_word(rank))
            rank += 1
    return vocab


def write_vectors(folder: Path, words: int, dim: int = DIM, seed: int = 0) -> VectorsInfo:
    """The level's embedding file (cached by its description)."""
    meta = folder / "vectors.json"
    found = cached(meta, VectorsInfo, words=words, dim=dim, seed=seed,
                   format_version=FORMAT_VERSION)
    if isinstance(found, VectorsInfo):
        return found
    folder.mkdir(parents=True, exist_ok=True)
    names = vocabulary(words, seed)
    rng = np.random.default_rng([seed, words, dim])
    row = " ".join(["%.5f"] * dim)
    path = folder / f"vectors.{words}.{dim}d.txt"
    with path.open("w", encoding="utf-8") as out:
        for start in range(0, words, 10_000):
            block = rng.standard_normal((min(10_000, words - start), dim)).astype(np.float32)
            out.writelines(f"{name} {row % tuple(values)}\n" for name, values in
                           zip(names[start:start + len(block)], block.tolist(), strict=True))
    count = sum(1 for name in names if name[0].isdigit())
    info = VectorsInfo(str(path), words, count, dim, seed)
    meta.write_text(json.dumps(asdict(info), indent=1) + "\n", encoding="utf-8")
    return info
