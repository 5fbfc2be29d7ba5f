"""Synthetic inputs of the scale benchmark: text over an open vocabulary, and a Freebase dump.

Words are drawn by rank from an open (unbounded) vocabulary: P(rank r) ∝ 1/r up to rank
HEAD_RANKS, then ∝ r^-TAIL_EXPONENT with no last rank, so every longer text brings new words
(about N^0.67 distinct words in N tokens between 1M and 20M tokens). The two constants are set
so that 550M tokens hold about 490,000 words seen at least 20 times: the WIKI-PSE corpus has
550 million tokens and ≈500,000 words at minimum frequency 20 (Yaghoobzadeh et al. 2019, §3).
A rank is spelled as consonant-vowel syllables (`rank_word`), short for frequent words.

`write_corpus` writes one sentence a line (5 to 48 tokens, 26.5 on average: 1.5B tokens in 56M
sentences, Naik et al. 2019, §3.1), about 2% of tokens numerals. `write_freebase` writes an
N-Triples dump in the layout of `freebase-rdf-latest.gz` (`<s>\\t<p>\\t<o>\\t.`, gzip), one
topic a title with FIGER-mapped and other types, English and other keys and filler triples, to
about TRIPLES_PER_LINK triples for each link of the Wikipedia dump the titles come from, plus
FIGER's MID → title TSV.
"""

from __future__ import annotations

import gzip
import json
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

HEAD_RANKS = 20_000
TAIL_EXPONENT = 1.5
MAX_RANK = 1 << 62
CONSONANTS = "bcdfghjklmnprstvwxz"
VOWELS = "aeiouy"
SYLLABLES = [c + v for c in CONSONANTS for v in VOWELS]
NUMERAL_SHARE = 0.02
SENTENCE_LENGTHS = (5, 48)  # uniform, inclusive: 26.5 tokens a sentence on average
# Freebase: 3.1 billion triples for ~330 million links in English Wikipedia (issue 32's figures).
TRIPLES_PER_LINK = 3.1e9 / 330e6
NS = "http://rdf.freebase.com/ns/"
FORMAT_VERSION = 1  # bump when a generator changes, so that cached inputs are rebuilt


# --- the open vocabulary ----------------------------------------------------------------------


def draw_ranks(rng: np.random.Generator, count: int, lowest: int = 1) -> np.ndarray:
    """`count` word ranks (1 = most frequent) from the head-and-tail power law, unbounded;
    only ranks from `lowest` on (below HEAD_RANKS) when given."""
    head_mass = math.log(HEAD_RANKS)
    total = head_mass + 1.0 / (TAIL_EXPONENT - 1.0)
    floor = math.log(min(max(lowest, 1), HEAD_RANKS))
    mass = floor + rng.random(count) * (total - floor)
    head = np.exp(np.minimum(mass, head_mass))
    beyond = np.maximum(mass - head_mass, 0.0) * (TAIL_EXPONENT - 1.0)
    with np.errstate(divide="ignore"):
        tail = HEAD_RANKS * np.power(np.maximum(1.0 - beyond, 1e-300), -1.0 / (TAIL_EXPONENT - 1))
    ranks = np.where(mass < head_mass, head, tail)
    return np.minimum(np.floor(ranks), MAX_RANK).astype(np.int64)


def rank_word(rank: int) -> str:
    """The word of a rank: its bijective base-len(SYLLABLES) digits as syllables."""
    digits: list[str] = []
    number = int(rank)
    while number > 0:
        number -= 1
        number, digit = divmod(number, len(SYLLABLES))
        digits.append(SYLLABLES[digit])
    return "".join(digits)


def words_of(ranks: np.ndarray) -> np.ndarray:
    """The words of many ranks, each distinct rank spelled once."""
    unique, inverse = np.unique(ranks, return_inverse=True)
    spelled = np.array([rank_word(rank) for rank in unique.tolist()], dtype=object)
    return spelled[inverse]


def zipf_words(rng: np.random.Generator, count: int, lowest: int = 1) -> list[str]:
    """`count` words drawn from the open vocabulary (from rank `lowest` on)."""
    return words_of(draw_ranks(rng, count, lowest)).tolist()


def numerals(rng: np.random.Generator, count: int) -> np.ndarray:
    """`count` numerals as Wikipedia writes many: integers, log-uniform up to a million."""
    values = np.floor(np.power(10.0, rng.random(count) * 6.0)).astype(np.int64)
    return np.array([str(value) for value in values.tolist()], dtype=object)


def vocabulary_sizes(ranks: np.ndarray, min_counts: Sequence[int]) -> dict[str, int]:
    """Distinct ranks, and those seen at least m times for each m in min_counts."""
    _, counts = np.unique(ranks, return_counts=True)
    sizes = {"distinct_words": int(counts.size)}
    sizes.update({f"words_min_count_{m}": int(np.sum(counts >= m)) for m in min_counts})
    return sizes


# --- text corpora -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusInfo:
    """A generated corpus: where it is and what it holds."""

    path: str
    tokens: int
    sentences: int
    distinct_words: int
    words_min_count_5: int
    words_min_count_20: int
    seed: int
    format_version: int = FORMAT_VERSION


def sentence_lengths(rng: np.random.Generator, tokens: int) -> list[int]:
    """Sentence lengths adding up to exactly `tokens` (the last sentence takes the rest)."""
    low, high = SENTENCE_LENGTHS
    lengths = rng.integers(low, high + 1, size=tokens // low + 1)
    ends = np.cumsum(lengths)
    cut = int(np.searchsorted(ends, tokens))
    kept = lengths[:cut].tolist()
    rest = tokens - sum(kept)
    return [*kept, rest] if rest > 0 else kept


def corpus_lines(rng: np.random.Generator, tokens: int, chunk: int = 1_000_000
                 ) -> Iterator[tuple[str, np.ndarray]]:
    """Sentences (a line each, chunk by chunk) and the word ranks drawn for them."""
    lengths = sentence_lengths(rng, tokens)
    start = 0
    while start < len(lengths):
        group, total = [], 0
        while start < len(lengths) and total < chunk:
            group.append(lengths[start])
            total += lengths[start]
            start += 1
        ranks = draw_ranks(rng, total)
        words = words_of(ranks)
        numeral = rng.random(total) < NUMERAL_SHARE
        words[numeral] = numerals(rng, int(numeral.sum()))
        bounds = np.cumsum([0, *group])
        text = "".join(" ".join(words[a:b]) + "\n" for a, b in zip(bounds, bounds[1:],
                                                                     strict=False))
        yield text, ranks[~numeral]


def cached(meta_path: Path, kind: type, **expected: object) -> object | None:
    """The info a cached input's JSON holds, when it matches `expected` and its file exists."""
    if not meta_path.is_file():
        return None
    info = kind(**json.loads(meta_path.read_text(encoding="utf-8")))
    matches = all(getattr(info, key) == value for key, value in expected.items())
    return info if matches and Path(info.path).exists() else None


def write_corpus(folder: Path, tokens: int, seed: int = 0) -> CorpusInfo:
    """A corpus of `tokens` tokens from the open vocabulary (cached in `folder` by size)."""
    path = folder / f"zipf-{tokens}-seed{seed}.txt"
    meta = path.with_suffix(".json")
    found = cached(meta, CorpusInfo, tokens=tokens, seed=seed, format_version=FORMAT_VERSION)
    if isinstance(found, CorpusInfo):
        return found
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng([seed, tokens])
    all_ranks, sentences = [], 0
    with open(path, "w", encoding="utf-8") as out:
        for text, ranks in corpus_lines(rng, tokens):
            out.write(text)
            sentences += text.count("\n")
            all_ranks.append(ranks)
    sizes = vocabulary_sizes(np.concatenate(all_ranks), (5, 20))
    info = CorpusInfo(str(path), tokens, sentences, seed=seed, **sizes)
    meta.write_text(json.dumps(asdict(info), indent=1) + "\n", encoding="utf-8")
    return info


# --- Freebase ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FreebaseInfo:
    """A generated Freebase dump and FIGER-style MID → title TSV."""

    path: str
    mid_titles: str
    triples: int
    topics: int
    links: int
    seed: int
    format_version: int = FORMAT_VERSION


def freebase_key(title: str) -> str:
    """A title in Freebase key escaping: `_` for a space, `$XXXX` for other non-alphanumerics."""
    out: list[str] = []
    for char in title:
        if char == " ":
            out.append("_")
        elif char.isascii() and (char.isalnum() or char == "-"):
            out.append(char)
        else:
            units = char.encode("utf-16-be")
            out.extend(f"${units[i] << 8 | units[i + 1]:04X}" for i in range(0, len(units), 2))
    return "".join(out)


def literal(text: str) -> str:
    """An N-Triples string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def mid(number: int) -> str:
    """A Freebase MID (`m.0…`) for a topic number."""
    alphabet = "0123456789bcdfghjklmnpqrstvwxyz_"
    digits = ""
    while True:
        number, digit = divmod(number, len(alphabet))
        digits = alphabet[digit] + digits
        if number == 0:
            return "m.0" + digits


def triple(subject: str, predicate: str, obj: str) -> str:
    """One dump line: three terms, tab-separated, then a tab and a full stop."""
    return f"<{NS}{subject}>\t<{NS}{predicate}>\t{obj}\t.\n"


@dataclass(frozen=True)
class TopicDraws:
    """Everything drawn for a batch of topics at once (a loop per line would be slow)."""

    kinds: list[list[int]]  # indices into types.map's Freebase types
    tagged: list[bool]  # a type outside types.map as well
    french: list[bool]  # a French key as well
    descriptions: list[str]
    fillers: list[list[int]]  # other topics pointing at this one (filler triples)


def draw_topics(rng: np.random.Generator, count: int, mapped: int, filler: float
                ) -> TopicDraws:
    """The random parts of `count` topics' triples."""
    kinds = rng.choice(4, size=count, p=(0.15, 0.55, 0.2, 0.1))
    picks = rng.integers(mapped, size=(count, 3))
    lengths = rng.integers(8, 40, size=count)
    words = zipf_words(rng, int(lengths.sum()))
    ends = np.cumsum(lengths).tolist()
    fills = rng.poisson(filler, size=count)
    others = rng.integers(1 << 30, size=int(fills.sum())).tolist()
    fill_ends = np.cumsum(fills).tolist()
    return TopicDraws(
        [sorted(set(row[:k])) for row, k in zip(picks.tolist(), kinds.tolist(), strict=True)],
        (rng.random(count) < 0.5).tolist(), (rng.random(count) < 0.3).tolist(),
        [" ".join(words[a:b]) for a, b in zip([0, *ends], ends, strict=False)],
        [others[a:b] for a, b in zip([0, *fill_ends], fill_ends, strict=False)])


def topic_triples(number: int, title: str, mapped: Sequence[str], draws: TopicDraws,
                  at: int) -> list[str]:
    """A topic's lines: name, types (some of types.map), keys, description and filler."""
    topic = mid(number)
    lines = [triple(topic, "type.object.name", literal(title) + "@en"),
             triple(topic, "type.object.type", f"<{NS}common.topic>"),
             triple(topic, "type.object.key", literal("/wikipedia/en/" + freebase_key(title))),
             triple(topic, "type.object.key", literal(f"/wikipedia/en_id/{number + 12}"))]
    lines += [triple(topic, "type.object.type", f"<{NS}{mapped[kind]}>")
              for kind in draws.kinds[at]]
    if draws.tagged[at]:
        lines.append(triple(topic, "type.object.type", f"<{NS}base.tagit.concept>"))
    if draws.french[at]:
        lines.append(triple(topic, "type.object.key",
                            literal("/wikipedia/fr/" + freebase_key(title))))
    lines.append(triple(topic, "common.topic.description",
                        literal(draws.descriptions[at]) + "@en"))
    lines += [triple(mid(other), "film.performance.actor", f"<{NS}{topic}>")
              for other in draws.fillers[at]]
    return lines


def mid_title_line(number: int, title: str) -> str:
    """A line of FIGER's MID → Wikipedia title TSV (`/m/0…`, underscores for spaces)."""
    return "/m/" + mid(number)[2:] + "\t" + title.replace(" ", "_") + "\n"


def write_freebase(folder: Path, titles: Iterable[str], links: int, mapped: Sequence[str],
                   seed: int = 0) -> FreebaseInfo:
    """A gzip N-Triples dump with one topic a title, ≈TRIPLES_PER_LINK triples a link, and
    the MID → title TSV (cached in `folder`)."""
    path, tsv = folder / "freebase.nt.gz", folder / "mid2name.tsv"
    meta = folder / "freebase.json"
    found = cached(meta, FreebaseInfo, links=links, seed=seed, format_version=FORMAT_VERSION)
    if isinstance(found, FreebaseInfo):
        return found
    titles = list(titles)
    core = 7.05  # the mean of topic_triples' lines without filler
    filler = max(TRIPLES_PER_LINK * links / max(len(titles), 1) - core, 0.0)
    rng = np.random.default_rng([seed, links])
    kinds = [kind.strip("/").replace("/", ".") for kind in mapped]
    count, batch = 0, 10_000
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=6) as out, \
            open(tsv, "w", encoding="utf-8") as names:
        for first in range(0, len(titles), batch):
            group = titles[first:first + batch]
            draws = draw_topics(rng, len(group), len(kinds), filler)
            lines = [line for at, title in enumerate(group)
                     for line in topic_triples(first + at, title, kinds, draws, at)]
            out.write("".join(lines))
            names.write("".join(mid_title_line(first + at, title)
                                for at, title in enumerate(group)))
            count += len(lines)
    info = FreebaseInfo(str(path), str(tsv), count, len(titles), links, seed)
    meta.write_text(json.dumps(asdict(info), indent=1) + "\n", encoding="utf-8")
    return info


# --- WIKI-PSE probes --------------------------------------------------------------------------


@dataclass(frozen=True)
class ProbeInfo:
    """A generated WIKI-PSE dataset (released format) and a vectors folder for its words."""

    path: str  # the vectors folder
    train: str
    test: str
    words: int  # a split
    dim: int
    seed: int
    format_version: int = FORMAT_VERSION


def dataset_lines(names: Sequence[str], labels: np.ndarray, classes: Sequence[str],
                  rng: np.random.Generator) -> str:
    """Released-format lines: `@word@<TAB>-class=freq …`, the most frequent class first."""
    lines = []
    for name, row in zip(names, labels, strict=True):
        found = np.flatnonzero(row)
        counts = np.sort(rng.integers(20, 2000, size=found.size))[::-1]
        lines.append(f"{name}\t" + " ".join(f"{classes[c]}={n}" for c, n in
                                            zip(found.tolist(), counts.tolist(), strict=True)))
    return "\n".join(lines) + "\n"


def write_probe_data(folder: Path, words: int, dim: int, classes: Sequence[str],
                     seed: int = 0) -> ProbeInfo:
    """`words` train and `words` test words over the S-classes, with clustered unit vectors
    (benchmarks/wikipse_probes.py's generator), as the probe rule reads them, and a vector for
    each word and S-class (`senses/`, Gaussian) as the aggregation reads them (cached)."""
    from gensim.models import KeyedVectors
    from wikipse_probes import synthetic

    from reprobe.wikipse.embedding.vectors import save_vectors

    meta = folder / "probe.json"
    found = cached(meta, ProbeInfo, words=words, dim=dim, seed=seed,
                   format_version=FORMAT_VERSION)
    if isinstance(found, ProbeInfo) and (folder / "senses").is_dir():
        return found
    vectors, labels = synthetic(2 * words, dim, len(classes), 4.0, 2.0, seed)
    names = [f"@{rank_word(rank)}@" for rank in range(HEAD_RANKS, HEAD_RANKS + 2 * words)]
    rng = np.random.default_rng([seed, words])
    folder.mkdir(parents=True, exist_ok=True)
    train, test = folder / "train.tsv", folder / "test.tsv"
    train.write_text(dataset_lines(names[:words], labels[:words], classes, rng), "utf-8")
    test.write_text(dataset_lines(names[words:], labels[words:], classes, rng), "utf-8")
    keyed = KeyedVectors(dim)
    keyed.add_vectors(names, vectors)
    save_vectors(keyed, folder / "vectors")
    # The word/S-class vectors `wikipse aggregate` sums (`@word@-class`, one per word and class).
    senses = [(name, classes[c]) for name, row in zip(names, labels, strict=True)
              for c in np.flatnonzero(row).tolist()]
    sense_keys = KeyedVectors(dim)
    sense_keys.add_vectors([f"{name}{sclass}" for name, sclass in senses],
                           rng.standard_normal((len(senses), dim)).astype(np.float32))
    save_vectors(sense_keys, folder / "senses")
    info = ProbeInfo(str(folder / "vectors"), str(train), str(test), words, dim, seed)
    meta.write_text(json.dumps(asdict(info), indent=1) + "\n", encoding="utf-8")
    return info
