"""Any embedding as a row beyond the paper: `reprobe wikipse probe --vectors FILE` in every
format, its errors, the row below the paper's rows, and what the default config asks for."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from gensim.models import KeyedVectors

from reprobe.cli import main
from reprobe.config import CHECKOUT, fill_defaults, load_yaml
from reprobe.errors import ConfigError
from reprobe.scores import ScoreRow, score_frame, write_scores
from reprobe.step_settings import settings_json
from reprobe.tables.beyond import BEYOND
from reprobe.wikipse.embedding.outside import spellings
from reprobe.wikipse.extra import extra_files
from reprobe.wikipse.probing.part2_tables import (
    BEYOND_NOTE,
    NO_WORD_FOUND,
    similarity_rows,
    write_probe_table,
    write_variants_table,
)
from reprobe.wikipse.resource.release import write_release
from reprobe.wikipse.settings import EmbeddingProbeSettings

CLASSES = ("-person", "-location", "-art")
GENSIM_DATA = Path(__import__("gensim").__file__).parent / "test" / "test_data"
# How each format is written from KeyedVectors, and its file name.
WRITERS = {
    "word2vec_txt": ("v.txt", lambda kv, p: kv.save_word2vec_format(str(p))),
    "word2vec_bin": ("v.bin", lambda kv, p: kv.save_word2vec_format(str(p), binary=True)),
    "glove_txt": ("glove.txt", lambda kv, p: kv.save_word2vec_format(str(p), write_header=False)),
    "fasttext_vec": ("v.vec", lambda kv, p: kv.save_word2vec_format(str(p))),
    "kv": ("v.kv", lambda kv, p: kv.save(str(p), sep_limit=0)),
}


def dataset(tmp_path: Path) -> tuple[Path, Path, KeyedVectors]:
    """40 train and 20 test words `@wN@` in the released format, and plain-word vectors that
    carry their classes: `wN`, title-cased `WN` for every fifth, none for the last word."""
    rng = np.random.default_rng(0)
    words = {f"@w{i}@": {CLASSES[i % 3]: 3, **({CLASSES[(i + 1) % 3]: 2} if i % 4 == 0 else {})}
             for i in range(60)}
    names = list(words)
    write_release(((w, words[w]) for w in names[:40]), tmp_path / "train.tsv")
    write_release(((w, words[w]) for w in names[40:]), tmp_path / "test.tsv")
    rows = [sum(np.eye(8)[CLASSES.index(c)] for c in words[w]) + 0.1 * rng.standard_normal(8)
            for w in names]
    keys = [w[1:-1].title() if i % 5 == 0 else w[1:-1] for i, w in enumerate(names)]
    vectors = KeyedVectors(8)
    vectors.add_vectors(keys[:-1], np.array(rows[:-1], dtype=np.float32))
    return tmp_path / "train.tsv", tmp_path / "test.tsv", vectors


def probe(vectors: Path, train: Path, test: Path, output: Path, *more: str) -> int:
    """`reprobe wikipse probe` in its one-command form."""
    return main(["wikipse", "probe", "--vectors", str(vectors), "--train", str(train),
                 "--test", str(test), "--output", str(output), *more])


def test_spellings_go_from_the_token_to_plain_title_and_upper_case():
    assert spellings("@ada_lovelace@") == ["@ada_lovelace@", "ada_lovelace", "Ada_Lovelace",
                                           "ADA_LOVELACE"]
    assert spellings("@bbc@")[-1] == "BBC"


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_one_command_probes_an_embedding_file_of_any_format(tmp_path, fmt, caplog):
    caplog.set_level(logging.INFO, logger="reprobe")
    train, test, vectors = dataset(tmp_path)
    name, write = WRITERS[fmt]
    write(vectors, tmp_path / name)
    assert probe(tmp_path / name, train, test, tmp_path / "auto.csv") == 0
    assert probe(tmp_path / name, train, test, tmp_path / "named.csv", "--format", fmt) == 0
    rows = pd.read_csv(tmp_path / "auto.csv")
    assert rows.equals(pd.read_csv(tmp_path / "named.csv"))
    assert set(rows["table"]) == {"table2", "table4"}
    assert set(rows["metric"]) == {"LR", "KNN", "MLP"}
    assert (rows["model"] == f"{Path(name).stem} {BEYOND}").all()
    assert (rows["setting"] == 8).all()
    # The test word without a vector is left out and counted, not silently dropped.
    assert (rows["n"] == 19).all()
    assert "40 of 40 train and 19 of 20 test words have a vector" in caplog.text
    assert "0 and 1 left out" in caplog.text
    # Each class is one direction: the title-cased words were found and classified.
    assert (rows[rows["table"] == "table2"]["value"] > 0.8).all()


def test_one_command_reads_a_fasttext_model_by_its_vocabulary(tmp_path):
    # gensim's shipped model: a word it lacks gets no vector from its n-grams.
    words = {"@europe@": {"-location": 3}, "@france@": {"-location": 2, "-person": 1},
             "@police@": {"-organization": 4}, "@government@": {"-organization": 2},
             "@qqqxyz@": {"-person": 1}}
    write_release(((w, c) for w, c in list(words.items())[:3]), tmp_path / "train.tsv")
    write_release(((w, c) for w, c in list(words.items())[3:]), tmp_path / "test.tsv")
    for name in ("lee_fasttext.bin", "lee_fasttext.vec"):
        assert probe(GENSIM_DATA / name, tmp_path / "train.tsv", tmp_path / "test.tsv",
                     tmp_path / f"{name}.csv") == 0
    rows = pd.read_csv(tmp_path / "lee_fasttext.bin.csv")
    assert (rows["n"] == 1).all() and (rows["setting"] == 10).all()
    assert (rows["model"] == f"lee_fasttext {BEYOND}").all()


def test_the_one_command_writes_the_rows_the_workflow_writes(tmp_path):
    train, test, vectors = dataset(tmp_path)
    vectors.save_word2vec_format(str(tmp_path / "mine.txt"))
    assert probe(tmp_path / "mine.txt", train, test, tmp_path / "one.csv") == 0
    # The workflow: import once into a vectors folder, then the probe rule's command.
    config = load_yaml(CHECKOUT / "config" / "config.yaml")
    fill_defaults(config)
    assert main(["wikipse", "import-vectors", "--input", str(tmp_path / "mine.txt"),
                 "--format", "auto", "--output", str(tmp_path / "folder")]) == 0
    assert main(["wikipse", "probe", "--train", str(train), "--test", str(test), "--vectors",
                 str(tmp_path / "folder"), "--row", f"mine {BEYOND}", "--lookup", "plain",
                 "--settings", settings_json(config["wikipse"]["probes"],
                                             EmbeddingProbeSettings),
                 "--seed", str(config["seed"]), "--scores", str(tmp_path / "rule.csv"),
                 "--predictions", str(tmp_path / "rule.npz")]) == 0
    assert (tmp_path / "one.csv").read_text() == (tmp_path / "rule.csv").read_text()


def test_a_wrong_format_is_an_error_naming_the_file(tmp_path, caplog):
    train, test, vectors = dataset(tmp_path)
    vectors.save_word2vec_format(str(tmp_path / "mine.txt"))
    for fmt in ("word2vec_bin", "kv", "fasttext_bin"):
        caplog.clear()
        assert probe(tmp_path / "mine.txt", train, test, tmp_path / "s.csv", "--format",
                     fmt) == 1
        assert f"{tmp_path / 'mine.txt'}:" in caplog.text, fmt
    assert not (tmp_path / "s.csv").exists()


def test_a_dimension_that_does_not_match_is_an_error_naming_the_file(tmp_path, caplog):
    train, test, vectors = dataset(tmp_path)
    vectors.save_word2vec_format(str(tmp_path / "mine.txt"))
    assert probe(tmp_path / "mine.txt", train, test, tmp_path / "s.csv", "--dim", "300") == 1
    assert f"{tmp_path / 'mine.txt'}: vectors: 8 dimensions, expected 300" in caplog.text
    caplog.clear()
    assert main(["wikipse", "import-vectors", "--input", str(tmp_path / "mine.txt"), "--format",
                 "word2vec_txt", "--dim", "300", "--output", str(tmp_path / "folder")]) == 1
    assert "mine.txt: vectors: 8 dimensions, expected 300" in caplog.text
    assert not (tmp_path / "folder").exists()


def test_scores_go_to_one_place(tmp_path, caplog):
    train, test, vectors = dataset(tmp_path)
    vectors.save_word2vec_format(str(tmp_path / "mine.txt"))
    assert main(["wikipse", "probe", "--vectors", str(tmp_path / "mine.txt"), "--train",
                 str(train), "--test", str(test)]) == 1
    assert "give one of --scores and --output" in caplog.text


def test_no_word_in_the_vocabulary_gives_rows_without_a_score(tmp_path):
    train, test, _ = dataset(tmp_path)
    other = KeyedVectors(4)
    other.add_vectors(["unrelated", "words"], np.ones((2, 4), dtype=np.float32))
    other.save_word2vec_format(str(tmp_path / "other.txt"))
    assert probe(tmp_path / "other.txt", train, test, tmp_path / "s.csv") == 0
    rows = pd.read_csv(tmp_path / "s.csv")
    assert rows["value"].isna().all() and (rows["n"] == 0).all() and len(rows) == 6


def reference(tmp_path: Path) -> Path:
    """The paper's numbers of a one-row Table 2."""
    path = tmp_path / "reference.csv"
    path.write_text("table,model,setting,metric,value,n\n"
                    "table2,SKIP word,8,LR,0.5,44250\n", encoding="utf-8")
    return path


def test_a_row_beyond_the_paper_sits_below_the_papers_rows(tmp_path):
    extra = f"SKIP {BEYOND}"  # named like a paper's row, still placed last
    rows = [ScoreRow("wikipse", "table2", extra, "10", "LR", 0.9, 19),
            ScoreRow("wikipse", "table2", f"empty {BEYOND}", "4", "LR", float("nan"), 0),
            ScoreRow("wikipse", "table2", "SKIP word", "8", "LR", 0.6, 20),
            ScoreRow("wikipse", "table2", "random", "", "LR", 0.3, 20)]
    write_scores(rows, tmp_path / "scores.csv")
    write_probe_table("table2", [tmp_path / "scores.csv"], reference(tmp_path),
                      tmp_path / "t.csv", tmp_path / "t.md", "rebuilt")
    table = pd.read_csv(tmp_path / "t.csv")
    models = list(dict.fromkeys(table["model"]))
    assert models[-2:] == [extra, f"empty {BEYOND}"]
    assert models.index("SKIP word") < models.index("random") < models.index(extra)
    assert table.loc[table["model"] == extra, "paper_value"].isna().all()
    assert (table.loc[table["model"] == f"empty {BEYOND}", "note"] == NO_WORD_FOUND).all()
    text = (tmp_path / "t.md").read_text(encoding="utf-8")
    assert BEYOND_NOTE in text
    assert text.index("| SKIP word") < text.index(f"| {extra}")
    write_variants_table("table2", {"rebuilt": [tmp_path / "scores.csv"]}, reference(tmp_path),
                         tmp_path / "v.csv", tmp_path / "v.md")
    assert list(dict.fromkeys(pd.read_csv(tmp_path / "v.csv")["model"]))[-2:] == \
        [extra, f"empty {BEYOND}"]


def test_a_table_without_such_rows_has_no_note(tmp_path):
    write_scores([ScoreRow("wikipse", "table2", "SKIP word", "8", "LR", 0.6, 20)],
                 tmp_path / "scores.csv")
    write_probe_table("table2", [tmp_path / "scores.csv"], reference(tmp_path),
                      tmp_path / "t.csv", tmp_path / "t.md", "rebuilt")
    assert BEYOND not in (tmp_path / "t.md").read_text(encoding="utf-8")


def test_table6_scores_an_embedding_beyond_the_paper_below_ours(tmp_path):
    from reprobe.embeddings.load import load_vectors
    from reprobe.wikipse.embedding.vectors import save_vectors

    save_vectors(load_vectors(GENSIM_DATA / "lee_fasttext.vec"), tmp_path / "ours")
    (tmp_path / "t6.csv").write_text("table,model,setting,metric,value,n\n"
                                     "table6,SKIP,100,WS353,0.58,353\n", encoding="utf-8")
    # Google's analogies too: a cased vocabulary's key without a lowercased form is skipped.
    datasets = {"WS353": {"path": str(GENSIM_DATA / "wordsim353.tsv"), "kind": "pairs"},
                "Google": {"path": str(GENSIM_DATA / "questions-words.txt"), "kind": "analogy"}}
    assert main(["wikipse", "similarity", "--beyond", f"lee={GENSIM_DATA / 'lee_fasttext.vec'}",
                 "--variant", "rebuilt", "--datasets", json.dumps(datasets), "--reference",
                 str(tmp_path / "t6.csv"), "--csv", str(tmp_path / "o.csv"), "--md",
                 str(tmp_path / "o.md"), f"SKIP 10={tmp_path / 'ours'}"]) == 0
    table = pd.read_csv(tmp_path / "o.csv")
    ours = table[(table["model"] == "SKIP") & (table["setting"].astype(str) == "10")]
    extra = table[table["model"] == f"lee {BEYOND}"]
    assert list(table["model"])[-2:] == [f"lee {BEYOND}"] * 2
    # The same vectors, read from the file: the same scores.
    assert list(extra["value"]) == list(ours["value"])
    assert list(extra["n"]) == list(ours["n"]) and (extra["n"] > 0).all()
    assert BEYOND_NOTE in (tmp_path / "o.md").read_text(encoding="utf-8")


def default_similarity_sets(config: dict) -> dict[str, dict[str, str]]:
    """The default config's Table 6 datasets (gensim's shipped files), as `--datasets` JSON
    names them."""
    return {name: {"path": str(GENSIM_DATA / Path(config["sources"][spec["source"]]["path"]).name),
                   "kind": spec["kind"]} for name, spec in config["wikipse"]["similarity"].items()}


def test_the_one_command_writes_table6s_rows_the_workflow_writes(tmp_path):
    config = load_yaml(CHECKOUT / "config" / "config.yaml")
    fill_defaults(config)
    datasets = default_similarity_sets(config)
    assert {spec["kind"] for spec in datasets.values()} == {"pairs", "analogy"}
    # The default config's embedding beyond the paper (gensim's fastText .bin), by its name.
    (name, spec), = config["wikipse"]["extra_vectors"].items()
    source = GENSIM_DATA / Path(config["sources"][spec["source"]]["path"]).name
    mine = tmp_path / f"{name}{source.suffix}"
    mine.symlink_to(source)
    train, test, _ = dataset(tmp_path)
    options = [f"{dataset}={value['path']}:{value['kind']}" for dataset, value in datasets.items()]
    assert probe(mine, train, test, tmp_path / "one.csv", "--format", spec["format"],
                 "--similarity", *options) == 0
    # The workflow: import once, then Table 6's step with the embedding beyond ours, whose
    # rows (similarity_rows) its table shows rounded.
    folder = tmp_path / "folder"
    assert main(["wikipse", "import-vectors", "--input", str(source), "--format",
                 spec["format"], "--output", str(folder)]) == 0
    assert main(["wikipse", "similarity", "--beyond", f"{name}={folder}", "--variant", "rebuilt",
                 "--datasets", json.dumps(datasets), "--reference",
                 str(CHECKOUT / "config/reference/wikipse/table6.csv"), "--csv",
                 str(tmp_path / "t6.csv"), "--md", str(tmp_path / "t6.md"),
                 f"SKIP 10={folder}"]) == 0
    workflow = score_frame(similarity_rows({}, datasets, {name: folder}))
    one = pd.read_csv(tmp_path / "one.csv", dtype={"setting": str})
    one = one[one["table"] == "table6"].reset_index(drop=True)
    pd.testing.assert_frame_equal(one, workflow, check_dtype=False)
    assert list(one["model"].unique()) == [f"{name} {BEYOND}"] and (one["n"] > 0).all()
    table = pd.read_csv(tmp_path / "t6.csv", dtype={"setting": str})
    shown = table[table["model"] == f"{name} {BEYOND}"].set_index("metric")
    assert {metric: shown.loc[metric, "n"] for metric in datasets} == dict(
        zip(one["metric"], one["n"], strict=True))


def test_similarity_options_are_named_files_with_a_kind(tmp_path, caplog):
    from reprobe.wikipse.probe_commands import similarity_datasets

    odd = tmp_path / "a:b.txt"
    odd.write_text("x y 1\n")
    assert similarity_datasets(["WS=ws.tsv", "G=q.txt:analogy", f"O={odd}"]) == {
        "WS": {"path": "ws.tsv", "kind": "pairs"}, "G": {"path": "q.txt", "kind": "analogy"},
        "O": {"path": str(odd), "kind": "pairs"}}
    train, test, vectors = dataset(tmp_path)
    vectors.save_word2vec_format(str(tmp_path / "mine.txt"))
    for bad, message in (("ws.tsv", "expected NAME=FILE"), ("G=q.txt:analogies", "no kind"),
                         ("G=a G=b", "a name of its own")):
        caplog.clear()
        assert probe(tmp_path / "mine.txt", train, test, tmp_path / "s.csv", "--similarity",
                     *bad.split()) == 1
        assert message in caplog.text, bad
    assert not (tmp_path / "s.csv").exists()


def test_the_default_config_probes_one_embedding_beyond_the_paper():
    from reprobe.wikipse.targets import WikiPseTargets

    config = load_yaml(CHECKOUT / "config" / "config.yaml")
    fill_defaults(config)
    targets = WikiPseTargets(config, lambda name: f"data/raw/{name}", ["0000"])
    (file,) = extra_files(config["wikipse"]["extra_vectors"])
    for variant in ("rebuilt", "released"):
        wanted = SimpleNamespace(wp_variant=variant, wp_table="table2")
        assert targets.probe_scores(wanted)[-1] == \
            f"results/wikipse/probes/{variant}/extra/{file}.csv"
    assert not targets.extra_scores("authors_corpus")
    job = SimpleNamespace(wp_extra=file)
    assert targets.extra_import_arguments(job)[-1:] == ["--format=fasttext_bin"]
    assert targets.extra_probe_arguments(job)[:2] == [f"--row={file} {BEYOND}", "--lookup=plain"]
    arguments = targets.similarity_arguments()
    assert arguments[:1] == [f"--beyond={file}=data/models/wikipse/extra/{file}"]
    assert not any(token.startswith("--beyond") for token
                   in targets.similarity_arguments("authors_corpus"))


def test_two_names_with_one_file_name_are_refused():
    with pytest.raises(ConfigError, match="make the same file name"):
        extra_files({"my vectors": {}, "my-vectors": {}})
