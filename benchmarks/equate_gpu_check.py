#!/usr/bin/env python3
"""EQUATE's seven trained baselines on one GPU: one epoch of each at the paper's width.

Run through `benchmarks/gpu_check.sh` (after the NumerSense check; its `--equate-*` options
come here without the prefix, and its `--device` too), or alone. Nothing is downloaded and no
file is read, so it runs on a machine with no network and only this repository:

- the pairs: --pairs MultiNLI-like pairs (default 50,000) and a dev set of 2.5% of them
  (MultiNLI's 9,815 / 392,702), generated as benchmarks/equate_trained.py makes them (Zipf
  words, premises of ~22 tokens, hypotheses of ~11, random labels; seeded);
- the vocabulary: their words by frequency, cut at --vocabulary-words (default 100,000, about
  MultiNLI's training vocabulary: an assumption), as `vocabulary.build_vocabulary` orders them;
  a random 300d "pretrained" vector for nine words in ten (the rest are the words a vector
  file lacks), so every embedding, and where fine-tuned its gradient and Adam's states, has
  the paper's size.

Each architecture (`architectures.build_model` at --width, default 1.0, the paper's) trains one
epoch with the workflow's own loop (`training.train`: its recipe's optimiser, length-bucketed
batches, the dev pass, a resumable checkpoint in a temporary folder), max_epochs 1, in
--precision (none: float32, as the paper config; bf16 or fp16: autocast). Reported: the
training pass's pairs/s (timed around `training._train_epoch`, with `torch.cuda.synchronize()`
on CUDA), the whole call's seconds (dev pass and checkpoint with it), the weights, and the peak
memory: `torch.cuda.max_memory_allocated` on CUDA, the process's peak RSS (sampled) on the CPU,
which includes what earlier architectures left. An architecture that fails is reported as
failed and the script exits non-zero after the others have run.

--json PATH also writes the figures (benchmarks/rule_costs.py --equate-gpu reads it): the
device, torch, precision, pairs and width; the process's start-up (from its creation to the
device ready: interpreter, imports, CUDA's context); per architecture its status, the model's
construction, the training pass (seconds, pairs/s), the dev pass (pairs, seconds, pairs/s:
`training.accuracy`, timed), the checkpoint (`training._save`, timed), the whole call, the
peak GPU memory (null on the CPU) and the process's peak host RSS (sampled).

    bash benchmarks/gpu_check.sh --skip-numersense --equate-json /tmp/gpu.json   # CUDA
    python benchmarks/equate_gpu_check.py --device cpu --pairs 64 --width 0.05 --json x.json
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import shlex
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import harness  # noqa: E402
from equate_trained import ARCHITECTURES  # noqa: E402
from equate_trained_inputs import DEV_SHARE, nli_pairs  # noqa: E402
from equate_trained_report import NAMES  # noqa: E402

DIM = 300
VECTOR_SHARE = 0.9  # words with a "pretrained" vector
MB = 1 << 20


@dataclass
class Row:
    """One architecture's line of the report."""

    architecture: str
    pairs: int
    weights: int = 0
    build_s: float | None = None  # the model's construction (on the CPU)
    epoch_s: float | None = None  # the training pass
    dev_pairs: int = 0
    dev_s: float | None = None  # the dev pass
    save_s: float | None = None  # the checkpoint
    call_s: float | None = None  # training.train, all of it
    peak_mb: float | None = None  # the table's: GPU memory on CUDA, host RSS on the CPU
    peak_gpu_mb: float | None = None
    peak_rss_mb: float | None = None
    error: str = ""
    timings: dict[str, list[float]] = field(default_factory=dict, repr=False)

    def figures(self) -> dict[str, Any]:
        """The row as JSON: its figures, rates and status."""
        found = dataclasses.asdict(self)
        del found["timings"], found["peak_mb"]
        found["status"] = "failed" if self.error else "ok"
        found["pairs_s"] = self.pairs / self.epoch_s if self.epoch_s else None
        found["dev_pairs_s"] = self.dev_pairs / self.dev_s if self.dev_s else None
        return found

    def cells(self, device: str, precision: str) -> list[str]:
        """The row's Markdown cells."""
        if self.error:
            return [NAMES[self.architecture], device, precision, f"{self.pairs:,}", "", "", "",
                    "", f"FAILED: {self.error}"]
        assert self.epoch_s is not None and self.call_s is not None
        return [NAMES[self.architecture], device, precision, f"{self.pairs:,}",
                f"{self.weights / 1e6:,.1f}M", f"{self.epoch_s:.2f}",
                f"{self.pairs / self.epoch_s:,.0f}", f"{self.call_s:.2f}",
                f"{self.peak_mb:,.0f}"]


def vocabulary_of(rows: Sequence[dict[str, Any]], limit: int, seed: int) -> tuple[Any, Any, Any]:
    """(vocabulary, vectors [V, 300], has_vector [V]) of the pairs' words, the `limit` most
    frequent, nine in ten with a random vector."""
    from reprobe.equate.trained.text import words
    from reprobe.equate.trained.vocabulary import SPECIAL, Vocabulary, build_vocabulary

    counts: Counter[str] = Counter()
    for row in rows:
        counts.update(words(row["sentence1"]))
        counts.update(words(row["sentence2"]))
    full = build_vocabulary(counts)
    vocabulary = Vocabulary(full.words[:limit + len(SPECIAL)], full.chars)
    rng = np.random.default_rng([seed, 300])
    size = len(vocabulary.words)
    vectors = rng.standard_normal((size, DIM)).astype(np.float32) * 0.3
    has = rng.random(size) < VECTOR_SHARE
    has[:2] = False  # padding and UNK
    vectors[~has] = 0.0
    return vocabulary, vectors, has


class PeakRss:
    """The process's largest RSS while inside the block (sampled every 20 ms)."""

    def __init__(self) -> None:
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        import psutil

        process = psutil.Process()
        while not self._stop.is_set():
            self.peak = max(self.peak, process.memory_info().rss)
            self._stop.wait(0.02)

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def synchronize(device: str) -> None:
    """Wait for the device's queued work (CUDA); nothing on the CPU."""
    import torch

    if torch.device(device).type == "cuda":
        torch.cuda.synchronize(device)


def train_one(architecture: str, data: tuple[Any, Any], vocabulary: tuple[Any, Any, Any],
              args: argparse.Namespace) -> Row:
    """One epoch of one architecture; its row."""
    import torch

    from reprobe.equate.trained import training
    from reprobe.equate.trained.architectures import RECIPES, RowShape, build_model
    from reprobe.equate.trained.batches import BatchMaker

    words, vectors, has = vocabulary
    train_data, dev_data = data
    recipe = RECIPES[architecture]
    row = Row(architecture, len(train_data), dev_pairs=len(dev_data))
    start = time.perf_counter()
    model = build_model(architecture, words, vectors, has, RowShape(width=args.width),
                        args.seed)
    row.build_s = time.perf_counter() - start
    row.weights = sum(p.numel() for p in model.parameters())
    # The loop's own pass, dev pass and checkpoint, each timed, synchronized on both sides.
    originals = {name: getattr(training, name) for name in ("_train_epoch", "accuracy", "_save")}

    def timed(name: str) -> Any:
        def call(*given: Any, **named: Any) -> Any:
            synchronize(args.device)
            start = time.perf_counter()
            result = originals[name](*given, **named)
            synchronize(args.device)
            row.timings.setdefault(name, []).append(time.perf_counter() - start)
            return result
        return call

    cuda = torch.device(args.device).type == "cuda"
    if cuda:
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats(args.device)
    with tempfile.TemporaryDirectory(prefix=f"equate-gpu-{architecture}-") as folder, \
            PeakRss() as rss:
        run = training.Run(args.device, args.precision, args.seed, 1, Path(folder))
        for name in originals:
            setattr(training, name, timed(name))
        try:
            start = time.perf_counter()
            training.train(model, recipe,
                           BatchMaker(train_data, words, has, recipe.text, training=True),
                           BatchMaker(dev_data, words, has, recipe.text, training=False), run)
            synchronize(args.device)
            row.call_s = time.perf_counter() - start
        finally:
            for name, original in originals.items():
                setattr(training, name, original)
    row.epoch_s = row.timings["_train_epoch"][0]
    row.dev_s = row.timings["accuracy"][0]
    row.save_s = row.timings["_save"][0]
    row.peak_rss_mb = rss.peak / MB
    row.peak_gpu_mb = torch.cuda.max_memory_allocated(args.device) / MB if cuda else None
    row.peak_mb = row.peak_gpu_mb if cuda else row.peak_rss_mb
    return row


def accelerator(device: str) -> str:
    """The GPU's name on CUDA, else the CPU model."""
    import torch

    if torch.device(device).type == "cuda":
        return torch.cuda.get_device_name(torch.device(device))
    return harness.cpu_model()


def command_of(argv: list[str] | None) -> str:
    """The command line that ran this check."""
    return shlex.join(["python", "benchmarks/equate_gpu_check.py",
                       *(sys.argv[1:] if argv is None else argv)])


def report(rows: Sequence[Row], args: argparse.Namespace, argv: list[str] | None,
           facts: dict[str, float], seconds: float, when: tuple[str, dict]) -> str:
    """The Markdown block: where and what ran, then the table."""
    import torch

    command = command_of(argv)
    precision = args.precision or "fp32"
    memory = ("torch.cuda.max_memory_allocated" if torch.device(args.device).type == "cuda"
              else "the process's peak RSS (sampled; includes what earlier rows left)")
    lines = ["### EQUATE trained baselines, one epoch each", "",
             *harness.provenance(command, *when),
             "", f"torch {torch.__version__}; device `{args.device}`: "
             f"{accelerator(args.device)}. {facts['pairs']:,} generated pairs (premise "
             f"{facts['premise_tokens']:.1f} tokens, hypothesis {facts['hypothesis_tokens']:.1f} "
             f"on average), {facts['dev_pairs']:,} dev pairs, a {facts['words']:,}-word "
             f"vocabulary (300d, random vectors); width {args.width:g}; {seconds:.0f} s in all "
             f"(and {facts['startup_s']:.1f} s from the process's start to the device ready). "
             f"Pairs/s: the training pass alone; the call adds the dev pass and a checkpoint; "
             f"peak memory: {memory}.", "",
             harness.markdown_table(("model", "device", "precision", "pairs", "weights",
                                     "epoch s", "pairs/s", "call s", "peak MB"),
                                    [row.cells(args.device, precision) for row in rows],
                                    align="lllrrrrrr")]
    return "\n".join(lines) + "\n"


def precision_of(text: str) -> str | None:
    """--precision: none (float32), bf16 or fp16."""
    if text in ("none", "fp32", "float32"):
        return None
    if text not in ("bf16", "fp16"):
        raise argparse.ArgumentTypeError(f"expected none, bf16 or fp16, not {text!r}")
    return text


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = harness.new_parser(__doc__, prog="benchmarks/equate_gpu_check.py")
    parser.add_argument("--device", default="cuda", help="torch device (default cuda)")
    parser.add_argument("--pairs", type=harness.positive_int, default=50_000,
                        help="training pairs (default 50,000)")
    parser.add_argument("--precision", type=precision_of, default=None,
                        help="none (float32, default), bf16 or fp16 (autocast; CUDA only)")
    parser.add_argument("--width", type=float, default=1.0,
                        help="every hidden size times this (default 1.0, the paper's)")
    parser.add_argument("--architectures", nargs="+", choices=ARCHITECTURES,
                        default=list(ARCHITECTURES), help="which baselines (default all)")
    parser.add_argument("--vocabulary-words", type=harness.positive_int, default=100_000,
                        help="the most frequent words kept (default 100,000)")
    parser.add_argument("--threads", type=harness.positive_int,
                        help="torch CPU threads (default torch's)")
    parser.add_argument("--seed", type=int, default=1, help="seed of pairs and weights")
    parser.add_argument("--out", type=Path, metavar="FILE", help="also write the Markdown here")
    parser.add_argument("--append", action="store_true",
                        help="append to --out (after a blank line) instead of replacing it")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the figures as "
                        "JSON here (read by benchmarks/rule_costs.py --equate-gpu)")
    return parser.parse_args(argv)


def figures(rows: Sequence[Row], args: argparse.Namespace, argv: list[str] | None,
            facts: dict[str, Any], when: tuple[str, dict]) -> dict[str, Any]:
    """The JSON: what ran, where, and each architecture's figures."""
    import torch

    return {"command": command_of(argv), "date": when[0], "machine": when[1],
            "torch": torch.__version__, "device": args.device,
            "device_name": accelerator(args.device), "precision": args.precision or "fp32",
            "width": args.width, "seed": args.seed, **facts,
            "architectures": {row.architecture: row.figures() for row in rows}}


def startup_seconds(device: str) -> float:
    """Seconds from this process's creation to the device ready (interpreter, imports, CUDA's
    context): what a training job pays once before its data."""
    import psutil
    import torch

    torch.zeros(1, device=device).sum().item()
    synchronize(device)
    return time.time() - psutil.Process().create_time()


def main(argv: list[str] | None = None) -> int:
    """Generate the pairs, train each architecture one epoch, print (and write) the table."""
    args = parse_args(argv)
    import torch

    from reprobe.equate.trained import architectures, batches, training  # noqa: F401
    from reprobe.equate.trained.batches import encode_pairs
    from reprobe.torch_runtime import set_deterministic

    if torch.device(args.device).type == "cuda" and not torch.cuda.is_available():
        raise SystemExit(f"--device {args.device}: CUDA is not available to torch "
                         f"{torch.__version__}")
    if args.threads:
        torch.set_num_threads(args.threads)
    set_deterministic(torch, torch.device(args.device).type == "cpu")  # as train_baseline does
    when = (harness.now(), harness.machine())
    startup_s = startup_seconds(args.device)
    start = time.perf_counter()
    print(f"generating {args.pairs:,} pairs ...", file=sys.stderr, flush=True)
    train_rows = list(nli_pairs(args.pairs, args.seed, 0))
    dev_rows = list(nli_pairs(max(8, round(args.pairs * DEV_SHARE)), args.seed, 1))
    vocabulary = vocabulary_of(train_rows, args.vocabulary_words, args.seed)
    data = (encode_pairs(train_rows, vocabulary[0]), encode_pairs(dev_rows, vocabulary[0]))
    lengths = np.diff(data[0].starts)
    facts = {"pairs": len(train_rows), "dev_pairs": len(dev_rows),
             "words": len(vocabulary[0].words), "premise_tokens": float(lengths[0::2].mean()),
             "hypothesis_tokens": float(lengths[1::2].mean()), "startup_s": startup_s}
    del train_rows, dev_rows
    rows = []
    for architecture in args.architectures:
        print(f"{NAMES[architecture]}: one epoch of {facts['pairs']:,} pairs ...",
              file=sys.stderr, flush=True)
        try:
            row = train_one(architecture, data, vocabulary, args)
        except Exception as error:  # report it, run the others, fail at the end
            traceback.print_exc()
            message = f"{type(error).__name__}: {error}".replace("|", "/")
            row = Row(architecture, facts["pairs"], dev_pairs=facts["dev_pairs"],
                      error=message.splitlines()[0][:200])
        rows.append(row)
        print("  " + " | ".join(row.cells(args.device, args.precision or "fp32")),
              file=sys.stderr, flush=True)
        gc.collect()
    seconds = time.perf_counter() - start
    block = report(rows, args, argv, facts, seconds, when)
    print(block)
    if args.json:
        harness.write_json(args.json, figures(rows, args, argv, facts, when) |
                           {"seconds": seconds})
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        if args.append and args.out.exists():
            with args.out.open("a", encoding="utf-8") as handle:
                handle.write("\n" + block)
        else:
            args.out.write_text(block, encoding="utf-8")
    return 1 if any(row.error for row in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
