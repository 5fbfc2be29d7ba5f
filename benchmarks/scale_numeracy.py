"""The numeracy steps of the scale benchmark's "vectors" chain: each command as its rule in
workflow/rules/numeracy.smk runs it, on a level's generated embedding file (scale_vectors)."""

from __future__ import annotations

from collections.abc import Callable

from scale_levels import Level, reprobe
from scale_vectors import VectorsInfo


def vectors_argv(level: Level) -> list[str]:
    """numeracy_vectors: a published GloVe-format file to gensim's native format."""
    assert isinstance(level.info, VectorsInfo)
    return reprobe("numeracy", "vectors", "--input", level.info.path, "--format", "glove_txt",
                   "--output", level.folder / "model.kv")


def numerals_argv(level: Level) -> list[str]:
    """numeracy_numerals: the model's numerals and its Table 1 row."""
    return reprobe("numeracy", "numerals", "--vectors", level.folder / "model.kv", "--model",
                   "M", "--output", level.folder / "numerals.tsv", "--scores",
                   level.folder / "table1.csv")


def tests_argv(kind: str) -> Callable[[Level], list[str]]:
    """numeracy_shared_tests of one kind over the model's numerals (config/paper.yaml's rules)."""
    def argv(level: Level) -> list[str]:
        """The command at one level."""
        return reprobe("numeracy", "tests", "--kind", kind, "--output-dir",
                       level.folder / f"tests-{kind}", "--settings", level.settings["tests"],
                       level.folder / "numerals.tsv")
    return argv


def numeracy_probe_argv(level: Level) -> list[str]:
    """numeracy_probe: the model on the magnitude and numeration tests."""
    return reprobe("numeracy", "probe", "--vectors", level.folder / "model.kv", "--model", "M",
                   "--role", "off_the_shelf", "--mag", level.folder / "tests-mag", "--num",
                   level.folder / "tests-num", "--seed", level.settings["seed"], "--output",
                   level.folder / "probe.csv")


def random_argv(level: Level) -> list[str]:
    """numeracy_random: the random-embedding baseline on the level's tests, 300d."""
    return reprobe("numeracy", "random", "--model", "Random", "--role", "off_the_shelf", "--mag",
                   level.folder / "tests-mag", "--num", level.folder / "tests-num", "--dim",
                   "300", "--seed", level.settings["seed"], "--output",
                   level.folder / "random.csv")


KNN_MODELS, KNN_SET_MODELS = 17, 11  # config/paper.yaml: every model; the off-the-shelf ones


def knn_argv(level: Level) -> list[str]:
    """numeracy_knn as the paper config's one job runs it: 17 models (here the level's file
    17 times), the numbers common to the 11 off-the-shelf ones."""
    kv, numerals = level.folder / "model.kv", level.folder / "numerals.tsv"
    return reprobe("numeracy", "knn", "--models", *(f"M{n}" for n in range(KNN_MODELS)),
                   "--vectors", *[kv] * KNN_MODELS, "--numerals", *[numerals] * KNN_MODELS,
                   "--set-numerals", *[numerals] * KNN_SET_MODELS, "--settings",
                   level.settings["knn"], "--seed", level.settings["seed"], "--output",
                   level.folder / "knn.csv")
