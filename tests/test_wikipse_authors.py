"""The authors' bundle steps: their vectors imported, unifΣ/wghtΣ from the released counts,
and a member the bundle lacks named with the members it has."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest
from gensim.models import KeyedVectors

from reprobe.cli import main
from reprobe.wikipse.embedding.vectors import load_vectors

RELEASED = ("@lamb@\t-food=30 -living_thing=10\n"
            "@stour_line@\t-location=6 -location=2\n")


def bundle(tmp_path: Path) -> Path:
    """An unpacked bundle holding one word/S-class embedding in word2vec text."""
    folder = tmp_path / "data/raw/zip/extracted"
    (folder / "word_sclass").mkdir(parents=True)
    senses = KeyedVectors(2)
    senses.add_vectors(["@lamb@-food", "@lamb@-living_thing", "@stour_line@-location"],
                       np.array([[1, 0], [0, 1], [2, 2]], dtype=np.float32))
    senses.save_word2vec_format(str(folder / "word_sclass/vectors.txt"), binary=False)
    return folder


def test_their_word_sclass_vectors_give_unif_and_wght_by_the_released_counts(
        tmp_path: Path) -> None:
    folder = bundle(tmp_path)
    imported = tmp_path / "models/sskip-sclass-2"
    assert main(["wikipse", "import-vectors", "--input", str(folder / "word_sclass/vectors.txt"),
                 "--format", "word2vec_txt", "--output", str(imported)]) == 0
    train, test = tmp_path / "train.tsv", tmp_path / "test.tsv"
    train.write_text(RELEASED.splitlines(keepends=True)[0], encoding="utf-8")
    test.write_text(RELEASED.splitlines(keepends=True)[1], encoding="utf-8")
    unif, wght = tmp_path / "unif", tmp_path / "wght"
    assert main(["wikipse", "aggregate", "--words", str(train), str(test), "--sense-vectors",
                 str(imported), "--unif", str(unif), "--wght", str(wght)]) == 0
    assert load_vectors(unif)["@lamb@"].tolist() == [1.0, 1.0]
    assert load_vectors(wght)["@lamb@"].tolist() == pytest.approx([0.75, 0.25])
    # A class listed twice is one class: its vector once, weight 1.
    assert load_vectors(wght)["@stour_line@"].tolist() == [2.0, 2.0]
    assert load_vectors(unif)["@stour_line@"].tolist() == [2.0, 2.0]


def test_a_member_the_bundle_lacks_is_named_with_those_it_has(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = bundle(tmp_path)
    (folder / "corpus.txt").write_text("@lamb@ grazes\n", encoding="utf-8")
    with caplog.at_level(logging.ERROR):
        assert main(["wikipse", "import-vectors", "--input", str(folder / "embeddings/w.txt"),
                     "--format", "auto", "--output", str(tmp_path / "out")]) == 1
    assert "no member embeddings/w.txt; it has 2: corpus.txt, word_sclass/vectors.txt" \
        in caplog.text
    assert not (tmp_path / "out").exists()
    with caplog.at_level(logging.ERROR):
        assert main(["wikipse", "embed", "--model", "skip", "--corpus",
                     str(folder / "word_sclass/corpus.txt"), "--output", str(tmp_path / "v"),
                     "--dim", "4", "--seed", "0", "--settings", json.dumps(
                         {"window": 2, "negative": 2, "epochs": 1, "min_count": 1, "sample": 0,
                          "alpha": 0.025, "workers": 1, "wang2vec": None,
                          "wang2vec_models": []})]) == 1
    assert "no member word_sclass/corpus.txt" in caplog.text
