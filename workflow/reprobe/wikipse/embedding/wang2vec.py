"""wang2vec (Ling et al. 2015), the C tool the paper trained SKIP and SSKIP with, run as a binary.

When `wikipse.embeddings.wang2vec` names a wang2vec build, `reprobe.wikipse.embedding.embed`
trains the models listed in `wikipse.embeddings.wang2vec_models` with it instead of gensim (SKIP)
or reprobe's own SSKIP (`reprobe.wikipse.embedding.sskip`).
"""

from __future__ import annotations

import logging
import shlex
import subprocess
from pathlib import Path

from gensim.models import KeyedVectors

from reprobe.embeddings.train import check_finite
from reprobe.errors import ReprobeError
from reprobe.wikipse.embedding.embedding_settings import SSkipConfig

log = logging.getLogger("reprobe.wikipse")


# wang2vec's -type of each model: 1 skip-gram, 3 structured skip-gram (Ling et al. 2015).
WANG2VEC_TYPES = {"skip": 1, "sskip": 3}


def wang2vec_command(binary: Path, corpus: Path, out: Path, config: SSkipConfig,
                     model: str) -> list[str]:
    """The wang2vec command line of a model (SSKIP -type 3, SKIP -type 1), text output."""
    flags = {"-train": corpus, "-output": out, "-type": WANG2VEC_TYPES[model],
             "-size": config.dim,
             "-window": config.window, "-negative": config.negative, "-hs": 0, "-nce": 0,
             "-sample": config.sample, "-alpha": config.alpha, "-threads": config.workers,
             "-iter": config.epochs, "-min-count": config.min_count, "-binary": 0}
    return [str(binary), *(str(part) for flag, value in flags.items() for part in (flag, value))]


def train_wang2vec(binary: Path, corpus: Path, out: Path, config: SSkipConfig,
                   model: str) -> KeyedVectors:
    """Run a wang2vec binary (SSKIP or SKIP) and read its word2vec text output.

    Its vocabulary starts with the newline token `</s>`, and its file has no counts (gensim makes
    up descending ones); it takes no seed."""
    command = wang2vec_command(binary, corpus, out, config, model)
    log.info("%s with wang2vec: %s", model.upper(), shlex.join(command))
    done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          errors="replace")
    if done.returncode != 0:
        tail = (done.stdout + done.stderr)[-2000:]
        raise ReprobeError(f"{shlex.join(command)} failed with {done.returncode}:\n{tail}")
    vectors = KeyedVectors.load_word2vec_format(str(out), binary=False)
    check_finite(vectors, out)
    return vectors
