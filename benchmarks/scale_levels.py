"""The sizes the scale benchmark runs at, and what each size holds.

A *chain* is a family of generated inputs with its own ladder of sizes (LADDERS): "wiki" (a
multistream dump of N excerpt pages, scale_wiki, its Freebase dump made from its titles,
scale_inputs), "text" (a corpus of N tokens from the open vocabulary, scale_inputs), "sskip"
(the same corpora on their own ladder: SSKIP at 400d is the slowest trainer), "probe" (a
WIKI-PSE dataset of N words a split with 400d vectors), "vectors" (a published embedding file
of N words, scale_vectors) and "stories" (N CNN stories, scale_stories). A `Level` is one size
of a chain: its folder, its input, and the settings config/paper.yaml gives the rules
(`paper_settings`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness import REPO
from scale_files import FILE_CHAINS
from scale_inputs import CorpusInfo, ProbeInfo, write_corpus, write_probe_data
from scale_stories import StoriesInfo, write_stories
from scale_types import FilesInfo, Level, files_level, reprobe
from scale_vectors import VectorsInfo, write_vectors
from scale_wiki import PAGES_PER_STREAM, WikiInfo, build_wiki, dump_mb

FIGER_MAP = REPO / "data" / "samples" / "wikipse" / "figer_types.map"
CLASSES = REPO / "data" / "samples" / "wikipse" / "released" / "semantic_classes.txt"
SSKIP_DIM = 400
LADDERS = {  # chain -> mode -> sizes (excerpt pages, or tokens)
    "wiki": {"tiny": [8, 24, 96], "quick": [206, 824, 3296],
             "default": [412, 824, 1648, 3296, 6592]},
    "text": {"tiny": [10_000, 20_000, 40_000], "quick": [250_000, 1_000_000, 4_000_000],
             "default": [500_000, 1_000_000, 2_000_000, 4_000_000, 8_000_000]},
    "sskip": {"tiny": [10_000, 20_000, 40_000], "quick": [125_000, 500_000, 2_000_000],
              "default": [250_000, 500_000, 1_000_000, 2_000_000, 4_000_000]},
    "probe": {"tiny": [50, 100, 200], "quick": [1_383, 5_531, 22_125],
              "default": [2_766, 5_531, 11_062, 22_125, 44_250]},
    "vectors": {"tiny": [500, 2_000, 8_000], "quick": [20_000, 80_000, 320_000],
                "default": [20_000, 40_000, 80_000, 160_000, 320_000, 640_000]},
    "stories": {"tiny": [10, 40, 160], "quick": [90, 360, 1_440],
                "default": [90, 180, 360, 720, 1_440]},
    **{chain.name: chain.ladders for chain in FILE_CHAINS.values()},
}
Info = WikiInfo | CorpusInfo | ProbeInfo | VectorsInfo | StoriesInfo | FilesInfo
__all__ = ["Level", "dump_mb", "reprobe"]  # the chains' commands import them from here


def paper_settings(cores: int) -> dict[str, str]:
    """The JSON settings and seed the rules pass, from config/paper.yaml (its schema's
    defaults filled in); the embedding workers are the machine's cores."""
    from reprobe.config import CHECKOUT, fill_defaults, load_yaml
    from reprobe.numeracy.retrain_settings import RetrainSettings
    from reprobe.numeracy.settings import ContrastiveRules, KnnSettings, SelectionSettings
    from reprobe.step_settings import settings_json
    from reprobe.wikipse.embedding.embedding_settings import EmbeddingSettings
    from reprobe.wikipse.settings import EmbeddingProbeSettings

    config = load_yaml(CHECKOUT / "config" / "paper.yaml")
    fill_defaults(config)
    embeddings = {**config["wikipse"]["embeddings"], "workers": cores}
    return {"seed": str(config["seed"]), "fold": json.dumps(config["wikipse"]["fold"]),
            "select": settings_json(config["numeracy"], SelectionSettings),
            "retrain": settings_json(config["numeracy"]["retrain"], RetrainSettings),
            "embed": settings_json(embeddings, EmbeddingSettings),
            "probe": settings_json(config["wikipse"]["probes"], EmbeddingProbeSettings),
            "tests": settings_json(config["numeracy"], ContrastiveRules),
            "knn": settings_json(config["numeracy"]["knn"], KnnSettings),
            "train_threads": str(config["numeracy"]["retrain"]["workers"]),
            "embed_threads": str(config["wikipse"]["embeddings"]["workers"])}


def make_level(chain: str, size: int, work: Path, settings: dict[str, str], cores: int,
               smallest: int) -> Level:
    """The level of a chain at one size (the ladder's smallest: `smallest`), its input
    generated (or found in the cache)."""
    if chain == "wiki":
        folder = work / "wiki" / f"pages-{size}"
        info: Info = build_wiki(folder, size)
    elif chain == "probe":
        folder = work / "probe" / f"words-{size}"
        info = write_probe_data(folder, size, SSKIP_DIM, class_names())
    elif chain == "vectors":
        folder = work / "vectors" / f"words-{size}"
        info = write_vectors(folder, size)
    elif chain == "stories":
        folder = work / "stories" / f"stories-{size}"
        info = write_stories(folder, size)
    elif chain in FILE_CHAINS:
        folder = work / chain / f"size-{size}"
        info = files_level(FILE_CHAINS[chain], folder, size)
    else:
        folder = work / chain / f"tokens-{size}"
        info = write_corpus(work / "corpora", size)
    folder.mkdir(parents=True, exist_ok=True)
    shards = round(size / smallest)
    if isinstance(info, WikiInfo):  # a shard is at least one bz2 stream of the dump
        shards = min(shards, info.pages // PAGES_PER_STREAM)
    return Level(chain, size, folder, info, settings, cores, max(1, shards))


# --- sizes read off the inputs and outputs ----------------------------------------------------


def read_json(path: Path) -> dict[str, Any]:
    """A JSON file's object."""
    return json.loads(path.read_text(encoding="utf-8"))


def shard_stat(name: str) -> Callable[[Level], float]:
    """A count from the shard's stats.json."""
    return lambda level: float(read_json(level.folder / "shard" / "stats.json")[name])


def class_names() -> list[str]:
    """The 34 S-classes of the released class list (`-location`, …)."""
    lines = CLASSES.read_text(encoding="utf-8").splitlines()
    return [line.split()[0] for line in lines if line.strip()]


def info_count(kind: type, field: str) -> Callable[[Level], float]:
    """A count a level's generated input records (its kind checked): a step's size."""
    def count(level: Level) -> float:
        """The count at one level."""
        assert isinstance(level.info, kind), (level.chain, kind.__name__)
        return float(getattr(level.info, field))
    return count


probe_words = info_count(ProbeInfo, "words")  # words in each split of the probed dataset
vector_words = info_count(VectorsInfo, "words")  # words in the embedding file
story_count = info_count(StoriesInfo, "stories")  # stories in the folder
corpus_tokens = info_count(CorpusInfo, "tokens")  # the training corpus's tokens


def freebase_triples(level: Level) -> float:
    """Lines of the generated Freebase dump."""
    return float(read_json(level.folder / "freebase.json")["triples"])


def numeracy_tokens(level: Level) -> float:
    """Tokens of the Num and All corpora together."""
    stats = read_json(level.folder / "num" / "corpus" / "stats.json")
    return float(stats["num"]["tokens"] + stats["all"]["tokens"])


def level_details(level: Level) -> dict[str, float]:
    """What a level holds, for the report: pages, links, sentences, tokens, words."""
    info = level.info
    if isinstance(info, FilesInfo):
        return dict(info.counts)
    if isinstance(info, StoriesInfo):
        return {"stories": info.stories}
    if isinstance(info, VectorsInfo):
        return {"words": info.words, "numerals": info.numerals, "dimensions": info.dim}
    if isinstance(info, ProbeInfo):
        return {"train words": info.words, "test words": info.words, "dimensions": info.dim}
    if isinstance(info, CorpusInfo):
        return {"tokens": info.tokens, "sentences": info.sentences,
                "distinct words": info.distinct_words, "words (min count 5)":
                info.words_min_count_5, "words (min count 20)": info.words_min_count_20}
    details: dict[str, float] = {"XML MB": info.uncompressed_bytes / 1e6, "pages": info.pages,
                                 "redirects": info.redirects,
                                 "distinct words": info.distinct_words}
    stats = level.folder / "shard" / "stats.json"
    if stats.is_file():
        shard = read_json(stats)
        details |= {key: shard.get(key, 0) for key in ("links", "sentences", "tokens")}
    first = level.folder / "shard-first" / "stats.json"
    if first.is_file():
        details["first shard's links"] = read_json(first).get("links", 0)
    freebase = level.folder / "freebase.json"
    if freebase.is_file():
        details["Freebase topics"] = read_json(freebase)["topics"]
    return details
