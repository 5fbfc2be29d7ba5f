#!/usr/bin/env python3
"""NumerSense on one GPU: batched against one-probe-at-a-time scoring, and a fine-tuning epoch.

Run through `benchmarks/gpu_check.sh` (it passes its arguments on). Nothing is downloaded, and
no released file is read, so it runs on a machine with no network and only this repository:

- the model: `BertForMaskedLM(BertConfig())`, bert-base's architecture (12 layers, hidden 768,
  vocabulary 30,522) with random weights (seeded); the 12 candidates' output biases are raised
  by 8 (as in `mlm_probe.py`) so that their scores sit near 0.1, not near 1/30,522, and the
  score differences below mean something;
- the tokenizer: a lowercasing WordPiece `BertTokenizerFast` read from a `vocab.txt` written
  here (special tokens, characters, the 12 number words, the probes' words; padded with
  `[unusedN]` to 30,522 entries; `mlm_probe.vocabulary`);
- the probes: 3,146 (the size of the released `test.all`) generated from templates x nouns x
  adjectives, seeded, one `<mask>` each, some with commas, periods or parentheses mid-sentence
  (where the authors' protocol puts a separator) and some beginning with the mask; the
  fine-tuning sentences: each probe three times with its mask filled by a number word.

Measured, each after an untimed warm-up, with `torch.cuda.synchronize()` around every timing on
CUDA: both scorers (`authors.score_probes_authors`, the authors' protocol, and
`mlm.score_probes`, the clean one) on every probe one at a time (batch size 1) and batched
(--batch-size), in float32 and under bf16 autocast: probes/s, the speed-up (target >= 20x)
and the largest absolute score difference, batched against one at a time (float32: < 1e-5);
then one epoch of `finetune.finetune_masked_lm(procedure="authors")` from the random model saved
to a temporary folder (batch size 64, max_length 64): examples/s over its own timing (encoding
and training; loading and saving the model not counted). Verdicts are printed, not enforced:
the script fails only when a step fails.

    bash benchmarks/gpu_check.sh                      # CUDA, all 3,146 probes
    bash benchmarks/gpu_check.sh --device cpu --limit 50 --out /tmp/gpu_check.md
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
import random
import shlex
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Set before transformers or huggingface_hub is imported: they read it at import time.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from mlm_probe import CANDIDATE_BIAS, agreement, vocabulary  # noqa: E402

PROBES = 3146  # probes in the released test.all.masked.txt
SENTENCES_PER_PROBE = 3  # fine-tuning sentences: each probe filled with three number words
TARGET_SPEEDUP = 20.0
FP32_BOUND = 1e-5
PRECISIONS: dict[str, str | None] = {"fp32": None, "bf16": "bf16"}

# --- the probes and sentences -----------------------------------------------------------------

# (noun, parts it has a number of)
NOUNS = [
    ("bird", ["legs", "wings", "eyes"]), ("dog", ["legs", "ears", "eyes"]),
    ("cat", ["legs", "ears", "whiskers"]), ("car", ["wheels", "doors", "seats"]),
    ("bicycle", ["wheels", "pedals", "brakes"]), ("spider", ["legs", "eyes", "fangs"]),
    ("insect", ["legs", "wings", "antennae"]), ("human", ["hands", "lungs", "kidneys"]),
    ("triangle", ["sides", "angles", "corners"]), ("square", ["sides", "corners", "edges"]),
    ("octopus", ["arms", "hearts", "eyes"]), ("tricycle", ["wheels", "pedals", "seats"]),
    ("table", ["legs", "corners", "drawers"]), ("horse", ["legs", "hooves", "eyes"]),
    ("hand", ["fingers", "thumbs", "knuckles"]), ("cow", ["stomachs", "legs", "teats"]),
    ("ant", ["legs", "antennae", "segments"]), ("guitar", ["strings", "pegs", "frets"]),
    ("violin", ["strings", "pegs", "bows"]), ("die", ["faces", "sides", "corners"]),
    ("person", ["eyes", "ears", "arms"]), ("fish", ["fins", "gills", "eyes"]),
    ("snake", ["legs", "fangs", "eyes"]), ("starfish", ["arms", "eyes", "legs"]),
    ("bee", ["wings", "legs", "eyes"]), ("truck", ["wheels", "axles", "doors"]),
    ("chair", ["legs", "arms", "backs"]), ("hexagon", ["sides", "angles", "vertices"]),
    ("beetle", ["legs", "wings", "antennae"]), ("crab", ["legs", "claws", "eyes"]),
]
ADJECTIVES = ["healthy", "young", "small", "wild", "typical", "adult", "common", "large",
              "normal", "ordinary", "grown", "little"]
TEMPLATES = [
    "a {adj} {noun} has <mask> {part} .",
    "a {adj} {noun} usually has <mask> {part} .",
    "in general, a {adj} {noun} has <mask> {part} .",
    "look at the {adj} {noun}. it has <mask> {part} .",
    "<mask> {part} are found on a {adj} {noun} .",
    "every {adj} {noun} has <mask> {part}, as you can see .",
    "if it is healthy, a {adj} {noun} has <mask> {part} .",
    "there are <mask> {part} on a {adj} {noun} .",
    "a {adj} {noun} can have <mask> {part} in total .",
    "you can count <mask> {part} on a {adj} {noun} .",
    "according to the book, a {adj} {noun} has <mask> {part} .",
    "a {adj} {noun} (like most others) has <mask> {part} .",
    "<mask> of the {part} of a {adj} {noun} are visible .",
    "when it is fully grown, a {adj} {noun} that lives in the wild has <mask> {part}, which "
    "help it to move around in most parts of the world .",
    "the {noun} is {adj}. as far as we know, it has <mask> {part}, and it uses all of them .",
    "a {adj} {noun} typically has about <mask> {part} on each side of its body .",
]


def generate_probes(count: int, seed: int) -> list[str]:
    """count probes, one <mask> each: templates x nouns x adjectives in a seeded order."""
    rng = random.Random(seed)
    combos = list(itertools.product(TEMPLATES, NOUNS, ADJECTIVES))
    rng.shuffle(combos)
    probes = []
    for template, (noun, parts), adjective in itertools.islice(itertools.cycle(combos), count):
        probes.append(template.format(adj=adjective, noun=noun, part=rng.choice(parts)))
    return probes


def fill_sentences(probes: Sequence[str], per_probe: int = SENTENCES_PER_PROBE) -> list[str]:
    """Fine-tuning sentences: each probe per_probe times, its mask filled by a number word."""
    from reprobe.numersense.candidates import CANDIDATES
    from reprobe.numersense.probes import MASK

    return [probe.replace(MASK, CANDIDATES[(index * per_probe + k) % len(CANDIDATES)])
            for index, probe in enumerate(probes) for k in range(per_probe)]


# --- the tokenizer and the model --------------------------------------------------------------


def build_tokenizer(probes: Sequence[str], folder: Path) -> Any:
    """A lowercasing WordPiece tokenizer read from a vocab.txt written into folder."""
    from transformers import BertConfig, BertTokenizerFast

    size = BertConfig().vocab_size
    vocab, _ = vocabulary(probes, size)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    # from_pretrained reads vocab.txt in transformers 4 and 5 (5 ignores `vocab_file=`).
    tokenizer = BertTokenizerFast.from_pretrained(str(folder), do_lower_case=True,
                                                  model_max_length=512)
    if len(tokenizer) != size:
        raise SystemExit(f"the tokenizer has {len(tokenizer)} tokens, not {size}")
    return tokenizer


def build_model(tokenizer: Any, seed: int, tiny: bool) -> Any:
    """A random BertForMaskedLM (bert-base, or a 2-layer one with tiny), candidates' biases up."""
    import torch
    from transformers import BertConfig, BertForMaskedLM

    from reprobe.numersense.candidates import candidate_ids

    config = BertConfig()
    if tiny:  # only for the CPU test: the vocabulary (so the tokenizer) stays bert-base's
        config = BertConfig(hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                            intermediate_size=128)
    torch.manual_seed(seed)
    model = BertForMaskedLM(config)
    with torch.no_grad():
        ids = list(candidate_ids(tokenizer).values())
        model.get_output_embeddings().bias[ids] += CANDIDATE_BIAS
    return model.eval()


# --- timing -----------------------------------------------------------------------------------


@dataclass
class Row:
    """One line of the report."""

    measurement: str
    device: str
    precision: str
    count: int
    seconds: float | None = None
    unit: str = "probes/s"
    note: str = ""

    def cells(self) -> list[str]:
        """The row's Markdown cells."""
        seconds = "" if self.seconds is None else f"{self.seconds:.2f}"
        rate = "" if self.seconds is None else f"{self.count / self.seconds:,.1f} {self.unit}"
        return [self.measurement, self.device, self.precision, f"{self.count:,}", seconds, rate,
                self.note]


def synchronize(device: str) -> None:
    """Wait for the device's queued work (CUDA); nothing on the CPU."""
    import torch

    if torch.device(device).type == "cuda":
        torch.cuda.synchronize(device)


def timed(device: str, call: Callable[[], Any]) -> tuple[float, Any]:
    """Wall seconds of call(), synchronized before and after, and its result."""
    synchronize(device)
    start = time.perf_counter()
    result = call()
    synchronize(device)
    return time.perf_counter() - start, result


def verdict(met: bool) -> str:
    """The word a target gets."""
    return "met" if met else "NOT met"


def scorers() -> dict[str, Callable[..., list]]:
    """The two protocols' scorers by the name the report gives them."""
    from reprobe.numersense.authors import score_probes_authors
    from reprobe.numersense.mlm import score_probes

    return {"authors (score_probes_authors)": score_probes_authors,
            "clean (mlm.score_probes)": score_probes}


def scorer_rows(run: Callable[[Sequence[str], int], list], name: str, label: str,
                bounded: bool, probes: Sequence[str], batch_size: int, device: str) -> list[Row]:
    """One scorer in one precision: one at a time, batched (speed-up), their largest diff."""
    print(f"{name}, {label}: warming up, then timing ...", file=sys.stderr, flush=True)
    run(probes[:batch_size], batch_size)
    run(probes[:8], 1)
    one_s, one = timed(device, lambda: run(probes, 1))
    batched_s, batched = timed(device, lambda: run(probes, batch_size))
    speedup = one_s / batched_s
    difference = agreement(one, batched)["max_abs_difference"]
    bound = (f" (< {FP32_BOUND:.0e}: {verdict(difference < FP32_BOUND)})" if bounded
             else f" (no bound under {label})")
    rows = [
        Row(f"{name}, one at a time (batch 1)", device, label, len(probes), one_s),
        Row(f"{name}, batched (batch {batch_size})", device, label, len(probes), batched_s,
            note=f"{speedup:.1f}x (target >= {TARGET_SPEEDUP:.0f}x: "
                 f"{verdict(speedup >= TARGET_SPEEDUP)})"),
        Row(f"{name}, max abs score diff, batched vs one at a time", device, label,
            len(probes), note=f"{difference:.1e}{bound}"),
    ]
    for row in rows:  # so that a run cut short still shows what it measured
        print("  " + " | ".join(row.cells()), file=sys.stderr, flush=True)
    return rows


def probe_rows(model: Any, tokenizer: Any, probes: Sequence[str], batch_size: int,
               device: str) -> list[Row]:
    """scorer_rows for both scorers, in float32 then under bf16 autocast."""
    rows = []
    for (name, score), (label, precision) in itertools.product(scorers().items(),
                                                              PRECISIONS.items()):
        run = functools.partial(score, model, tokenizer, device=device, precision=precision)
        rows += scorer_rows(lambda chosen, batch, run=run: run(chosen, batch), name, label,
                            precision is None, probes, batch_size, device)
    return rows


def finetune_row(model: Any, tokenizer: Any, sentences: Sequence[str], folder: Path,
                 device: str, batch_size: int, max_length: int) -> Row:
    """One epoch of the authors' fine-tuning from the model saved into folder, timed."""
    from reprobe.numersense.finetune import finetune_masked_lm
    from reprobe.numersense.finetune_settings import FinetuneSettings
    from reprobe.step_settings import settings_from_schema

    base = folder / "base"
    model.save_pretrained(str(base))
    tokenizer.save_pretrained(str(base))
    print(f"fine-tuning one epoch on {len(sentences):,} sentences ...", file=sys.stderr,
          flush=True)
    settings = settings_from_schema(FinetuneSettings, "numersense.finetune",
                                    procedure="authors", epochs=1, batch_size=batch_size,
                                    max_length=max_length)
    wall, summary = timed(device, lambda: finetune_masked_lm(
        base, sentences, folder / "tuned", settings, device=device))
    return Row(f"fine-tuning, 1 epoch (authors procedure, batch {batch_size}, max_length "
               f"{max_length})", device, "fp32", int(summary["examples"]),
               float(summary["seconds"]), unit="examples/s",
               note=f"whole call with load and save {wall:.1f} s; mean loss "
                    f"{summary['losses'][0]:.3f}")


# --- the report -------------------------------------------------------------------------------


def accelerator(device: str) -> str:
    """The GPU's name on CUDA, else the CPU model."""
    import torch

    if torch.device(device).type == "cuda":
        return torch.cuda.get_device_name(torch.device(device))
    return harness.cpu_model()


def report(rows: Sequence[Row], args: argparse.Namespace, argv: list[str] | None,
           seconds: float) -> str:
    """The Markdown block: where and what ran, then the table."""
    import torch
    import transformers

    command = shlex.join(["bash", "benchmarks/gpu_check.sh",
                          *(sys.argv[1:] if argv is None else argv)])
    lines = harness.provenance(command, harness.now(), harness.machine())
    model = "2-layer tiny BERT (test only)" if args.tiny else "bert-base architecture"
    lines += ["", f"torch {torch.__version__}, transformers {transformers.__version__}; "
              f"device `{args.device}`: {accelerator(args.device)}. Model: {model}, random "
              f"weights (seed {args.seed}); generated probes; {seconds:.0f} s in all.", "",
              harness.markdown_table(("measurement", "device", "precision", "probes / examples",
                                      "seconds", "rate", "ratio / diff"),
                                     [row.cells() for row in rows], align="lllrrrl")]
    return "\n".join(lines) + "\n"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(prog="benchmarks/gpu_check.sh", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="cuda", help="torch device (default cuda)")
    parser.add_argument("--limit", type=harness.positive_int, metavar="N",
                        help=f"only the first N probes and N*{SENTENCES_PER_PROBE} sentences")
    parser.add_argument("--out", type=Path, metavar="FILE", help="also write the Markdown here")
    parser.add_argument("--batch-size", type=harness.positive_int, default=128,
                        help="batch size of the batched scoring (default 128)")
    parser.add_argument("--seed", type=int, default=0, help="seed of probes and weights")
    parser.add_argument("--tiny", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Build everything offline, time scoring and fine-tuning, print (and write) the table."""
    args = parse_args(argv)
    import torch
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # saving and loading the model: no bars in the log
    start = time.perf_counter()
    if torch.device(args.device).type == "cuda" and not torch.cuda.is_available():
        raise SystemExit(f"--device {args.device}: CUDA is not available to torch "
                         f"{torch.__version__}")
    probes = generate_probes(PROBES, args.seed)[:args.limit or PROBES]
    sentences = fill_sentences(probes)
    with tempfile.TemporaryDirectory(prefix="numersense-gpu-check-") as temp:
        folder = Path(temp)
        tokenizer = build_tokenizer(probes, folder / "vocab")
        model = build_model(tokenizer, args.seed, args.tiny)
        rows = probe_rows(model, tokenizer, probes, args.batch_size, args.device)
        rows.append(finetune_row(model, tokenizer, sentences, folder, args.device, 64, 64))
    block = report(rows, args, argv, time.perf_counter() - start)
    print(block)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(block, encoding="utf-8")


if __name__ == "__main__":
    main()
