"""Train one baseline: seeded epochs of length-bucketed batches, its paper's schedule, the best
dev epoch kept, a resumable checkpoint after every epoch.

An epoch's batches come from a generator seeded by (seed, epoch), and the checkpoint holds the
weights, the optimiser, the best weights, the schedule's progress and torch's random state: a
run killed between epochs and started again ends with the same weights, byte for byte on the
CPU, as one that was never stopped.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from reprobe.equate.trained.architectures import Recipe
from reprobe.equate.trained.batches import BatchMaker, bucketed_batches, kept_for_training
from reprobe.equate.trained.schedules import Progress, after_epoch, epoch_lr
from reprobe.io import atomic_path
from reprobe.torch_runtime import autocast

log = logging.getLogger(__name__)
CHECKPOINT = "resume.pt"


@dataclasses.dataclass(frozen=True)
class Run:
    """Where and how a training run happens."""

    device: str
    precision: str | None
    seed: int
    max_epochs: int | None
    resume_dir: Path
    # What the run is (its settings, seed and data): a checkpoint of another run is not resumed.
    fingerprint: str = ""


def make_optimizer(recipe: Recipe, model: nn.Module) -> torch.optim.Optimizer:
    """The recipe's optimiser over the trainable weights (fixed embeddings left out)."""
    weights = [p for p in model.parameters() if p.requires_grad]
    if recipe.optimizer == "sgd":
        return torch.optim.SGD(weights, lr=recipe.lr)
    return torch.optim.Adam(weights, lr=recipe.lr, betas=(0.9, 0.999), eps=1e-8)


def predict_logits(model: nn.Module, maker: BatchMaker, indices: np.ndarray, batch_size: int,
                   run_device: str, precision: str | None = None) -> torch.Tensor:
    """Logits [len(indices), 3] of these pairs, in their order (batched by length)."""
    model.eval()
    lengths = maker.data.pair_lengths()[indices]
    out = torch.zeros((len(indices), 3))
    with torch.inference_mode(), autocast(torch, run_device, precision):
        for group in bucketed_batches(lengths, batch_size, None):
            batch = maker([int(indices[i]) for i in group]).to(run_device)
            out[torch.as_tensor(group)] = model(batch).float().cpu()
    return out


def accuracy(model: nn.Module, maker: BatchMaker, indices: np.ndarray, batch_size: int,
             device: str, precision: str | None) -> float:
    """Percent of these labelled pairs the model gets right."""
    if len(indices) == 0:
        return float("nan")
    predicted = predict_logits(model, maker, indices, batch_size, device, precision).argmax(1)
    gold = torch.as_tensor(maker.data.labels[indices])
    return 100.0 * float((predicted == gold).float().mean())


def _save(path: Path, model: nn.Module, optimizer: torch.optim.Optimizer,
          best: dict[str, torch.Tensor], progress: Progress, fingerprint: str) -> None:
    """The resumable checkpoint, written atomically."""
    with atomic_path(path) as temporary:
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "best": best, "progress": dataclasses.asdict(progress),
                    "rng": torch.get_rng_state(), "fingerprint": fingerprint}, temporary)


def _resume(path: Path, model: nn.Module, optimizer: torch.optim.Optimizer, fingerprint: str
            ) -> tuple[dict[str, torch.Tensor], Progress] | None:
    """The best weights and progress of an earlier, killed run of the same settings (model and
    optimiser restored); None when there is none."""
    if not path.exists():
        return None
    saved = torch.load(path, weights_only=False)
    if saved.get("fingerprint") != fingerprint:
        log.info("%s belongs to a run of other settings or data: starting afresh", path)
        return None
    model.load_state_dict(saved["model"])
    optimizer.load_state_dict(saved["optimizer"])
    torch.set_rng_state(saved["rng"])
    progress = Progress(**saved["progress"])
    log.info("resuming after epoch %d (best dev %.2f%% at epoch %d)", progress.epoch,
             progress.best_dev, progress.best_epoch)
    return saved["best"], progress


def _copy_state(model: nn.Module) -> dict[str, torch.Tensor]:
    """A copy of the model's weights, on the CPU."""
    return {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}


def _epoch_batches(maker: BatchMaker, indices: np.ndarray, recipe: Recipe, seed: int,
                   epoch: int) -> Iterator[list[int]]:
    """The epoch's batches of training pair indices (seeded by the seed and the epoch)."""
    rng = np.random.default_rng([seed, epoch])
    lengths = maker.data.pair_lengths()[indices]
    for group in bucketed_batches(lengths, recipe.batch_size, rng):
        yield [int(indices[i]) for i in group]


def _train_epoch(model: nn.Module, optimizer: torch.optim.Optimizer, recipe: Recipe,
                 maker: BatchMaker, indices: np.ndarray, run: Run, progress: Progress) -> float:
    """One pass over the training pairs; its train accuracy (%)."""
    model.train()
    loss_of = nn.CrossEntropyLoss()
    right = seen = 0
    started = time.monotonic()
    batches = list(_epoch_batches(maker, indices, recipe, run.seed, progress.epoch))
    bar = tqdm(batches, desc=f"epoch {progress.epoch + 1}", unit="batch", mininterval=10)
    for group in bar:
        batch = maker(group).to(run.device)
        with autocast(torch, run.device, run.precision):
            logits = model(batch)
            loss = loss_of(logits.float(), batch.labels)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if recipe.clip_norm is not None:
            nn.utils.clip_grad_norm_(model.parameters(), recipe.clip_norm)
        optimizer.step()
        progress.step += 1
        right += int((logits.argmax(1) == batch.labels).sum())
        seen += len(group)
    rate = seen / max(time.monotonic() - started, 1e-9)
    log.info("epoch %d: %d pairs, %.0f pairs/s, train accuracy %.2f%%", progress.epoch + 1,
             seen, rate, 100.0 * right / max(seen, 1))
    return 100.0 * right / max(seen, 1)


def train(model: nn.Module, recipe: Recipe, train_maker: BatchMaker, dev_maker: BatchMaker,
          run: Run) -> tuple[dict[str, torch.Tensor], Progress]:
    """Train until the recipe's schedule (or the row's cap on epochs) stops; return the best
    dev epoch's weights and the progress."""
    model.to(run.device)
    optimizer = make_optimizer(recipe, model)
    indices = kept_for_training(train_maker.data, recipe.text)
    dev = np.flatnonzero(dev_maker.data.labels >= 0)
    checkpoint = run.resume_dir / CHECKPOINT
    resumed = _resume(checkpoint, model, optimizer, run.fingerprint)
    best, progress = resumed if resumed else (_copy_state(model), Progress(lr=recipe.lr))
    caps = [cap for cap in (recipe.max_epochs, run.max_epochs) if cap is not None]
    limit = min(caps) if caps else None
    while not progress.stopped:
        if limit is not None and progress.epoch >= limit:
            progress.stopped = f"{limit} epochs"
            break
        progress.lr = epoch_lr(recipe.schedule, progress, recipe.lr)
        for group in optimizer.param_groups:
            group["lr"] = progress.lr
        progress.train_accuracy.append(
            _train_epoch(model, optimizer, recipe, train_maker, indices, run, progress))
        progress.epoch += 1
        dev_accuracy = accuracy(model, dev_maker, dev, recipe.batch_size, run.device,
                                run.precision)
        decision = after_epoch(recipe.schedule, progress, dev_accuracy)
        log.info("epoch %d: dev accuracy %.2f%% (best %.2f%% at epoch %d), lr %.3g",
                 progress.epoch, dev_accuracy, progress.best_dev, progress.best_epoch,
                 progress.lr)
        if decision.improved:
            best = _copy_state(model)
        if decision.reload_best:
            model.load_state_dict(best)
        progress.stopped = decision.stop
        _save(checkpoint, model, optimizer, best, progress, run.fingerprint)
    log.info("stopped: %s", progress.stopped)
    return best, progress
