"""Generated NumerSense sources for the scale benchmark, in the layouts the builders read.

- OMCS free sentences (`omcs-sentences-free.txt`: a header, then `id text creator_id created_on
  language_id activity_id score`, tab-separated, ~116 bytes a line as the real 104 MB for
  898,161 lines): 80% English (estimated), sentences of 1 to 22 Zipf words, NUMBER_SHARE of them
  with one of the 12 number words before a noun, some two, some inside a fixed phrase ("no one"),
  a few repeated in another case, so that every filter of the builder has work.
- ConceptNet 5.7 assertions (`conceptnet-assertions-5.7.0.csv.gz`: edge URI, relation, start,
  end, JSON info with a weight, tab-separated, gzip): relations and languages mixed (estimated
  shares), HASPROPERTY_SHARE of the rows English HasProperty edges, their nouns drawn from rank
  NOUN_RANK on so that no noun takes thousands of adjectives; with the rebuilt core probes the
  adversarial step reads (`probe<TAB>word`, a fixed CORE_PROBES).
- GenericsKB-Best (`GenericsKB-Best.tsv`: `SOURCE TERM QUANTIFIER_FREQUENCY QUANTIFIER_NUMBER
  GENERIC SENTENCE SCORE`, ~93 bytes a row as the real 94.9 MB for 1,020,868 rows), NUMBER_SHARE
  of the sentences with number words, some of them test probes; with the four test files the
  fine-tuning set is kept apart from (rebuilt core and all `.tsv`, released core and all `.txt`
  in the release's layouts, at their fixed sizes).
- A BERT-shaped masked LM (hidden H, H/64 heads and layers, 24 at 1024 as BERT-large, 4H
  feed-forward) with a 30,522-word WordPiece vocabulary as BERT's, randomly initialised and
  saved with `save_pretrained` (the tokenizer by the stage's own tiny-model builder).
"""

from __future__ import annotations

import gzip
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from scale_inputs import rank_word, zipf_words

NUMBER_WORDS = ("no", "zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                "nine", "ten")
PHRASES = ("no one", "one of", "no longer", "one another", "no more")  # not counts
NUMBER_SHARE = 0.06  # sentences with a number word (estimated)
NOUN_RANK = 100  # nouns from this rank on: rank 100 gets ~0.14% of the draws
CORE_PROBES = 3_000  # rebuilt core probes (estimated: the release vetted 1,132 by hand)
RELEASED_CORE, RELEASED_ALL = 1_132, 3_145  # lines of the released test files
OMCS_LANGUAGES = ("en",) * 8 + ("pt", "zh")  # 80% English (estimated)
CN_LANGUAGES = ("en", "en", "fr", "de", "ja", "it", "es", "ru", "nl", "zh")
# Relations of the other rows (weights estimated: RelatedTo, ExternalURL and the lexical ones
# dominate the real dump; HasProperty is a small share).
RELATIONS = ("RelatedTo", "ExternalURL", "FormOf", "Synonym", "IsA", "DerivedFrom",
             "HasContext", "AtLocation", "UsedFor", "PartOf", "HasA", "Antonym")
RELATION_WEIGHTS = (0.40, 0.25, 0.10, 0.06, 0.05, 0.04, 0.03, 0.02, 0.02, 0.01, 0.01, 0.01)
HASPROPERTY_SHARE = 0.004  # ~140,000 of the 34M rows (estimated)
GENERICS_SOURCES = ("Waterloo", "SimpleWikipedia", "ARC", "TupleKB", "WordNet3.0")
GENERICS_HEADER = ("SOURCE", "TERM", "QUANTIFIER_FREQUENCY", "QUANTIFIER_NUMBER",
                   "GENERIC SENTENCE", "SCORE")
OMCS_HEADER = ("id", "text", "creator_id", "created_on", "language_id", "activity_id", "score")
BERT_VOCABULARY = 30_522
LAYERS = {1024: 24}  # BERT-large; else hidden / 64 (BERT-base: 768 and 12)
MASK = "<mask>"
OMCS_SEED, CONCEPTNET_SEED, GENERICS_SEED, CORE_SEED = 1, 2, 3, 4  # each source its own draw


def rng_of(size: int, seed: int) -> np.random.Generator:
    """The seeded generator of one size."""
    return np.random.default_rng([seed, size])


def number_sentence(rng: np.random.Generator, words: list[str], nouns: list[str]) -> str:
    """Zipf words with a number word before a noun; sometimes two, sometimes a fixed phrase."""
    at = int(rng.integers(0, len(words) + 1))  # at the start too: "Four wheels ..."
    words[at:at] = [NUMBER_WORDS[int(rng.integers(12))], nouns.pop()]
    draw = rng.random()
    if draw < 0.12:  # a second count
        words.extend([NUMBER_WORDS[int(rng.integers(12))], nouns.pop()])
    elif draw < 0.28:  # a phrase whose number word is no count
        words.insert(int(rng.integers(0, len(words))), PHRASES[int(rng.integers(len(PHRASES)))])
    return " ".join(words)


def sentences(rng: np.random.Generator, count: int, lengths: tuple[int, int],
              share: float = NUMBER_SHARE) -> tuple[list[str], np.ndarray]:
    """`count` sentences of Zipf words (lengths inclusive), `share` of them counting
    something, as many again with a number word only inside a fixed phrase; and which
    count."""
    sizes = rng.integers(lengths[0], lengths[1] + 1, size=count)
    words = zipf_words(rng, int(sizes.sum()))
    draws = rng.random(count)
    counting, phrased = draws < share, (draws >= share) & (draws < 2 * share)
    nouns = zipf_words(rng, 2 * int(counting.sum()) + 2, NOUN_RANK)
    out, start = [], 0
    for size, counts, phrase in zip(sizes.tolist(), counting.tolist(), phrased.tolist(),
                                    strict=True):
        chunk = words[start:start + size]
        start += size
        if phrase:
            chunk.insert(int(rng.integers(0, size)), PHRASES[int(rng.integers(len(PHRASES)))])
        text = number_sentence(rng, chunk, nouns) if counts else " ".join(chunk)
        out.append(text[:1].upper() + text[1:] + ".")
    return out, counting


def write_omcs(folder: Path, lines: int) -> tuple[dict[str, Path], dict[str, float]]:
    """An OMCS free-sentences file of `lines` rows."""
    rng = rng_of(lines, OMCS_SEED)
    # 1 to 22 words: the builder's 4-to-25-token filter drops the shortest and a few long ones.
    texts, counting = sentences(rng, lines, (1, 22))
    # A tenth of the counting sentences again further on, in capitals: the duplicate filter.
    counted = np.flatnonzero(counting)
    for index in counted[rng.random(counted.size) < 0.1].tolist():
        texts[int(rng.integers(index, lines))] = texts[index].upper()
    ids = np.cumsum(rng.integers(1, 4, size=lines)) + 1000
    creators = rng.integers(1, 20_000, size=lines)
    seconds = rng.integers(0, 86_400 * 365 * 3, size=lines)
    languages = rng.integers(0, len(OMCS_LANGUAGES), size=lines)
    rows = ["\t".join(OMCS_HEADER)]
    for k, text in enumerate(texts):
        day, second = divmod(int(seconds[k]), 86_400)
        stamp = (f"{2000 + day // 365}-{day % 365 // 31 + 1:02d}-{day % 31 + 1:02d} "
                 f"{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}."
                 f"{second * 7919 % 1_000_000:06d}-05")
        rows.append(f"{ids[k]}\t{text}\t{creators[k]}\t{stamp}\t"
                    f"{OMCS_LANGUAGES[languages[k]]}\t{k % 40 + 1}\t{k % 3}")
    path = folder / "omcs-sentences-free.txt"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    distinct = len({w for text in texts for w in text.lower().split()})
    return {"omcs": path}, {"lines": lines, "MB": path.stat().st_size / 1e6,
                            "number sentences": int(counting.sum()),
                            "distinct words": distinct}


def core_probes(rng: np.random.Generator, count: int) -> list[tuple[str, str]]:
    """Core-like probes (`a <noun> has <mask> <noun>.`) over the nouns ConceptNet describes."""
    nouns = zipf_words(rng, 2 * count, NOUN_RANK)
    fillers = zipf_words(rng, 4 * count)
    labels = rng.integers(0, 12, size=count)
    return [(f"{'a' if k % 2 else 'most'} {nouns[2 * k]} {fillers[4 * k]} {fillers[4 * k + 1]} "
             f"{MASK} {nouns[2 * k + 1]} {fillers[4 * k + 2]}.", NUMBER_WORDS[labels[k]])
            for k in range(count)]


def write_probes(path: Path, probes: Sequence[tuple[str, str]]) -> Path:
    """Probes as `probe<TAB>word` lines (the builders' `.tsv`)."""
    path.write_text("".join(f"{probe}\t{label}\n" for probe, label in probes), encoding="utf-8")
    return path


def node(language: str, word: str, pos: str = "") -> str:
    """A ConceptNet node URI."""
    return f"/c/{language}/{word}" + (f"/{pos}" if pos else "")


def edge_row(relation: str, start: str, end: str, weight: float, contributor: str) -> str:
    """One assertion line: URI, relation, start, end, JSON info (its contributor the row's
    own, so that no line repeats)."""
    return (f"/a/[/r/{relation}/,{start}/,{end}/]\t/r/{relation}\t{start}\t{end}\t"
            f'{{"dataset": "/d/conceptnet/4/en", "license": "cc:by/4.0", "sources": '
            f'[{{"activity": "/s/activity/omcs/omcs1_possibly_free_text", "contributor": '
            f'"/s/contributor/omcs/{contributor}"}}], "weight": {weight}}}')


def write_conceptnet(folder: Path, rows: int) -> tuple[dict[str, Path], dict[str, float]]:
    """A ConceptNet assertions dump of `rows` edges (gzip) and the rebuilt core probes."""
    rng = rng_of(rows, CONCEPTNET_SEED)
    has_property = rng.random(rows) < HASPROPERTY_SHARE
    relations = rng.choice(len(RELATIONS), size=rows, p=RELATION_WEIGHTS)
    starts, ends = zipf_words(rng, rows), zipf_words(rng, rows)
    nouns = zipf_words(rng, int(has_property.sum()) + 1, NOUN_RANK)
    languages = rng.integers(0, len(CN_LANGUAGES), size=(rows, 2))
    weights = rng.choice([0.1, 0.5, 1.0, 1.0, 1.0, 1.0, 2.0, 2.828, 3.464], size=rows)
    path, kept = folder / "conceptnet-assertions-5.7.0.csv.gz", 0
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=1) as handle:
        lines = []
        for k in range(rows):
            if has_property[k]:
                start = node("en", nouns[kept], "n" if k % 3 == 0 else "")
                end = node("en", ends[k], "a" if k % 4 == 0 else "")
                lines.append(edge_row("HasProperty", start, end, weights[k], rank_word(k + 1)))
                kept += 1
            else:
                start = node(CN_LANGUAGES[languages[k, 0]], starts[k], "n" if k % 5 else "")
                end = node(CN_LANGUAGES[languages[k, 1]], ends[k] + ("_" + starts[k] if k % 7 == 0
                                                                      else ""))
                lines.append(edge_row(RELATIONS[relations[k]], start, end, weights[k],
                                      rank_word(k + 1)))
            if len(lines) >= 100_000:
                handle.write("\n".join(lines) + "\n")
                lines = []
        handle.write("".join(line + "\n" for line in lines))
    probes = core_probes(rng_of(CORE_PROBES, CORE_SEED), CORE_PROBES)
    core = write_probes(folder / "test.core.masked.tsv", probes)
    return {"conceptnet": path, "core": core}, {
        "rows": rows, "gz MB": path.stat().st_size / 1e6, "HasProperty edges": kept,
        "distinct words": len(set(starts) | set(ends)), "core probes": CORE_PROBES}


def write_test_files(folder: Path) -> tuple[dict[str, Path], list[str]]:
    """The test probe files build-train keeps apart from (fixed sizes), and their probes."""
    rng = rng_of(CORE_PROBES, CORE_SEED)
    core = core_probes(rng, CORE_PROBES)
    adjectives = zipf_words(rng, 2 * CORE_PROBES)
    every = [row for k, (probe, label) in enumerate(core) for row in (
        (probe, label), *((probe.replace(MASK, f"{MASK} {adjectives[2 * k + j]}"), label)
                          for j in range(2)))]
    files = {"rebuilt_core": write_probes(folder / "test.core.masked.tsv", core),
             "rebuilt_all": write_probes(folder / "test.all.masked.tsv", every)}
    released = {"released_core": (folder / "test.core.masked.txt", core[:RELEASED_CORE], "  "),
                "released_all": (folder / "test.all.masked.txt", every[:RELEASED_ALL], " ")}
    for role, (path, probes, end) in released.items():
        # The release's layout: trailing spaces, no newline after the last line.
        path.write_text("\n".join(f"{probe}{end}" for probe, _ in probes), encoding="utf-8")
        files[role] = path
    return files, [probe.replace(MASK, label) for probe, label in every]


def write_generics(folder: Path, rows: int) -> tuple[dict[str, Path], dict[str, float]]:
    """A GenericsKB-Best TSV of `rows` rows, and the test files kept apart from it."""
    rng = rng_of(rows, GENERICS_SEED)
    files, filled = write_test_files(folder)
    texts, counting = sentences(rng, rows, (6, 16), share=0.08)
    # 1 row in 1,000 is a test probe itself: the exclusion has work.
    tests = np.flatnonzero(rng.random(rows) < 0.001)
    for index in tests.tolist():
        texts[index] = filled[int(rng.integers(len(filled)))].capitalize()
    terms = zipf_words(rng, rows, NOUN_RANK)
    sources = rng.integers(0, len(GENERICS_SOURCES), size=rows)
    scores = rng.random(rows)
    lines = ["\t".join(GENERICS_HEADER)]
    lines += [f"{GENERICS_SOURCES[sources[k]]}\t{terms[k]}\t\t\t{text}\t{scores[k]:.10f}"
              for k, text in enumerate(texts)]
    path = folder / "GenericsKB-Best.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    distinct = len({w for text in texts for w in text.lower().split()})
    return {"generics": path, **files}, {
        "rows": rows, "MB": path.stat().st_size / 1e6, "number sentences": int(counting.sum()),
        "test probes in it": len(tests), "distinct words": distinct}


def bert_shape(hidden: int) -> tuple[int, int]:
    """(layers, heads) of a BERT-shaped model of that hidden size: heads of 64 (one below)."""
    heads = max(1, hidden // 64)
    if hidden % heads:
        raise ValueError(f"hidden size {hidden} does not split into {heads} heads")
    return LAYERS.get(hidden, heads), heads


def write_bert(folder: Path, hidden: int) -> tuple[dict[str, Path], dict[str, float]]:
    """A randomly initialised BERT-shaped masked LM of that hidden size, saved as a model
    folder with a BERT-sized WordPiece vocabulary."""
    from reprobe.numersense.tiny import build_tokenizer, forbid_hub_access

    forbid_hub_access()
    import torch
    from transformers import BertConfig, BertForMaskedLM

    out = folder / "model"
    out.mkdir(parents=True, exist_ok=True)
    # The vocabulary's words: the open vocabulary's first ranks, each once.
    words = [rank_word(rank) for rank in range(1, BERT_VOCABULARY + 1)]
    tokenizer = build_tokenizer("bert", [" ".join(words)], BERT_VOCABULARY, out)
    layers, heads = bert_shape(hidden)
    torch.manual_seed(hidden)
    model = BertForMaskedLM(BertConfig(
        vocab_size=len(tokenizer), hidden_size=hidden, num_hidden_layers=layers,
        num_attention_heads=heads, intermediate_size=4 * hidden, max_position_embeddings=512))
    model.save_pretrained(str(out))
    parameters = sum(p.numel() for p in model.parameters())
    return {"model": out}, {"parameters": parameters, "hidden": hidden, "layers": layers,
                            "vocabulary": len(tokenizer)}
