"""A trained baseline's folder, how it is made, and its predictions.

The folder holds `trained.json` (the architecture, the row's shape, the embedding size, the
training progress), `model.pt` (the best dev epoch's weights, embeddings included), and the
vocabulary it reads (`words.tsv`, `chars.txt`): it predicts without the vector file.
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from reprobe.equate.labels import LABELS
from reprobe.equate.trained.vocabulary import Vocabulary, read_vocabulary, read_words
from reprobe.errors import ConfigError, InputFormatError
from reprobe.io import atomic_directory, atomic_write_text

log = logging.getLogger(__name__)
MARKER = "trained.json"


@dataclass(frozen=True)
class TrainedSettings:
    """`equate.trained.<row>` with `equate.training`: one trained baseline's run."""

    architecture: str
    width: float
    max_epochs: int | None
    classifier: str
    unaligned: float
    device: str
    precision: str | None


def is_trained_folder(folder: Path) -> bool:
    """Whether a folder is a baseline trained here (not a Hugging Face checkpoint)."""
    return (Path(folder) / MARKER).is_file()


def resume_folder(output: Path) -> Path:
    """Where a run's resumable checkpoint lives: beside the output, removed once it is done."""
    return output.with_name(f".{output.name}.resume")


def run_fingerprint(settings: TrainedSettings, seed: int, *inputs: Path) -> str:
    """What makes two runs the same run: the settings, the seed, each input's size and time."""
    stats = [[str(p), p.stat().st_size, p.stat().st_mtime_ns] for p in map(Path, inputs)]
    return json.dumps([asdict(settings), seed, stats], sort_keys=True)


def train_baseline(train_jsonl: Path, dev_jsonl: Path, vocabulary_dir: Path, output: Path, *,
                   settings: TrainedSettings, seed: int, threads: int) -> dict[str, Any]:
    """Train one baseline and write its folder; return its summary (dev accuracy, epochs)."""
    import torch

    from reprobe.torch_runtime import torch_threads

    device = torch.device(settings.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ConfigError(f"equate.training.device is {settings.device!r}, but this machine has "
                          "no CUDA device torch can use (set it to cpu to train here)")
    with torch_threads(torch, threads, device.type == "cpu"):
        return _train(train_jsonl, dev_jsonl, vocabulary_dir, output, settings, seed)


def _train(train_jsonl: Path, dev_jsonl: Path, vocabulary_dir: Path, output: Path,
           settings: TrainedSettings, seed: int) -> dict[str, Any]:
    """train_baseline's work, on the threads it set."""
    import torch

    from reprobe.equate.jsonl import read_pairs
    from reprobe.equate.trained.architectures import RECIPES, RowShape, build_model
    from reprobe.equate.trained.batches import BatchMaker, encode_pairs
    from reprobe.equate.trained.training import Run, train
    from reprobe.text import require_rows

    vocabulary, vectors, has = read_vocabulary(vocabulary_dir)
    recipe = RECIPES[settings.architecture]
    shape = RowShape(settings.width, settings.classifier, settings.unaligned)
    model = build_model(settings.architecture, vocabulary, vectors, has, shape, seed)
    train_data = encode_pairs(read_pairs(train_jsonl, consensus_only=True), vocabulary)
    dev_data = encode_pairs(read_pairs(dev_jsonl, consensus_only=True), vocabulary)
    require_rows(train_jsonl, len(train_data), "labelled pairs")
    require_rows(dev_jsonl, len(dev_data), "labelled pairs")
    log.info("%s: %d training pairs, %d dev pairs, %d weights (%d trained)",
             settings.architecture, len(train_data), len(dev_data),
             sum(p.numel() for p in model.parameters()),
             sum(p.numel() for p in model.parameters() if p.requires_grad))
    run = Run(settings.device, settings.precision, seed, settings.max_epochs,
              resume_folder(output), run_fingerprint(settings, seed, train_jsonl, dev_jsonl,
                                                     vocabulary_dir))
    run.resume_dir.mkdir(parents=True, exist_ok=True)
    best, progress = train(model, recipe, BatchMaker(train_data, vocabulary, has, recipe.text,
                                                     training=True),
                           BatchMaker(dev_data, vocabulary, has, recipe.text, training=False),
                           run)
    summary = {"architecture": settings.architecture, "shape": asdict(shape),
               "embedding_dim": int(vectors.shape[1]), "seed": seed,
               "progress": asdict(progress)}
    with atomic_directory(output) as staging:
        torch.save(best, staging / "model.pt")
        for name in ("words.tsv", "chars.txt"):
            shutil.copyfile(vocabulary_dir / name, staging / name)
        atomic_write_text(staging / MARKER, json.dumps(summary, indent=1) + "\n")
    shutil.rmtree(run.resume_dir, ignore_errors=True)
    return summary


def load_trained(folder: Path) -> tuple[Any, Any, Vocabulary, np.ndarray]:
    """(model in eval mode, its recipe, vocabulary, has-vector flags) of a trained folder."""
    import torch

    from reprobe.equate.trained.architectures import RECIPES, RowShape, build_model

    folder = Path(folder)
    if not is_trained_folder(folder):
        raise InputFormatError(folder, MARKER, "not a trained baseline's folder (no trained.json)")
    summary = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    state = torch.load(folder / "model.pt", map_location="cpu", weights_only=True)
    vocabulary, has = read_words(folder)
    vectors = np.zeros((len(vocabulary.words), summary["embedding_dim"]), dtype=np.float32)
    model = build_model(summary["architecture"], vocabulary, vectors, has,
                        RowShape(**summary["shape"]), summary["seed"])
    model.load_state_dict(state)
    model.eval()
    return model, RECIPES[summary["architecture"]], vocabulary, has


def trained_log_probs(folder: Path, rows: Sequence[dict[str, Any]], *, batch_size: int
                      ) -> list[dict[str, float]]:
    """Each pair's log-probability per label under a trained baseline (CPU)."""
    import torch

    from reprobe.equate.trained.batches import BatchMaker, encode_pairs
    from reprobe.equate.trained.training import predict_logits

    model, recipe, vocabulary, has = load_trained(folder)
    data = encode_pairs(rows, vocabulary)
    maker = BatchMaker(data, vocabulary, has, recipe.text, training=False)
    logits = predict_logits(model, maker, np.arange(len(data)), batch_size, "cpu")
    return [dict(zip(LABELS, row, strict=True))
            for row in torch.log_softmax(logits, dim=-1).tolist()]


def predict_trained(folder: Path, rows: Sequence[dict[str, Any]], *, batch_size: int
                    ) -> list[str]:
    """Each pair's label under a trained baseline."""
    return [max(scores, key=scores.__getitem__)
            for scores in trained_log_probs(folder, rows, batch_size=batch_size)]
