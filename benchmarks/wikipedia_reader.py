#!/usr/bin/env python3
"""Throughput and memory of reprobe's Wikipedia reader beside `bzcat` and WikiExtractor.

What it runs, one at a time, each as a subprocess on the SAME ~TARGET MB dump (built once from
the gensim excerpt, see benchmarks/dumps.py, and cached under --work-dir):

  bzcat          `bzcat DUMP > /dev/null`: the bz2 decompression floor.
  reprobe        `python -m reprobe wikipedia shard --plan PLAN --shard 0 --output-dir OUT --quiet`
                 on one core; the plan (`wikipedia plan --shards 1 --block-pages 100`) is made
                 beforehand and not timed. Pages come from the stats.json the shard writes.
  wikiextractor  `python -m wikiextractor.WikiExtractor --links --processes 1 -q -o OUT DUMP`.
                 Note that it reads the dump twice (a template-collecting pass, then the
                 extraction) and runs three processes (reader, one extractor, one writer), so
                 it can use more than one core: compare per-core figures (CPU s), not only wall.
  reprobe-small  the reprobe reader on the 6 MB excerpt itself: the memory baseline.

For each: wall seconds; CPU seconds (user + sys of the process and every descendant, from
os.wait4); compressed and uncompressed MB/s and pages/s over wall time; compressed MB per
CPU-second ("per-core" throughput); peak RSS of the process tree. MB are 10**6 bytes; sizes of
the XML are the uncompressed dump, pages are every <page> of the dump for every tool.

With --repeat N every tool runs N times, round-robin, and the figures are the least wall and
CPU seconds and the largest peak RSS (the machine may be shared: CPU seconds are the steadier).

Then the ratios: reprobe / WikiExtractor throughput (wall and per core; the target is >= 1 per
core), reprobe / bzcat throughput, and the reader's peak RSS on the big dump / on the 6 MB
excerpt (the target is <= 1.5). With --profile, the reader also runs in-process under cProfile
on the excerpt, printing the top functions by cumulative time and the time grouped by stage.

It ends with a Markdown block ready for docs/benchmarks.md (or --update-readme writes it
between the README's `<!-- figures:begin -->` and `<!-- figures:end -->` markers).
"""

from __future__ import annotations

import argparse
import bz2
import cProfile
import hashlib
import io
import json
import os
import pstats
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from dumps import MB, DumpInfo, build_dump, excerpt_info, split_dump  # noqa: E402

HERE, REPO = harness.HERE, harness.REPO
SECTION = "figures"  # the README's markers: <!-- figures:begin --> ... <!-- figures:end -->
TOOLS = ("bzcat", "reprobe", "wikiextractor", "reprobe-small")
BLOCK_PAGES = 100


@dataclass
class Run:
    """One timed subprocess run of one tool on one input."""

    tool: str
    input: str  # "big" (the repeated dump) or "small" (the gensim excerpt)
    command: str
    wall_s: float
    cpu_s: float
    peak_rss_bytes: int  # largest sum of RSS over the process tree, sampled every --interval s
    ru_maxrss_bytes: int  # from os.wait4: largest single process, inflated by fork (see below)
    compressed_bytes: int
    uncompressed_bytes: int
    pages: int
    extra: dict = field(default_factory=dict)

    @property
    def compressed_mb_s(self) -> float:
        """Compressed MB read per wall second."""
        return self.compressed_bytes / MB / self.wall_s

    @property
    def uncompressed_mb_s(self) -> float:
        """Uncompressed XML MB per wall second."""
        return self.uncompressed_bytes / MB / self.wall_s

    @property
    def pages_s(self) -> float:
        """Pages per wall second."""
        return self.pages / self.wall_s

    @property
    def per_core_mb_s(self) -> float:
        """Compressed MB per CPU second (throughput of one core)."""
        return self.compressed_bytes / MB / self.cpu_s

    @property
    def peak_rss_mb(self) -> float:
        """Peak RSS of the process tree in MB."""
        return self.peak_rss_bytes / MB

    def figures(self) -> dict:
        """All fields and derived figures, for JSON."""
        return {**asdict(self), "compressed_mb_s": self.compressed_mb_s,
                "uncompressed_mb_s": self.uncompressed_mb_s, "pages_s": self.pages_s,
                "per_core_compressed_mb_s": self.per_core_mb_s, "peak_rss_mb": self.peak_rss_mb}


# --- the tools --------------------------------------------------------------------------------


def fresh_dir(path: Path) -> Path:
    """An empty folder at `path` (removing what was there)."""
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def run_bzcat(dump: DumpInfo, label: str, run_dir: Path, interval: float) -> Run:
    """Time `bzcat DUMP > /dev/null`."""
    argv = ["bzcat", dump.path]
    figures = harness.measure(argv, run_dir / f"bzcat-{label}.log", interval,
                              stdout_devnull=True)
    return Run("bzcat", label, shlex.join(argv) + " > /dev/null", **asdict(figures),
               compressed_bytes=dump.compressed_bytes,
               uncompressed_bytes=dump.uncompressed_bytes, pages=dump.pages)


def run_reprobe(dump: DumpInfo, label: str, run_dir: Path, interval: float, keep: bool) -> Run:
    """Plan (untimed) then time one shard of the reprobe reader over the whole dump."""
    plan, out = run_dir / f"plan-{label}.json", fresh_dir(run_dir / f"reprobe-{label}")
    subprocess.run([sys.executable, "-m", "reprobe", "wikipedia", "plan", "--dump", dump.path,
                    "--shards", "1", "--block-pages", str(BLOCK_PAGES), "--output", str(plan)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    argv = [sys.executable, "-m", "reprobe", "wikipedia", "shard", "--plan", str(plan),
            "--shard", "0", "--output-dir", str(out), "--quiet"]
    figures = harness.measure(argv, run_dir / f"reprobe-{label}.log", interval)
    stats = json.loads((out / "stats.json").read_text(encoding="utf-8"))
    if stats.get("pages_seen") != dump.pages:
        print(f"warning: reprobe saw {stats.get('pages_seen')} pages, the dump has {dump.pages}",
              file=sys.stderr)
    if not keep:
        shutil.rmtree(out)
    tool = "reprobe" if label == "big" else "reprobe-small"
    return Run(tool, label, shlex.join(["python", *argv[1:]]), **asdict(figures),
               compressed_bytes=dump.compressed_bytes,
               uncompressed_bytes=dump.uncompressed_bytes, pages=stats["pages_seen"],
               extra={"articles_out": stats.get("articles", 0), "stats": stats})


def count_docs(folder: Path) -> int:
    """Number of <doc> records WikiExtractor wrote under a folder."""
    count = 0
    for path in folder.rglob("wiki_*"):
        with open(path, "rb") as handle:
            count += sum(1 for line in handle if line.startswith(b"<doc "))
    return count


def run_wikiextractor(dump: DumpInfo, label: str, run_dir: Path, interval: float,
                      keep: bool) -> Run:
    """Time WikiExtractor (--links, one extraction process) over the dump."""
    out = fresh_dir(run_dir / f"wikiextractor-{label}")
    argv = [sys.executable, "-m", "wikiextractor.WikiExtractor", "--links", "--processes", "1",
            "-q", "-o", str(out), dump.path]
    figures = harness.measure(argv, run_dir / f"wikiextractor-{label}.log", interval)
    docs = count_docs(out)
    if not keep:
        shutil.rmtree(out)
    return Run("wikiextractor", label, shlex.join(["python", *argv[1:]]), **asdict(figures),
               compressed_bytes=dump.compressed_bytes,
               uncompressed_bytes=dump.uncompressed_bytes, pages=dump.pages,
               extra={"articles_out": docs})


# --- profile ----------------------------------------------------------------------------------

# The reader's stages, from the cumulative time of their entry points (cProfile counts a
# recursive or generator function once per call from outside): (label, [(file suffix,
# function, caller or None, sign)]). A builtin's file is "~" and its name is matched as a
# substring; function "*" is any function of the file. Stages are disjoint; what no entry
# point covers (the page loop, counters, title normalisation of redirects) is the rest.
SHARD, ADD = "reprobe/wikipedia/shard.py", ("reprobe/wikipedia/shard.py", "add_page")
DECOMPRESS = ("~", "'decompress' of '_bz2.BZ2Decompressor'", None, 1)
TOKENIZE = [("~", "'tokenize' of '_tokenizer.CTokenizer'", None, 1),
            ("mwparserfromhell/parser/tokenizer.py", "tokenize", None, 1)]
STAGES: tuple[tuple[str, list[tuple[str, str, tuple[str, str] | None, int]]], ...] = (
    ("bz2 decompression", [DECOMPRESS]),
    ("XML parsing into pages (dump.py, ElementTree)",
     [("reprobe/wikipedia/dump.py", "iter_pages", None, 1), DECOMPRESS[:3] + (-1,)]),
    ("wikitext tokenizing (mwparserfromhell tokenizer)", TOKENIZE),
    ("rendering to paragraphs (text.py, without tokenizing)",
     [("reprobe/wikipedia/text.py", "render_wikitext", None, 1),
      *[(f, n, c, -1) for f, n, c, _ in TOKENIZE]]),
    ("sentences and tokens (segment.py, blingfire)",
     [("reprobe/wikipedia/segment.py", "segment_page", ADD, 1)]),
    ("numeral check per sentence (numerals.py)",
     [("~", "builtins.any", ADD, 1), ("reprobe/numerals.py", "*", ADD, 1)]),
    ("rows and Parquet writing (shard.py, pyarrow)",
     [(SHARD, "append", None, 1), (SHARD, "flush", (SHARD, "read_shard"), 1),
      ("pyarrow/parquet/core.py", "__init__", (SHARD, "read_shard"), 1),
      ("pyarrow/parquet/core.py", "close", (SHARD, "read_shard"), 1)]),
)


def _matches(key: tuple[str, int, str], suffix: str, function: str) -> bool:
    """Whether a pstats key (file, line, name) is the function named by suffix and function."""
    filename, _, name = key
    if suffix == "~":
        return filename == "~" and function in name
    return filename.endswith(suffix) and function in ("*", name)


def cumulative(stats: pstats.Stats, suffix: str, function: str,
               caller: tuple[str, str] | None = None) -> float:
    """Cumulative seconds of a function (only its calls from `caller`, if given)."""
    total = 0.0
    for key, (_, _, _, cumtime, callers) in stats.stats.items():  # type: ignore[attr-defined]
        if not _matches(key, suffix, function):
            continue
        if caller is None:
            total += cumtime
        else:
            total += sum(timing[3] for where, timing in callers.items()
                         if _matches(where, *caller))
    return total


def stage_times(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Seconds per stage of the reader, the rest last (all under the profiler)."""
    total = cumulative(stats, SHARD, "read_shard")
    stages = [(label, sum(sign * cumulative(stats, suffix, function, caller)
                          for suffix, function, caller, sign in parts))
              for label, parts in STAGES]
    stages.sort(key=lambda item: -item[1])
    rest = total - sum(seconds for _, seconds in stages)
    return [*stages, ("rest: page loop, counters, redirect rows, imports", rest)]


def warm_up(dump: Path, pages: int = 20) -> None:
    """Run the reader unprofiled on the dump's first pages, so one-off imports are done."""
    from reprobe.wikipedia.plan import plan_shards
    from reprobe.wikipedia.shard import ShardOutputs, read_shard

    header, all_pages = split_dump(bz2.decompress(dump.read_bytes()).decode("utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "warm-up.xml"
        small.write_text(header + "\n".join(all_pages[:pages]) + "\n</mediawiki>\n",
                         encoding="utf-8")
        plan = plan_shards(small, None, 1, BLOCK_PAGES)
        read_shard(plan, 0, ShardOutputs.in_folder(Path(tmp) / "out"), progress=False)


def profile_reader(dump: Path, top: int) -> dict:
    """Run the reader in-process under cProfile (after a warm-up); return report and stages."""
    from reprobe.wikipedia.plan import plan_shards
    from reprobe.wikipedia.shard import ShardOutputs, read_shard

    warm_up(dump)
    plan = plan_shards(dump, None, 1, BLOCK_PAGES)
    profiler = cProfile.Profile()
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        profiler.enable()
        read_shard(plan, 0, ShardOutputs.in_folder(Path(tmp)), progress=False)
        profiler.disable()
        wall = time.perf_counter() - start
    report = io.StringIO()
    stats = pstats.Stats(profiler, stream=report)
    stats.sort_stats("cumulative").print_stats(top)
    stages = stage_times(stats)
    total = cumulative(stats, SHARD, "read_shard")
    imports = cumulative(stats, "<frozen importlib._bootstrap>", "_find_and_load")
    return {"input": str(dump), "wall_s_under_profiler": wall, "total_s": total,
            "imports_s": imports,
            "by_stage": [{"stage": s, "seconds": t, "share": t / total} for s, t in stages],
            "top_cumulative": report.getvalue()}


def profile_text(profile: dict) -> str:
    """The profile as printed text: stages then the top functions by cumulative time."""
    lines = [f"profile of the reader on {profile['input']} "
             f"({profile['wall_s_under_profiler']:.1f} s under cProfile); time by stage:"]
    lines += [f"  {row['share']:6.1%}  {row['seconds']:7.2f} s  {row['stage']}"
              for row in profile["by_stage"]]
    lines.append(f"  (module imports on first use, inside the stages above: "
                 f"{profile['imports_s']:.2f} s)")
    return "\n".join(lines) + "\n" + _trim_profile(profile["top_cumulative"])


def _trim_profile(report: str) -> str:
    """The pstats report from its header line on, with long paths shortened."""
    lines = report.splitlines()
    start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
    prefixes = sorted({str(Path(p)) + "/" for p in sys.path if p}, key=len, reverse=True)
    out = []
    for line in lines[start:]:
        for prefix in prefixes:
            line = line.replace(prefix, "")
        out.append(line.rstrip())
    return "\n".join(out).rstrip() + "\n"


# --- reporting --------------------------------------------------------------------------------


def machine() -> dict:
    """The machine (see harness.machine) and a fingerprint of the reader's code."""
    digest = hashlib.sha256()
    for path in sorted((REPO / "workflow" / "reprobe" / "wikipedia").glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return {**harness.machine(), "reader_source_sha256": digest.hexdigest()[:12]}


COLUMNS = ("tool", "input", "wall s", "CPU s", "compressed MB/s", "uncompressed MB/s", "pages/s",
           "compressed MB per CPU-s", "peak RSS MB")


def table_rows(runs: list[Run]) -> list[tuple[str, ...]]:
    """The figures of each run as table cells."""
    return [(r.tool, r.input, f"{r.wall_s:.2f}", f"{r.cpu_s:.2f}", f"{r.compressed_mb_s:.2f}",
             f"{r.uncompressed_mb_s:.2f}", f"{r.pages_s:.1f}", f"{r.per_core_mb_s:.2f}",
             f"{r.peak_rss_mb:.0f}") for r in runs]


def plain_table(rows: list[tuple[str, ...]]) -> str:
    """A fixed-width text table."""
    cells = [COLUMNS, *rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(COLUMNS))]
    return "\n".join("  ".join(c.rjust(w) if i else c.ljust(w)
                               for i, (c, w) in enumerate(zip(row, widths, strict=True)))
                     for row in cells)


def ratios(runs: dict[str, Run]) -> list[tuple[str, float, str]]:
    """(name, value, target verdict) for each ratio the available runs allow."""
    out: list[tuple[str, float, str]] = []
    reprobe, wex, floor = runs.get("reprobe"), runs.get("wikiextractor"), runs.get("bzcat")
    small = runs.get("reprobe-small")
    if reprobe and wex:
        per_core = reprobe.per_core_mb_s / wex.per_core_mb_s
        out.append(("reprobe / WikiExtractor, per-core throughput (MB per CPU-s)", per_core,
                    "target >= 1: " + ("met" if per_core >= 1 else "NOT met")))
        out.append(("reprobe / WikiExtractor, wall-clock throughput",
                     reprobe.compressed_mb_s / wex.compressed_mb_s, ""))
    if reprobe and floor:
        out.append(("reprobe / bzcat, wall-clock throughput",
                    reprobe.compressed_mb_s / floor.compressed_mb_s, ""))
    if reprobe and small:
        rss = reprobe.peak_rss_bytes / small.peak_rss_bytes
        out.append(("reprobe peak RSS, big dump / 6 MB excerpt", rss,
                    "target <= 1.5: " + ("met" if rss <= 1.5 else "NOT met")))
    return out


def inputs_text(big: DumpInfo | None, small: DumpInfo) -> list[str]:
    """One line per input: sizes and pages."""
    lines = [f"small: the gensim excerpt, {small.compressed_mb:.2f} MB bz2, "
             f"{small.uncompressed_mb:.2f} MB XML, {small.pages} pages"]
    if big is not None:
        lines.append(f"big: {Path(big.path).name}, {big.compressed_mb:.2f} MB bz2, "
                     f"{big.uncompressed_mb:.2f} MB XML, {big.pages} pages "
                     f"({big.copies:.2f} copies of the excerpt)")
    return lines


def markdown_block(report: dict, runs: list[Run], profile: dict | None) -> str:
    """The figures as Markdown, ready to paste into docs/benchmarks.md."""
    source = (", reader source (workflow/reprobe/wikipedia/*.py) sha256 "
              f"{report['machine']['reader_source_sha256']}")
    parts = [
        *harness.provenance(report["command"], report["date"], report["machine"], source),
        "",
        "Inputs (MB = 10^6 bytes):",
        "",
        *[f"- {line}" for line in report["inputs"]],
        "",
    ]
    if runs:
        parts += [f"Each tool ran {report['repeat']} time(s), one at a time, round-robin; "
                  "wall and CPU seconds are the least over the repeats, peak RSS (summed over "
                  "the process tree) the largest. Throughputs are over wall time except "
                  "\"compressed MB per CPU-s\" (per-core throughput); pages/s counts every "
                  "<page> of the dump.", "",
                  harness.markdown_table(COLUMNS, table_rows(runs)), ""]
    if report["ratios"]:
        parts += [harness.markdown_table(("ratio", "value", "target"),
                                         [(r["name"], f"{r['value']:.2f}", r["verdict"])
                                          for r in report["ratios"]]), ""]
    if profile is not None:
        parts += [f"Profile of the reader on the 6 MB excerpt (cProfile, "
                  f"{profile['wall_s_under_profiler']:.1f} s under the profiler), time by stage "
                  "(cumulative time of each stage's entry point; the profiler inflates "
                  "Python-heavy stages):", ""]
        parts += [harness.markdown_table(
            ("stage", "seconds", "share"),
            [(row["stage"], f"{row['seconds']:.2f}", f"{row['share']:.1%}")
             for row in profile["by_stage"]]), ""]
        parts += ["The profiled run follows an unprofiled warm-up on the excerpt's first 20 "
                  "pages, so one-off imports (pyarrow imports pandas on its first record batch) "
                  f"are mostly done: {profile['imports_s']:.2f} s of imports remain inside the "
                  "stages above.", ""]
        parts += ["<details><summary>Top 15 functions by cumulative time</summary>", "",
                  "```", _trim_profile(profile["top_cumulative"]).rstrip(), "```", "",
                  "</details>", ""]
    return "\n".join(parts).rstrip() + "\n"


# --- command line -----------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The command-line options."""
    parser = harness.new_parser(
        __doc__, prog="benchmarks/wikipedia_reader.py",
        epilog="Example: python benchmarks/wikipedia_reader.py --target-mb 100 --repeat 3 "
        "--profile --json benchmarks/work/wikipedia_reader.json --update-readme")
    parser.add_argument("--target-mb", type=float, default=100.0,
                        help="uncompressed XML size of the big dump in MB (10**6 bytes); it is "
                        "built once and cached under --work-dir (default %(default)s)")
    parser.add_argument("--work-dir", type=Path, default=HERE / "work",
                        help="cache of built dumps and scratch output, git-ignored "
                        "(default benchmarks/work)")
    parser.add_argument("--rebuild", action="store_true",
                        help="rebuild the big dump even if a cached one matches")
    parser.add_argument("--tools", default=",".join(TOOLS),
                        help="comma-separated subset of " + ", ".join(TOOLS) +
                        " (default all); ratios need both of their tools")
    parser.add_argument("--interval", type=float, default=0.05,
                        help="seconds between RSS samples of the process tree (default 0.05)")
    parser.add_argument("--profile", action="store_true",
                        help="also run the reader in-process under cProfile on the 6 MB excerpt "
                        "and print the top functions by cumulative time and time by stage")
    parser.add_argument("--profile-only", action="store_true",
                        help="only the profile: run no timed tools (implies --profile)")
    parser.add_argument("--top", type=int, default=15,
                        help="functions to list in the profile (default 15)")
    harness.add_report_options(
        parser, noun="tool", keeps="the least wall and CPU seconds and the largest peak RSS",
        json_help="also write every figure, the machine and the profile as JSON",
        section=SECTION)
    parser.add_argument("--keep-outputs", action="store_true",
                        help="keep the tools' output under --work-dir/run (deleted by default)")
    return parser


def selected_tools(spec: str) -> list[str]:
    """The tools named in --tools, in their fixed order."""
    names = {name.strip() for name in spec.split(",") if name.strip()}
    unknown = names - set(TOOLS)
    if unknown:
        raise SystemExit(f"unknown tools {sorted(unknown)}; choose from {', '.join(TOOLS)}")
    return [tool for tool in TOOLS if tool in names]


def run_tool(tool: str, big: DumpInfo | None, small: DumpInfo, run_dir: Path,
             args: argparse.Namespace) -> Run:
    """One timed run of one tool."""
    if tool == "reprobe-small":
        return run_reprobe(small, "small", run_dir, args.interval, args.keep_outputs)
    assert big is not None
    if tool == "bzcat":
        return run_bzcat(big, "big", run_dir, args.interval)
    if tool == "reprobe":
        return run_reprobe(big, "big", run_dir, args.interval, args.keep_outputs)
    return run_wikiextractor(big, "big", run_dir, args.interval, args.keep_outputs)


def best_of(runs: list[Run]) -> Run:
    """One run's figures from repeats: least wall and CPU seconds, largest peak RSS."""
    best = harness.best_of(runs)
    best.extra = {**best.extra, "repeats": len(runs)}
    return best


def run_tools(tools: list[str], big: DumpInfo | None, small: DumpInfo,
              args: argparse.Namespace) -> tuple[list[Run], list[Run]]:
    """Run the tools one at a time, round-robin over repeats; return (best of each, all runs)."""
    run_dir = args.work_dir / "run"
    run_dir.mkdir(parents=True, exist_ok=True)

    def run_one(tool: str) -> Run:
        load = os.getloadavg()[0]
        run = run_tool(tool, big, small, run_dir, args)
        run.extra["load_average_before"] = load
        return run

    every = harness.round_robin(tools, args.repeat, run_one, lambda run: (
        f"{run.wall_s:.1f} s wall, {run.cpu_s:.1f} s CPU, {run.peak_rss_mb:.0f} MB peak RSS"))
    return [best_of(every[tool]) for tool in tools], [r for rs in every.values() for r in rs]


def main(argv: list[str] | None = None) -> int:
    """Build the input, run the tools, print (and optionally save) figures and ratios."""
    args = build_parser().parse_args(argv)
    tools = [] if args.profile_only else selected_tools(args.tools)
    command = harness.command_line("benchmarks/wikipedia_reader.py", argv)
    small = excerpt_info()
    big = None
    if set(tools) - {"reprobe-small"}:
        print(f"building/reusing the {args.target_mb:g} MB dump ...", file=sys.stderr)
        big = build_dump(args.target_mb, args.work_dir, rebuild=args.rebuild)
    report: dict = {"command": command, "date": harness.now(),
                    "repeat": args.repeat,
                    "machine": machine(), "inputs": inputs_text(big, small),
                    "dumps": {"big": asdict(big) if big else None, "small": asdict(small)}}
    runs, every = run_tools(tools, big, small, args)
    report["runs"] = [run.figures() for run in runs]
    report["every_run"] = [run.figures() for run in every]
    report["ratios"] = [{"name": n, "value": v, "verdict": t}
                        for n, v, t in ratios({run.tool: run for run in runs})]
    profile = None
    if args.profile or args.profile_only:
        print("profiling the reader on the excerpt ...", file=sys.stderr, flush=True)
        profile = profile_reader(Path(small.path), args.top)
    report["profile"] = profile

    print("\n".join(report["inputs"]))
    if runs:
        print("\n" + plain_table(table_rows(runs)))
    for ratio in report["ratios"]:
        print(f"{ratio['name']}: {ratio['value']:.2f}  {ratio['verdict']}")
    if profile is not None:
        print("\n" + profile_text(profile))
    block = markdown_block(report, runs, profile)
    print("\n----- Markdown for docs/benchmarks.md -----\n" + block + "-----")
    harness.save(args, SECTION, block, report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
