"""What the WIKI-PSE rules read for part 1 (typing, corpora, the dataset, the embeddings),
and which variants, embeddings and tables a config asks for (reprobe.wikipse.targets)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from conftest import option_value, option_values
from reprobe.config import CHECKOUT, fill_defaults, schema_errors
from reprobe.errors import ConfigError
from reprobe.step_settings import read_settings
from reprobe.wikipse.embedding.embedding_settings import EmbeddingSettings
from reprobe.wikipse.paths import MODELS, TABLES
from reprobe.wikipse.settings import SelectionSettings
from reprobe.wikipse.targets import WikiPseTargets, aggregate_names, embedding_names

EMBEDDINGS = {"models": ["skip", "sskip"], "dims": [16], "window": 5, "negative": 10,
              "epochs": 5, "min_count": 3, "sample": 0.001, "alpha": 0.025, "workers": 1,
              "wang2vec": None, "wang2vec_models": ["sskip"]}


def raw_target(name: str) -> str:
    """A stand-in for the workflow's raw_target."""
    return f"data/raw/{name}/{name}.txt"


def config(**typing: object) -> dict:
    """A wikipse config with the schema's defaults filled in."""
    return {"wikipse": {
        "typing": {"method": "table", "figer_map": {"source": "map"},
                   "title_table": {"source": "table"}, **typing},
        "fold": [{"figer": "/building", "sclass": "location", "reason": "r"}],
        "released": {"classes": {"source": "classes"}, "train": {"source": "train"}},
        "min_frequency": 20, "selection": {"single_per_split": None, "multi_per_split": 5},
        "embeddings": dict(EMBEDDINGS),
        "probes": {"classifiers": ["LR", "KNN", "MLP"], "lr_c": 1.0, "knn_k": 5,
                   "mlp_hidden": 100, "mlp_max_iter": 200, "mlp_early_stopping": False,
                   "n_jobs": 1, "analysis_model": "sskip", "public_dim": None,
                   "ambiguity": "authors"},
        "similarity": {}, "public": {}, "senteval": {"tasks": {}, "folds": 10},
        "authors": {}, "extra_vectors": {}}}


def part2_config() -> dict:
    """The test config with part 2's defaults and a released train/test pair."""
    loaded = config()
    loaded["wikipse"]["released"]["test"] = {"source": "test"}
    loaded["wikipse"]["probes"] = {"classifiers": ["LR", "MLP"], "lr_c": 1.0, "knn_k": 5,
                                   "mlp_hidden": 100, "mlp_max_iter": 200,
                                   "mlp_early_stopping": False, "n_jobs": 2,
                                   "analysis_model": "sskip", "public_dim": None,
                                   "ambiguity": "authors"}
    loaded["wikipse"]["public"] = {"GloVe (6B)": {"source": "glove", "format": "glove_txt"}}
    loaded["wikipse"]["similarity"] = {"WS353": {"source": "ws", "kind": "pairs"}}
    return loaded


def authors_config(**authors: object) -> dict:
    """A part 2 config with the authors' bundle: corpora and a word and a word/S-class file."""
    settings = part2_config()
    settings["wikipse"]["released"]["test"] = {"source": "test"}
    settings["wikipse"]["authors"] = authors
    return settings


BUNDLE = {"corpora": {"word": {"source": "zip", "member": "corpus.txt"},
                      "sclass": {"source": "zip", "member": "word_sclass/corpus.txt"}},
          "embeddings": {"sskip-sclass-400": {"source": "zip", "member": "e/s.txt",
                                              "format": "word2vec_txt"},
                         "sskip-word-400": {"source": "zip", "member": "e/w.txt",
                                            "format": "auto"}}}


def test_embedding_and_aggregate_names() -> None:
    assert embedding_names(EMBEDDINGS) == ["skip-word-16", "skip-sclass-16", "sskip-word-16",
                                           "sskip-sclass-16"]
    assert aggregate_names(EMBEDDINGS) == ["skip-unif-16", "skip-wght-16", "sskip-unif-16",
                                           "sskip-wght-16"]


def test_table_typing_reads_the_title_table() -> None:
    targets = WikiPseTargets(config(), raw_target, ["0000", "0001"])
    arguments = targets.typing_arguments()
    assert option_value(arguments, "--title-table") == raw_target("table")
    assert option_value(arguments, "--released-classes") == raw_target("classes")
    assert option_values(arguments, "--freebase-types") == []
    assert targets.freebase_inputs() == {} and targets.freebase_arguments() == []


def test_freebase_typing_reads_the_streamed_tables() -> None:
    targets = WikiPseTargets(config(method="freebase", freebase={"source": "fb"},
                                    mid_titles={"source": "mids", "member": "mid2name.tsv"}),
                             raw_target, ["0000"])
    assert "freebase_types" in targets.typing_inputs()
    arguments = targets.freebase_arguments()
    assert option_value(arguments, "--mid-titles") == raw_target("mids") + "/mid2name.tsv"


def test_a_method_without_its_source_names_the_key() -> None:
    with pytest.raises(ConfigError, match="wikipse.typing.freebase"):
        WikiPseTargets(config(method="freebase"), raw_target, ["0000"])


def test_tables_outputs_and_options() -> None:
    targets = WikiPseTargets(config(), raw_target, ["0000", "0001"])
    assert f"{TABLES}/released_vs_rebuilt.csv" in targets.tables
    assert f"{MODELS}/sskip-wght-16" in targets.outputs
    assert targets.shard_files("word.txt") == ["data/processed/wikipse/shards/0000/word.txt",
                                               "data/processed/wikipse/shards/0001/word.txt"]
    selection = targets.selection_arguments()
    assert selection[0] == "--min-frequency=20" and len(selection) == 2
    assert read_settings(option_value(selection, "--settings"), SelectionSettings,
                         "wikipse.selection") == \
        SelectionSettings(single_per_split=None, multi_per_split=5)
    embed = targets.embedding_arguments(SimpleNamespace(wp_model="sskip", wp_dim="16"))
    assert embed[:2] == ["--model=sskip", "--dim=16"] and len(embed) == 3
    settings = read_settings(option_value(embed, "--settings"), EmbeddingSettings,
                             "wikipse.embeddings")
    assert settings.wang2vec_for("sskip") is None


@pytest.mark.parametrize(("models", "trained"), [(["sskip"], {"sskip"}),
                                                 (["skip", "sskip"], {"skip", "sskip"})])
def test_the_wang2vec_binary_trains_the_models_named(models: list[str], trained: set) -> None:
    settings = config()
    settings["wikipse"]["embeddings"].update(wang2vec="bin/word2vec", wang2vec_models=models)
    targets = WikiPseTargets(settings, raw_target, ["0000"])
    embed = targets.embedding_arguments(SimpleNamespace(wp_model="skip", wp_dim="16"))
    settings = read_settings(option_value(embed, "--settings"), EmbeddingSettings,
                             "wikipse.embeddings")
    assert {model for model in ("skip", "sskip") if settings.wang2vec_for(model)} == trained


def test_the_authors_corpus_may_train_fewer_models_and_sizes() -> None:
    targets = WikiPseTargets(authors_config(**BUNDLE, models=["sskip"], dims=[8]), raw_target,
                             ["0000"])
    assert targets.probed_in("authors_corpus") == ["sskip-word-8", "sskip-wght-8",
                                                   "sskip-unif-8"]
    assert targets.probed_in("released") == targets.probed  # the rebuild's sizes: 16
    assert targets.analysis_word_vectors("authors_corpus") == \
        f"{MODELS}/authors_corpus/sskip-word-8"
    assert list(targets.public_ours("authors_corpus").values())[0] == \
        f"{MODELS}/authors_corpus/sskip-word-8"
    with pytest.raises(ConfigError, match="wikipse.authors.models: needs sskip"):
        WikiPseTargets(authors_config(**BUNDLE, models=["skip"]), raw_target, ["0000"])


def test_the_authors_variants_need_the_released_words() -> None:
    settings = authors_config(**BUNDLE)
    del settings["wikipse"]["released"]["train"]
    with pytest.raises(ConfigError, match="wikipse.authors: needs wikipse.released"):
        WikiPseTargets(settings, raw_target, ["0000"])
    assert WikiPseTargets(authors_config(), raw_target, ["0000"]).variants == [
        "rebuilt", "released"]


@pytest.mark.parametrize("name", ["config.yaml", "paper.yaml"])
def test_the_shipped_configs_build_their_targets(name: str) -> None:
    loaded = yaml.safe_load((CHECKOUT / "config" / name).read_text(encoding="utf-8"))
    assert schema_errors(loaded) == []
    fill_defaults(loaded)
    targets = WikiPseTargets(loaded, raw_target, ["0000"])
    names = {Path(t).name for t in targets.tables}
    assert {"stats.csv", "fold.csv", "typing.csv", "released_vs_rebuilt.csv", "table2_rebuilt.csv",
            "table4_rebuilt.csv", "table5.csv", "table6.csv"} <= names


def test_resources_scale_with_shards_and_dimensions() -> None:
    small = WikiPseTargets(part2_config(), raw_target, ["0000"] * 4)
    paper_config = part2_config()
    paper_config["wikipse"]["embeddings"]["dims"] = [100, 400]
    paper = WikiPseTargets(paper_config, raw_target, ["0000"] * 256)
    dim = SimpleNamespace
    assert small.resources("wikipse_embed")["mem_mb"](dim(wp_dim="16"), 1) < 2048
    # Each embedding job by its own dimension: the model is vocabulary × dimension.
    embed = paper.resources("wikipse_embed")
    assert embed["mem_mb"](dim(wp_dim="400"), 1) > 3 * embed["mem_mb"](dim(wp_dim="100"), 1)
    assert embed["runtime"](dim(wp_dim="400"), 32) > embed["runtime"](dim(wp_dim="100"), 32)
    assert embed["runtime"](dim(wp_dim="400"), 16) > embed["runtime"](dim(wp_dim="400"), 32)
    assert embed["mem_mb"](None, 1) == embed["mem_mb"](dim(wp_dim="400"), 1)
    assert small.resources("wikipse_mc")["mem_mb"](None, 2) == 2 * small.resources(
        "wikipse_mc")["mem_mb"](None, 1)


def test_without_typing_the_released_files_get_the_baselines_only() -> None:
    section = config()
    del section["wikipse"]["typing"], section["wikipse"]["fold"]
    section["wikipse"]["released"]["test"] = {"source": "test"}
    targets = WikiPseTargets(section, raw_target, [])
    assert targets.variants == ["released"] and targets.embeddings == []
    assert targets.tables == ["results/tables/wikipse/stats_released.csv",
                              "results/tables/wikipse/table2_released.csv",
                              "results/tables/wikipse/table4_released.csv"]
    assert targets.probed_in("released") == [] and targets.typing_inputs() == {}
    assert targets.released_stats_arguments()[:1] == ["--train=data/raw/train/train.txt"]


def test_a_rebuild_without_the_wikipedia_corpus_is_an_error() -> None:
    with pytest.raises(ConfigError, match=r"wikipse\.typing: the rebuild reads the Wikipedia"):
        WikiPseTargets(config(), raw_target, [])
