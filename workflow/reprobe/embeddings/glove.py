"""GloVe (Pennington et al. 2014): count co-occurrences, fit with AdaGrad, write the vectors.

The objective is the paper's weighted least squares over the nonzero co-occurrences,

    J = sum_ij f(X_ij) (w_i . v_j + b_i + c_j - log X_ij)^2,
    f(x) = (x / x_max)^alpha if x < x_max else 1,

and the defaults follow the reference C implementation (`vocab_count`, `cooccur`, `shuffle`,
`glove`): a symmetric window in which a context word at distance d adds 1/d, contexts not
crossing line ends, out-of-vocabulary tokens dropped before windowing, counting in bounded
memory with sorted runs spilled to disk and merged (`glove_count`, `glove_entries`), the
entries shuffled once, then lock-free per-entry AdaGrad in threads with initial learning rate
0.05 and accumulators started at 1, each step divided by the accumulator before its own square
is added, and the output vectors w + v (its default `-model 2`) (`glove_fit`). Per-entry
gradient components are clipped at 100, as later releases of the reference do; at the default
learning rate this rarely binds.

No maintained GloVe trainer on PyPI fits here: `glove-python-binary` has no wheel for Python
3.11, `glove-python3` fails to build, `glove-py` builds but its extension does not import
(undefined symbol), and `mittens` runs but fits a dense vocabulary-by-vocabulary matrix with
full-batch steps, which does not scale to a corpus vocabulary.

Differences from the reference, by design: besides the shuffle once, every epoch visits the
entries in a new order (blocks of entries in a new order, and a new order within each block;
the reference reads its shuffled file in the same order every epoch); parameters are float32
(the reference uses double) so that a multi-million-word vocabulary fits in memory; counts are
summed as scaled integers, so they do not depend on the memory budget or the worker count.

Reproducibility: with one worker the vectors are the same bytes on every run. With more, the
counts stay the same but the fit's threads update shared rows in the order the scheduler
gives them (as gensim's word2vec and fastText threads do, see `train`), so the vectors differ
from run to run.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from reprobe.embeddings.glove_count import build_vocab, count_cooccurrences
from reprobe.embeddings.glove_entries import read_entries, shuffle_entries
from reprobe.embeddings.glove_fit import fit_glove
from reprobe.embeddings.train import write_vectors
from reprobe.errors import InputFormatError

log = logging.getLogger(__name__)

MB = 1 << 20


def train_glove(corpus: Path, out: Path, *, dim: int, window: int, min_count: int,
                x_max: float, alpha: float, epochs: int, learning_rate: float, seed: int,
                workers: int, memory_mb: int) -> Path:
    """Count, fit and write GloVe vectors: word2vec text format plus `.vocab.tsv` (the
    hyperparameters are `numeracy.retrain`'s; the schema holds their defaults). `workers`
    processes count and as many threads fit; counting and shuffling hold about memory_mb of
    buffers, and their files live in a temporary folder beside `out`, removed at the end."""
    corpus, out = Path(corpus), Path(out)
    words, counts = build_vocab(corpus, min_count)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=f".{out.name}.glove-") as tmp:
        merged, shuffled = Path(tmp) / "cooccurrences.bin", Path(tmp) / "shuffled.bin"
        entries = count_cooccurrences(corpus, words, window, merged, workers=workers,
                                      memory_bytes=memory_mb * MB)
        if entries == 0:
            raise InputFormatError(corpus, "file", f"no two vocabulary words within "
                                                   f"window={window} of each other on a line: "
                                                   "nothing to fit")
        log.info("GloVe: %d words, %d co-occurrence entries", len(words), entries)
        shuffle_entries(merged, shuffled, seed, memory_mb * MB)
        merged.unlink()
        params, _ = fit_glove(read_entries(shuffled), len(words), dim=dim, x_max=x_max,
                              alpha=alpha, epochs=epochs, learning_rate=learning_rate,
                              seed=seed, threads=workers)
    vectors = KeyedVectors(dim, dtype=np.float32)
    vectors.add_vectors(words, params.vectors())
    for word, count in zip(words, counts.tolist(), strict=True):
        vectors.set_vecattr(word, "count", count)
    return write_vectors(vectors, out)
