"""What the WIKI-PSE probes, their baselines and Tables 2-4 read, per variant
(reprobe.wikipse.probe_targets)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from conftest import option_value, option_values
from reprobe.step_settings import read_settings
from reprobe.wikipse.paths import MODELS, TABLES
from reprobe.wikipse.settings import EmbeddingProbeSettings
from reprobe.wikipse.targets import WikiPseTargets
from test_wikipse_targets import BUNDLE, authors_config, part2_config, raw_target


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
    assert imported == [f"--input={raw_target('zip')}/e/s.txt", "--format=word2vec_txt"]
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


def test_probe_jobs_read_their_variant_and_name_their_row() -> None:
    targets = WikiPseTargets(part2_config(), raw_target, ["0000"])
    released = SimpleNamespace(wp_variant="released", wp_model="sskip", wp_kind="unif",
                               wp_dim="16", wp_table="table2")
    assert targets.split_inputs(released) == [raw_target("train"), raw_target("test"),
                                              raw_target("classes")]
    # The released files are checked against the class list.
    splits = targets.split_arguments(released)
    assert option_value(splits, "--classes") == raw_target("classes")
    rebuilt = targets.split_arguments(SimpleNamespace(wp_variant="rebuilt"))
    assert option_values(rebuilt, "--classes") == []
    arguments = targets.probe_arguments(released)
    assert arguments[:2] == ["--row=SSKIP unifΣ", "--dim=16"] and len(arguments) == 3
    settings = read_settings(option_value(arguments, "--settings"), EmbeddingProbeSettings,
                             "wikipse.probes")
    assert settings.classifiers == ["LR", "MLP"] and settings.ambiguity == "authors"
    assert targets.probe_scores(released)[-1] == "results/wikipse/probes/released/baselines.csv"
    released.wp_table = "table3"
    assert targets.probe_scores(released) == ["results/wikipse/probes/released/public.csv"]
    assert targets.analysis_predictions()["SSKIP wghtΣ"].endswith("rebuilt/sskip-wght-16.npz")


def test_mlp_early_stopping_is_passed_when_configured() -> None:
    loaded = part2_config()
    wildcards = SimpleNamespace(wp_variant="rebuilt", wp_model="skip", wp_kind="word",
                                wp_dim="16")

    def early_stopping() -> bool:
        """The probe job's mlp_early_stopping setting."""
        arguments = WikiPseTargets(loaded, raw_target, ["0000"]).probe_arguments(wildcards)
        return json.loads(option_value(arguments, "--settings"))["mlp_early_stopping"]

    assert early_stopping() is False
    loaded["wikipse"]["probes"]["mlp_early_stopping"] = True
    assert early_stopping() is True
