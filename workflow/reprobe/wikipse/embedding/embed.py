"""SKIP and SSKIP embeddings of a WIKI-PSE corpus (Yaghoobzadeh et al. 2019, §5).

"We use WANG2VEC (Ling et al., 2015) with negative sampling for training both models […]
negatives=10, iterations=5, window=5." SKIP is gensim's skip-gram with negative sampling (the
same model as wang2vec's `-type 1`); SSKIP is `reprobe.wikipse.embedding.sskip` (wang2vec's
`-type 3`).
When `wikipse.embeddings.wang2vec` names a wang2vec binary, the models listed in
`wikipse.embeddings.wang2vec_models` are trained with it instead (both, as the paper did).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from gensim.models import KeyedVectors, Word2Vec

from reprobe.embeddings.train import check_corpus
from reprobe.errors import InputFormatError
from reprobe.wikipse.embedding.embedding_settings import SSkipConfig
from reprobe.wikipse.embedding.sskip import train_sskip
from reprobe.wikipse.embedding.wang2vec import train_wang2vec

log = logging.getLogger("reprobe.wikipse")
MODELS = ("skip", "sskip")


def train_skip(corpus: Path, config: SSkipConfig) -> KeyedVectors:
    """Skip-gram with negative sampling (gensim), the settings of config."""
    check_corpus(corpus)
    model = Word2Vec(vector_size=config.dim, window=config.window, min_count=config.min_count,
                     sg=1, hs=0, negative=config.negative, sample=config.sample,
                     alpha=config.alpha, seed=config.seed, workers=config.workers)
    model.build_vocab(corpus_file=str(corpus))
    if len(model.wv) == 0:
        raise InputFormatError(corpus, "file", f"no token occurs at least "
                               f"min_count={config.min_count} times: nothing to train")
    start = time.perf_counter()
    model.train(corpus_file=str(corpus), total_words=model.corpus_total_words,
                total_examples=model.corpus_count, epochs=config.epochs)
    seconds = time.perf_counter() - start
    log.info("SKIP: %d words x %d epochs in %.1f s (%.0f words/s, %d worker(s))",
             model.corpus_total_words, config.epochs, seconds,
             model.corpus_total_words * config.epochs / max(seconds, 1e-9), config.workers)
    return model.wv


def train_embedding(model: str, corpus: Path, config: SSkipConfig,
                    wang2vec: Path | None = None, work: Path | None = None,
                    scratch: Path | None = None) -> KeyedVectors:
    """The vectors of one model (skip, sskip) on one corpus: with the wang2vec binary when one
    is given (its output in `work`), else gensim (SKIP) or reprobe's own (SSKIP, its corpus ids
    spilled under `scratch`)."""
    if model not in MODELS:
        raise ValueError(f"unknown embedding model {model!r}; use one of {MODELS}")
    if wang2vec is not None:
        out = (work or Path(corpus).parent) / f"{Path(corpus).stem}.{model}.wang2vec.txt"
        return train_wang2vec(wang2vec, corpus, out, config, model)
    if model == "skip":
        return train_skip(corpus, config)
    return train_sskip(corpus, config, scratch)
