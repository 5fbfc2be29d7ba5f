"""Tests for what the WIKI-PSE rules read and which embeddings and tables a config asks for."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from reprobe.config import CHECKOUT, fill_defaults, schema_errors
from reprobe.errors import ConfigError
from reprobe.step_settings import read_settings
from reprobe.wikipse.embedding.embedding_settings import EmbeddingSettings
from reprobe.wikipse.export_targets import WikiPseExports
from reprobe.wikipse.settings import (
    ClassifierSettings,
    EmbeddingProbeSettings,
    MentionTypingSettings,
    SelectionSettings,
    SentEvalSettings,
    TyperSettings,
)
from reprobe.wikipse.targets import (
    DATA,
    MODELS,
    TABLES,
    WikiPseTargets,
    aggregate_names,
    embedding_names,
)

EMBEDDINGS = {"models": ["skip", "sskip"], "dims": [16], "window": 5, "negative": 10,
              "epochs": 5, "min_count": 3, "sample": 0.001, "alpha": 0.025, "workers": 1,
              "wang2vec": None, "wang2vec_models": ["sskip"]}
TYPER = {"lstm_dim": 4, "attention_dim": 4, "dropout": 0.5, "learning_rate": 0.01,
         "batch_size": 8, "epochs": 1, "steps_per_epoch": 2, "device": "cpu"}


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


def test_embedding_and_aggregate_names() -> None:
    assert embedding_names(EMBEDDINGS) == ["skip-word-16", "skip-sclass-16", "sskip-word-16",
                                           "sskip-sclass-16"]
    assert aggregate_names(EMBEDDINGS) == ["skip-unif-16", "skip-wght-16", "sskip-unif-16",
                                           "sskip-wght-16"]


def test_table_typing_reads_the_title_table() -> None:
    targets = WikiPseTargets(config(), raw_target, ["0000", "0001"])
    arguments = targets.typing_arguments()
    assert arguments[arguments.index("--title-table") + 1] == raw_target("table")
    assert arguments[arguments.index("--released-classes") + 1] == raw_target("classes")
    assert "--freebase-types" not in arguments
    assert targets.freebase_inputs() == {} and targets.freebase_arguments() == []


def test_freebase_typing_reads_the_streamed_tables() -> None:
    targets = WikiPseTargets(config(method="freebase", freebase={"source": "fb"},
                                    mid_titles={"source": "mids", "member": "mid2name.tsv"}),
                             raw_target, ["0000"])
    assert "freebase_types" in targets.typing_inputs()
    arguments = targets.freebase_arguments()
    assert arguments[arguments.index("--mid-titles") + 1] == raw_target("mids") + "/mid2name.tsv"


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
    assert selection[:3] == ["--min-frequency", "20", "--settings"]
    assert read_settings(selection[3], SelectionSettings, "wikipse.selection") == \
        SelectionSettings(single_per_split=None, multi_per_split=5)
    embed = targets.embedding_arguments(SimpleNamespace(wp_model="sskip", wp_dim="16"))
    assert embed[:5] == ["--model", "sskip", "--dim", "16", "--settings"]
    settings = read_settings(embed[5], EmbeddingSettings, "wikipse.embeddings")
    assert settings.wang2vec_for("sskip") is None


@pytest.mark.parametrize(("models", "trained"), [(["sskip"], {"sskip"}),
                                                 (["skip", "sskip"], {"skip", "sskip"})])
def test_the_wang2vec_binary_trains_the_models_named(models: list[str], trained: set) -> None:
    settings = config()
    settings["wikipse"]["embeddings"].update(wang2vec="bin/word2vec", wang2vec_models=models)
    targets = WikiPseTargets(settings, raw_target, ["0000"])
    embed = targets.embedding_arguments(SimpleNamespace(wp_model="skip", wp_dim="16"))
    settings = read_settings(embed[-1], EmbeddingSettings, "wikipse.embeddings")
    assert {model for model in ("skip", "sskip") if settings.wang2vec_for(model)} == trained


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


def test_the_authors_variants_probe_the_released_words_with_their_vectors() -> None:
    targets = WikiPseTargets(authors_config(**BUNDLE), raw_target, ["0000"])
    assert targets.variants == ["rebuilt", "released", "authors_corpus", "authors_embeddings"]
    names = {Path(t).name for t in targets.tables}
    assert {"table2_authors_corpus.csv", "table4_authors_embeddings.csv",
            "table3_authors_corpus.csv"} <= names
    assert "table3_authors_embeddings.csv" not in names
    job = SimpleNamespace(wp_variant="authors_embeddings", wp_model="sskip", wp_kind="unif",
                          wp_dim="400", wp_table="table2", wp_corpus="sclass")
    # Their word/S-class file is probed as unifΣ and wghtΣ, in the tables' row order.
    assert targets.probed_in("authors_embeddings") == ["sskip-word-400", "sskip-wght-400",
                                                       "sskip-unif-400"]
    assert targets.probe_vectors(job) == f"{MODELS}/authors_embeddings/sskip-unif-400"
    assert targets.split_files("authors_embeddings") == targets.split_files("released")
    # Every variant on the released words shares the released baselines.
    assert targets.probe_scores(job)[-1] == "results/wikipse/probes/released/baselines.csv"
    imported = targets.authors_embedding_arguments(job)
    assert imported == ["--input", f"{raw_target('zip')}/e/s.txt", "--format", "word2vec_txt"]
    job.wp_variant = "authors_corpus"
    assert targets.probe_vectors(job) == f"{MODELS}/authors_corpus/sskip-unif-400"
    assert targets.authors_corpus_path(job) == f"{raw_target('zip')}/word_sclass/corpus.txt"
    assert len(targets.probed_in("authors_corpus")) == len(targets.probed)
    # Tables 2 and 4 once more with every variant side by side.
    assert f"{TABLES}/table4_variants.csv" in targets.tables
    pairs = targets.variants_arguments(SimpleNamespace(wp_table="table4"))
    assert {p.split("=", 1)[0] for p in pairs} == set(targets.variants)
    assert "authors_embeddings=results/wikipse/probes/released/baselines.csv" in pairs
    assert len(targets.variants_scores(SimpleNamespace(wp_table="table4"))) == len(pairs)


def test_the_authors_corpus_gets_tables_5_to_7_and_the_figures() -> None:
    settings = authors_config(**BUNDLE)
    settings["wikipse"]["senteval"]["tasks"] = {"MR": {"pos": {"source": "p"},
                                                       "neg": {"source": "n"}}}
    targets = WikiPseTargets(settings, raw_target, ["0000"])
    names = {Path(t).name for t in targets.tables}
    assert {"table5_authors_corpus.csv", "table6_authors_corpus.csv",
            "table7_authors_corpus.csv", "figure3a_authors_corpus.csv"} <= names
    assert f"{TABLES}/figure6_authors_corpus.png" in targets.analysis_outputs("authors_corpus")
    # Its vectors, the released words (checked against the class list), its own predictions.
    analyses = targets.analysis_arguments("authors_corpus")
    assert analyses[analyses.index("--train") + 1] == raw_target("train")
    assert analyses[analyses.index("--suffix") + 1] == "_authors_corpus"
    # The rebuild's suffix is empty: left out, since Snakemake's :q would drop an empty token.
    assert "--suffix" not in targets.analysis_arguments() and "" not in targets.analysis_arguments()
    assert "SSKIP unifΣ=results/wikipse/probes/authors_corpus/sskip-unif-16.npz" in analyses
    assert targets.analysis_word_vectors("authors_corpus") == \
        f"{MODELS}/authors_corpus/sskip-word-16"
    assert targets.table5_scores("authors_corpus") == ["results/wikipse/nlp_authors_corpus.csv"]
    # The public embeddings are Table 5's rows beside the rebuild only.
    assert "--public" in targets.nlp_arguments()
    assert "--public" not in targets.nlp_arguments("authors_corpus")
    similarity = targets.similarity_arguments("authors_corpus")
    assert similarity[-1] == f"SSKIP 16={MODELS}/authors_corpus/sskip-word-16"
    # Without the authors' corpus there is nothing to read for it.
    plain = WikiPseTargets(part2_config(), raw_target, ["0000"])
    assert plain.analysis_inputs("authors_corpus") == {}
    assert not any("authors_corpus" in t for t in plain.tables)


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


def test_part2_tables_for_both_variants() -> None:
    targets = WikiPseTargets(part2_config(), raw_target, ["0000"])
    names = {Path(t).name for t in targets.tables}
    assert {"table2_rebuilt.csv", "table2_released.csv", "table3_released.csv",
            "table4_released.csv", "table6.csv", "figure6.csv", "table7.csv"} <= names
    public = targets.public_arguments(SimpleNamespace(wp_variant="rebuilt"))
    assert public[public.index("--public") + 1] == f"GloVe (6B)={raw_target('glove')}:glove_txt"
    assert public[public.index("--ours") + 1] == f"SSKIP word 16={MODELS}/sskip-word-16"
    settings = read_settings(public[public.index("--settings") + 1], ClassifierSettings,
                             "wikipse.probes")
    assert settings.classifiers == ["LR", "MLP"] and settings.fitting(7).n_jobs == 2
    assert targets.probed == ["skip-word-16", "skip-wght-16", "skip-unif-16", "sskip-word-16",
                              "sskip-wght-16", "sskip-unif-16"]


def test_probe_jobs_read_their_variant_and_name_their_row() -> None:
    targets = WikiPseTargets(part2_config(), raw_target, ["0000"])
    released = SimpleNamespace(wp_variant="released", wp_model="sskip", wp_kind="unif",
                               wp_dim="16", wp_table="table2")
    assert targets.split_inputs(released) == [raw_target("train"), raw_target("test"),
                                              raw_target("classes")]
    # The released files are checked against the class list.
    splits = targets.split_arguments(released)
    assert splits[splits.index("--classes") + 1] == raw_target("classes")
    assert "--classes" not in targets.split_arguments(SimpleNamespace(wp_variant="rebuilt"))
    arguments = targets.probe_arguments(released)
    assert arguments[:4] == ["--row", "SSKIP unifΣ", "--dim", "16"]
    assert arguments[4] == "--settings"
    settings = read_settings(arguments[5], EmbeddingProbeSettings, "wikipse.probes")
    assert settings.classifiers == ["LR", "MLP"] and settings.ambiguity == "authors"
    assert targets.probe_scores(released)[-1] == "results/wikipse/probes/released/baselines.csv"
    released.wp_table = "table3"
    assert targets.probe_scores(released) == ["results/wikipse/probes/released/public.csv"]
    assert targets.analysis_predictions()["SSKIP wghtΣ"].endswith("rebuilt/sskip-wght-16.npz")
    assert targets.similarity_vectors() == {"SKIP 16": f"{MODELS}/skip-word-16",
                                            "SSKIP 16": f"{MODELS}/sskip-word-16"}
    arguments = targets.similarity_arguments()
    assert arguments[:2] == ["--variant", "rebuilt"]
    assert json.loads(arguments[arguments.index("--datasets") + 1]) == {
        "WS353": {"path": raw_target("ws"), "kind": "pairs"}}


def test_mlp_early_stopping_is_passed_when_configured() -> None:
    loaded = part2_config()
    wildcards = SimpleNamespace(wp_variant="rebuilt", wp_model="skip", wp_kind="word",
                                wp_dim="16")

    def early_stopping() -> bool:
        """The probe job's mlp_early_stopping setting."""
        arguments = WikiPseTargets(loaded, raw_target, ["0000"]).probe_arguments(wildcards)
        return json.loads(arguments[arguments.index("--settings") + 1])["mlp_early_stopping"]

    assert early_stopping() is False
    loaded["wikipse"]["probes"]["mlp_early_stopping"] = True
    assert early_stopping() is True


def test_supersense_jobs_get_the_selection_and_the_classifiers() -> None:
    loaded = part2_config()
    assert WikiPseTargets(loaded, raw_target, ["0000"]).supersense_dataset_arguments() == []
    loaded["wikipse"]["supersense"] = {
        "corpus": {"source": "corpus"}, "min_frequency": 2,
        "embeddings": {"source": "ukp", "format": "word2vec_txt"},
        "selection": {"single_per_split": 4, "multi_per_split": None}}
    targets = WikiPseTargets(loaded, raw_target, ["0000"])
    dataset = targets.supersense_dataset_arguments()
    assert dataset[:5] == ["--corpus", raw_target("corpus"), "--min-frequency", "2",
                           "--settings"]
    assert read_settings(dataset[5], SelectionSettings, "wikipse.supersense.selection") == \
        SelectionSettings(single_per_split=4, multi_per_split=None)
    probe = targets.supersense_probe_arguments()
    assert probe[:5] == ["--vectors", raw_target("ukp"), "--format", "word2vec_txt",
                         "--settings"]
    assert read_settings(probe[5], ClassifierSettings, "wikipse.probes").knn_k == 5
    assert targets.classifier_settings() == probe[4:]


def test_table5_reads_each_task_file_and_our_three_kinds() -> None:
    loaded = part2_config()
    loaded["wikipse"]["senteval"] = {"folds": 5, "tasks": {
        "MR": {"pos": {"source": "mr_pos"}, "neg": {"source": "mr_neg"}},
        "MRPC": {"train": {"source": "mrpc_train"}, "test": {"source": "mrpc_test"}}}}
    targets = WikiPseTargets(loaded, raw_target, ["0000"])
    assert f"{TABLES}/table5.csv" in targets.tables
    assert raw_target("mrpc_test") in targets.nlp_inputs()
    arguments = targets.nlp_arguments()
    assert json.loads(arguments[arguments.index("--tasks") + 1])["MR"] == {
        "pos": raw_target("mr_pos"), "neg": raw_target("mr_neg")}
    assert arguments[arguments.index("--ours") + 1] == f"word={MODELS}/sskip-word-16"
    assert arguments[arguments.index("--public") + 1].startswith("GloVe (6B)=")
    assert read_settings(arguments[arguments.index("--settings") + 1], SentEvalSettings,
                         "wikipse.senteval") == SentEvalSettings(folds=5)


def test_mc_reads_the_three_splits_and_asks_for_a_gpu_on_cuda() -> None:
    loaded = part2_config()
    assert WikiPseTargets(loaded, raw_target, ["0000"]).table5_scores() == []
    assert WikiPseTargets(loaded, raw_target, ["0000"]).mc_arguments() == []
    loaded["wikipse"]["mention_typing"] = {
        "files": {s: {"source": "figer", "member": f"corpus/Wiki/{s}.txt"}
                  for s in ("train", "dev", "test")},
        "context": 10, "lowercase": True, "typer": {**TYPER, "epochs": 2, "device": "cuda"}}
    targets = WikiPseTargets(loaded, raw_target, ["0000"])
    assert f"{TABLES}/table5.csv" in targets.tables
    assert targets.table5_scores() == ["results/wikipse/mc.csv"]
    assert raw_target("figer") in targets.mc_inputs() and targets.mc_gpus() == 1
    arguments = targets.mc_arguments()
    assert f"--dev={raw_target('figer')}/corpus/Wiki/dev.txt" in arguments
    settings = read_settings(arguments[arguments.index("--settings") + 1],
                             MentionTypingSettings, "wikipse.mention_typing")
    assert (settings.context, settings.lowercase) == (10, True)
    assert settings.typer == TyperSettings(**{**TYPER, "epochs": 2, "device": "cuda"})
    assert arguments[arguments.index("--ours") + 1] == f"word={MODELS}/sskip-word-16"
    loaded["wikipse"]["mention_typing"]["typer"]["device"] = "cpu"
    assert WikiPseTargets(loaded, raw_target, ["0000"]).mc_gpus() == 0


def test_resources_scale_with_shards_and_dimensions() -> None:
    small = WikiPseTargets(part2_config(), raw_target, ["0000"] * 4)
    paper_config = part2_config()
    paper_config["wikipse"]["embeddings"]["dims"] = [100, 400]
    paper = WikiPseTargets(paper_config, raw_target, ["0000"] * 256)
    assert small.resources("wikipse_embed")["mem_mb"](None, 1) < 2048
    assert paper.resources("wikipse_embed")["mem_mb"](None, 1) > 40000
    assert paper.resources("wikipse_typing")["mem_mb"](None, 1) < paper.resources(
        "wikipse_embed")["mem_mb"](None, 1)
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
    assert targets.released_stats_arguments()[:2] == ["--train", "data/raw/train/train.txt"]


def test_a_rebuild_without_the_wikipedia_corpus_is_an_error() -> None:
    with pytest.raises(ConfigError, match=r"wikipse\.typing: the rebuild reads the Wikipedia"):
        WikiPseTargets(config(), raw_target, [])


def test_exports_write_each_dataset_and_compare_it_with_the_other() -> None:
    targets = WikiPseTargets(part2_config(), raw_target, ["0000"])
    sources = {"dump": {"url": "https://example.org/d.bz2", "sha256": "ab"},
               "map": {"package": "pkg", "path": "m.map"}}
    exports = WikiPseExports(targets, sources, "dump")
    assert exports.folders == ["exports/wikipse/rebuilt", "exports/wikipse/released"]
    rebuilt = exports.arguments(SimpleNamespace(wp_dataset="rebuilt"))
    assert rebuilt[rebuilt.index("--train") + 1] == f"{DATA}/dataset/train.tsv"
    assert rebuilt[rebuilt.index("--compare-test") + 1] == raw_target("test")
    assert json.loads(rebuilt[rebuilt.index("--sources-json") + 1]) == {
        "dump": {"url": "https://example.org/d.bz2", "sha256": "ab"},
        "map": {"path": "pkg package: m.map"}}
    released = exports.inputs(SimpleNamespace(wp_dataset="released"))
    assert released["card"] == [] and released["compare"] == [
        f"{DATA}/dataset/train.tsv", f"{DATA}/dataset/test.tsv"]
    section = part2_config()
    del section["wikipse"]["typing"], section["wikipse"]["fold"]
    alone = WikiPseExports(WikiPseTargets(section, raw_target, []), sources, None)
    assert alone.folders == ["exports/wikipse/released"]
    assert "--compare-variant" not in alone.arguments(SimpleNamespace(wp_dataset="released"))
