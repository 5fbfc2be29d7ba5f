#!/usr/bin/env python3
"""WIKI-PSE SSKIP (reprobe.wikipse.embedding.sskip, numba) beside gensim's skip-gram: words/s.

Both train on the same corpus in one process, one run at a time, with the paper's settings
(window 5, 10 negatives, sample 1e-3, alpha 0.025, min count 5) at --dim, once per thread count
(--threads, default 1 and 2): SSKIP is `reprobe.wikipse.embedding.sskip.train_sskip`, SKIP is
gensim's `Word2Vec(sg=1, hs=0, negative=10)` in `corpus_file` mode (what the stage runs for
SKIP). Each run is timed from the corpus file to the vectors in memory, vocabulary pass
included, with words/s = corpus words x epochs / wall seconds; CPU seconds are the process's
(all threads). numba compiles SSKIP's kernels on first use (or loads them from its cache):
an untimed warm-up on a tiny corpus runs first, so compile time is not counted.

Corpora (--corpus, one or both; built once, cached under --work-dir):
  lee   gensim's shipped `lee_background.cor` (300 news articles, one a line) repeated to
        --tokens words, as benchmarks/embeddings.py builds it: a real word distribution, but
        only ~10,800 types at min count 5 however long, so the matrices stay small.
  zipf  --tokens words in sentences of 5-40 words drawn from a Zipf law (exponent 1) over
        --zipf-types types (seeded): ~52,000 types at min count 5 for 3 M words and more for
        longer corpora, as in Wikipedia, so SSKIP's output matrices (10 x the input matrix at
        window 5) outgrow the CPU caches.

SSKIP uses every offset of the window, skip-gram a window shrunk at random to 1..5 per word,
so SSKIP makes more pair updates per word: the expected ratio is computed from the corpus's
sentence lengths (before subsampling) and printed beside the words/s ratio. The target is an
SSKIP/SKIP words/s ratio of at least 0.4 per thread count.

From the 1-thread words/s the report estimates the paper's 16 embedding runs (SKIP and SSKIP,
word and word/S-class corpora, dimensions 100-400, 5 epochs, ~550 M tokens each) on 32 cores,
scaling words/s linearly with threads and inversely with the dimension (both optimistic).

It prints a Markdown block; --update-readme writes it between the `<!-- sskip:begin -->` and
`<!-- sskip:end -->` markers of docs/benchmarks.md's SSKIP section.

    python benchmarks/sskip.py --corpus lee zipf --tokens 4000000 --update-readme
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from embeddings import build_corpus as build_lee  # noqa: E402

SECTION = "sskip"  # the README's markers: <!-- sskip:begin --> ... :end -->
TARGET = 0.4  # SSKIP words/s at least this share of SKIP's, per thread count
WINDOW, NEGATIVE, MIN_COUNT = 5, 10, 5
ALPHA, SAMPLE = 0.025, 1e-3  # word2vec's, given to both trainers alike
PAPER = {"tokens": 550_000_000, "epochs": 5, "dims": (100, 200, 300, 400), "corpora": 2,
         "cores": 32}


@dataclass
class Run:
    """One timed training run."""

    tool: str  # "sskip" or "skip"
    corpus: str
    threads: int
    words: int
    epochs: int
    wall_s: float
    cpu_s: float
    vocabulary: int

    @property
    def words_per_s(self) -> float:
        """Corpus words x epochs per wall second."""
        return self.words * self.epochs / self.wall_s


# --- corpora ----------------------------------------------------------------------------------


def build_zipf(work: Path, tokens: int, types: int, seed: int) -> tuple[Path, int]:
    """Sentences of 5-40 words drawn from Zipf(1) over `types` types; path and word count."""
    path = work / f"zipf-{tokens}-{types}-{seed}.txt"
    if path.is_file():
        return path, sum(len(line.split()) for line in path.open(encoding="utf-8"))
    rng = np.random.default_rng(seed)
    lengths = rng.integers(5, 41, size=tokens // 22 + 1)
    lengths = lengths[:np.searchsorted(np.cumsum(lengths), tokens) + 1]
    weights = 1.0 / np.arange(1, types + 1)
    words = np.searchsorted(np.cumsum(weights / weights.sum()), rng.random(int(lengths.sum())))
    words = np.minimum(words, types - 1)
    work.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("w", encoding="utf-8") as handle:
        for sentence in np.split(words, np.cumsum(lengths)[:-1]):
            handle.write(" ".join(f"w{word}" for word in sentence.tolist()) + "\n")
    temporary.replace(path)
    return path, int(lengths.sum())


def build(name: str, args: argparse.Namespace) -> tuple[Path, int]:
    """The named corpus (lee or zipf) of about --tokens words, built once."""
    if name == "lee":
        return build_lee(args.work_dir, args.tokens)
    return build_zipf(args.work_dir, args.tokens, args.zipf_types, args.seed)


def pairs_per_word(corpus: Path, window: int) -> tuple[float, float]:
    """Expected (centre, context) pairs a word: full window (SSKIP), shrunk at random (SKIP)."""
    lengths = np.array([len(line.split()) for line in corpus.open(encoding="utf-8")])
    lengths = lengths[lengths > 0]

    def pairs(b: int) -> float:
        # Each side of a sentence of L words gives sum over t of min(t, b) pairs.
        side = np.where(lengths <= b, lengths * (lengths - 1) / 2,
                        b * (b - 1) / 2 + b * (lengths - b))
        return float(2 * side.sum() / lengths.sum())

    return pairs(window), float(np.mean([pairs(b) for b in range(1, window + 1)]))


# --- training ---------------------------------------------------------------------------------


def train(tool: str, corpus: Path, threads: int, args: argparse.Namespace) -> int:
    """Train one model on the corpus; its vocabulary size."""
    if tool == "sskip":
        from reprobe.wikipse.embedding.embedding_settings import SSkipConfig
        from reprobe.wikipse.embedding.sskip import train_sskip

        config = SSkipConfig(dim=args.dim, window=WINDOW, negative=NEGATIVE, epochs=args.epochs,
                             min_count=MIN_COUNT, alpha=ALPHA, sample=SAMPLE, workers=threads,
                             seed=args.seed)
        return len(train_sskip(corpus, config))
    from gensim.models import Word2Vec

    model = Word2Vec(vector_size=args.dim, window=WINDOW, min_count=MIN_COUNT, sg=1, hs=0,
                     negative=NEGATIVE, sample=SAMPLE, alpha=ALPHA, seed=args.seed,
                     workers=threads)
    model.build_vocab(corpus_file=str(corpus))
    model.train(corpus_file=str(corpus), total_words=model.corpus_total_words,
                total_examples=model.corpus_count, epochs=args.epochs)
    return len(model.wv)


def timed(tool: str, name: str, corpus: tuple[Path, int], threads: int,
          args: argparse.Namespace) -> Run:
    """One run of a tool on (corpus file, its word count), timed from the file to vectors."""
    gc.collect()
    (path, words), start, cpu = corpus, time.perf_counter(), time.process_time()
    vocabulary = train(tool, path, threads, args)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return Run(tool, name, threads, words, args.epochs, wall, cpu, vocabulary)


def warm_up(args: argparse.Namespace) -> None:
    """Compile (or load) numba's kernels on a tiny corpus, for every thread count."""
    tiny = args.work_dir / "warm-up.txt"
    tiny.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    tiny.write_text("\n".join(" ".join(f"w{w}" for w in rng.integers(0, 50, 12))
                              for _ in range(200)) + "\n", encoding="utf-8")
    for threads in args.threads:
        for tool in ("sskip", "skip"):
            train(tool, tiny, threads, argparse.Namespace(**{**vars(args), "epochs": 1}))


# --- the report -------------------------------------------------------------------------------


def paper_hours(words_per_s: float, dim: int) -> float:
    """Hours of the paper's runs of one model (both corpora, all dims) from words/s at dim."""
    per_core_at_100 = words_per_s * dim / 100
    seconds = sum(PAPER["tokens"] * PAPER["epochs"] * PAPER["corpora"] * d / 100
                  / (per_core_at_100 * PAPER["cores"]) for d in PAPER["dims"])
    return seconds / 3600


def markdown(runs: dict[tuple[str, str, int], Run], facts: dict, provenance: list[str],
             args: argparse.Namespace) -> str:
    """The report: corpora, a table of runs, the ratios per thread count, the paper estimate."""
    lines = [*provenance, ""]
    for name, fact in facts.items():
        lines.append(f"- {name}: {fact['description']}, {fact['words']:,} words, vocabulary "
                     f"{fact['vocabulary']:,} at min count {MIN_COUNT}; expected pairs a word "
                     f"{fact['pairs_sskip']:.2f} (SSKIP, full window) vs {fact['pairs_skip']:.2f}"
                     f" (SKIP, shrunk window): {fact['pairs_sskip'] / fact['pairs_skip']:.2f}x")
    lines += ["", f"All runs: dimension {args.dim}, window {WINDOW}, {NEGATIVE} negatives, sample "
              f"1e-3, {args.epochs} epoch(s); each ran {args.repeat} time(s), round-robin, after "
              "an untimed warm-up; the least wall and CPU seconds are shown.", ""]
    rows = [(name, tool.upper(), str(threads), f"{run.wall_s:.1f}", f"{run.cpu_s:.1f}",
             f"{run.words_per_s:,.0f}") for (name, tool, threads), run in runs.items()]
    lines += [harness.markdown_table(["corpus", "model", "threads", "wall s", "CPU s",
                                      "words/s"], rows), ""]
    ratio_rows = []
    for name, fact in facts.items():
        for threads in args.threads:
            ratio = (runs[name, "sskip", threads].words_per_s
                     / runs[name, "skip", threads].words_per_s)
            ratio_rows.append((name, str(threads), f"{ratio:.2f}",
                               f"{ratio * fact['pairs_sskip'] / fact['pairs_skip']:.2f}",
                               f"target >= {TARGET}: {'met' if ratio >= TARGET else 'not met'}"))
    lines += [harness.markdown_table(["corpus", "threads", "SSKIP / SKIP, words/s",
                                      "SSKIP / SKIP, pair updates/s", "target"], ratio_rows), ""]
    estimate = []
    for name in facts:
        hours = {tool: paper_hours(runs[name, tool, 1].words_per_s, args.dim)
                 for tool in ("sskip", "skip")}
        estimate.append(f"from the {name} corpus: SSKIP {hours['sskip']:.1f} h, SKIP "
                        f"{hours['skip']:.1f} h, {hours['sskip'] + hours['skip']:.1f} h in all")
    lines.append(f"Paper configuration, estimated from the 1-thread words/s (16 runs: 2 models x "
                 f"{PAPER['corpora']} corpora x dimensions {', '.join(map(str, PAPER['dims']))}; "
                 f"{PAPER['epochs']} epochs of {PAPER['tokens'] / 1e6:.0f} M tokens each; "
                 f"{PAPER['cores']} cores; words/s scaled linearly with threads and inversely "
                 f"with dimension): " + "; ".join(estimate) + ".")
    return "\n".join(lines) + "\n"


# --- command line -----------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = harness.new_parser(__doc__)
    parser.add_argument("--corpus", nargs="+", choices=("lee", "zipf"), default=["lee"],
                        help="corpora to train on (default lee)")
    parser.add_argument("--tokens", type=harness.positive_int, default=10_000_000,
                        help="words in each corpus (default 10,000,000)")
    parser.add_argument("--zipf-types", type=harness.positive_int, default=1_000_000,
                        help="word types the Zipf corpus draws from (default 1,000,000)")
    parser.add_argument("--dim", type=harness.positive_int, default=100,
                        help="vector dimension (default 100)")
    parser.add_argument("--epochs", type=harness.positive_int, default=1,
                        help="passes over the corpus (default 1; words/s hardly depends on it)")
    parser.add_argument("--threads", type=harness.positive_int, nargs="+", default=[1, 2],
                        help="thread counts to run each model with (default 1 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of models and Zipf corpus")
    parser.add_argument("--work-dir", type=Path, default=harness.HERE / "work" / "sskip",
                        help="where corpora are cached (default benchmarks/work/sskip)")
    harness.add_report_options(parser, noun="training run",
                               keeps="the least wall and CPU seconds",
                               json_help="also write every figure as JSON here", section=SECTION)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Build the corpora, warm up, time both models per thread count, print (and store)."""
    args = parse_args(argv)
    import gensim
    import numba

    provenance = harness.provenance(
        harness.command_line("benchmarks/sskip.py", argv), harness.now(), harness.machine(),
        f"; numba {numba.__version__}, gensim {gensim.__version__}")
    corpora = {name: build(name, args) for name in args.corpus}
    print("warming up (numba compiles or loads its kernels) ...", file=sys.stderr, flush=True)
    warm_up(args)
    plan = {f"{name}/{tool}/{threads}": (name, tool, threads) for name in corpora
            for threads in args.threads for tool in ("sskip", "skip")}

    def run_one(key: str) -> Run:
        name, tool, threads = plan[key]
        return timed(tool, name, corpora[name], threads, args)

    every = harness.round_robin(list(plan), args.repeat, run_one,
                                lambda run: f"{run.wall_s:.1f} s, {run.words_per_s:,.0f} words/s")
    runs = {plan[key]: harness.best_of(every[key]) for key in plan}
    facts = {}
    for name, (path, _) in corpora.items():
        full, shrunk = pairs_per_word(path, WINDOW)
        some = runs[name, "sskip", args.threads[0]]
        facts[name] = {"description": f"`{path.name}`" + (
            ", gensim's lee_background.cor repeated" if name == "lee"
            else f", Zipf(1) over {args.zipf_types:,} types, seed {args.seed}"),
            "words": some.words, "vocabulary": some.vocabulary,
            "pairs_sskip": full, "pairs_skip": shrunk}
    block = markdown(runs, facts, provenance, args)
    print(block)
    data = {"facts": facts, "runs": [{**asdict(run), "words_per_s": run.words_per_s}
                                     for run in runs.values()]}
    harness.save(args, SECTION, block, data, indent=2)


if __name__ == "__main__":
    main()
