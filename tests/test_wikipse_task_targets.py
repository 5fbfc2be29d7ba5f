"""What Tables 3 and 5-8 and Figures 3-6 of WIKI-PSE read (reprobe.wikipse.task_targets)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from conftest import option_value, option_values
from reprobe.step_settings import read_settings
from reprobe.wikipse.paths import MODELS, TABLES
from reprobe.wikipse.settings import (
    ClassifierSettings,
    MentionTypingSettings,
    SelectionSettings,
    SentEvalSettings,
    TyperSettings,
)
from reprobe.wikipse.targets import WikiPseTargets
from test_wikipse_targets import BUNDLE, authors_config, part2_config, raw_target

TYPER = {"lstm_dim": 4, "attention_dim": 4, "dropout": 0.5, "learning_rate": 0.01,
         "batch_size": 8, "epochs": 1, "steps_per_epoch": 2, "device": "cpu"}


def test_part2_tables_for_both_variants() -> None:
    targets = WikiPseTargets(part2_config(), raw_target, ["0000"])
    names = {Path(t).name for t in targets.tables}
    assert {"table2_rebuilt.csv", "table2_released.csv", "table3_released.csv",
            "table4_released.csv", "table6.csv", "figure6.csv", "table7.csv"} <= names
    public = targets.public_arguments(SimpleNamespace(wp_variant="rebuilt"))
    assert option_values(public, "--public") == [f"GloVe (6B)={raw_target('glove')}:glove_txt"]
    assert option_values(public, "--ours")[0] == f"SSKIP word 16={MODELS}/sskip-word-16"
    settings = read_settings(option_value(public, "--settings"), ClassifierSettings,
                             "wikipse.probes")
    assert settings.classifiers == ["LR", "MLP"] and settings.fitting(7).n_jobs == 2
    assert targets.probed == ["skip-word-16", "skip-wght-16", "skip-unif-16", "sskip-word-16",
                              "sskip-wght-16", "sskip-unif-16"]


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
    assert option_value(analyses, "--train") == raw_target("train")
    assert option_value(analyses, "--suffix") == "_authors_corpus"
    # The rebuild's suffix is empty: left out, as `--suffix=` says nothing.
    assert option_values(targets.analysis_arguments(), "--suffix") == []
    assert "SSKIP unifΣ=results/wikipse/probes/authors_corpus/sskip-unif-16.npz" in analyses
    assert targets.analysis_word_vectors("authors_corpus") == \
        f"{MODELS}/authors_corpus/sskip-word-16"
    assert targets.table5_scores("authors_corpus") == ["results/wikipse/nlp_authors_corpus.csv"]
    # The public embeddings are Table 5's rows beside the rebuild only.
    assert option_values(targets.nlp_arguments(), "--public")
    assert option_values(targets.nlp_arguments("authors_corpus"), "--public") == []
    similarity = targets.similarity_arguments("authors_corpus")
    assert similarity[-1] == f"SSKIP 16={MODELS}/authors_corpus/sskip-word-16"
    # Without the authors' corpus there is nothing to read for it.
    plain = WikiPseTargets(part2_config(), raw_target, ["0000"])
    assert plain.analysis_inputs("authors_corpus") == {}
    assert not any("authors_corpus" in t for t in plain.tables)


def test_table5_reads_each_task_file_and_our_three_kinds() -> None:
    loaded = part2_config()
    loaded["wikipse"]["senteval"] = {"folds": 5, "tasks": {
        "MR": {"pos": {"source": "mr_pos"}, "neg": {"source": "mr_neg"}},
        "MRPC": {"train": {"source": "mrpc_train"}, "test": {"source": "mrpc_test"}}}}
    targets = WikiPseTargets(loaded, raw_target, ["0000"])
    assert f"{TABLES}/table5.csv" in targets.tables
    assert raw_target("mrpc_test") in targets.nlp_inputs()
    arguments = targets.nlp_arguments()
    assert json.loads(option_value(arguments, "--tasks"))["MR"] == {
        "pos": raw_target("mr_pos"), "neg": raw_target("mr_neg")}
    assert option_values(arguments, "--ours")[0] == f"word={MODELS}/sskip-word-16"
    assert option_values(arguments, "--public")[0].startswith("GloVe (6B)=")
    assert read_settings(option_value(arguments, "--settings"), SentEvalSettings,
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
    settings = read_settings(option_value(arguments, "--settings"),
                             MentionTypingSettings, "wikipse.mention_typing")
    assert (settings.context, settings.lowercase) == (10, True)
    assert settings.typer == TyperSettings(**{**TYPER, "epochs": 2, "device": "cuda"})
    assert option_values(arguments, "--ours")[0] == f"word={MODELS}/sskip-word-16"
    loaded["wikipse"]["mention_typing"]["typer"]["device"] = "cpu"
    assert WikiPseTargets(loaded, raw_target, ["0000"]).mc_gpus() == 0


def test_table6_reads_each_models_word_vectors_and_the_datasets() -> None:
    targets = WikiPseTargets(part2_config(), raw_target, ["0000"])
    assert targets.similarity_vectors() == {"SKIP 16": f"{MODELS}/skip-word-16",
                                            "SSKIP 16": f"{MODELS}/sskip-word-16"}
    arguments = targets.similarity_arguments()
    assert arguments[0] == "--variant=rebuilt"
    assert json.loads(option_value(arguments, "--datasets")) == {
        "WS353": {"path": raw_target("ws"), "kind": "pairs"}}


def test_supersense_jobs_get_the_selection_and_the_classifiers() -> None:
    loaded = part2_config()
    assert WikiPseTargets(loaded, raw_target, ["0000"]).supersense_dataset_arguments() == []
    loaded["wikipse"]["supersense"] = {
        "corpus": {"source": "corpus"}, "min_frequency": 2,
        "embeddings": {"source": "ukp", "format": "word2vec_txt"},
        "selection": {"single_per_split": 4, "multi_per_split": None}}
    targets = WikiPseTargets(loaded, raw_target, ["0000"])
    dataset = targets.supersense_dataset_arguments()
    assert dataset[:2] == [f"--corpus={raw_target('corpus')}", "--min-frequency=2"]
    assert read_settings(option_value(dataset, "--settings"), SelectionSettings,
                         "wikipse.supersense.selection") == \
        SelectionSettings(single_per_split=4, multi_per_split=None)
    probe = targets.supersense_probe_arguments()
    assert probe[:2] == [f"--vectors={raw_target('ukp')}", "--format=word2vec_txt"]
    assert read_settings(option_value(probe, "--settings"), ClassifierSettings,
                         "wikipse.probes").knn_k == 5
    assert targets.classifier_settings() == probe[2:]
