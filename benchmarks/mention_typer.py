"""Time the attentive mention typer's training step (WIKI-PSE Table 5's MC) on this machine's CPU.

`wikipse_mc` trains the typer once per embedding: `epochs` × `steps_per_epoch` batches of
`batch_size` mentions (config/paper.yaml: 5 × 2,000 × 1,000), with 2 × `context` context words,
the embedding's dimension and FIGER's 113 types. This script builds the typer at those sizes
(`reprobe.wikipse.tasks.attentive.build_typer`, random embeddings and mentions, seeded) and times
`--steps` training steps (forward, backward, Adam) after `--warm-up` untimed ones, on the torch
threads given. It prints mentions/s and what one embedding's training takes at that rate; on a
GPU (the paper config's device) the job is faster, so this is an upper bound of its time.

    python benchmarks/mention_typer.py --dim 400 --threads 2 --json /tmp/typer.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "workflow"))

FIGER_TYPES = 113  # FIGER's type set (Ling and Weld 2012), as NFGEC's corpus labels it


def time_steps(dim: int, context: int, batch: int, steps: int, warm_up: int, threads: int,
               vocabulary: int = 50_000) -> float:
    """Seconds per training step at these sizes (the mean over `steps`)."""
    import torch

    from reprobe.config import CHECKOUT, fill_defaults, load_yaml
    from reprobe.wikipse.settings import TyperSettings
    from reprobe.wikipse.tasks.attentive import build_typer

    torch.set_num_threads(threads)
    config = load_yaml(CHECKOUT / "config" / "paper.yaml")
    fill_defaults(config)
    typer = {**config["wikipse"]["mention_typing"]["typer"], "device": "cpu"}
    settings = TyperSettings(**{key: typer[key] for key in TyperSettings.__dataclass_fields__})
    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    embeddings = rng.standard_normal((vocabulary, dim)).astype(np.float32)
    model = build_typer(torch, embeddings, FIGER_TYPES, settings)
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad],
                                 lr=settings.learning_rate)
    loss_of = torch.nn.BCEWithLogitsLoss()
    left = torch.from_numpy(rng.integers(1, vocabulary, (batch, context)))
    right = torch.from_numpy(rng.integers(1, vocabulary, (batch, context)))
    mention = torch.from_numpy(rng.standard_normal((batch, dim)).astype(np.float32))
    targets = torch.from_numpy((rng.random((batch, FIGER_TYPES)) < 0.02).astype(np.float32))
    began = 0.0
    for step in range(warm_up + steps):
        if step == warm_up:
            began = time.perf_counter()
        loss = loss_of(model(left, right, mention), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return (time.perf_counter() - began) / steps


def main(argv: list[str] | None = None) -> int:
    """Time the steps; print (and with --json write) the rate."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dim", type=int, default=400, help="the embedding's dimension")
    parser.add_argument("--context", type=int, default=10, help="context words a side")
    parser.add_argument("--batch", type=int, default=1000, help="mentions a step")
    parser.add_argument("--steps", type=int, default=10, help="timed steps")
    parser.add_argument("--warm-up", type=int, default=2, help="untimed steps first")
    parser.add_argument("--threads", type=int, default=2, help="torch threads")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    seconds = time_steps(args.dim, args.context, args.batch, args.steps, args.warm_up,
                         args.threads)
    per_embedding = 5 * 2000 * seconds  # config/paper.yaml: 5 epochs of 2,000 steps
    found = {"dim": args.dim, "context": args.context, "batch": args.batch,
             "threads": args.threads, "step_s": round(seconds, 4),
             "mentions_per_s": round(args.batch / seconds, 1),
             "embedding_min": round(per_embedding / 60, 1)}
    print(f"{found['mentions_per_s']:,.0f} mentions/s ({seconds:.3f} s a step of "
          f"{args.batch}) on {args.threads} CPU threads at {args.dim}d: one embedding's 10,000 "
          f"steps take {per_embedding / 60:.0f} min")
    if args.json:
        args.json.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
