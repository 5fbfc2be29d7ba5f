"""GloVe (Pennington et al. 2014): co-occurrence counting and AdaGrad training, in NumPy.

The objective is the paper's weighted least squares over the nonzero co-occurrences,

    J = sum_ij f(X_ij) (w_i . v_j + b_i + c_j - log X_ij)^2,
    f(x) = (x / x_max)^alpha if x < x_max else 1,

and the defaults follow the reference C implementation (`cooccur` + `glove`): a symmetric window
in which a context word at distance d adds 1/d, contexts not crossing line ends, out-of-vocabulary
tokens dropped before windowing, AdaGrad with initial learning rate 0.05 and accumulators started
at 1, and the output vectors w + v (its default `-model 2`). Per-entry gradient components are
clipped at 100, as later releases of the reference do; at the default learning rate this
rarely binds.

No maintained GloVe trainer on PyPI fits here: `glove-python-binary` has no wheel for Python
3.11, `glove-python3` fails to build, `glove-py` builds but its extension does not import
(undefined symbol), and `mittens` runs but fits a dense vocabulary-by-vocabulary matrix with
full-batch steps, which does not scale to a corpus vocabulary.

Differences from the reference, by design: updates are vectorised over shuffled mini-batches of
nonzero entries (the reference runs lock-free per-entry updates in threads), with the gradients
of entries sharing a word summed within a batch; entries are reshuffled each epoch from `seed`
(the reference shuffles its file once); parameters are float32 (the reference uses double) so
that a multi-million-word vocabulary fits in memory.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from gensim.models import KeyedVectors

from reprobe.embeddings.corpus import iter_token_lines
from reprobe.embeddings.train import check_corpus, write_vectors
from reprobe.errors import InputFormatError

log = logging.getLogger(__name__)

GRADIENT_CLIP = 100.0  # the reference's grad_clip_value
CHUNK_TOKENS = 2_000_000  # tokens counted per sparse chunk: bounds the transient memory


def build_vocab(corpus: Path, min_count: int) -> tuple[list[str], np.ndarray]:
    """Words occurring at least `min_count` times, by descending count then alphabetically."""
    check_corpus(corpus)
    counter: Counter[str] = Counter()
    for tokens in iter_token_lines(corpus):
        counter.update(tokens)
    # The reference's vocab_count breaks ties alphabetically too: the order is reproducible.
    kept = sorted(((w, c) for w, c in counter.items() if c >= min_count),
                  key=lambda item: (-item[1], item[0]))
    if not kept:
        raise InputFormatError(corpus, "file", f"no token occurs at least min_count={min_count} "
                                               "times: nothing to train")
    words = [w for w, _ in kept]
    return words, np.array([c for _, c in kept], dtype=np.int64)


def _as_index(vocab: Mapping[str, int] | Sequence[str]) -> dict[str, int]:
    """A word -> id mapping from either a mapping or the word list of `build_vocab`."""
    if isinstance(vocab, Mapping):
        return dict(vocab)
    return {word: i for i, word in enumerate(vocab)}


def _chunk_matrix(ids: np.ndarray, lines: np.ndarray, window: int, size: int) -> sp.csr_matrix:
    """Weighted symmetric co-occurrences of one chunk of in-vocabulary token ids."""
    rows, cols, data = [], [], []
    for distance in range(1, window + 1):
        same_line = lines[:-distance] == lines[distance:]
        left, right = ids[:-distance][same_line], ids[distance:][same_line]
        weight = np.full(len(left), 1.0 / distance)
        # Symmetric: each pair counts for both words, as the reference's default does.
        rows += [left, right]
        cols += [right, left]
        data += [weight, weight]
    if not rows:
        return sp.csr_matrix((size, size))
    matrix = sp.coo_matrix((np.concatenate(data), (np.concatenate(rows), np.concatenate(cols))),
                           shape=(size, size))
    return matrix.tocsr()  # sums duplicate entries


class _Merger:
    """Sum chunk matrices pairwise by equal weight (a binary counter): O(nnz log chunks) work."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.stack: list[tuple[int, sp.csr_matrix]] = []

    def push(self, matrix: sp.csr_matrix) -> None:
        """Add one chunk's matrix, merging equal-sized partial sums."""
        weight = 1
        while self.stack and self.stack[-1][0] == weight:
            _, previous = self.stack.pop()
            matrix = previous + matrix
            weight *= 2
        self.stack.append((weight, matrix))

    def total(self) -> sp.csr_matrix:
        """The sum of everything pushed."""
        result = sp.csr_matrix((self.size, self.size))
        for _, matrix in self.stack:
            result = result + matrix
        return result


def count_cooccurrences(corpus: Path, vocab: Mapping[str, int] | Sequence[str], window: int,
                        *, shard: tuple[int, int] = (0, 1),
                        chunk_tokens: int = CHUNK_TOKENS) -> sp.coo_matrix:
    """Count weighted co-occurrences (1/distance, symmetric, within lines) as a sparse matrix.

    Memory is the merged matrix plus one chunk of `chunk_tokens` tokens. Two processes can count
    `shard=(0, 2)` and `shard=(1, 2)` and the two results sum to the whole (line-interleaved
    shards; optional, the default counts everything).
    """
    index = _as_index(vocab)
    size = len(index)
    merger = _Merger(size)
    lookup = index.get
    tokens: list[str] = []
    lengths: list[int] = []

    def flush() -> None:
        ids = np.fromiter((lookup(t, -1) for t in tokens), dtype=np.int32, count=len(tokens))
        lines = np.repeat(np.arange(len(lengths), dtype=np.int32), lengths)
        # Out-of-vocabulary tokens are dropped before windowing, as in the reference.
        known = ids >= 0
        merger.push(_chunk_matrix(ids[known], lines[known], window, size))
        tokens.clear()
        lengths.clear()

    for sentence in iter_token_lines(corpus, shard):
        tokens.extend(sentence)
        lengths.append(len(sentence))
        if len(tokens) >= chunk_tokens:
            flush()
    if tokens:
        flush()
    return merger.total().tocoo()


def count_cooccurrences_parallel(corpus: Path, vocab: Sequence[str], window: int,
                                 workers: int) -> sp.coo_matrix:
    """Count with `workers` processes, one line-interleaved shard each, and sum the shards."""
    # The same for a given `workers`; another count sums the floats in another order.
    if workers <= 1:
        return count_cooccurrences(corpus, vocab, window)
    with ProcessPoolExecutor(workers) as pool:
        futures = [pool.submit(count_cooccurrences, corpus, vocab, window, shard=(i, workers))
                   for i in range(workers)]
        total = sum((future.result().tocsr() for future in futures),
                    start=sp.csr_matrix((len(vocab), len(vocab))))
    return total.tocoo()


def weighting(x: np.ndarray, x_max: float, alpha: float) -> np.ndarray:
    """GloVe's weight f(x): (x / x_max)^alpha below x_max, else 1."""
    x = np.asarray(x, dtype=np.float64)
    return np.where(x < x_max, (x / x_max) ** alpha, 1.0)


@dataclass
class GloveParameters:
    """Word and context vectors and biases, with their AdaGrad accumulators."""

    words: np.ndarray
    contexts: np.ndarray
    word_bias: np.ndarray
    context_bias: np.ndarray
    words_sq: np.ndarray
    contexts_sq: np.ndarray
    word_bias_sq: np.ndarray
    context_bias_sq: np.ndarray

    @classmethod
    def initial(cls, size: int, dim: int, rng: np.random.Generator,
                dtype: type = np.float32) -> GloveParameters:
        """Uniform in ±0.5/dim as in the reference; accumulators start at 1."""

        def uniform(*shape: int) -> np.ndarray:
            return ((rng.random(shape) - 0.5) / dim).astype(dtype)

        return cls(uniform(size, dim), uniform(size, dim), uniform(size), uniform(size),
                   np.ones((size, dim), dtype), np.ones((size, dim), dtype),
                   np.ones(size, dtype), np.ones(size, dtype))

    def vectors(self) -> np.ndarray:
        """The output vectors: word plus context vectors (the reference's default)."""
        return self.words + self.contexts


def glove_loss(params: GloveParameters, cooc: sp.coo_matrix, x_max: float, alpha: float,
               batch_size: int = 1 << 18) -> float:
    """The objective J over all nonzero entries (computed in batches to bound memory)."""
    total = 0.0
    for start in range(0, cooc.nnz, batch_size):
        i = cooc.row[start:start + batch_size]
        j = cooc.col[start:start + batch_size]
        x = cooc.data[start:start + batch_size]
        diff = _residual(params, i, j, np.log(x))
        total += float(np.sum(weighting(x, x_max, alpha) * diff * diff))
    return total


def _residual(params: GloveParameters, i: np.ndarray, j: np.ndarray,
              log_x: np.ndarray) -> np.ndarray:
    """w_i . v_j + b_i + c_j - log X_ij for a batch of entries."""
    dots = np.einsum("ij,ij->i", params.words[i], params.contexts[j], dtype=np.float64)
    return dots + params.word_bias[i] + params.context_bias[j] - log_x


def _adagrad_rows(values: np.ndarray, squares: np.ndarray, index: np.ndarray,
                  gradient: np.ndarray) -> None:
    """AdaGrad on the rows `index` (with repeats): sum the repeats' gradients, then step."""
    unique, inverse = np.unique(index, return_inverse=True)
    # A sparse (unique x batch) indicator matrix sums the repeated rows' gradients quickly.
    summing = sp.csr_matrix((np.ones(len(index), gradient.dtype), (inverse,
                             np.arange(len(index)))), shape=(len(unique), len(index)))
    total = summing @ gradient
    # The reference steps with the accumulator before adding this step's square.
    values[unique] -= total / np.sqrt(squares[unique])
    squares[unique] += total * total


def adagrad_epoch(params: GloveParameters, cooc: sp.coo_matrix, log_x: np.ndarray,
                  weights: np.ndarray, learning_rate: float, batch_size: int,
                  rng: np.random.Generator) -> float:
    """One pass over the shuffled nonzero entries in mini-batches; returns J before each step."""
    order = rng.permutation(cooc.nnz)
    dtype = params.words.dtype
    total = 0.0
    for start in range(0, len(order), batch_size):
        batch = order[start:start + batch_size]
        i, j = cooc.row[batch], cooc.col[batch]
        diff = _residual(params, i, j, log_x[batch])
        weighted = weights[batch] * diff
        total += float(np.dot(weighted, diff))
        scale = weighted.astype(dtype)[:, None]
        # Both gradients from the parameters before this step, clipped as the reference does.
        word_grad = np.clip(scale * params.contexts[j], -GRADIENT_CLIP, GRADIENT_CLIP)
        context_grad = np.clip(scale * params.words[i], -GRADIENT_CLIP, GRADIENT_CLIP)
        word_grad *= learning_rate
        context_grad *= learning_rate
        bias_grad = (weighted * learning_rate).astype(dtype)[:, None]
        _adagrad_rows(params.words, params.words_sq, i, word_grad)
        _adagrad_rows(params.contexts, params.contexts_sq, j, context_grad)
        _adagrad_rows(params.word_bias[:, None], params.word_bias_sq[:, None], i, bias_grad)
        _adagrad_rows(params.context_bias[:, None], params.context_bias_sq[:, None], j,
                      bias_grad)
    return total


def fit_glove(cooc: sp.coo_matrix, *, dim: int, x_max: float, alpha: float, epochs: int,
              learning_rate: float, seed: int,
              batch_size: int = 4096) -> tuple[GloveParameters, list[float]]:
    """Fit GloVe to a co-occurrence matrix; returns the parameters and J per epoch."""
    if cooc.nnz == 0:
        raise ValueError("the co-occurrence matrix is empty: no pairs within the window")
    rng = np.random.default_rng(seed)
    cooc = cooc.tocoo()
    params = GloveParameters.initial(cooc.shape[0], dim, rng)
    log_x = np.log(cooc.data)
    weights = weighting(cooc.data, x_max, alpha)
    losses = []
    for epoch in range(epochs):
        loss = adagrad_epoch(params, cooc, log_x, weights, learning_rate, batch_size, rng)
        losses.append(loss)
        log.info("GloVe epoch %d/%d: J = %.6g (mean %.6g)", epoch + 1, epochs, loss,
                 loss / cooc.nnz)
    return params, losses


def train_glove(corpus: Path, out: Path, *, dim: int, window: int, min_count: int,
                x_max: float, alpha: float, epochs: int, learning_rate: float, seed: int,
                workers: int, batch_size: int = 4096) -> Path:
    """Count, fit and write GloVe vectors: word2vec text format plus `.vocab.tsv` (the
    hyperparameters are `numeracy.retrain`'s; the schema holds their defaults)."""
    corpus, out = Path(corpus), Path(out)
    words, counts = build_vocab(corpus, min_count)
    # Counting can use several processes; the fit is one process (NumPy, vectorised batches).
    cooc = count_cooccurrences_parallel(corpus, words, window, workers)
    if cooc.nnz == 0:
        raise InputFormatError(corpus, "file", f"no two vocabulary words within window={window} "
                                               "of each other on a line: nothing to fit")
    params, _ = fit_glove(cooc, dim=dim, x_max=x_max, alpha=alpha, epochs=epochs,
                          learning_rate=learning_rate, seed=seed, batch_size=batch_size)
    vectors = KeyedVectors(dim, dtype=np.float32)
    vectors.add_vectors(words, params.vectors())
    for word, count in zip(words, counts.tolist(), strict=True):
        vectors.set_vecattr(word, "count", count)
    return write_vectors(vectors, out)
