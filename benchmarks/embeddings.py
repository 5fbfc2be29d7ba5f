#!/usr/bin/env python3
"""Training throughput of word2vec, fastText and GloVe on one corpus, beside reference tools.

The corpus is gensim's shipped `lee_background.cor` (300 news articles, ~60k tokens; found
through the installed gensim package), one article per line with whitespace normalised to
single spaces, repeated until it holds at least --tokens tokens. It is cached under --work-dir.

What runs, one at a time, each as its own subprocess, with the same hyperparameters (dimension
100, window 5, min count 5, 5 negatives, --threads threads, --epochs passes):

  word2vec  reprobe   reprobe.embeddings.train.train_word2vec (gensim skip-gram)
  word2vec  C         the original C word2vec, as compiled by the `word2vec` PyPI package
                      (`pip install word2vec` installs the `word2vec` binary beside python):
                      -cbow 0 -hs 0 -negative 5 -sample 1e-3 -alpha 0.025
  fastText  reprobe   reprobe.embeddings.train.train_fasttext (gensim fastText skip-gram)
  fastText  C++       `fasttext.train_unsupervised(model="skipgram")` of the `fasttext` PyPI
                      package (`pip install fasttext`), lr 0.05, t 1e-4, minn 3, maxn 6,
                      then its word vectors written as a .vec file
  GloVe     reprobe   reprobe.embeddings.glove_*: vocabulary, co-occurrence counting in
                      --threads processes, shuffle, --glove-epochs AdaGrad epochs on --threads
                      threads, output. There is no reference
                      GloVe trainer to run: the C code is not on PyPI, and the PyPI GloVe
                      packages do not install or import here (see glove.py).

A reference tool that is not installed is reported as skipped. Each output is loaded back and
checked for NaN/inf vectors (the `fasttext` wheel was reported to produce NaN on this machine).

Figures: wall and CPU seconds of the timed section, corpus in to vectors out. The Python
drivers time it inside the subprocess, after their imports (CPU from getrusage of the process
and its finished children); the C binary is timed as a whole process (CPU from os.wait4).
words/s = corpus tokens x epochs / wall s for word2vec and fastText. For GloVe the epochs run
over the co-occurrence matrix, not the corpus, so its words/s is corpus tokens / wall s of the
whole run, and its phases are shown separately. Ratios: reprobe's words/s over the reference's,
and the reference's CPU seconds over reprobe's (above 1: reprobe uses less CPU), per family.

It prints a Markdown block ready for docs/benchmarks.md; --update-readme writes it between the
`<!-- embeddings:begin -->` and `<!-- embeddings:end -->` markers of the README's
"Embedding training" section.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shlex
import shutil
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

HERE = harness.HERE
SECTION = "embeddings"  # the README's markers: <!-- embeddings:begin --> ... :end -->
TOOLS = ("word2vec-reprobe", "word2vec-c", "fasttext-reprobe", "fasttext-cpp", "glove-reprobe")
SOURCE = "test/test_data/lee_background.cor"


@dataclass
class Run:
    """One timed subprocess run of one trainer."""

    tool: str
    family: str
    implementation: str
    command: str
    epochs: int
    tokens: int
    wall_s: float | None = None
    cpu_s: float | None = None
    vocabulary: int | None = None
    finite: bool | None = None
    skipped: str | None = None
    phases: dict = field(default_factory=dict)

    @property
    def words_per_s(self) -> float | None:
        """Corpus tokens x passes over the corpus, per wall second."""
        if self.wall_s is None:
            return None
        passes = 1 if self.family == "GloVe" else self.epochs
        return self.tokens * passes / self.wall_s


# --- the corpus -------------------------------------------------------------------------------


def build_corpus(work: Path, target_tokens: int) -> tuple[Path, int]:
    """Repeat gensim's Lee corpus until it has `target_tokens` tokens; return path and count."""
    source = Path(importlib.util.find_spec("gensim").submodule_search_locations[0]) / SOURCE
    lines = [" ".join(line.split()) for line in source.read_text("utf-8").splitlines()]
    lines = [line for line in lines if line]
    per_copy = sum(len(line.split(" ")) for line in lines)
    copies = -(-target_tokens // per_copy)
    path = work / f"lee-x{copies}.txt"
    if not path.is_file():
        work.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        with temporary.open("w", encoding="utf-8") as f:
            for _ in range(copies):
                f.write("\n".join(lines) + "\n")
        temporary.replace(path)
    return path, per_copy * copies


# --- running and measuring ------------------------------------------------------------------


# The Python drivers import first, then time corpus in -> vectors out (begin() to done()), and
# print the seconds as JSON last.
PRELUDE = """
import json, resource, sys, time
from pathlib import Path
corpus, out = Path(sys.argv[1]), Path(sys.argv[2])
threads, epochs = int(sys.argv[3]), int(sys.argv[4])
def cpu():
    # This process (all its threads) and its finished children (GloVe's counting processes).
    return sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))
def begin():
    global cpu0, start
    cpu0, start = cpu(), time.perf_counter()
def done(**more):
    print(json.dumps({"wall_s": time.perf_counter() - start, "cpu_s": cpu() - cpu0, **more}))
"""
# reprobe's gensim trainers: the same call for word2vec and fastText.
GENSIM = """
from reprobe.embeddings.train import {trainer}
begin()
{trainer}(corpus, out, dim=100, window=5, min_count=5, epochs=epochs, seed=1, workers=threads)
done()
"""
DRIVERS = {
    "word2vec-reprobe": PRELUDE + GENSIM.format(trainer="train_word2vec"),
    "fasttext-reprobe": PRELUDE + GENSIM.format(trainer="train_fasttext"),
    "fasttext-cpp": PRELUDE + """
import fasttext
begin()
model = fasttext.train_unsupervised(str(corpus), model="skipgram", dim=100, ws=5, minCount=5,
                                    epoch=epochs, neg=5, lr=0.05, t=1e-4, minn=3, maxn=6,
                                    thread=threads, verbose=0)
with out.open("w", encoding="utf-8") as f:
    f.write(f"{len(model.words)} {model.get_dimension()}\\n")
    for word in model.words:
        f.write(word + " " + " ".join(str(x) for x in model.get_word_vector(word)) + "\\n")
done()
""",
    "glove-reprobe": PRELUDE + """
from gensim.models import KeyedVectors
from reprobe.embeddings.train import write_vectors
phases = {}
begin()
mark = start
def lap(name):
    global mark
    now = time.perf_counter()
    phases[name] = now - mark
    mark = now
from reprobe.embeddings import glove_count, glove_entries, glove_fit
words, counts = glove_count.build_vocab(corpus, 5)
lap("vocabulary s")
merged, shuffled = out.with_suffix(".cooc.bin"), out.with_suffix(".shuffled.bin")
nnz = glove_count.count_cooccurrences(corpus, words, 5, merged, workers=threads,
                                      memory_bytes=1 << 30)
lap("counting s")
glove_entries.shuffle_entries(merged, shuffled, 1, 1 << 30)
lap("shuffling s")
params, losses = glove_fit.fit_glove(glove_entries.read_entries(shuffled), len(words), dim=100,
                                     x_max=100.0, alpha=0.75, epochs=epochs,
                                     learning_rate=0.05, seed=1, threads=threads)
lap("fitting s")
merged.unlink()
shuffled.unlink()
kv = KeyedVectors(100)
kv.add_vectors(words, params.vectors())
for w, c in zip(words, counts.tolist()):
    kv.set_vecattr(w, "count", c)
write_vectors(kv, out)
lap("writing s")
phases["s per epoch"] = phases["fitting s"] / epochs
phases["nonzero entries"] = nnz
phases["J per entry, last epoch"] = losses[-1] / nnz
done(phases=phases)
""",
}


def word2vec_binary() -> str | None:
    """The C word2vec binary the `word2vec` PyPI package compiles, if installed."""
    beside = Path(sys.executable).parent / "word2vec"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("word2vec")


def run_tool(tool: str, corpus: Path, tokens: int, args: argparse.Namespace, run_dir: Path) -> Run:
    """Run one trainer on the corpus and check its output."""
    family, implementation = {
        "word2vec-reprobe": ("word2vec", "reprobe (gensim)"),
        "word2vec-c": ("word2vec", "C word2vec (`word2vec` PyPI)"),
        "fasttext-reprobe": ("fastText", "reprobe (gensim)"),
        "fasttext-cpp": ("fastText", "C++ fastText (`fasttext` PyPI)"),
        "glove-reprobe": ("GloVe", "reprobe (numba)"),
    }[tool]
    epochs = args.glove_epochs if family == "GloVe" else args.epochs
    out = run_dir / f"{tool}.txt"
    out.unlink(missing_ok=True)
    if tool == "word2vec-c":
        binary = word2vec_binary()
        argv = [binary or "word2vec", "-train", str(corpus), "-output", str(out), "-size", "100",
                "-window", "5", "-sample", "1e-3", "-negative", "5", "-hs", "0", "-cbow", "0",
                "-alpha", "0.025", "-min-count", "5", "-iter", str(epochs), "-threads",
                str(args.threads), "-binary", "0"]
        run = Run(tool, family, implementation, shlex.join(argv), epochs, tokens)
        if binary is None:
            run.skipped = "`word2vec` binary not found (pip install word2vec)"
            return run
        measured = harness.measure(argv, run_dir / f"{tool}.log")
        run.wall_s, run.cpu_s = measured.wall_s, measured.cpu_s
    else:
        argv = [sys.executable, "-c", DRIVERS[tool], str(corpus), str(out), str(args.threads),
                str(epochs)]
        run = Run(tool, family, implementation, f"python -c <{tool} driver> {corpus.name} "
                  f"{out.name} {args.threads} {epochs}", epochs, tokens)
        if tool == "fasttext-cpp" and importlib.util.find_spec("fasttext") is None:
            run.skipped = "`fasttext` not installed (pip install fasttext)"
            return run
        harness.measure(argv, run_dir / f"{tool}.log")
        report = json.loads((run_dir / f"{tool}.log").read_text("utf-8").strip().splitlines()[-1])
        run.wall_s, run.cpu_s = report["wall_s"], report["cpu_s"]
        run.phases = report.get("phases", {})
    check_output(run, out)
    return run


def check_output(run: Run, out: Path) -> None:
    """Load the vectors back; record the vocabulary size and whether all are finite."""
    import numpy as np

    from reprobe.embeddings.load import load_vectors
    from reprobe.errors import InputFormatError

    try:
        kv = load_vectors(out)
    except InputFormatError as error:
        # load_vectors refuses NaN/inf vectors; any other refusal means a broken output.
        if "not finite" not in str(error):
            raise SystemExit(f"{run.tool} wrote an unreadable file: {error}") from error
        run.finite = False
        return
    run.vocabulary = len(kv)
    run.finite = bool(np.isfinite(kv.vectors).all())


def keep_best(runs: list[Run]) -> Run:
    """Merge repeats: the least wall and CPU seconds; any non-finite output is kept as such."""
    done = [run for run in runs if not run.skipped]
    if not done:
        return runs[-1]
    best = harness.best_of(done)
    best.phases = min(done, key=lambda run: run.wall_s).phases  # the phases of the fastest run
    best.finite = all(run.finite for run in done)
    return best


# --- reporting --------------------------------------------------------------------------------


def fmt(value: float | None, spec: str) -> str:
    """A number formatted, or a dash when missing."""
    return "–" if value is None else format(value, spec)


def table_row(run: Run) -> tuple[str, ...]:
    """The cells of one trainer's row: its figures, or why it was skipped."""
    if run.skipped:
        return (run.family, run.implementation, str(run.epochs), f"skipped: {run.skipped}",
                "", "", "", "")
    return (run.family, run.implementation, str(run.epochs), fmt(run.wall_s, ".1f"),
            fmt(run.cpu_s, ".1f"), fmt(run.words_per_s, ",.0f"), fmt(run.vocabulary, ","),
            "yes" if run.finite else "NO")


def markdown(runs: list[Run], args: argparse.Namespace, corpus: Path, tokens: int,
             provenance: list[str]) -> str:
    """The figures as a Markdown block for the README."""
    lines = [
        *provenance,
        "",
        f"Corpus: `{corpus.name}`, gensim's `lee_background.cor` repeated, {tokens:,} tokens. "
        f"All trainers: dimension 100, window 5, min count 5, {args.threads} threads; "
        f"word2vec and fastText skip-gram with 5 negatives, {args.epochs} epoch(s); GloVe "
        f"{args.glove_epochs} epochs. Each trainer ran {args.repeat} time(s), round-robin; the "
        f"least wall and CPU seconds are shown.",
        "",
        harness.markdown_table(
            ("family", "implementation", "epochs", "wall s", "CPU s", "words/s", "vocabulary",
             "finite"), [table_row(run) for run in runs], align="llrrrrrl"),
    ]
    by_tool = {run.tool: run for run in runs if not run.skipped}
    ratios = []
    for family, ours, theirs in (("word2vec", "word2vec-reprobe", "word2vec-c"),
                                 ("fastText", "fasttext-reprobe", "fasttext-cpp")):
        if ours in by_tool and theirs in by_tool:
            ratio = by_tool[ours].words_per_s / by_tool[theirs].words_per_s
            cpu_ratio = by_tool[theirs].cpu_s / by_tool[ours].cpu_s
            ratios.append((family, f"{ratio:.2f}", f"{cpu_ratio:.2f}"))
    if ratios:
        lines += ["", harness.markdown_table(
            ("family", "reprobe / reference, words/s (wall)", "reference / reprobe, CPU s"),
            ratios)]
    glove = by_tool.get("glove-reprobe")
    if glove and glove.phases:
        lines += ["", "GloVe phases: " + "; ".join(
            f"{name} {value:,.3g}" if isinstance(value, float) else f"{name} {value:,}"
            for name, value in glove.phases.items()) + "."]
    return "\n".join(lines) + "\n"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = harness.new_parser(__doc__)
    parser.add_argument("--tokens", type=int, default=5_000_000,
                        help="corpus size in tokens (default 5,000,000)")
    parser.add_argument("--epochs", type=int, default=1,
                        help="passes over the corpus for word2vec and fastText (default 1; the "
                             "tools' own default is 5, throughput per word hardly changes)")
    parser.add_argument("--glove-epochs", type=int, default=25,
                        help="GloVe AdaGrad epochs over the co-occurrences (default 25, the "
                             "reference's)")
    parser.add_argument("--threads", type=int, default=2, help="threads/processes (default 2)")
    parser.add_argument("--tools", nargs="+", choices=TOOLS, default=list(TOOLS),
                        help="run only these trainers")
    parser.add_argument("--work-dir", type=Path, default=HERE / "work" / "embeddings",
                        help="corpus cache and outputs (default benchmarks/work/embeddings)")
    harness.add_report_options(parser, noun="trainer", keeps="the least wall and CPU seconds",
                               json_help="also write every figure as JSON here", section=SECTION)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Build the corpus, run the trainers one at a time, print (and store) the figures."""
    args = parse_args(argv)
    provenance = harness.provenance(harness.command_line("benchmarks/embeddings.py", argv),
                                    harness.now(), harness.machine())
    corpus, tokens = build_corpus(args.work_dir, args.tokens)
    run_dir = args.work_dir / "run"
    run_dir.mkdir(parents=True, exist_ok=True)
    print(f"corpus {corpus} ({tokens:,} tokens)", file=sys.stderr)
    every = harness.round_robin(
        args.tools, args.repeat, lambda tool: run_tool(tool, corpus, tokens, args, run_dir),
        lambda run: f"skipped: {run.skipped}" if run.skipped else f"{run.wall_s:.1f} s")
    runs = [keep_best(every[tool]) for tool in args.tools]
    block = markdown(runs, args, corpus, tokens, provenance)
    harness.save(args, SECTION, block, [{**asdict(r), "words_per_s": r.words_per_s} for r in runs],
                 indent=2)
    print(block)


if __name__ == "__main__":
    main()
