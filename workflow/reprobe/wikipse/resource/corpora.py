"""The WIKI-PSE corpora of one Wikipedia shard (Yaghoobzadeh et al. 2019, §3 and §4.1).

"For the corpus, we include only sentences with at least one annotated mention", lowercased. A
mention is annotated when its link target (redirects resolved) has an S-class. In the word
corpus each annotated mention is one token `@surface_form@` (spaces → `_`, so a multiword link is
one token); in the word/S-class corpus the same token carries its class, `@surface_form@-class`.
Unlinked words, and linked mentions whose target has no S-class, stay as they are.

A mention whose target has several S-classes counts once for each in the dataset's frequencies;
in the word/S-class corpus it needs one token, and takes the class that comes first in the class
order given (the released classes by descending frequency): the paper does not say.

Per shard: the two corpora (one sentence a line), the annotated mentions counted by
(word, S-class), and the word corpus's token counts (for the vocabulary and min frequency).

Memory. A shard job holds its own links and only the redirects and typed targets of its own
link targets: the gathered redirects table (~10M rows at paper scale) and the typed targets are
read filtered, never whole. The gather sums the shards' count tables with DuckDB within the
configured memory (`wikipedia.gather_memory_mb`), spilling to disk beyond it
(reprobe.wikipedia.spilled): the vocabulary of the whole dump is never held at once.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from reprobe.io import atomic_path, atomic_write_text
from reprobe.wikipedia.spilled import (
    BATCH_ROWS,
    duckdb_within,
    parquet_list,
    parquet_with_columns,
    write_query,
)
from reprobe.wikipse.resource.typing import read_typed_targets

MENTION_COUNTS_SCHEMA = pa.schema([("word", pa.string()), ("sclass", pa.string()),
                                   ("freq", pa.int64())])
TOKEN_COUNTS_SCHEMA = pa.schema([("token", pa.string()), ("count", pa.int64())])


class Link(NamedTuple):
    """A linked mention: its token span in the sentence, surface text and target title."""

    start: int
    end: int
    surface: str
    target: str


class ShardCorpora(NamedTuple):
    """Where one shard's corpora and counts go."""

    words: Path
    sclasses: Path
    mentions: Path
    tokens: Path
    stats: Path


def mention_token(surface: str) -> str:
    """`@new_york@` for the surface form "New York": lowercased, spaces joined by `_`."""
    return "@" + "_".join(surface.lower().split()) + "@"


def sclass_token(word: str, sclass: str) -> str:
    """`@new_york@-location`: a mention token with its S-class."""
    return f"{word}{sclass}"


LINK_COLUMNS = ["page_id", "sentence_index", "token_start", "token_end", "surface", "target"]


def read_redirects(path: Path, titles: pa.Array) -> dict[str, str]:
    """Title → final target for the given titles only, streaming the gathered redirects table
    (a title listed twice keeps its last row)."""
    found: dict[str, str] = {}
    for batch in parquet_with_columns(path, ["title", "target"]).iter_batches(
            batch_size=BATCH_ROWS, columns=["title", "target"]):
        wanted = batch.filter(pc.is_in(batch.column(0), value_set=titles))
        found.update(zip(wanted.column(0).to_pylist(), wanted.column(1).to_pylist(),
                         strict=True))
    return found


def shard_links(path: Path, redirects: Path) -> dict[tuple[int, int], list[Link]]:
    """The shard's links by (page, sentence), targets resolved through the gathered redirects
    (only those of the shard's own targets are read), in order."""
    table = parquet_with_columns(path, LINK_COLUMNS).read(columns=LINK_COLUMNS)
    resolved = read_redirects(redirects, pc.unique(table["target"]))
    links: dict[tuple[int, int], list[Link]] = defaultdict(list)
    for page, sentence, start, end, surface, target in zip(
            *(table[name].to_pylist() for name in LINK_COLUMNS), strict=True):
        links[(page, sentence)].append(Link(start, end, surface, resolved.get(target, target)))
    for found in links.values():
        found.sort()
    return links


Annotated = tuple[list[str], list[str], list[tuple[str, list[str]]]]


def annotate(tokens: Sequence[str], links: Sequence[Link], typed: Mapping[str, Sequence[str]],
             class_rank: Mapping[str, int]) -> Annotated:
    """The sentence's word and word/S-class token lists and its annotated mentions
    (word token, S-classes); lowercased. No annotated mention: three empty lists."""
    words: list[str] = []
    sclasses: list[str] = []
    mentions: list[tuple[str, list[str]]] = []
    position = 0
    for link in links:
        classes = typed.get(link.target)
        # Overlapping or empty spans cannot be one token; untyped links stay plain words.
        if not classes or link.start < position or link.end <= link.start:
            continue
        plain = [t.lower() for t in tokens[position:link.start]]
        words += plain
        sclasses += plain
        word = mention_token(link.surface)
        ordered = sorted(classes, key=lambda c: (class_rank.get(c, len(class_rank)), c))
        words.append(word)
        sclasses.append(sclass_token(word, ordered[0]))
        mentions.append((word, ordered))
        position = link.end
    if not mentions:
        return [], [], []
    rest = [t.lower() for t in tokens[position:]]
    return words + rest, sclasses + rest, mentions


def build_shard_corpora(
    sentences: Path, links: Path, redirects: Path, typed_targets: Path,
    class_order: Sequence[str], out: ShardCorpora,
) -> dict[str, int]:
    """Write one shard's two corpora, mention counts and token counts; return its counts."""
    by_sentence = shard_links(links, redirects)
    targets = {link.target for found in by_sentence.values() for link in found}
    typed = read_typed_targets(typed_targets, only=pa.array(list(targets), pa.string()))
    rank = {c: i for i, c in enumerate(class_order)}
    mentions: Counter[tuple[str, str]] = Counter()
    tokens: Counter[str] = Counter()
    stats = Counter()
    with atomic_path(out.words) as words_tmp, atomic_path(out.sclasses) as classes_tmp, \
            words_tmp.open("w", encoding="utf-8") as words_out, \
            classes_tmp.open("w", encoding="utf-8") as classes_out:
        for batch in pq.ParquetFile(sentences).iter_batches(
                columns=["page_id", "sentence_index", "tokens"]):
            for page, index, sentence in zip(*(c.to_pylist() for c in batch.columns),
                                             strict=True):
                stats["sentences"] += 1
                found = by_sentence.get((page, index), [])
                word_line, class_line, annotated = annotate(sentence, found, typed, rank)
                if not annotated:
                    continue
                stats["sentences_kept"] += 1
                stats["annotated_mentions"] += len(annotated)
                words_out.write(" ".join(word_line) + "\n")
                classes_out.write(" ".join(class_line) + "\n")
                tokens.update(word_line)
                mentions.update((word, c) for word, classes in annotated for c in classes)
    stats["tokens"] = sum(tokens.values())
    write_counts(mentions, out.mentions)
    write_token_counts(tokens, out.tokens)
    atomic_write_text(out.stats, json.dumps(dict(sorted(stats.items())), indent=1) + "\n")
    return dict(stats)


def write_counts(mentions: Mapping[tuple[str, str], int], path: Path) -> None:
    """(word, S-class, freq) rows as Parquet, sorted."""
    keys = sorted(mentions)
    with atomic_path(path) as tmp:
        pq.write_table(pa.table({"word": [w for w, _ in keys], "sclass": [c for _, c in keys],
                                 "freq": [mentions[k] for k in keys]},
                                schema=MENTION_COUNTS_SCHEMA), tmp, compression="zstd")


def write_token_counts(tokens: Mapping[str, int], path: Path) -> None:
    """(token, count) rows as Parquet, sorted by token."""
    keys = sorted(tokens)
    with atomic_path(path) as tmp:
        pq.write_table(pa.table({"token": keys, "count": [tokens[k] for k in keys]},
                                schema=TOKEN_COUNTS_SCHEMA), tmp, compression="zstd")


def concatenate(parts: Iterable[Path], out: Path) -> int:
    """Concatenate shard corpora in shard order into one file; the number of lines."""
    lines = 0
    with atomic_path(out) as tmp, tmp.open("wb") as handle:
        for part in parts:
            with Path(part).open("rb") as source:
                for line in source:
                    handle.write(line)
                    lines += 1
    return lines


def gather_corpora(shards: Sequence[Path], folder: Path, memory_mb: int) -> dict[str, int]:
    """The shards' corpora concatenated in order, their counts summed (in `memory_mb`, spilling
    beyond), into folder."""
    folder = Path(folder)
    lines = {corpus: concatenate([Path(s) / f"{corpus}.txt" for s in shards],
                                 folder / f"{corpus}.txt") for corpus in ("word", "sclass")}
    write_summed_counts([Path(s) / "mentions.parquet" for s in shards], MENTION_COUNTS_SCHEMA,
                        folder / "mentions.parquet", memory_mb)
    write_summed_counts([Path(s) / "tokens.parquet" for s in shards], TOKEN_COUNTS_SCHEMA,
                        folder / "tokens.parquet", memory_mb)
    stats: Counter[str] = Counter()
    for shard in shards:
        stats.update(json.loads((Path(shard) / "stats.json").read_text(encoding="utf-8")))
    stats["shards"] = len(shards)
    if lines["word"] != lines["sclass"]:
        raise ValueError(f"{folder}: the two corpora differ in length ({lines})")
    atomic_write_text(folder / "stats.json", json.dumps(dict(sorted(stats.items())),
                                                        indent=1) + "\n")
    return dict(stats)


def read_frequent_counts(folder: Path, min_frequency: int, memory_mb: int, spill_near: Path
                         ) -> tuple[dict[str, dict[str, int]], int]:
    """The gathered (word, S-class) mention counts of the words whose corpus frequency reaches
    `min_frequency`, as word → {S-class: mentions} in word and class order, and the vocabulary
    size at that frequency: the whole corpus's tables are filtered in `memory_mb` (spilling
    beyond, into a temporary folder in `spill_near`), and only the frequent words become
    Python objects."""
    mentions, tokens = Path(folder) / "mentions.parquet", Path(folder) / "tokens.parquet"
    parquet_with_columns(mentions, MENTION_COUNTS_SCHEMA.names)
    parquet_with_columns(tokens, TOKEN_COUNTS_SCHEMA.names)
    words: dict[str, dict[str, int]] = {}
    with duckdb_within(memory_mb, Path(spill_near)) as connection:
        # The tokens file read once: its frequent tokens are the vocabulary and the join's keys.
        connection.execute("CREATE TEMP TABLE frequent AS SELECT token FROM read_parquet("
                           f"{parquet_list([tokens])}) WHERE count >= ?", [min_frequency])
        vocabulary = connection.execute("SELECT count(*) FROM frequent").fetchall()[0][0]
        query = (f"SELECT m.word, m.sclass, m.freq FROM read_parquet({parquet_list([mentions])}) "
                 "m JOIN frequent t ON t.token = m.word ORDER BY m.word, m.sclass")
        for batch in connection.sql(query).to_arrow_reader(BATCH_ROWS):
            for word, sclass, freq in zip(*(batch.column(i).to_pylist() for i in range(3)),
                                          strict=True):
                words.setdefault(word, {})[sclass] = int(freq)
    return words, int(vocabulary)


def write_summed_counts(parts: Sequence[Path], schema: pa.Schema, path: Path,
                        memory_mb: int) -> int:
    """The shards' count tables (the schema's columns) summed by their keys (all columns but
    the last) and written sorted by them: the rows `write_counts` and `write_token_counts`
    write for the same counts (their bytes too, within one row group). DuckDB sums and sorts
    within `memory_mb`, spilling beyond it; the rows written."""
    keys, value = schema.names[:-1], schema.names[-1]
    for part in parts:  # a missing column is named with its file, before any work
        parquet_with_columns(part, schema.names)
    if not parts:
        with atomic_path(path) as tmp:
            pq.write_table(schema.empty_table(), tmp, compression="zstd")
        return 0
    # DuckDB compares strings as UTF-8 bytes: code point order, as Python sorts them.
    listed = ", ".join(f'"{key}"' for key in keys)
    query = (f'SELECT {listed}, CAST(sum("{value}") AS BIGINT) AS "{value}" '
             f"FROM read_parquet({parquet_list(parts)}) GROUP BY {listed} ORDER BY {listed}")
    with duckdb_within(memory_mb, Path(path).parent) as connection:
        return write_query(connection, query, schema, Path(path))
