"""UKP's supersense-annotated Wikipedia: the reader, the dataset and Table 8's probe."""

from __future__ import annotations

import argparse
import gzip
import json
import tarfile
from pathlib import Path

import pandas as pd
import pytest

from conftest import REPO
from reprobe.cli import main
from reprobe.errors import InputFormatError
from reprobe.wikipse import commands
from reprobe.wikipse.resource.dataset import select
from reprobe.wikipse.resource.release import CLASS_NAME, read_split
from reprobe.wikipse.supersense_commands import register_supersense
from reprobe.wikipse.tasks.supersense import (
    NOUN_SUPERSENSES,
    CorpusCounts,
    count_corpus,
    count_lines,
    frequent_words,
    majority_baseline,
    noun_annotation,
    supersense_words,
    ukp_spelling,
)

SAMPLE = REPO / "data/samples/wikipse/supersense"
LINES = [
    "Journalist_noun.person reporting_verb.communication and evaluation_noun.act of "
    "video_noun.communication games_noun.act in the late_adj.all 1970s",
    "U.S._noun.location coin-operated_adj.pert New_York_noun.location ..._noun.act "
    "Apple_noun.group apple_noun.food journalist_noun.person river_noun.object. Émile_noun.person",
]


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> None:
    """The supersense steps on the CLI, until wikipse/commands.py registers them itself."""
    original = commands.register

    def register(parent: argparse._SubParsersAction, add) -> None:
        original(parent, add)
        group = parent.choices["wikipse"]
        sub = next(a for a in group._actions if isinstance(a, argparse._SubParsersAction))
        if "supersense-probe" not in sub.choices:
            register_supersense(sub, add)

    monkeypatch.setattr(commands, "register", register)


def test_spelling_and_annotations() -> None:
    assert ukp_spelling("U.S.") == "us" and ukp_spelling("coin-operated") == "coinoperated"
    # Python 2 lowercased bytes: only ASCII letters change.
    assert ukp_spelling("Émile") == "Émile" and ukp_spelling("...") == ""
    assert noun_annotation("New_York_noun.location") == ("New_York", "noun.location")
    assert noun_annotation("late_adj.all") is None and noun_annotation("1970s") is None
    assert noun_annotation("river_noun.object.") == ("river", "noun.object")
    assert noun_annotation("_noun.act") is None and noun_annotation("x_noun.tops") is None
    assert len(NOUN_SUPERSENSES) == 26
    assert all(CLASS_NAME.fullmatch("-" + s) for s in NOUN_SUPERSENSES)


def test_count_lines_keeps_noun_supersenses_only() -> None:
    counts = CorpusCounts()
    count_lines(LINES, counts)
    assert counts.lines == 2 and counts.tokens == 20
    assert counts.noun_tokens == 12 and counts.empty_words == 1
    words = supersense_words(counts.pairs)
    assert words["apple"] == {"-noun.group": 1, "-noun.food": 1}
    assert words["journalist"] == {"-noun.person": 2}
    assert {"us", "newyork", "river", "Émile"} <= set(words)
    assert "reporting" not in words and "late" not in words and "coinoperated" not in words
    assert set(frequent_words(counts.pairs, 2)) == {"apple", "journalist"}


def test_corpus_reads_gzip_by_magic_bytes_and_names_bad_lines(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "12").write_bytes(gzip.compress(LINES[0].encode() + b"\n", mtime=0))
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "7").write_text(LINES[1] + "\n", encoding="utf-8")
    counts = count_corpus(tmp_path)
    assert counts.files == 2 and counts.noun_tokens == 12
    (tmp_path / "b" / "8").write_bytes(b"bank_noun.group\nbank_noun.object \xff\n")
    with pytest.raises(InputFormatError, match=r"b/8: line 2, byte offset 33: byte ff is not"):
        count_corpus(tmp_path)
    (tmp_path / "b" / "8").write_bytes(gzip.compress(b"bank_noun.group\n" * 50)[:-12])
    with pytest.raises(InputFormatError, match=r"b/8: line \d+: unreadable gzip"):
        count_corpus(tmp_path)
    with pytest.raises(InputFormatError, match="no article files"):
        count_corpus(tmp_path / "a" / "missing")


def unpacked(tmp_path: Path) -> Path:
    """The sample archive unpacked under tmp_path."""
    with tarfile.open(SAMPLE / "supertextwiki.tar.xz") as tar:
        tar.extractall(tmp_path / "corpus", filter="data")
    return tmp_path / "corpus"


def test_sample_dataset_selection(tmp_path: Path) -> None:
    words = frequent_words(count_corpus(unpacked(tmp_path)).pairs, 2)
    splits = select(words, single_per_split=None, multi_per_split=None, seed=0)
    assert not set(splits["train"]) & set(splits["test"])
    for split in splits.values():
        multi = sum(len(words[w]) > 1 for w in split)
        assert multi == len(split) - multi >= 8
    small = select(words, single_per_split=4, multi_per_split=3, seed=1)
    assert [len(small[s]) for s in ("train", "test")] == [7, 7]


def test_supersense_steps_on_the_sample(tmp_path: Path, cli: None) -> None:
    out = tmp_path / "dataset"
    assert main(["wikipse", "supersense-dataset", "--corpus", str(unpacked(tmp_path)),
                 "--min-frequency", "2", "--seed", "0", "--settings",
                 '{"single_per_split": null, "multi_per_split": null}', "--output-dir",
                 str(out)]) == 0
    card = json.loads((out / "card.json").read_text(encoding="utf-8"))
    assert card["corpus"]["files"] == 10 and card["corpus"]["empty_words"] == 1
    assert card["splits"]["train"]["multi_class"] == card["splits"]["train"]["single_class"]
    assert card["frequent_words"]["words"] < card["annotated_words"]["words"]
    train = read_split(out / "train.tsv")
    assert all(c.startswith("-noun.") for cs in train.classes.values() for c in cs)
    scores = tmp_path / "table8.csv"
    assert main(["wikipse", "supersense-probe", "--train", str(out / "train.tsv"),
                 "--test", str(out / "test.tsv"), "--vectors",
                 str(SAMPLE / "supersense-embeddings.txt"), "--format", "word2vec_txt",
                 "--settings", json.dumps({"classifiers": ["LR", "KNN", "MLP"], "lr_c": 1,
                                           "knn_k": 3, "mlp_hidden": 16, "mlp_max_iter": 300,
                                           "mlp_early_stopping": False, "n_jobs": 1}),
                 "--seed", "0", "--scores", str(scores)]) == 0
    rows = pd.read_csv(scores, keep_default_na=False)
    assert list(zip(rows["model"], rows["setting"], rows["metric"], strict=True)) == [
        ("MAJORITY", "", "LR"), ("FREQUENCY", "", "LR"),
        *[("word embedding", norm, kind) for norm in ("yes", "no")
          for kind in ("LR", "KNN", "MLP")]]
    assert set(rows["table"]) == {"table8"} and rows["n"].nunique() == 1
    assert rows["n"].iloc[0] == card["splits"]["test"]["words"]
    # A balanced test split: any constant prediction is right half the time.
    assert rows["value"].iloc[0] == 50.0
    knn = rows[rows["metric"] == "KNN"]["value"]
    assert knn.nunique() == 1  # cosine neighbours do not see a vector's length


def test_majority_breaks_a_tie_towards_single_class() -> None:
    assert majority_baseline([0, 1, 1], 2).tolist() == [1, 1]
    assert majority_baseline([0, 1], 3).tolist() == [0, 0, 0]
