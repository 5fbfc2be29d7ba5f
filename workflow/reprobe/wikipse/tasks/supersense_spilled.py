"""The supersense dataset's counts in bounded memory: the corpus's (word, noun supersense)
token counts spilled to Parquet a stretch at a time, then summed and filtered with DuckDB.

UKP's corpus (500,000 articles) holds millions of distinct (word, supersense) pairs; one Counter
of them all grew with the corpus. Here a stretch of files is counted until its Counter holds
PAIRS_HELD pairs, then written as a Parquet chunk into a spill folder beside the outputs
(removed at the end; one a killed run left is removed first). DuckDB sums the chunks within
MEMORY_MB, spilling beyond it, and hands Python only what the dataset needs: the words at or
above the minimum frequency (the selection draws from them), the 26 per-supersense totals and
the annotated words' summary numbers. The dataset built from them is the one the whole Counter
gave (`frequent_words`, `supersense_tokens`, `summary(supersense_words(...))`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from reprobe.wikipedia.spilled import (
    BATCH_ROWS,
    duckdb_within,
    parquet_list,
    spill_folder,
)
from reprobe.wikipse.resource.dataset import summary_of_counts
from reprobe.wikipse.resource.release import WordClasses
from reprobe.wikipse.tasks.supersense import CLASS_PREFIX, CorpusCounts, count_stretches

# Distinct (word, supersense) pairs a stretch counts before it is spilled: ~10 MB of Counter.
PAIRS_HELD = 50_000
# DuckDB's budget for summing the chunks (the rule's job has no memory setting of its own).
MEMORY_MB = 64
PAIRS_SCHEMA = pa.schema([("word", pa.string()), ("sense", pa.string()), ("count", pa.int64())])


@dataclass
class SupersenseCounts:
    """What the dataset and its card take from the corpus."""

    corpus: CorpusCounts  # its totals; no pairs held
    frequent: WordClasses  # word → {"-noun.x": tokens}, words at the minimum frequency or above
    annotated: dict[str, float]  # `summary` of every annotated word
    supersenses: dict[str, int]  # noun tokens per supersense, by name


def write_chunk(pairs: Mapping[tuple[str, str], int], path: Path) -> None:
    """(word, sense, count) rows of a stretch's pairs as one Parquet file (any order)."""
    table = pa.table({"word": [word for word, _ in pairs], "sense": [sense for _, sense in pairs],
                      "count": list(pairs.values())}, schema=PAIRS_SCHEMA)
    pq.write_table(table, path, compression="zstd")


def spill_corpus(root: Path, folder: Path, held: int = PAIRS_HELD
                 ) -> tuple[CorpusCounts, list[Path]]:
    """The corpus's totals, its pairs written a stretch at a time as chunks into folder (at
    least one, maybe empty)."""
    totals = CorpusCounts()
    chunks: list[Path] = []
    for stretch in count_stretches(root, held):
        chunks.append(Path(folder) / f"pairs-{len(chunks):06d}.parquet")
        write_chunk(stretch.pairs, chunks[-1])
        stretch.pairs = Counter()  # written: only the totals are added up
        totals.add(stretch)
    return totals, chunks


def read_summed(connection: Any, chunks: Sequence[Path], min_frequency: int
                ) -> tuple[WordClasses, dict[str, float], dict[str, int]]:
    """The chunks summed by (word, sense): the frequent words with their supersenses, the
    annotated words' summary and the tokens per supersense."""
    connection.execute("CREATE TEMP TABLE pairs AS SELECT word, sense, CAST(sum(count) AS "
                       f"BIGINT) AS n FROM read_parquet({parquet_list(chunks)}) "
                       "GROUP BY word, sense")
    # A word's annotated noun tokens are the sum of its supersense counts, as WIKI-PSE's are.
    connection.execute("CREATE TEMP TABLE words AS SELECT word, CAST(sum(n) AS BIGINT) AS "
                       "total, count(*) AS senses FROM pairs GROUP BY word")
    words, pairs, multi = connection.execute(
        "SELECT count(*), coalesce(CAST(sum(senses) AS BIGINT), 0), "
        "count(*) FILTER (WHERE senses > 1) FROM words").fetchall()[0]
    tokens = connection.execute("SELECT sense, CAST(sum(n) AS BIGINT) FROM pairs "
                                "GROUP BY sense").fetchall()
    frequent: WordClasses = {}
    query = ("SELECT p.word, p.sense, p.n FROM pairs p JOIN words w ON w.word = p.word "
             "WHERE w.total >= ? ORDER BY p.word, p.sense")
    for batch in connection.sql(query, params=[min_frequency]).to_arrow_reader(BATCH_ROWS):
        for word, sense, n in zip(*(batch.column(i).to_pylist() for i in range(3)),
                                  strict=True):
            frequent.setdefault(word, {})[CLASS_PREFIX + sense] = int(n)
    return (frequent, summary_of_counts(int(words), int(pairs), int(multi)),
            {sense: int(n) for sense, n in sorted(tokens)})


def corpus_supersenses(root: Path, min_frequency: int, near: Path, held: int | None = None,
                       memory_mb: int | None = None) -> SupersenseCounts:
    """The corpus counted a stretch of `held` pairs (PAIRS_HELD) at a time into a spill folder
    beside `near` (the outputs), summed within `memory_mb` (MEMORY_MB); the folder removed
    after."""
    with spill_folder(near) as folder:
        totals, chunks = spill_corpus(root, folder, PAIRS_HELD if held is None else held)
        budget = MEMORY_MB if memory_mb is None else memory_mb
        with duckdb_within(budget, folder) as connection:
            frequent, annotated, supersenses = read_summed(connection, chunks, min_frequency)
    return SupersenseCounts(totals, frequent, annotated, supersenses)
