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
  GloVe     reprobe   reprobe.embeddings.glove: vocabulary, co-occurrence counting in --threads
                      processes, --glove-epochs AdaGrad epochs, output. There is no reference
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

It prints a Markdown block ready for benchmarks/README.md; --update-readme writes it between the
`<!-- embeddings:begin -->` and `<!-- embeddings:end -->` markers of the README's
"Embedding training" section.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
README = HERE / "README.md"
BEGIN, END = "<!-- embeddings:begin -->", "<!-- embeddings:end -->"
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


def measure(argv: list[str], log: Path) -> tuple[float, float]:
    """Run argv to completion; return its wall seconds and CPU seconds (os.wait4)."""
    with log.open("wb") as handle:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=handle, stderr=handle)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        tail = log.read_text("utf-8", errors="replace")[-3000:]
        raise SystemExit(f"{shlex.join(argv)} failed; log {log}:\n{tail}")
    return wall, usage.ru_utime + usage.ru_stime


# The Python drivers import first, then time corpus in -> vectors out, and print JSON last.
PRELUDE = """
import json, resource, sys, time
from pathlib import Path
corpus, out = Path(sys.argv[1]), Path(sys.argv[2])
threads, epochs = int(sys.argv[3]), int(sys.argv[4])
def cpu():
    # This process (all its threads) and its finished children (GloVe's counting processes).
    return sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))
"""
DRIVERS = {
    "word2vec-reprobe": PRELUDE + """
from reprobe.embeddings.train import train_word2vec
cpu0, start = cpu(), time.perf_counter()
train_word2vec(corpus, out, dim=100, window=5, min_count=5, epochs=epochs, seed=1,
               workers=threads)
print(json.dumps({"wall_s": time.perf_counter() - start, "cpu_s": cpu() - cpu0}))
""",
    "fasttext-reprobe": PRELUDE + """
from reprobe.embeddings.train import train_fasttext
cpu0, start = cpu(), time.perf_counter()
train_fasttext(corpus, out, dim=100, window=5, min_count=5, epochs=epochs, seed=1,
               workers=threads)
print(json.dumps({"wall_s": time.perf_counter() - start, "cpu_s": cpu() - cpu0}))
""",
    "fasttext-cpp": PRELUDE + """
import fasttext
cpu0, start = cpu(), time.perf_counter()
model = fasttext.train_unsupervised(str(corpus), model="skipgram", dim=100, ws=5, minCount=5,
                                    epoch=epochs, neg=5, lr=0.05, t=1e-4, minn=3, maxn=6,
                                    thread=threads, verbose=0)
with out.open("w", encoding="utf-8") as f:
    f.write(f"{len(model.words)} {model.get_dimension()}\\n")
    for word in model.words:
        f.write(word + " " + " ".join(str(x) for x in model.get_word_vector(word)) + "\\n")
print(json.dumps({"wall_s": time.perf_counter() - start, "cpu_s": cpu() - cpu0}))
""",
    "glove-reprobe": PRELUDE + """
from gensim.models import KeyedVectors
from reprobe.embeddings import glove
from reprobe.embeddings.train import write_vectors
phases = {}
cpu0, start = cpu(), time.perf_counter()
mark = start
def lap(name):
    global mark
    now = time.perf_counter()
    phases[name] = now - mark
    mark = now
words, counts = glove.build_vocab(corpus, 5)
lap("vocabulary s")
cooc = glove.count_cooccurrences_parallel(corpus, words, 5, threads)
lap("counting s")
params, losses = glove.fit_glove(cooc, dim=100, epochs=epochs, seed=1)
lap("fitting s")
kv = KeyedVectors(100)
kv.add_vectors(words, params.vectors())
for w, c in zip(words, counts.tolist()):
    kv.set_vecattr(w, "count", c)
write_vectors(kv, out)
lap("writing s")
phases["s per epoch"] = phases["fitting s"] / epochs
phases["nonzero entries"] = int(cooc.nnz)
phases["J per entry, last epoch"] = losses[-1] / cooc.nnz
print(json.dumps({"wall_s": time.perf_counter() - start, "cpu_s": cpu() - cpu0,
                  "phases": phases}))
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
        "glove-reprobe": ("GloVe", "reprobe (NumPy/SciPy)"),
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
        run.wall_s, run.cpu_s = measure(argv, run_dir / f"{tool}.log")
    else:
        argv = [sys.executable, "-c", DRIVERS[tool], str(corpus), str(out), str(args.threads),
                str(epochs)]
        run = Run(tool, family, implementation, f"python -c <{tool} driver> {corpus.name} "
                  f"{out.name} {args.threads} {epochs}", epochs, tokens)
        if tool == "fasttext-cpp" and importlib.util.find_spec("fasttext") is None:
            run.skipped = "`fasttext` not installed (pip install fasttext)"
            return run
        measure(argv, run_dir / f"{tool}.log")
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


def keep_best(previous: Run | None, run: Run) -> Run:
    """Merge repeats: the least wall and CPU seconds; any non-finite output is kept as such."""
    if previous is None or previous.skipped or run.skipped:
        return run if previous is None or previous.skipped else previous
    if run.wall_s < previous.wall_s:
        previous.phases = run.phases  # the phases of the fastest run
    previous.wall_s = min(previous.wall_s, run.wall_s)
    previous.cpu_s = min(previous.cpu_s, run.cpu_s)
    previous.finite = previous.finite and run.finite
    return previous


# --- reporting --------------------------------------------------------------------------------


def fmt(value: float | None, spec: str) -> str:
    """A number formatted, or a dash when missing."""
    return "–" if value is None else format(value, spec)


def cpu_model() -> str:
    """The processor's model name from /proc/cpuinfo, else the machine type."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def markdown(runs: list[Run], args: argparse.Namespace, corpus: Path, tokens: int,
             command: str) -> str:
    """The figures as a Markdown block for the README."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                          text=True).stdout.strip() or "unknown"
    cpu = cpu_model()
    lines = [
        f"Command: `{command}`  ",
        f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {os.cpu_count()} cores "
        f"({cpu}), Python {platform.python_version()}, load average before "
        f"{os.getloadavg()[0]:.2f}; git HEAD {head}.",
        "",
        f"Corpus: `{corpus.name}`, gensim's `lee_background.cor` repeated, {tokens:,} tokens. "
        f"All trainers: dimension 100, window 5, min count 5, {args.threads} threads; "
        f"word2vec and fastText skip-gram with 5 negatives, {args.epochs} epoch(s); GloVe "
        f"{args.glove_epochs} epochs. Each trainer ran {args.repeat} time(s), round-robin; the "
        f"least wall and CPU seconds are shown.",
        "",
        "| family | implementation | epochs | wall s | CPU s | words/s | vocabulary | finite |",
        "|:---|:---|---:|---:|---:|---:|---:|:---|",
    ]
    for run in runs:
        if run.skipped:
            lines.append(f"| {run.family} | {run.implementation} | {run.epochs} | skipped: "
                         f"{run.skipped} | | | | |")
            continue
        lines.append(f"| {run.family} | {run.implementation} | {run.epochs} | "
                     f"{fmt(run.wall_s, '.1f')} | {fmt(run.cpu_s, '.1f')} | "
                     f"{fmt(run.words_per_s, ',.0f')} | {fmt(run.vocabulary, ',')} | "
                     f"{'yes' if run.finite else 'NO'} |")
    by_tool = {run.tool: run for run in runs if not run.skipped}
    ratios = []
    for family, ours, theirs in (("word2vec", "word2vec-reprobe", "word2vec-c"),
                                 ("fastText", "fasttext-reprobe", "fasttext-cpp")):
        if ours in by_tool and theirs in by_tool:
            ratio = by_tool[ours].words_per_s / by_tool[theirs].words_per_s
            cpu_ratio = by_tool[theirs].cpu_s / by_tool[ours].cpu_s
            ratios.append(f"| {family} | {ratio:.2f} | {cpu_ratio:.2f} |")
    if ratios:
        lines += ["", "| family | reprobe / reference, words/s (wall) | reference / reprobe, "
                  "CPU s |", "|:---|---:|---:|", *ratios]
    glove = by_tool.get("glove-reprobe")
    if glove and glove.phases:
        lines += ["", "GloVe phases: " + "; ".join(
            f"{name} {value:,.3g}" if isinstance(value, float) else f"{name} {value:,}"
            for name, value in glove.phases.items()) + "."]
    return "\n".join(lines) + "\n"


def update_readme(path: Path, block: str) -> None:
    """Replace the text between this benchmark's markers in the README with the block."""
    text = path.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{path} lacks the markers {BEGIN} and {END}")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    path.write_text(f"{head}{BEGIN}\n{block}{END}{tail}", encoding="utf-8")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tokens", type=int, default=5_000_000,
                        help="corpus size in tokens (default 5,000,000)")
    parser.add_argument("--epochs", type=int, default=1,
                        help="passes over the corpus for word2vec and fastText (default 1; the "
                             "tools' own default is 5, throughput per word hardly changes)")
    parser.add_argument("--glove-epochs", type=int, default=25,
                        help="GloVe AdaGrad epochs over the co-occurrences (default 25, the "
                             "reference's)")
    parser.add_argument("--threads", type=int, default=2, help="threads/processes (default 2)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run every trainer N times, round-robin, keeping the least wall and "
                             "CPU seconds (the machine may be shared; default 1)")
    parser.add_argument("--tools", nargs="+", choices=TOOLS, default=list(TOOLS),
                        help="run only these trainers")
    parser.add_argument("--work-dir", type=Path, default=HERE / "work" / "embeddings",
                        help="corpus cache and outputs (default benchmarks/work/embeddings)")
    parser.add_argument("--json", type=Path, help="also write every figure as JSON here")
    parser.add_argument("--update-readme", action="store_true",
                        help="write the Markdown block into benchmarks/README.md")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Build the corpus, run the trainers one at a time, print (and store) the figures."""
    args = parse_args(argv)
    command = shlex.join(["python", "benchmarks/embeddings.py",
                          *(sys.argv[1:] if argv is None else argv)])
    corpus, tokens = build_corpus(args.work_dir, args.tokens)
    run_dir = args.work_dir / "run"
    run_dir.mkdir(parents=True, exist_ok=True)
    print(f"corpus {corpus} ({tokens:,} tokens)", file=sys.stderr)
    best: dict[str, Run] = {}
    for round_ in range(args.repeat):
        for tool in args.tools:
            print(f"round {round_ + 1}: running {tool} …", file=sys.stderr, flush=True)
            run = run_tool(tool, corpus, tokens, args, run_dir)
            print(f"  {run.wall_s and round(run.wall_s, 1)} s"
                  f"{' skipped: ' + run.skipped if run.skipped else ''}", file=sys.stderr)
            best[tool] = keep_best(best.get(tool), run)
    runs = [best[tool] for tool in args.tools]
    block = markdown(runs, args, corpus, tokens, command)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps([{**asdict(r), "words_per_s": r.words_per_s}
                                         for r in runs], indent=2), encoding="utf-8")
    if args.update_readme:
        update_readme(README, block)
    print(block)


if __name__ == "__main__":
    main()
