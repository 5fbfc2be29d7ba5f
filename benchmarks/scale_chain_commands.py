"""The commands of the scale benchmark's text, sskip, probe and stories chains: each as its
rule in workflow/rules/*.smk runs it, with config/paper.yaml's settings (scale_levels)."""

from __future__ import annotations

from collections.abc import Callable

from scale_inputs import CorpusInfo, ProbeInfo
from scale_levels import SSKIP_DIM, Level, reprobe


def train_argv(family: str) -> Callable[[Level], list[str]]:
    """numeracy_train for one family, config/paper.yaml's settings, the machine's threads."""
    def argv(level: Level) -> list[str]:
        """The command on one level's corpus."""
        assert isinstance(level.info, CorpusInfo)
        threads = min(level.cores, int(level.settings["train_threads"]))
        return reprobe("numeracy", "train", "--family", family, "--corpus", level.info.path,
                       "--output", level.folder / f"{family}.txt", "--settings",
                       level.settings["retrain"], "--seed", level.settings["seed"],
                       "--threads", str(threads))
    return argv


def embed_argv(level: Level) -> list[str]:
    """wikipse_embed: SSKIP at the paper's largest dimension."""
    assert isinstance(level.info, CorpusInfo)
    return reprobe("wikipse", "embed", "--model", "sskip", "--dim", str(SSKIP_DIM), "--settings",
                   level.settings["embed"], "--seed", level.settings["seed"], "--corpus",
                   level.info.path, "--output", level.folder / f"sskip-{SSKIP_DIM}")


def probe_argv(level: Level) -> list[str]:
    """wikipse_probe: one embedding's Table 2 and 4 probes, config/paper.yaml's settings."""
    assert isinstance(level.info, ProbeInfo)
    out = level.folder / "probe"
    return reprobe("wikipse", "probe", "--train", level.info.train, "--test", level.info.test,
                   "--vectors", level.info.path, "--row", "SSKIP word", "--dim",
                   str(level.info.dim), "--settings", level.settings["probe"], "--seed",
                   level.settings["seed"], "--scores", out / "scores.csv", "--predictions",
                   out / "predictions.npz")


def newsnli_shard_argv(level: Level) -> list[str]:
    """equate_newsnli_shard over the level's stories (one shard: all of them)."""
    return reprobe("equate", "newsnli-shard", "--stories", level.info.path, "--shard", "0",
                   "--shards", "1", "--output", level.folder / "newsnli" / "0000.parquet")


def aggregate_argv(level: Level) -> list[str]:
    """wikipse_aggregate: unifΣ and wghtΣ of the dataset's words from its word/S-class vectors."""
    assert isinstance(level.info, ProbeInfo)
    out = level.folder / "aggregate"
    return reprobe("wikipse", "aggregate", "--words", level.info.train, level.info.test,
                   "--sense-vectors", level.folder / "senses", "--unif", out / "unif", "--wght",
                   out / "wght")
