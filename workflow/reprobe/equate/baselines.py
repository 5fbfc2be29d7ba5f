"""EQUATE's two trivial rows of Table 6: MAJ (majority class) and HYP (hypothesis-only fastText).

MAJ follows §4.1 literally: it always predicts the majority class *of the test set* (counted in
that set's label space), so its accuracy is that set's majority share and every Δ in Table 6 is
measured against it. HYP is a supervised fastText classifier that sees only the hypothesis
(`sentence2`); the paper trains it on MultiNLI, the default configuration on the sample pairs.

Label spaces: RedditNLI and the Stress Test are 3-class; RTE-Quant, NewsNLI and AwpNLI are
2-class, so there both gold and predicted neutral/contradiction fold into `non-entailment`.

fastText build (checked on this machine, NumPy 2.4): the PyPI `fasttext` 0.9.3 wheel stops every
`train_supervised` call with "Encountered NaN" (any lr, loss, dim or thread count), while
`fasttext-wheel` 0.9.2 trains with finite weights but its Python `predict` wrapper calls
`np.array(..., copy=False)`, which NumPy 2 rejects. We pin `fasttext-wheel==0.9.2` and call the
compiled `model.f.multilinePredict` directly, which returns plain lists and skips that wrapper;
`train_hyp` still refuses to save a model whose matrices are not finite.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from reprobe.equate.jsonl import Pair, read_pairs, tokenize
from reprobe.equate.labels import LABELS, NON_ENTAILMENT, fold
from reprobe.equate.settings import HypSettings
from reprobe.io import atomic_path
from reprobe.text import require_rows

_PREFIX = "__label__"

PairLike = Pair | Mapping[str, Any]


def _field(pair: PairLike, key: str) -> str:
    """A field of a Pair or of a released-layout row."""
    return getattr(pair, key) if isinstance(pair, Pair) else str(pair[key])


def majority_baseline(test_pairs: Iterable[PairLike], *, two_class: bool = False) -> list[str]:
    """MAJ: predict the test set's own majority label for every pair (paper §4.1)."""
    gold = [fold(_field(p, "gold_label"), two_class) for p in test_pairs]
    if not gold:
        return []
    counts = Counter(gold)
    # Ties go to the first label in canonical order, so the choice does not depend on row order.
    order = [*LABELS, NON_ENTAILMENT]
    majority = max(counts, key=lambda label: (counts[label], -order.index(label)))
    return [majority] * len(gold)


def hypothesis_text(sentence: str) -> str:
    """fastText input: the lowercased tokens of a hypothesis on one line."""
    # One line per example is fastText's format, so tokenisation also removes any newline.
    return " ".join(t.lower() for s in tokenize(sentence) for t in s)


def _load(model_path: Path) -> Any:
    """Load a fastText model (imported late: only HYP needs the library)."""
    import fasttext

    # load_model prints a notice about its return type on every call; it is noise in rule logs.
    with contextlib.redirect_stderr(io.StringIO()):
        return fasttext.load_model(str(model_path))


def _check_finite(model: Any) -> None:
    """Raise when a trained model holds NaN/inf weights (the fasttext 0.9.3 failure mode)."""
    for name in ("get_input_matrix", "get_output_matrix"):
        if not np.isfinite(np.asarray(getattr(model, name)())).all():
            raise RuntimeError(f"fastText training produced non-finite weights ({name})")


def train_hyp(
    train_jsonl: Path,
    model_path: Path,
    *,
    seed: int,
    settings: HypSettings,
    threads: int = 1,
) -> Path:
    """Train the hypothesis-only fastText classifier on a released-layout jsonl; save it."""
    import fasttext

    model_path = Path(model_path)
    model_path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=model_path.parent) as tmp:
        train_txt = Path(tmp) / "train.txt"
        rows = 0
        with train_txt.open("w", encoding="utf-8") as handle:
            for row in read_pairs(Path(train_jsonl)):
                handle.write(f"{_PREFIX}{row['gold_label']} {hypothesis_text(row['sentence2'])}\n")
                rows += 1
        require_rows(train_jsonl, rows, "training pairs")
        # thread=1 by default: fastText's Hogwild updates make multi-threaded runs irreproducible.
        model = fasttext.train_supervised(
            str(train_txt), epoch=settings.epochs, dim=settings.dim, lr=settings.lr,
            wordNgrams=settings.word_ngrams, minCount=1,
            seed=seed, thread=threads, verbose=0)
    _check_finite(model)
    with atomic_path(model_path) as tmp_model:
        model.save_model(str(tmp_model))
    return model_path


def predict_hyp(model_path: Path, pairs: Iterable[PairLike]) -> list[str]:
    """Predict a 3-way label for each pair from its hypothesis alone."""
    model = _load(Path(model_path))
    texts = [hypothesis_text(_field(p, "sentence2")) for p in pairs]
    if not texts:
        return []
    # fastText orders labels by training frequency: the first is the training majority, used
    # when a hypothesis has no known word and fastText returns no label at all.
    fallback = model.get_labels()[0]
    # The compiled predictor, not `model.predict`: the wrapper's `np.array(copy=False)` fails
    # under NumPy 2 in fasttext-wheel 0.9.2.
    labels, _ = model.f.multilinePredict(texts, 1, 0.0, "strict")
    return [(found[0] if found else fallback).removeprefix(_PREFIX) for found in labels]
