"""What the numeracy rules read and which rows its tables have (reprobe.numeracy.targets)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from conftest import option_value, option_values
from reprobe.errors import ConfigError
from reprobe.numeracy.export_targets import NumeracyExports
from reprobe.numeracy.retrain_settings import RetrainSettings
from reprobe.numeracy.settings import (
    ContrastiveRules,
    KnnSettings,
    PmiSettings,
    SelectionSettings,
)
from reprobe.numeracy.targets import (
    NumeracyTargets,
    contrastive_rules_arguments,
    retrained_models,
)
from reprobe.step_settings import read_settings


def config(**numeracy: object) -> dict:
    """A numeracy config with two families and two off-the-shelf models."""
    base = {
        "retrain": {"families": ["glove", "word2vec"], "epochs": 5, "dim": 100, "window": 5,
                    "min_count": 5, "workers": 1,
                    "glove": {"epochs": 25, "x_max": 100, "alpha": 0.75, "learning_rate": 0.05}},
        "off_the_shelf": {"vec": {"source": "small", "format": "word2vec_txt"},
                          "zip": {"source": "glove6b", "format": "glove", "member": "g.txt"}},
        "extra_text": None, "extra_vectors": {}, "max_sentences": None, "lowercase": False,
        "random_dim": 300,
        "tie_break": "smaller", "ova_exclude_equidistant": True,
        "knn": {"k": 5, "target": "log", "test_size": 0.2},
        "pmi": {"sentences": 1000, "lambdas": [500, 1000], "smoothing": 100, "top": 5},
    }
    return {"numeracy": {**base, **numeracy}}


@pytest.fixture
def targets() -> NumeracyTargets:
    """Targets over two Wikipedia shards; a source is its data/raw folder."""
    return NumeracyTargets(config(), {"0": "s0.parquet", "1": "s1.parquet"},
                           lambda name: f"data/raw/{name}/extracted")


def w(**wildcards: str) -> SimpleNamespace:
    """Snakemake-like wildcards."""
    return SimpleNamespace(**wildcards)


def test_retrained_models_are_named_as_in_the_paper():
    assert retrained_models(["glove", "word2vec"]) == {
        "GloVe-Num": ("glove", "num"), "GloVe-All": ("glove", "all"),
        "Word2Vec-Num": ("word2vec", "num"), "Word2Vec-All": ("word2vec", "all")}


def test_corpus_parts_add_the_extra_text_last():
    extra = NumeracyTargets(config(extra_text="gw.txt"), {"0": "s0"}, str)
    assert extra.corpus_parts == {"0": "s0", "extra": "gw.txt"}
    assert extra.part_index(w(part="extra")) == 1

def test_selection_settings_carry_the_cap_and_lowercasing():
    (option,) = NumeracyTargets(config(max_sentences=10, lowercase=True), {}, str
                                ).select_options()
    text = option_value([option], "--settings")
    assert read_settings(text, SelectionSettings, "numeracy") == SelectionSettings(
        max_sentences=10, lowercase=True)
    uncapped = option_value(NumeracyTargets(config(), {}, str).select_options(), "--settings")
    assert read_settings(uncapped, SelectionSettings, "numeracy").max_sentences is None


def test_models_read_their_corpus_and_epochs(targets):
    assert targets.train_corpus(w(model="GloVe-All")) == "data/processed/numeracy/corpus/all.txt"
    settings = read_settings(option_value(targets.retrain_arguments(), "--settings"),
                             RetrainSettings, "numeracy.retrain")
    assert settings.family_settings("glove")["epochs"] == 25
    assert settings.family_settings("word2vec")["epochs"] == 5
    assert "x_max" not in settings.family_settings("fasttext")
    assert targets.family(w(model="Word2Vec-All")) == "word2vec"


def test_vectors_come_from_the_trained_file_or_the_source(targets):
    assert targets.vectors_input(w(model="GloVe-Num")).endswith("trained/GloVe-Num.txt")
    assert targets.vectors_file(w(model="zip")) == "data/raw/glove6b/extracted/g.txt"
    assert targets.vectors_format(w(model="zip")) == "glove"
    assert targets.vectors_format(w(model="GloVe-Num")) == "word2vec_txt"


def test_tests_and_random_rows_by_role(targets):
    assert targets.num_tests(w(model="GloVe-Num")).endswith("tests/retrained-num")
    assert targets.num_tests(w(model="vec")).endswith("tests/num-vec")
    assert targets.mag_tests(w(model="vec")).endswith("tests/off_the_shelf-mag")
    retrained, shelf = w(role="retrained"), w(role="off_the_shelf")
    assert (targets.random_row(retrained), targets.random_row(shelf)) == ("random", "Random")
    assert (targets.random_dim(retrained), targets.random_dim(shelf)) == (100, 300)
    assert targets.random_num_tests(shelf) == []
    assert targets.random_num_option(shelf, w(num=[])) == []
    num = targets.random_num_tests(retrained)
    assert targets.random_num_option(retrained, w(num=num)) == [f"--num={num[0]}"]
    assert len(num) == 1


def test_each_table_reads_only_its_scores(targets):
    table4 = targets.table_scores(w(n="4"))
    assert all("GloVe" in p or "Word2Vec" in p or "random/retrained" in p for p in table4)
    assert targets.table_scores(w(n="2"))[-1].endswith("random/off_the_shelf.csv")
    assert targets.table_scores(w(n="5")) == ["results/numeracy/scores/pmi.csv"]
    assert len(targets.table_scores(w(n="1"))) == len(targets.models) == 6


def test_test_rules_state_the_tie_break_and_ova_rule(targets):
    (option,) = contrastive_rules_arguments(config(ova_exclude_equidistant=False)["numeracy"])
    text = option_value([option], "--settings")
    assert read_settings(text, ContrastiveRules, "numeracy").keywords() == {
        "tie_break": "smaller", "exclude_equidistant": False}
    assert targets.test_rules == contrastive_rules_arguments(config()["numeracy"])


def test_knn_and_pmi_settings_come_from_their_sections(targets):
    knn = read_settings(option_value(targets.knn_arguments(), "--settings"), KnnSettings,
                        "numeracy.knn")
    assert knn == KnnSettings(k=5, target="log", test_size=0.2)
    (option,) = targets.pmi_arguments()
    pmi = read_settings(option_value([option], "--settings"), PmiSettings, "numeracy.pmi")
    assert (pmi.sentences, pmi.lambdas, pmi.smoothing, pmi.top) == (1000, [500, 1000], 100, 5)


def test_resources_scale_with_the_dump_and_grow_on_retry():
    small = NumeracyTargets({**config(), "wikipedia": {"shards": 4}}, {}, str)
    paper = NumeracyTargets({**config(), "wikipedia": {"shards": 256}}, {}, str)
    train = small.resources("numeracy_train")
    assert train["mem_mb"](None, 1) < 4096
    assert train["mem_mb"](None, 2) == 2 * train["mem_mb"](None, 1)
    # At the paper's 256 shards: GloVe's measured model and counting budget, word2vec's time.
    assert paper.resources("numeracy_train")["mem_mb"](None, 1) > 4 * train["mem_mb"](None, 1)
    # Its run time was measured on 16 threads: fewer threads take longer.
    runtime = paper.resources("numeracy_train")["runtime"]
    assert runtime(None, 16) > 60 > train["runtime"](None, 1) / 16
    assert runtime(None, 8) == pytest.approx(2 * runtime(None, 16), abs=1)


def test_exports_write_one_folder_per_number_set(targets: NumeracyTargets) -> None:
    sources = {"small": {"path": "v.txt", "sha256": "ab"}, "dump": {"url": "https://d"}}
    exports = NumeracyExports(targets, sources, "dump")
    assert exports.folders == [f"exports/numeracy/{name}"
                               for name in ("retrained", "off_the_shelf", "vec", "zip")]
    retrained = exports.arguments(w(number_set="retrained"))
    assert option_value(retrained, "--mag") == "results/numeracy/tests/retrained-mag"
    assert option_value(retrained, "--num") == "results/numeracy/tests/retrained-num"
    assert option_values(retrained, "--models") == list(targets.retrained)
    assert json.loads(option_value(retrained, "--sources-json")) == {
        "dump": {"url": "https://d"}}
    vec = exports.arguments(w(number_set="vec"))
    assert option_values(vec, "--mag") == [] and option_values(vec, "--models") == ["vec"]
    assert json.loads(option_value(vec, "--sources-json")) == {
        "small": {"path": "v.txt", "sha256": "ab"}}
    rules = read_settings(option_value(vec, "--settings"), ContrastiveRules, "numeracy")
    assert rules.tie_break == "smaller" and rules.ova_exclude_equidistant
    assert exports.inputs(w(number_set="off_the_shelf")) == [
        "results/numeracy/tests/off_the_shelf-mag"]


def test_a_model_named_as_a_number_set_is_an_error() -> None:
    named = config(off_the_shelf={"retrained": {"source": "s", "format": "word2vec_txt"}})
    with pytest.raises(ConfigError, match=r"numeracy\.off_the_shelf\.retrained"):
        NumeracyExports(NumeracyTargets(named, {}, str), {}, None)
