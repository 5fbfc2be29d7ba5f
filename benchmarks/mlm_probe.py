#!/usr/bin/env python3
"""NumerSense masked-LM probing: batched scoring beside one probe at a time, same model, one run.

Both runs call the workflow's scorer, `reprobe.numersense.mlm.score_probes`: once with
--batch-size (length-sorted batches, right-padded) and once with batch size 1
(`score_one_by_one`: one probe per forward pass, the authors' pace). Each run is timed from
the call to the ranked candidates (tokenizing included), after an untimed warm-up of both.

The model: `BertForMaskedLM(BertConfig())`, bert-base-uncased's architecture (12 layers, hidden
768, 12 heads, vocabulary 30,522), with random weights drawn after `torch.manual_seed(--seed)`;
the speed of a forward pass does not depend on the weights. The 12 candidates' output biases are
raised by 8, so that they hold most of the probability mass at the mask as in a trained model:
the agreement check then compares scores near 0.1, not near 1/30,522 (it changes no cost).

The tokenizer: a BERT WordPiece tokenizer (lowercasing, BERT's punctuation splitting) over a
vocabulary written here, with nothing downloaded: the special tokens, every character as a word
start and as a `##` continuation, the 12 number words, then the words of the probes by frequency
(so, as with bert-base-uncased's vocabulary, almost every word of a probe is one token), padded
with `[unusedN]` entries to bert-base's 30,522 tokens. The vocabulary is padded, not the config
shrunk: the softmax over the vocabulary at every position costs what it costs bert-base.

The probes: 3,146 NumerSense-like probes (the size of the released `test.all.masked.txt`)
generated from templates with --seed ("a bird usually has <mask> legs .", clauses appended to
reach 5-40 words, mostly short, about 1.5% beginning with the mask), or the probes of a released
file with --probes FILE (read with `reprobe.numersense.probes.read_masked_txt`).

One probe at a time is slow (about 0.1 s a probe for bert-base on 2 cores), so --limit N times
it on the first N probes only. probes/s is a rate, so a subset measures it fairly; batched
scoring is then timed twice, on all the probes and on the same first N, and the ratio is taken
on the same N probes (equal footing); the all-probes ratio is shown beside it, marked as
extrapolated. The generated probes are drawn independently, so their first N are a fair
sample; the released file's first N are not necessarily (its order is the release's).
On the probes both runs scored, every candidate's score must agree within 1e-4 (else the script
fails); identical rankings and top-1 words are counted.

It prints a Markdown block ready for docs/benchmarks.md; --update-readme writes it between the
`<!-- mlm-probe:begin -->` and `<!-- mlm-probe:end -->` markers of the README's "NumerSense
masked-LM probing" section.

    python benchmarks/mlm_probe.py --limit 300 --threads 2 --update-readme
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import string
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

# Set before transformers or huggingface_hub is imported: they read it at import time.
os.environ.setdefault("HF_HUB_OFFLINE", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

SECTION = "mlm-probe"  # the README's markers: <!-- mlm-probe:begin --> ... :end -->
RELEASED_ALL = 3146  # probes in the released test.all.masked.txt
BERT_BASE_VOCAB = 30522
TOLERANCE = 1e-4  # largest difference of a candidate's score between the two runs
CANDIDATE_BIAS = 8.0
SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")

# --- the probes -------------------------------------------------------------------------------

# (singular, plural, parts it has a number of)
THINGS = [
    ("bird", "birds", ["legs", "wings", "eyes"]),
    ("dog", "dogs", ["legs", "ears", "eyes"]),
    ("cat", "cats", ["legs", "ears", "whiskers"]),
    ("car", "cars", ["wheels", "doors", "seats"]),
    ("bicycle", "bicycles", ["wheels", "pedals", "brakes"]),
    ("spider", "spiders", ["legs", "eyes", "fangs"]),
    ("insect", "insects", ["legs", "wings", "antennae"]),
    ("human", "humans", ["hands", "lungs", "kidneys"]),
    ("triangle", "triangles", ["sides", "angles", "corners"]),
    ("square", "squares", ["sides", "corners", "edges"]),
    ("week", "weeks", ["days", "weekends", "mondays"]),
    ("octopus", "octopuses", ["arms", "hearts", "eyes"]),
    ("tricycle", "tricycles", ["wheels", "pedals", "seats"]),
    ("table", "tables", ["legs", "corners", "drawers"]),
    ("horse", "horses", ["legs", "hooves", "eyes"]),
    ("hand", "hands", ["fingers", "thumbs", "knuckles"]),
    ("cow", "cows", ["stomachs", "legs", "teats"]),
    ("ant", "ants", ["legs", "antennae", "segments"]),
    ("guitar", "guitars", ["strings", "pegs", "frets"]),
    ("violin", "violins", ["strings", "pegs", "bows"]),
    ("die", "dice", ["faces", "sides", "corners"]),
    ("person", "people", ["eyes", "ears", "arms"]),
    ("fish", "fish", ["fins", "gills", "eyes"]),
    ("snake", "snakes", ["legs", "fangs", "eyes"]),
    ("starfish", "starfish", ["arms", "eyes", "legs"]),
    ("bee", "bees", ["wings", "legs", "eyes"]),
]
ADVERBS = ["", "", "usually", "typically", "often", "normally", "always", "generally"]
CORES = [
    "a {s} {adv} has <mask> {part}", "{p} {adv} have <mask> {part}",
    "there are <mask> {part} on a {s}", "a {s} can have <mask> {part}",
    "most {p} have <mask> {part}", "every {s} has <mask> {part}",
    "a typical {s} has about <mask> {part}", "you will find <mask> {part} on most {p}",
]
MASK_FIRST = [
    "<mask> {p} can sit on a bench", "<mask> {part} are on a {s}",
    "<mask> {p} are needed to play this game", "<mask> of the {p} have {part}",
]
CLAUSES = [
    "and a {s} has {num} {part}", "when it is fully grown", "if it is healthy",
    "but some {p} have {num}", "which help it to move around", "in most parts of the world",
    "according to the book about {p}", "so it can walk and run", "that are small and thin",
    "because of the way {p} evolved over time", "on each side of its body",
    "even when it is very young", "unlike a {s} , which has {num} {part}",
    "as you can see in the picture of the {s}", "in the wild and in the zoo",
    "while it is sleeping", "and all of them are different colors",
]
NUMBERS = ["two", "three", "four", "five", "six", "eight", "ten"]


def _fill(template: str, rng: random.Random) -> str:
    """A template with a random thing, its plural, one of its parts, an adverb and a number."""
    singular, plural, parts = rng.choice(THINGS)
    text = template.format(s=singular, p=plural, part=rng.choice(parts), adv=rng.choice(ADVERBS),
                           num=rng.choice(NUMBERS))
    return " ".join(text.split())


def target_words(rng: random.Random) -> int:
    """A probe's length in words: mostly 6-14, a tail up to 40 (the released set's shape)."""
    draw = rng.random()
    if draw < 0.70:
        return rng.randint(6, 14)
    if draw < 0.95:
        return rng.randint(15, 25)
    return rng.randint(26, 40)


def generate_probes(count: int, seed: int) -> list[str]:
    """NumerSense-like probes, one mask each, 5-40 words, about 1.5% beginning with the mask."""
    rng = random.Random(seed)
    initial = set(rng.sample(range(count), round(count * 0.015)))
    probes = []
    for index in range(count):
        words = _fill(rng.choice(MASK_FIRST if index in initial else CORES), rng).split()
        want = max(target_words(rng), len(words))
        for _ in range(20):  # clauses that still fit, until the length is reached
            if len(words) >= want:
                break
            clause = _fill(rng.choice(CLAUSES), rng).split()
            cap = 40 if len(words) < 5 else min(want + 2, 40)  # never under 5 words
            if len(words) + len(clause) <= cap:
                words += clause
        probes.append(" ".join(words) + " .")
    return probes


# --- the tokenizer and the model --------------------------------------------------------------


def vocabulary(probes: Sequence[str], size: int = BERT_BASE_VOCAB) -> tuple[list[str], int]:
    """The WordPiece vocabulary, padded with [unusedN] to `size`; and how many entries are real."""
    from tokenizers import normalizers, pre_tokenizers

    from reprobe.numersense.candidates import CANDIDATES
    from reprobe.numersense.probes import MASK

    normalizer = normalizers.BertNormalizer(lowercase=True)
    pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    counts: Counter[str] = Counter()
    for probe in probes:
        text = normalizer.normalize_str(probe.replace(MASK, " "))
        counts.update(word for word, _ in pre_tokenizer.pre_tokenize_str(text))
    chars = sorted({ch for word in counts for ch in word}
                   | set(string.ascii_lowercase + string.digits + string.punctuation))
    head = list(dict.fromkeys([*SPECIALS, *chars, *(f"##{ch}" for ch in chars), *CANDIDATES]))
    # Most frequent words first (ties by spelling); a word left out splits into pieces.
    words = [w for w in sorted(counts, key=lambda w: (-counts[w], w)) if w not in head]
    real = head + words[:max(0, size - len(head))]
    return real + [f"[unused{i}]" for i in range(size - len(real))], len(real)


def build_tokenizer(vocab: Sequence[str]) -> Any:
    """A BERT WordPiece tokenizer (lowercasing) over the vocabulary, built offline."""
    from transformers import BertTokenizer

    return BertTokenizer(vocab={token: i for i, token in enumerate(vocab)}, do_lower_case=True,
                         model_max_length=512)


def build_model(tokenizer: Any, seed: int) -> Any:
    """bert-base's masked-LM architecture with random weights; candidates' biases raised."""
    import torch
    from transformers import BertConfig, BertForMaskedLM

    from reprobe.numersense.candidates import candidate_ids

    config = BertConfig()  # bert-base-uncased: 12 layers, hidden 768, 12 heads, vocab 30,522
    if config.vocab_size != len(tokenizer):
        raise SystemExit(f"the tokenizer has {len(tokenizer)} tokens, the config "
                         f"{config.vocab_size}")
    torch.manual_seed(seed)
    model = BertForMaskedLM(config)
    with torch.no_grad():
        for sentence_start in (False, True):
            ids = list(candidate_ids(tokenizer, sentence_start=sentence_start).values())
            model.get_output_embeddings().bias[ids] += CANDIDATE_BIAS
    return model.eval()


# --- timing -----------------------------------------------------------------------------------


@dataclass
class Run:
    """One timed scoring run."""

    tool: str
    label: str
    probes: int
    batch_size: int
    multiply_adds: int
    wall_s: float = 0.0
    cpu_s: float = 0.0

    @property
    def gflops(self) -> float:
        """Floating-point operations of the matrix products (2 a multiply-add), per wall s."""
        return 2 * self.multiply_adds / self.wall_s / 1e9

    @property
    def probes_per_s(self) -> float:
        """Probes scored per wall second."""
        return self.probes / self.wall_s


def cpu_seconds() -> float:
    """User + system seconds of this process, all its threads."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(run: Run, score: Any) -> tuple[Run, list]:
    """Call score(), filling in the run's wall and CPU seconds; the run and the rankings."""
    cpu0, start = cpu_seconds(), time.perf_counter()
    ranked = score()
    run.wall_s, run.cpu_s = time.perf_counter() - start, cpu_seconds() - cpu0
    return run, ranked


def token_lengths(tokenizer: Any, probes: Sequence[str]) -> list[int]:
    """Each probe's length in tokens as the scorer encodes it, [CLS] and [SEP] included."""
    from reprobe.numersense.mlm import model_text

    return [len(ids) for ids in tokenizer(
        [model_text(p, tokenizer.mask_token) for p in probes])["input_ids"]]


def padded_tokens(lengths: Sequence[int], batch_size: int) -> int:
    """Tokens the model computes, padding included, in the scorer's length-sorted batches."""
    from reprobe.numersense.mlm import length_sorted_batches

    return sum(max(lengths[i] for i in batch) * len(batch)
               for batch in length_sorted_batches(lengths, batch_size))


def multiply_adds(config: Any, lengths: Sequence[int], batch_size: int,
                  head_everywhere: bool) -> int:
    """Multiply-adds of the forward passes (matrix products only), padding included."""
    from reprobe.numersense.mlm import length_sorted_batches

    hidden, layers = config.hidden_size, config.num_hidden_layers
    # Per token: Q, K, V and output projections, the feed-forward pair. The MLM head (its
    # transform and the projection onto the vocabulary) runs at every position in the released
    # protocol, at the mask only in the batched scorer.
    per_token = layers * (4 * hidden * hidden + 2 * hidden * config.intermediate_size)
    head = hidden * hidden + hidden * config.vocab_size
    total = 0
    for batch in length_sorted_batches(lengths, batch_size):
        width = max(lengths[i] for i in batch)
        # Attention: scores and the weighted sum, width x width x hidden each, per layer.
        total += len(batch) * width * (per_token + layers * 2 * width * hidden)
        total += len(batch) * head * (width if head_everywhere else 1)
    return total


def agreement(reference: Sequence, other: Sequence) -> dict:
    """Largest score difference, identical rankings and equal top-1 words over the probes."""
    differences, identical, top1 = [0.0], 0, 0
    for first, second in zip(reference, other, strict=True):
        scores = dict(second)
        differences += [abs(score - scores[word]) for word, score in first]
        identical += [w for w, _ in first] == [w for w, _ in second]
        top1 += first[0][0] == second[0][0]
    return {"probes": len(reference), "max_abs_difference": max(differences),
            "identical_rankings": identical, "same_top1": top1}


# --- reporting --------------------------------------------------------------------------------


def markdown(runs: dict[str, Run], checks: list[tuple[str, dict]], ratios: list[tuple],
             facts: dict, provenance: list[str]) -> str:
    """The figures as a Markdown block for the README."""
    rows = [(run.label, f"{run.probes:,}", str(run.batch_size), f"{run.wall_s:.1f}",
             f"{run.cpu_s:.1f}", f"{run.probes_per_s:.1f}", f"{run.wall_s / run.probes * 1000:.0f}",
             f"{run.gflops:.1f}") for run in runs.values()]
    lines = [
        *provenance,
        "",
        f"Model: `BertForMaskedLM(BertConfig())` (bert-base-uncased's architecture, 12 layers, "
        f"hidden 768, vocabulary {BERT_BASE_VOCAB:,}), random weights (seed {facts['seed']}), "
        f"{facts['device']}, float32, {facts['threads']} torch thread(s). Tokenizer: WordPiece "
        f"over {facts['real_vocab']:,} real entries padded with `[unusedN]` to "
        f"{BERT_BASE_VOCAB:,}. Probes: {facts['source']}, {facts['probes']:,} probes, "
        f"{facts['min_words']}-{facts['max_words']} words (mean {facts['mean_words']:.1f}), "
        f"{facts['initial']} beginning with the mask; {facts['mean_tokens']:.1f} tokens a probe "
        f"on average with [CLS] and [SEP]; length-sorted batches of {facts['batch_size']} add "
        f"{facts['padding'] * 100:.1f}% padding tokens. Each run ran {facts['repeat']} time(s), "
        f"round-robin, after an untimed warm-up; the least wall and CPU seconds are shown. "
        f"GFLOP/s: the matrix products' floating-point operations (padding included; "
        f"{facts['gflop_per_probe']:.2f} GFLOP a probe unpadded, "
        f"{facts['head_share'] * 100:.0f}% of it the vocabulary projection at every position, "
        f"which the batched scorer computes at the mask only) per wall second.",
        "",
        harness.markdown_table(("run", "probes", "batch", "wall s", "CPU s", "probes/s",
                                "ms a probe", "GFLOP/s"), rows),
        "",
        harness.markdown_table(("ratio of probes/s", "value", "target"), ratios),
        "",
    ]
    for name, check in checks:
        lines.append(
            f"Agreement, {name}, on the {check['probes']:,} probes both scored: largest "
            f"difference of a candidate's score {check['max_abs_difference']:.1e} (tolerance "
            f"{TOLERANCE:.0e}); identical rankings {check['identical_rankings']:,}/"
            f"{check['probes']:,}; same top-1 word {check['same_top1']:,}/{check['probes']:,}.")
    return "\n".join(lines) + "\n"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = harness.new_parser(__doc__)
    parser.add_argument("--probes", type=Path, metavar="FILE",
                        help="score the probes of a released `*.masked.txt` file instead of "
                             f"{RELEASED_ALL:,} generated ones")
    parser.add_argument("--count", type=harness.positive_int, default=RELEASED_ALL,
                        help=f"generated probes (default {RELEASED_ALL:,}, as test.all)")
    parser.add_argument("--limit", type=harness.positive_int, metavar="N",
                        help="time one probe at a time on the first N probes only (batched "
                             "scoring is then timed on all probes and on the same N)")
    parser.add_argument("--batch-size", type=harness.positive_int, default=64,
                        help="batch size of the batched run (default 64)")
    parser.add_argument("--threads", type=harness.positive_int,
                        default=len(os.sched_getaffinity(0)),
                        help="torch threads (default: every core this process may use)")
    parser.add_argument("--device", default="cpu", help="torch device (default cpu)")
    parser.add_argument("--seed", type=int, default=0, help="seed of probes and weights")
    harness.add_report_options(parser, noun="scoring run",
                               keeps="the least wall and CPU seconds",
                               json_help="also write every figure as JSON here", section=SECTION)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Build the model and probes, time both scorers, check them, print (and store) figures."""
    args = parse_args(argv)
    import torch

    from reprobe.numersense.candidates import mask_at_start
    from reprobe.numersense.mlm import score_one_by_one, score_probes
    from reprobe.numersense.probes import read_masked_txt

    torch.set_num_threads(args.threads)
    provenance = harness.provenance(
        harness.command_line("benchmarks/mlm_probe.py", argv), harness.now(), harness.machine(),
        f"; torch {torch.__version__}, {args.threads} thread(s)")
    if args.probes:
        probes, source = read_masked_txt(args.probes), f"`{args.probes.name}`"
    else:
        probes = generate_probes(args.count, args.seed)
        source = f"generated (seed {args.seed})"
    limit = min(args.limit or len(probes), len(probes))
    subset = probes[:limit]
    vocab, real = vocabulary(probes)
    tokenizer = build_tokenizer(vocab)
    model = build_model(tokenizer, args.seed)
    word_counts = [len(p.replace(" .", "").split()) for p in probes]
    lengths = token_lengths(tokenizer, probes)
    config = model.config
    unpadded = multiply_adds(config, lengths, 1, head_everywhere=True)
    facts = {"seed": args.seed, "device": args.device, "threads": args.threads,
             "real_vocab": real, "source": source, "probes": len(probes),
             "min_words": min(word_counts), "max_words": max(word_counts),
             "mean_words": sum(word_counts) / len(word_counts),
             "initial": sum(map(mask_at_start, probes)),
             "mean_tokens": sum(lengths) / len(lengths), "batch_size": args.batch_size,
             "padding": padded_tokens(lengths, args.batch_size) / sum(lengths) - 1,
             "repeat": args.repeat, "limit": limit,
             "gflop_per_probe": 2 * unpadded / len(probes) / 1e9,
             "head_share": sum(lengths) * config.hidden_size * config.vocab_size / unpadded}

    print(f"{len(probes):,} probes ({source}); one at a time on {limit:,}; warming up ...",
          file=sys.stderr, flush=True)
    score_one_by_one(model, tokenizer, probes[:4], args.device)
    score_probes(model, tokenizer, probes[:args.batch_size], args.batch_size, args.device)

    tag = f"first {limit:,}" if limit < len(probes) else f"all {len(probes):,}"
    plan = {"batched-all": (f"batched, all {len(probes):,}", probes, args.batch_size)}
    if limit < len(probes):
        plan["batched-subset"] = (f"batched, {tag}", subset, args.batch_size)
    plan["one-at-a-time"] = (f"one at a time (the authors' pace), {tag}", subset, 1)
    rankings: dict[str, list] = {}

    def run_one(tool: str) -> Run:
        label, chosen, batch = plan[tool]
        work = multiply_adds(config, lengths[:len(chosen)], batch, head_everywhere=batch == 1)
        run, ranked = timed(Run(tool, label, len(chosen), batch, work), lambda: (
            score_one_by_one(model, tokenizer, chosen, args.device) if batch == 1 else
            score_probes(model, tokenizer, chosen, batch, args.device)))
        rankings.setdefault(tool, ranked)
        return run

    every = harness.round_robin(list(plan), args.repeat, run_one,
                                lambda run: f"{run.wall_s:.1f} s, {run.probes_per_s:.1f} probes/s")
    runs = {tool: harness.best_of(every[tool]) for tool in plan}

    one = runs["one-at-a-time"]
    checks = [(f"batched ({'all' if limit == len(probes) else 'all, its ' + tag}) vs one at a "
               "time", agreement(rankings["one-at-a-time"], rankings["batched-all"][:limit]))]
    if "batched-subset" in runs:
        checks.append((f"batched ({tag}) vs one at a time",
                       agreement(rankings["one-at-a-time"], rankings["batched-subset"])))
    same = runs.get("batched-subset", runs["batched-all"])
    ratio = same.probes_per_s / one.probes_per_s
    verdict = f"target >= 10: {'met' if ratio >= 10 else 'not met'}"
    ratios = [(f"batched / one at a time, same {tag} probes (equal footing)", f"{ratio:.2f}",
               verdict)]
    if "batched-subset" in runs:
        ratios.append((f"batched on all {len(probes):,} / one at a time on the {tag} "
                       "(extrapolated: rates on different sets)",
                       f"{runs['batched-all'].probes_per_s / one.probes_per_s:.2f}", ""))
    block = markdown(runs, checks, ratios, facts, provenance)
    data = {"facts": facts, "runs": [{**asdict(r), "probes_per_s": r.probes_per_s,
                                      "gflops": r.gflops}
                                     for r in runs.values()],
            "ratio_same_probes": ratio, "target": 10, "agreement": dict(checks)}
    print(block)
    worst = max(check["max_abs_difference"] for _, check in checks)
    if worst > TOLERANCE:  # nothing is stored from a run whose two scorers disagree
        raise SystemExit(f"batched and one-at-a-time scores differ by {worst:.2e} > {TOLERANCE}")
    harness.save(args, SECTION, block, data, indent=2)


if __name__ == "__main__":
    main()
