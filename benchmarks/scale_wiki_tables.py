"""Steps of the "wiki" chain downstream of its corpora: numeracy's PMI analysis over every
shard's sentences, and the WIKI-PSE dataset selected from the summed corpus.

`numeracy_pmi` reads every sentence of the dump (config/paper.yaml: all 256 shards) and keeps
a reservoir of the paper's 1 million sentences with a number (§5.1), so its time follows the
dump and its memory the reservoir; `wikipse_dataset` reads the WIKI-PSE corpus's counts and
mentions (550 million tokens at paper scale) within the whole-dump jobs' memory budget.
"""

from __future__ import annotations

import json
from functools import cache

from scale_types import FilesChain, Level, Paper, Step, reprobe
from scale_wiki import WikiInfo

SPILL_BUDGET_MB = 64  # as scale_steps.SPILL_BUDGET_MB: the least DuckDB's joins run in
DUMP_MB = 90.0 * 256  # config/paper.yaml's dump: 256 shards of ~90 MB bz2 (issue 32)
WIKIPSE_TOKENS = 550e6  # the WIKI-PSE corpus (Yaghoobzadeh et al. 2019, §3)
# PMI's reservoir (numeracy.pmi.sentences: 1M) fills once 1M sentences with a number are read:
# 54% of the generated dump's sentences have one (206,021 of 382,804 at 30.1 MB of bz2, the
# quick ladder's top), so at ~146 MB. Each took ~1.9 KB between the two largest quick sizes
# (its line, then its tokens): ~1.5 GB more than the top size held, at most.
PMI_FULL_MB = 30.09 * 1e6 / 206_021
PMI_RESERVOIR_MB = 1536


@cache
def settings() -> dict[str, str]:
    """config/paper.yaml's PMI settings and minimum frequency (schema defaults filled)."""
    from reprobe.config import CHECKOUT, fill_defaults, load_yaml
    from reprobe.numeracy.settings import PmiSettings
    from reprobe.step_settings import settings_json
    from reprobe.wikipse.settings import SelectionSettings

    config = load_yaml(CHECKOUT / "config" / "paper.yaml")
    fill_defaults(config)
    return {"pmi": settings_json(config["numeracy"]["pmi"], PmiSettings),
            # As many words as a level allows: a small level has fewer than the paper's
            # 44,250 a split, and a fixed count would fail there (an upper bound on its cost).
            "selection": settings_json({"single_per_split": None, "multi_per_split": None},
                                       SelectionSettings),
            "min_frequency": str(config["wikipse"]["min_frequency"]), "seed": str(config["seed"])}


def pmi_argv(level: Level) -> list[str]:
    """numeracy_pmi over the level's one shard (the paper config: every shard, one job)."""
    return reprobe("numeracy", "pmi", "--sentences", level.folder / "shard" / "sentences.parquet",
                   "--settings", settings()["pmi"], "--seed", settings()["seed"], "--output",
                   level.folder / "pmi.csv")


def dataset_argv(level: Level) -> list[str]:
    """wikipse_dataset from the level's summed corpus, within SPILL_BUDGET_MB."""
    from reprobe.config import CHECKOUT

    out = level.folder / "wikipse_dataset"
    return reprobe("wikipse", "dataset", "--corpus-dir", level.folder / "wikipse_corpus",
                   "--min-frequency", settings()["min_frequency"], "--settings",
                   settings()["selection"], "--seed", settings()["seed"], "--output-dir", out,
                   "--reference", CHECKOUT / "config" / "reference" / "wikipse" / "stats.csv",
                   "--csv", out / "stats.csv", "--md", out / "stats.md", "--memory-mb",
                   str(SPILL_BUDGET_MB))


def dump_mb(level: Level) -> float:
    """The dump's compressed size in MB (as scale_levels.dump_mb, which imports this module)."""
    assert isinstance(level.info, WikiInfo)
    return level.info.compressed_bytes / 1e6


def corpus_tokens(level: Level) -> float:
    """Tokens of the level's WIKI-PSE corpus."""
    stats = level.folder / "wikipse_corpus" / "stats.json"
    return float(json.loads(stats.read_text(encoding="utf-8"))["tokens"])


CHAINS: tuple[FilesChain, ...] = ()  # both run on the core "wiki" chain
STEPS: tuple[Step, ...] = (
    Step("numeracy_pmi", ("numeracy_pmi",), "MB (bz2)", 1, "wiki", pmi_argv, dump_mb,
         Paper(DUMP_MB, "one job over every shard's sentences", "English Wikipedia in "
               "config/paper.yaml's 256 shards of ~90 MB bz2 each (issue 32); its reservoir "
               "holds §5.1's 1 million sentences with a number at most, which this dump "
               f"fills at ~{PMI_FULL_MB:.0f} MB: its peak RSS is taken there",
               memory_size=PMI_FULL_MB),
         needs=("wikipedia_shard",), linear_memory=True, budget_mb=PMI_RESERVOIR_MB,
         budget_why="its reservoir keeps 1M sentences with a number at most, ~1.9 KB each as "
         "a line and then as tokens"),
    Step("wikipse_dataset", ("wikipse_dataset",), "tokens", 1, "wiki", dataset_argv,
         corpus_tokens, Paper(WIKIPSE_TOKENS, "one job over the summed corpus",
                              "the WIKI-PSE corpus: 550 million tokens (Yaghoobzadeh et al. "
                              "2019, §3)"), needs=("wikipse_corpus",), budget_mb=SPILL_BUDGET_MB),
)
OUTPUTS: dict[str, tuple[str, ...]] = {"numeracy_pmi": ("pmi.csv",),
                                       "wikipse_dataset": ("wikipse_dataset",)}
