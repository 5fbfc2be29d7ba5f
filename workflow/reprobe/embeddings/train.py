"""Train word2vec (skip-gram) and fastText vectors on a corpus file with gensim.

The corpus is plain text, one sentence per line, tokens separated by single spaces (gensim's
`corpus_file` format), so training reads the file directly, with `workers` threads.

Naik et al. (2019, §3.1) retrain "all models" with window 5 and dimension 100 but do not name
the word2vec architecture; the off-the-shelf word2vec vectors they evaluate are SkipGram, so
retraining uses skip-gram (`sg=1`) for word2vec, and for fastText too, whose own tool trains
skip-gram by default.

fastText is trained with gensim's implementation, not the `fasttext` pip package: that package's
repository is archived; `fasttext-wheel` 0.9.2 breaks under NumPy 2 (its Python layer calls
`np.array(..., copy=False)`, in `predict` for one); and the 0.9.3 wheel was reported to yield NaN
vectors in training on this project's machines (not reproduced on gensim's Lee corpus, but NaN
vectors would silently spoil every probe downstream, hence `check_finite` on every output).
gensim is a dependency already, and its fastText follows the reference model (skip-gram with
negative sampling over words plus hashed character n-grams).

Determinism: gensim seeds its initial vectors from `seed`; with `workers=1` (the default, and
the default config's `numeracy.retrain.workers`) output is byte-identical across runs; with
more, the worker threads update shared weights in the order the scheduler runs them, so every
run gives other vectors (on the default excerpt enough to move Table 4 by several points).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from gensim.models import FastText, KeyedVectors, Word2Vec

from reprobe.errors import InputFormatError, ReprobeError
from reprobe.io import atomic_path


class NonFiniteVectorsError(ReprobeError):
    """Training produced NaN or infinite vectors: the message names the output and a word."""


def vocab_path(out: Path) -> Path:
    """The vocabulary file written beside a vector file: `out` with suffix `.vocab.tsv`."""
    return Path(out).with_suffix(".vocab.tsv")


def check_finite(vectors: KeyedVectors, path: Path | str) -> None:
    """Raise NonFiniteVectorsError if any vector has a NaN or infinite component."""
    finite = np.isfinite(vectors.vectors).all(axis=1)
    if finite.all():
        return
    bad = np.flatnonzero(~finite)
    word = vectors.index_to_key[int(bad[0])]
    raise NonFiniteVectorsError(f"{path}: {len(bad)} of {len(finite)} vectors are not finite "
                                f"(NaN or inf), the first for {word!r}; training diverged")


def check_corpus(corpus: Path) -> None:
    """Fail early, naming the file, when the corpus is missing or empty."""
    corpus = Path(corpus)
    if not corpus.is_file():
        raise FileNotFoundError(corpus)
    if corpus.stat().st_size == 0:
        raise InputFormatError(corpus, "line 1", "empty corpus: no sentences")


def write_vectors(vectors: KeyedVectors, out: Path) -> Path:
    """Write vectors in word2vec text format and `token<TAB>count` beside, both by count."""
    out = Path(out)
    check_finite(vectors, out)
    counts = [int(vectors.get_vecattr(word, "count")) for word in vectors.index_to_key]
    # A stable sort on count: the same order gensim uses when it writes the vector file.
    order = sorted(range(len(counts)), key=lambda i: -counts[i])
    with atomic_path(vocab_path(out)) as temporary, temporary.open("w", encoding="utf-8") as f:
        for i in order:
            f.write(f"{vectors.index_to_key[i]}\t{counts[i]}\n")
    with atomic_path(out) as temporary:
        vectors.save_word2vec_format(str(temporary), binary=False, sort_attr="count")
    return out


def _no_vocabulary(corpus: Path, min_count: int) -> InputFormatError:
    """The error for a corpus in which no token is frequent enough to get a vector."""
    return InputFormatError(corpus, "file", f"no token occurs at least min_count={min_count} "
                                            "times: nothing to train")


def train_word2vec(corpus: Path, out: Path, *, dim: int, window: int, min_count: int,
                   epochs: int, seed: int, workers: int, sg: int = 1, negative: int = 5,
                   sample: float = 1e-3, learning_rate: float = 0.025) -> Path:
    """Train word2vec (skip-gram with negative sampling by default) and write `out`."""
    check_corpus(corpus)
    # The size, window, count and epochs are the config's (`numeracy.retrain`); the rest default
    # to the reference C tool's for skip-gram (alpha 0.025, sample 1e-3, 5 negatives).
    model = Word2Vec(vector_size=dim, window=window, min_count=min_count, sg=sg,
                     negative=negative, sample=sample, alpha=learning_rate, seed=seed,
                     workers=workers)
    return _train(model, Path(corpus), Path(out), epochs, min_count)


def train_fasttext(corpus: Path, out: Path, *, dim: int, window: int, min_count: int,
                   epochs: int, seed: int, workers: int, sg: int = 1, negative: int = 5,
                   sample: float = 1e-4, learning_rate: float = 0.05, min_n: int = 3,
                   max_n: int = 6, bucket: int = 2_000_000) -> Path:
    """Train fastText (skip-gram over words and character n-grams) and write `out`."""
    check_corpus(corpus)
    # The size, window, count and epochs are the config's (`numeracy.retrain`); the rest default
    # to the fastText tool's for `skipgram` (lr 0.05, t 1e-4, n-grams 3..6).
    model = FastText(vector_size=dim, window=window, min_count=min_count, sg=sg,
                     negative=negative, sample=sample, alpha=learning_rate, min_n=min_n,
                     max_n=max_n, bucket=bucket, seed=seed, workers=workers)
    return _train(model, Path(corpus), Path(out), epochs, min_count)


def _train(model: Word2Vec, corpus: Path, out: Path, epochs: int, min_count: int) -> Path:
    """Build the vocabulary from `corpus`, train for `epochs` and write the vectors."""
    model.build_vocab(corpus_file=str(corpus))
    if len(model.wv) == 0:
        raise _no_vocabulary(corpus, min_count)
    model.train(corpus_file=str(corpus), total_words=model.corpus_total_words,
                total_examples=model.corpus_count, epochs=epochs)
    return write_vectors(model.wv, out)
