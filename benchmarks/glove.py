#!/usr/bin/env python3
"""GloVe (reprobe.embeddings.glove_*): counting memory against its budget, and the fit's speed.

Corpus: --tokens words in sentences of 5-40 words drawn from a Zipf law (exponent 1) over
--zipf-types types, seeded (benchmarks/sskip.py's `zipf` corpus: an open vocabulary, as in
Wikipedia), cached under --work-dir. Window 5, min count 5, dimension --dim, the schema's
x_max, alpha and learning rate.

Counting: vocabulary and co-occurrence counting run in a child process, --workers counting
processes, sampled every 20 ms for the peak RSS of the process tree (harness.measure): once
with reprobe's counter at --memory-mb, once with the in-memory counter it replaced (scipy
sparse matrices: every worker holds its shard's matrix and the parent sums them), read from
git as it was at OLD_COMMIT. Inside, the child also samples the proportional set size (PSS)
of its tree, which counts the pages forked workers share with their parent once, and its PSS
before counting (the baseline: the interpreter, its libraries, the vocabulary and, for
reprobe's counter, numba's loaded kernels), so that the peak above that baseline can be set
against the budget.

Fit: the counted entries, shuffled once (glove_entries.shuffle_entries), are fitted in this
process for --epochs epochs with 1 and 2 threads (--threads), after an untimed warm-up that
compiles (or loads) numba's kernels; µs per entry per thread = wall s x threads / (entries x
epochs), and the speed-up is the 1-thread wall over the N-thread wall. The old NumPy fit
(vectorised mini-batches of 4,096 on one thread, from OLD_COMMIT) runs one epoch on the same
entries for comparison. With --repeat N the fits run round-robin and the least wall and CPU
seconds are kept (the machine may be shared: the load average is reported).

It prints a Markdown block; --update-readme writes it between the `<!-- glove:begin -->` and
`<!-- glove:end -->` markers of docs/benchmarks.md.

    python benchmarks/glove.py --repeat 3 --json benchmarks/work/glove.json --update-readme
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from sskip import build_zipf  # noqa: E402

SECTION = "glove"  # the README's markers: <!-- glove:begin --> ... :end -->
WINDOW, MIN_COUNT = 5, 5
# The last commit with the in-memory counter and the NumPy mini-batch fit.
OLD_COMMIT = "f53bc57239f1908800f3edb858407cf31b7bc800"
OLD_PATH = "workflow/reprobe/embeddings/glove.py"
PAPER = {"entries": 533_000_000, "epochs": 25, "threads": 16}
MB = 1 << 20


@dataclass
class Count:
    """One counting child: its peak tree RSS, its RSS after the vocabulary, its seconds."""

    counter: str  # "reprobe" or "old"
    workers: int
    wall_s: float
    cpu_s: float
    peak_rss_bytes: int
    baseline_rss_bytes: int  # the child's RSS after the vocabulary pass
    peak_pss_bytes: int  # the tree's proportional set size while counting, sampled inside
    baseline_pss_bytes: int  # the child's PSS after the vocabulary pass
    entries: int


@dataclass
class Fit:
    """One timed fit."""

    implementation: str  # "numba" or "old NumPy"
    threads: int
    epochs: int
    entries: int
    wall_s: float
    cpu_s: float

    @property
    def us_per_entry_per_thread(self) -> float:
        """Wall microseconds per entry and epoch, times the threads."""
        return self.wall_s * self.threads / (self.entries * self.epochs) * 1e6


# --- the old implementation -------------------------------------------------------------------


def old_module(work: Path) -> ModuleType:
    """reprobe.embeddings.glove as it was at OLD_COMMIT, imported from a copy in `work`."""
    path = work / "old_glove.py"
    text = subprocess.run(["git", "-C", str(harness.REPO), "show", f"{OLD_COMMIT}:{OLD_PATH}"],
                          capture_output=True, text=True, check=True).stdout
    work.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("old_glove", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_glove"] = module  # its counting processes pickle its functions by name
    spec.loader.exec_module(module)
    return module


# --- counting, in a child process -------------------------------------------------------------


def tree_pss() -> int:
    """The proportional set size of this process and its descendants, in bytes: forked
    workers' pages shared with their parent are counted once, not once per process."""
    import psutil

    total = 0
    me = psutil.Process()
    for process in (me, *me.children(recursive=True)):
        with contextlib.suppress(psutil.Error):
            total += process.memory_full_info().pss
    return total


@contextlib.contextmanager
def pss_peak(interval: float = 0.02) -> Iterator[list[int]]:
    """Sample tree_pss every `interval` s in a thread; the peak in the yielded list."""
    peak, stop = [tree_pss()], threading.Event()

    def poll() -> None:
        while not stop.wait(interval):
            peak[0] = max(peak[0], tree_pss())

    poller = threading.Thread(target=poll)
    poller.start()
    try:
        yield peak
    finally:
        stop.set()
        poller.join()


def child_count(counter: str, corpus: Path, entries: Path, workers: int, memory_mb: int,
                report: Path) -> None:
    """In the child: vocabulary, then count with one counter; write the figures as JSON."""
    import psutil

    from reprobe.embeddings.glove_count import build_vocab, count_cooccurrences, warm_up_kernels

    words, _ = build_vocab(corpus, MIN_COUNT)
    old = old_module(entries.parent) if counter == "old" else None
    if old is None:
        warm_up_kernels(WINDOW)  # numba's compiled kernels: ~40 MB a process, whatever the data
    baseline, baseline_pss = psutil.Process().memory_info().rss, tree_pss()
    with pss_peak() as peak:
        if old is None:
            count = count_cooccurrences(corpus, words, WINDOW, entries, workers=workers,
                                        memory_bytes=memory_mb * MB)
        else:
            count = old.count_cooccurrences_parallel(corpus, words, WINDOW, workers).nnz
    report.write_text(json.dumps({"baseline": baseline, "baseline_pss": baseline_pss,
                                  "peak_pss": peak[0], "entries": int(count)}),
                      encoding="utf-8")


def measure_count(counter: str, corpus: Path, args: argparse.Namespace) -> Count:
    """Run one counting child and sample its process tree."""
    report = args.work_dir / f"count-{counter}.json"
    argv = [sys.executable, __file__, "--child", counter, str(corpus),
            str(args.work_dir / "entries.bin"), str(args.workers), str(args.memory_mb),
            str(report)]
    run = harness.measure(argv, args.work_dir / f"count-{counter}.log", interval=0.02)
    figures = json.loads(report.read_text(encoding="utf-8"))
    return Count(counter, args.workers, run.wall_s, run.cpu_s, run.peak_rss_bytes,
                 figures["baseline"], figures["peak_pss"], figures["baseline_pss"],
                 figures["entries"])


# --- fitting, in this process -----------------------------------------------------------------


def fit_settings(args: argparse.Namespace) -> dict:
    """The schema's GloVe weighting and learning rate, with --dim."""
    from reprobe.numeracy.retrain_settings import RetrainSettings
    from reprobe.step_settings import settings_from_schema

    glove = settings_from_schema(RetrainSettings, "numeracy.retrain").family_settings("glove")
    return {"dim": args.dim, "x_max": glove["x_max"], "alpha": glove["alpha"],
            "learning_rate": glove["learning_rate"]}


def timed_fit(entries: np.ndarray, size: int, threads: int, args: argparse.Namespace) -> Fit:
    """One fit of --epochs epochs with `threads` numba threads."""
    from reprobe.embeddings.glove_fit import fit_glove

    start, cpu = time.perf_counter(), time.process_time()
    fit_glove(entries, size, **fit_settings(args), epochs=args.epochs, seed=args.seed,
              threads=threads)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return Fit("numba", threads, args.epochs, len(entries), wall, cpu)


def old_fit(entries: np.ndarray, size: int, args: argparse.Namespace) -> Fit:
    """One epoch of the old NumPy mini-batch fit on the same entries."""
    import scipy.sparse as sp

    module = old_module(args.work_dir)
    cooc = sp.coo_matrix((np.asarray(entries["x"]), (np.asarray(entries["i"]),
                                                      np.asarray(entries["j"]))),
                         shape=(size, size))
    start, cpu = time.perf_counter(), time.process_time()
    module.fit_glove(cooc, **fit_settings(args), epochs=1, seed=args.seed)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return Fit("old NumPy", 1, 1, cooc.nnz, wall, cpu)


def time_fits(counted: Path, size: int, args: argparse.Namespace) -> list[Fit]:
    """Shuffle the counted entries, then time the numba fits (best of --repeat, round-robin)
    and one epoch of the old fit; the entries files are removed after."""
    from reprobe.embeddings.glove_entries import read_entries, shuffle_entries

    shuffled = counted.with_name("shuffled.bin")
    shuffle_entries(counted, shuffled, args.seed, 256 * MB)
    entries = read_entries(shuffled)
    print("warming up (numba compiles or loads its kernels) ...", file=sys.stderr, flush=True)
    warm_up(entries, size, args)
    plan = {f"numba/{threads}": threads for threads in args.threads}
    every = harness.round_robin(list(plan), args.repeat,
                                lambda key: timed_fit(entries, size, plan[key], args),
                                lambda fit: f"{fit.wall_s:.2f} s, "
                                            f"{fit.us_per_entry_per_thread:.3f} µs/entry/thread")
    fits = [harness.best_of(every[key]) for key in plan]
    print("one epoch of the old NumPy fit ...", file=sys.stderr, flush=True)
    fits.append(old_fit(entries, size, args))
    for path in (shuffled, counted):  # the corpus stays cached, the entries go
        path.unlink()
    return fits


def warm_up(entries: np.ndarray, size: int, args: argparse.Namespace) -> None:
    """Compile (or load) the fit's kernels for every thread count, on a few entries."""
    from reprobe.embeddings.glove_fit import fit_glove

    for threads in args.threads:
        fit_glove(entries[:1000], size, **fit_settings(args), epochs=1, seed=0, threads=threads)


# --- the report -------------------------------------------------------------------------------


def mb(value: float) -> str:
    """Bytes as MB, no decimals."""
    return f"{value / MB:,.0f}"


def counting_lines(counts: dict[str, Count], args: argparse.Namespace) -> list[str]:
    """The counting table and its ratios."""
    new, old = counts["reprobe"], counts["old"]
    lines = [f"Counting, {args.workers} worker process(es). Peak RSS: the child's process tree "
             "(vocabulary pass included) sampled every 20 ms, where forked workers count the "
             "pages they share with the parent again; PSS: the tree's proportional set size "
             "(shared pages counted once) sampled inside the child every 20 ms while it "
             "counts, and that peak above the child's PSS after the vocabulary pass:", ""]
    rows = [(f"reprobe, budget {args.memory_mb:,} MB" if c is new else "old in-memory (scipy)",
             f"{c.wall_s:.1f}", f"{c.cpu_s:.1f}", mb(c.peak_rss_bytes), mb(c.peak_pss_bytes),
             mb(c.peak_pss_bytes - c.baseline_pss_bytes)) for c in (new, old)]
    lines += [harness.markdown_table(["counter", "wall s", "CPU s", "peak RSS MB",
                                      "peak PSS MB", "PSS above baseline MB"], rows), ""]
    new_extra = max(1, new.peak_pss_bytes - new.baseline_pss_bytes)
    old_extra = old.peak_pss_bytes - old.baseline_pss_bytes
    return [*lines, f"Old / reprobe: peak RSS {old.peak_rss_bytes / new.peak_rss_bytes:.2f}x, "
            f"peak PSS {old.peak_pss_bytes / new.peak_pss_bytes:.2f}x, PSS above baseline "
            f"{old_extra / new_extra:.2f}x. reprobe's PSS above baseline is "
            f"{new_extra / (args.memory_mb * MB):.2f}x its budget.", ""]


def fit_lines(fits: list[Fit], args: argparse.Namespace) -> list[str]:
    """The fit table (wall and CPU µs per entry per thread, speed-up) and the paper estimate."""
    one = next(f for f in fits if f.implementation == "numba" and f.threads == 1)
    old = next(f for f in fits if f.implementation == "old NumPy")
    rows = [(f.implementation, str(f.threads), str(f.epochs), f"{f.wall_s:.2f}",
             f"{f.cpu_s:.2f}", f"{f.us_per_entry_per_thread:.3f}",
             f"{f.cpu_s / (f.entries * f.epochs) * 1e6:.3f}",
             f"{one.wall_s / one.epochs / (f.wall_s / f.epochs):.2f}") for f in fits]
    lines = [f"Fit at dimension {args.dim}: each numba fit ran {args.repeat} time(s), "
             "round-robin, after an untimed warm-up (least wall and CPU seconds shown); the "
             "old fit ran once, one epoch. µs / entry / thread = wall s x threads / (entries x "
             "epochs); CPU µs / entry = CPU s / (entries x epochs), which a busy machine "
             "inflates less; speed-up = wall s per epoch of the 1-thread numba fit over this "
             "one's:", "",
             harness.markdown_table(["fit", "threads", "epochs", "wall s", "CPU s",
                                     "µs / entry / thread", "CPU µs / entry", "speed-up"], rows),
             ""]

    def hours(fit: Fit, threads: int) -> float:
        return (PAPER["entries"] * PAPER["epochs"] * fit.us_per_entry_per_thread * 1e-6
                / threads / 3600)

    return [*lines, f"Paper scale ({PAPER['entries'] / 1e6:.0f} M entries, {PAPER['epochs']} "
            f"epochs), from the 1-thread figures: {hours(one, PAPER['threads']):.2f} h a "
            f"corpus on {PAPER['threads']} threads (scaled linearly, optimistic; a paper "
            f"vocabulary of millions of words misses the caches more), against "
            f"{hours(old, 1):.1f} h for the old fit on one thread."]


def markdown(counts: dict[str, Count], fits: list[Fit], facts: dict, provenance: list[str],
             args: argparse.Namespace) -> str:
    """The report: the corpus, counting memory, the fit's speed, the paper estimate."""
    lines = [*provenance, "",
             f"Corpus: `{facts['corpus']}`, Zipf(1) over {args.zipf_types:,} types, seed "
             f"{args.seed}: {facts['words']:,} words, vocabulary {facts['vocabulary']:,} at "
             f"min count {MIN_COUNT}, {counts['reprobe'].entries:,} co-occurrence entries at "
             f"window {WINDOW}.", "", *counting_lines(counts, args), *fit_lines(fits, args)]
    return "\n".join(lines) + "\n"


# --- command line -----------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = harness.new_parser(__doc__)
    parser.add_argument("--tokens", type=harness.positive_int, default=3_000_000,
                        help="words in the corpus (default 3,000,000)")
    parser.add_argument("--zipf-types", type=harness.positive_int, default=1_000_000,
                        help="word types the Zipf corpus draws from (default 1,000,000)")
    parser.add_argument("--workers", type=harness.positive_int, default=2,
                        help="counting processes (default 2)")
    parser.add_argument("--memory-mb", type=harness.positive_int, default=64,
                        help="reprobe's counting budget in MB (default 64)")
    parser.add_argument("--dim", type=harness.positive_int, default=100,
                        help="vector dimension (default 100)")
    parser.add_argument("--epochs", type=harness.positive_int, default=2,
                        help="epochs of each timed numba fit (default 2)")
    parser.add_argument("--threads", type=harness.positive_int, nargs="+", default=[1, 2],
                        help="thread counts of the fit (default 1 2; 1 is always run)")
    parser.add_argument("--seed", type=int, default=0, help="seed of corpus and fits")
    parser.add_argument("--work-dir", type=Path, default=harness.HERE / "work" / "glove",
                        help="where the corpus and entries go (default benchmarks/work/glove)")
    harness.add_report_options(parser, noun="numba fit", keeps="the least wall and CPU seconds",
                               json_help="also write every figure as JSON here", section=SECTION)
    args = parser.parse_args(argv)
    args.threads = sorted({1, *args.threads})
    return args


def main(argv: list[str] | None = None) -> None:
    """Count twice (measured children), shuffle, time the fits, print (and store) the report."""
    if sys.argv[1:2] == ["--child"]:
        counter, corpus, entries, workers, memory_mb, report = sys.argv[2:8]
        child_count(counter, Path(corpus), Path(entries), int(workers), int(memory_mb),
                    Path(report))
        return
    args = parse_args(argv)
    import numba

    provenance = harness.provenance(
        harness.command_line("benchmarks/glove.py", argv), harness.now(), harness.machine(),
        f"; numba {numba.__version__}, numba threads {numba.config.NUMBA_NUM_THREADS}")
    corpus, words = build_zipf(args.work_dir, args.tokens, args.zipf_types, args.seed)
    counts = {}
    for counter in ("reprobe", "old"):
        print(f"counting with the {counter} counter ...", file=sys.stderr, flush=True)
        counts[counter] = measure_count(counter, corpus, args)
    from reprobe.embeddings.glove_count import build_vocab

    size = len(build_vocab(corpus, MIN_COUNT)[0])
    fits = time_fits(args.work_dir / "entries.bin", size, args)
    facts = {"corpus": corpus.name, "words": words, "vocabulary": size}
    block = markdown(counts, fits, facts, provenance, args)
    print(block)
    data = {"facts": facts, "counts": [asdict(c) for c in counts.values()],
            "fits": [{**asdict(f), "us_per_entry_per_thread": f.us_per_entry_per_thread}
                     for f in fits], "load_average_after": list(os.getloadavg())}
    harness.save(args, SECTION, block, data, indent=2)


if __name__ == "__main__":
    main()
