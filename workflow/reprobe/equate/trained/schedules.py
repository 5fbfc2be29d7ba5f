"""Each paper's learning-rate schedule and stopping rule, decided once an epoch from its
train and dev accuracy (`architectures.py` says where each comes from).

- williams (CBOW, BiLSTM): a constant rate; stop when train accuracy's progress over the last
  five epochs, 1000 x (sum / (5 x min) - 1), falls under 0.1, or 30,000 steps past the best.
- chen (CH, ESIM): when dev accuracy is not a new best, halve the rate and reload the best
  weights; stop after more than 7 halvings.
- infersent: SGD's rate times 0.99 every epoch after the first, divided by 5 when dev accuracy
  does not improve; stop when it falls under 1e-5 (or after 20 epochs).
- nie (SSEN): the start rate halved every second epoch, six epochs.
- fixed (ALIGN): a constant rate for the recipe's epochs.

Every schedule keeps the weights of the best dev epoch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SCHEDULES = ("williams", "chen", "infersent", "nie", "fixed")
WILLIAMS_WINDOW, WILLIAMS_PROGRESS, WILLIAMS_STEPS = 5, 0.1, 30000
CHEN_PATIENCE = 7
INFERSENT_DECAY, INFERSENT_SHRINK, INFERSENT_MIN_LR = 0.99, 5.0, 1e-5


@dataclass
class Progress:
    """Where training stands after some epochs (saved with every resumable checkpoint)."""

    lr: float
    epoch: int = 0
    step: int = 0
    best_dev: float = -1.0
    best_epoch: int = 0
    best_step: int = 0
    halvings: int = 0
    train_accuracy: list[float] = field(default_factory=list)
    dev_accuracy: list[float] = field(default_factory=list)
    stopped: str = ""


@dataclass(frozen=True)
class Decision:
    """What an epoch's result means: a new best, reload the best weights, stop (and why)."""

    improved: bool
    reload_best: bool = False
    stop: str = ""


def epoch_lr(schedule: str, progress: Progress, start_lr: float) -> float:
    """The learning rate of the epoch about to start (epoch index = progress.epoch)."""
    if schedule == "nie":
        return start_lr / 2 ** (progress.epoch // 2)
    if schedule == "infersent" and progress.epoch > 0:
        return progress.lr * INFERSENT_DECAY
    return progress.lr


def williams_progress(train_accuracy: list[float]) -> float:
    """Williams et al.'s progress over the last five epochs' train accuracy (inf before five)."""
    last = train_accuracy[-WILLIAMS_WINDOW:]
    if len(last) < WILLIAMS_WINDOW or min(last) <= 0:
        return float("inf")
    return 1000 * (sum(last) / (WILLIAMS_WINDOW * min(last)) - 1)


def after_epoch(schedule: str, progress: Progress, dev: float) -> Decision:
    """Record an epoch's dev accuracy (its train accuracy already appended) and decide."""
    progress.dev_accuracy.append(dev)
    # Chen's code keeps an epoch that ties the best (`valid_err <= history_errs.min()`): a tie
    # is no reason to halve and reload. The others need a strictly better epoch.
    improved = dev >= progress.best_dev if schedule == "chen" else dev > progress.best_dev
    if improved:
        progress.best_dev, progress.best_epoch, progress.best_step = (
            dev, progress.epoch, progress.step)
    if schedule == "williams":
        if williams_progress(progress.train_accuracy) < WILLIAMS_PROGRESS:
            return Decision(improved, stop="train accuracy stopped progressing")
        if progress.step - progress.best_step > WILLIAMS_STEPS:
            return Decision(improved, stop=f"{WILLIAMS_STEPS} steps past the best")
    if schedule == "chen" and not improved:
        progress.lr *= 0.5
        progress.halvings += 1
        if progress.halvings > CHEN_PATIENCE:
            return Decision(False, stop=f"{progress.halvings} halvings")
        return Decision(False, reload_best=True)
    if schedule == "infersent" and not improved:
        progress.lr /= INFERSENT_SHRINK
        if progress.lr < INFERSENT_MIN_LR:
            return Decision(False, stop="learning rate under 1e-5")
    return Decision(improved)
