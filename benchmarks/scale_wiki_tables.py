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

from scale_types import SHARD_MB, SHARDS, SPILL_BUDGET_MB, FilesChain, Level, Paper, Step, reprobe
from scale_wiki import dump_mb

WIKIPSE_TOKENS = 550e6  # the WIKI-PSE corpus (Yaghoobzadeh et al. 2019, §3)
# What a sentence with a number took in PMI's reservoir between the two largest quick sizes:
# its line, then its tokens. The reservoir holds numeracy.pmi.sentences of them at most.
PMI_SENTENCE_KB = 1.9


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
            "pmi_sentences": str(config["numeracy"]["pmi"]["sentences"]),
            # As many words as a level allows: a small level has fewer than the paper's
            # 44,250 a split, and a fixed count would fail there (an upper bound on its cost).
            "selection": settings_json({"single_per_split": None, "multi_per_split": None},
                                       SelectionSettings),
            "min_frequency": str(config["wikipse"]["min_frequency"]), "seed": str(config["seed"])}


def pmi_reservoir_mb() -> int:
    """The most PMI's reservoir holds at paper scale: its sentences × PMI_SENTENCE_KB."""
    return round(int(settings()["pmi_sentences"]) * PMI_SENTENCE_KB / 1000)


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


def corpus_tokens(level: Level) -> float:
    """Tokens of the level's WIKI-PSE corpus."""
    stats = level.folder / "wikipse_corpus" / "stats.json"
    return float(json.loads(stats.read_text(encoding="utf-8"))["tokens"])


CHAINS: tuple[FilesChain, ...] = ()  # both run on the core "wiki" chain
STEPS: tuple[Step, ...] = (
    Step("numeracy_pmi", ("numeracy_pmi",), "MB (bz2)", 1, "wiki", pmi_argv, dump_mb,
         Paper(SHARD_MB * SHARDS, "one job over every shard's sentences", "English Wikipedia "
               "in config/paper.yaml's 256 shards of ~90 MB bz2 each (issue 32); its reservoir "
               "holds numeracy.pmi.sentences (§5.1's 1 million) sentences with a number at most"),
         needs=("wikipedia_shard",), linear_memory=True, budget_mb=pmi_reservoir_mb(),
         budget_why=f"its reservoir keeps {int(settings()['pmi_sentences']):,} sentences with a "
         f"number at most, ~{PMI_SENTENCE_KB} KB each as a line and then as tokens"),
    Step("wikipse_dataset", ("wikipse_dataset",), "tokens", 1, "wiki", dataset_argv,
         corpus_tokens, Paper(WIKIPSE_TOKENS, "one job over the summed corpus",
                              "the WIKI-PSE corpus: 550 million tokens (Yaghoobzadeh et al. "
                              "2019, §3)"), needs=("wikipse_corpus",), budget_mb=SPILL_BUDGET_MB),
)
OUTPUTS: dict[str, tuple[str, ...]] = {"numeracy_pmi": ("pmi.csv",),
                                       "wikipse_dataset": ("wikipse_dataset",)}
