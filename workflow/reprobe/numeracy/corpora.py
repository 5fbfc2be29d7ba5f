"""The Num and All training corpora of Naik et al. (2019, §3.1), built shard by shard.

Num is every sentence with at least one numeral, Arabic or English (`sentence_has_numeral`).
All is a seeded uniform sample of all sentences, numerals or not, with as many sentences as Num,
so about as many tokens (the paper: 56M sentences and 1.5B tokens each). `max_sentences` caps
both; Num is then a seeded uniform sample of the sentences with a numeral.

Sources are Wikipedia sentence shards (Parquet with a `tokens` list column, see
`reprobe.wikipedia.shard`) and, optionally, plain-text corpora such as GigaWord (one sentence a
line, tokens separated by whitespace, gzip if the name ends in `.gz`). A plain-text corpus is one
more source beside the shards, counted and sampled by the same rules (`build_corpora` takes it as
`extra_text` and makes it the last source).

Output: one sentence a line, tokens joined by single spaces, optionally lowercased: what gensim's
`corpus_file` and the GloVe tools read. Whitespace inside a token splits it, as those readers
would; sentences without tokens are left out (and not counted).

Sampling without holding the corpus in memory, in three streaming steps:
1. `count_shard`, per source: sentences and tokens, in all and with a numeral (a JSON).
2. `select_shard`, per source, from every source's counts: the target size T (Num's, capped by
   `max_sentences`) is split into per-source quotas proportional to source size, rounded by
   largest remainder so that they add up to T exactly: a proportionate stratified sample, in
   which every sentence is kept with probability T/total up to rounding. A source keeps its quota
   q of its n sentences by selection sampling (Knuth's Algorithm S: keep the i-th sentence with
   probability (q - kept) / (n - i)), which keeps exactly q, uniformly, in one pass and constant
   memory. Its random stream is keyed by (seed, corpus, source index), so every source can run
   as its own job and a rerun writes the same bytes.
3. `concatenate_corpora`: the sources' parts, in source order, into the two corpora and stats.
`build_corpora` runs the three steps in one process.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import pyarrow as pa
import pyarrow.parquet as pq

from reprobe.embeddings.corpus import iter_token_lines
from reprobe.errors import InputFormatError
from reprobe.io import atomic_path, atomic_write_text
from reprobe.numerals import sentence_has_numeral

COUNT_KEYS = ("sentences", "tokens", "num_sentences", "num_tokens")
BATCH_ROWS = 20_000
COPY_BUFFER = 1 << 20


@dataclass(frozen=True)
class ShardPart:
    """Where one source's share of the corpora goes."""

    num: Path
    all: Path
    stats: Path

    @classmethod
    def in_folder(cls, folder: Path) -> ShardPart:
        """The standard file names inside a source's folder."""
        return cls(folder / "num.txt", folder / "all.txt", folder / "stats.json")


def iter_sentences(source: Path) -> Iterator[tuple[list[str], str]]:
    """(tokens, line) for each non-empty sentence of a Parquet shard or a plain-text corpus."""
    source = Path(source)
    reader = _parquet_token_lists if source.suffix == ".parquet" else iter_token_lines
    for tokens in reader(source):
        # Splitting the joined tokens again makes the line exactly what a whitespace reader sees.
        parts = " ".join(tokens).split()
        if parts:
            yield parts, " ".join(parts)


def _parquet_token_lists(path: Path) -> Iterator[list[str]]:
    """The `tokens` column of a sentences Parquet file, row by row, in batches."""
    try:
        parquet = pq.ParquetFile(path)
    except (pa.ArrowException, OSError) as exc:
        raise InputFormatError(path, "file", f"not a readable Parquet file ({exc})") from exc
    schema = parquet.schema_arrow
    if "tokens" not in schema.names or not pa.types.is_list(schema.field("tokens").type):
        raise InputFormatError(path, "schema", "expected a column 'tokens' of type list<string>")
    row = 0
    for batch in parquet.iter_batches(batch_size=BATCH_ROWS, columns=["tokens"]):
        for tokens in batch.column(0).to_pylist():
            if tokens is None or any(token is None for token in tokens):
                raise InputFormatError(path, f"row {row}", "tokens is null or holds a null")
            yield tokens
            row += 1


def count_shard(source: Path, counts_out: Path) -> dict[str, int]:
    """Count a source's sentences and tokens, in all and with a numeral; write them as JSON."""
    counts = dict.fromkeys(COUNT_KEYS, 0)
    for tokens, line in iter_sentences(source):
        counts["sentences"] += 1
        counts["tokens"] += len(tokens)
        if sentence_has_numeral(tokens, line):
            counts["num_sentences"] += 1
            counts["num_tokens"] += len(tokens)
    atomic_write_text(counts_out, json.dumps(counts, indent=1) + "\n")
    return counts


def read_counts(path: Path) -> dict[str, int]:
    """A counts JSON written by `count_shard`, checked."""
    try:
        counts = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputFormatError(path, "file", f"not a readable JSON file ({exc})") from exc
    if not isinstance(counts, dict):
        raise InputFormatError(path, "top level", "expected an object of counts")
    for key in COUNT_KEYS:
        if not isinstance(counts.get(key), int) or counts[key] < 0:
            raise InputFormatError(path, f"key {key!r}", "expected a non-negative integer")
    return {key: counts[key] for key in COUNT_KEYS}


def allocate(target: int, sizes: Sequence[int]) -> list[int]:
    """Split `target` into quotas proportional to `sizes`, adding up exactly (largest remainder)."""
    total = sum(sizes)
    if not 0 <= target <= total:
        raise ValueError(f"cannot take {target} of {total}")
    if total == 0:
        return [0] * len(sizes)
    quotas = [target * size // total for size in sizes]
    # Ties in the remainder go to the earlier source, so the split is deterministic.
    order = sorted(range(len(sizes)), key=lambda k: (-(target * sizes[k] % total), k))
    for k in order[: target - sum(quotas)]:
        quotas[k] += 1
    return quotas


def plan_quotas(counts: Sequence[dict[str, int]], max_sentences: int | None) -> list[dict]:
    """Per source, how many Num and All sentences to keep: {"num": q, "all": q}."""
    if max_sentences is not None and max_sentences < 0:
        raise ValueError(f"max_sentences must be at least 0, not {max_sentences}")
    with_numeral = [c["num_sentences"] for c in counts]
    target = sum(with_numeral) if max_sentences is None else min(sum(with_numeral), max_sentences)
    num = allocate(target, with_numeral)
    every = allocate(target, [c["sentences"] for c in counts])
    return [{"num": n, "all": a} for n, a in zip(num, every, strict=True)]


class SelectionSampler:
    """Keep exactly `quota` of `population` items met one by one, uniformly (Algorithm S)."""

    def __init__(self, rng: random.Random, population: int, quota: int) -> None:
        self.rng = rng
        self.population = population
        self.quota = quota
        self.seen = 0
        self.kept = 0

    def take(self) -> bool:
        """Whether to keep the next item."""
        remaining = self.population - self.seen
        wanted = self.quota - self.kept
        self.seen += 1
        # Draw only when the answer is uncertain: all-or-nothing cases cost no random number.
        if wanted <= 0 or remaining <= 0:
            return False
        if wanted >= remaining or self.rng.random() * remaining < wanted:
            self.kept += 1
            return True
        return False


def _rng(seed: int, corpus: str, shard_index: int) -> random.Random:
    """The random stream of one corpus in one source (string seeds hash the same everywhere)."""
    # The module's first name stays in the seed string, so the samples stay the same bytes.
    return random.Random(f"reprobe.corpora.numall:{seed}:{corpus}:{shard_index}")


def select_shard(
    source: Path,
    num_out: Path,
    all_out: Path,
    stats_out: Path,
    *,
    counts: Sequence[Path],
    shard_index: int,
    seed: int,
    max_sentences: int | None,
    lowercase: bool,
) -> dict:
    """Write one source's Num lines and All sample, given every source's counts (in order)."""
    all_counts = [read_counts(path) for path in counts]
    if not 0 <= shard_index < len(all_counts):
        raise ValueError(f"shard_index {shard_index} outside the {len(all_counts)} sources")
    mine = all_counts[shard_index]
    quota = plan_quotas(all_counts, max_sentences)[shard_index]
    num_sampler = SelectionSampler(_rng(seed, "num", shard_index), mine["num_sentences"],
                                   quota["num"])
    all_sampler = SelectionSampler(_rng(seed, "all", shard_index), mine["sentences"],
                                   quota["all"])
    stats = {"shard": shard_index, "num": {"sentences": 0, "tokens": 0},
             "all": {"sentences": 0, "tokens": 0}}
    with atomic_path(num_out) as num_tmp, atomic_path(all_out) as all_tmp, \
            _open_text(num_tmp) as num_file, _open_text(all_tmp) as all_file:
        seen = with_numeral = 0
        for tokens, line in iter_sentences(source):
            seen += 1
            text = line.lower() if lowercase else line
            if sentence_has_numeral(tokens, line):
                with_numeral += 1
                if num_sampler.take():
                    _write(num_file, text, len(tokens), stats["num"])
            if all_sampler.take():
                _write(all_file, text, len(tokens), stats["all"])
        # Counts from another version of the source would bias the sample: refuse them.
        if (seen, with_numeral) != (mine["sentences"], mine["num_sentences"]):
            raise InputFormatError(
                source, f"source {shard_index}",
                f"has {seen} sentences ({with_numeral} with a numeral) but its counts say "
                f"{mine['sentences']} ({mine['num_sentences']}): count it again")
    atomic_write_text(stats_out, json.dumps(stats, indent=1) + "\n")
    return stats


def _open_text(path: Path) -> TextIO:
    """A UTF-8 text file for writing, with "\\n" line ends on every platform."""
    return open(path, "w", encoding="utf-8", newline="\n")


def _write(file: TextIO, line: str, tokens: int, stats: dict[str, int]) -> None:
    """Write one sentence line and count it."""
    file.write(line)
    file.write("\n")
    stats["sentences"] += 1
    stats["tokens"] += tokens


def concatenate_corpora(
    shard_parts: Sequence[ShardPart], out_num: Path, out_all: Path, stats_out: Path
) -> dict:
    """Concatenate the sources' parts, in order, into the Num and All corpora; sum their stats."""
    totals = {"shards": len(shard_parts), "num": {"sentences": 0, "tokens": 0},
              "all": {"sentences": 0, "tokens": 0}}
    for part in shard_parts:
        try:
            stats = json.loads(Path(part.stats).read_text(encoding="utf-8"))
            for corpus in ("num", "all"):
                for key in ("sentences", "tokens"):
                    totals[corpus][key] += int(stats[corpus][key])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise InputFormatError(part.stats, "file", f"not a shard's stats ({exc})") from exc
    for out, name in ((out_num, "num"), (out_all, "all")):
        with atomic_path(out) as tmp, open(tmp, "wb") as sink:
            for part in shard_parts:
                with open(getattr(part, name), "rb") as piece:
                    shutil.copyfileobj(piece, sink, COPY_BUFFER)
    atomic_write_text(stats_out, json.dumps(totals, indent=1) + "\n")
    return totals


def build_corpora(
    shards: Sequence[Path],
    out_num: Path,
    out_all: Path,
    stats_out: Path,
    *,
    work_dir: Path,
    seed: int,
    max_sentences: int | None,
    lowercase: bool,
    extra_text: Path | None,
) -> dict:
    """Count, select and concatenate in one process; `extra_text` is one more, last, source."""
    sources = [*map(Path, shards), *([Path(extra_text)] if extra_text is not None else [])]
    folders = [Path(work_dir) / f"{k:04d}" for k in range(len(sources))]
    counts = [folder / "counts.json" for folder in folders]
    for source, path in zip(sources, counts, strict=True):
        count_shard(source, path)
    parts = [ShardPart.in_folder(folder) for folder in folders]
    for k, (source, part) in enumerate(zip(sources, parts, strict=True)):
        select_shard(source, part.num, part.all, part.stats, counts=counts, shard_index=k,
                     seed=seed, max_sentences=max_sentences, lowercase=lowercase)
    return concatenate_corpora(parts, out_num, out_all, stats_out)
