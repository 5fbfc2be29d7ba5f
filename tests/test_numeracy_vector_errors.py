"""A vectors file in the wrong format or with the wrong dimension stops `reprobe numeracy probe
--vectors` with one line naming the file and the line; gensim's own files load memory-mapped."""

from __future__ import annotations

import logging
from pathlib import Path

import gensim
import numpy as np
import pytest

from reprobe.cli import main
from reprobe.embeddings.load import detect_format, load_vectors, save_native

GENSIM_DATA = Path(gensim.__file__).parent / "test/test_data"


def probe(path: Path, tmp_path: Path, *options: str) -> int:
    """Run the one command on a file; its exit status."""
    return main(["numeracy", "probe", "--vectors", str(path), *options,
                 "--output", str(tmp_path / "scores.csv")])


def error_of(caplog: pytest.LogCaptureFixture) -> str:
    """The one error line the command logged."""
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors, "no error was logged"
    return errors[0]


def vector_line(word: str, dim: int) -> str:
    """One "word v1 … vD" line."""
    return word + "".join(f" {0.1 * (i + 1):.1f}" for i in range(dim)) + "\n"


def test_rows_shorter_than_the_header_say_which_line(tmp_path, caplog):
    path = tmp_path / "vectors.vec"
    path.write_text("3 300\n" + vector_line("one", 300) + vector_line("two", 299)
                    + vector_line("3", 300), encoding="utf-8")
    assert probe(path, tmp_path) == 1
    assert error_of(caplog) == (f"{path}: line 3: expected 300 numbers after the word, "
                                "found 299")
    assert not (tmp_path / "scores.csv").exists()


def test_a_header_whose_first_row_disagrees_is_not_taken_for_glove(tmp_path, caplog):
    path = tmp_path / "vectors.txt"
    path.write_text("2 300\n" + vector_line("one", 299) + vector_line("2", 299),
                    encoding="utf-8")
    assert probe(path, tmp_path) == 1
    assert error_of(caplog).endswith("line 2: expected 300 numbers after the word, found 299")


@pytest.mark.parametrize(("name", "fmt", "said"), [
    ("lee_fasttext.vec", "word2vec_bin", "line 2: text numbers where word2vec_bin has binary"),
    ("lee_fasttext.vec", "fasttext_bin", "line 1: text, not a fastText binary model"),
    ("euclidean_vectors.bin", "fasttext_bin", "line 1: a word2vec header 'COUNT DIM'"),
    ("lee_fasttext.bin", "glove_txt", "line 1: expected a word followed by its vector"),
    ("lee_fasttext.vec", "glove_txt", "line 2: expected 1 numbers after the word, found 10"),
    ("lee_fasttext.vec", "kv", "file: cannot be read as kv (gensim KeyedVectors)"),
    ("old_keyedvectors_320.dat", "word2vec_bin", "file: a saved gensim object (format kv)"),
])
def test_a_file_in_another_format_is_refused_by_name(tmp_path, caplog, name, fmt, said):
    path = GENSIM_DATA / name
    assert probe(path, tmp_path, "--format", fmt) == 1
    assert error_of(caplog).startswith(f"{path}: {said}")


def test_an_unknown_format_is_a_config_error(tmp_path, caplog):
    assert probe(GENSIM_DATA / "lee_fasttext.vec", tmp_path, "--format", "glove") == 1
    assert error_of(caplog).startswith("numeracy probe --format: 'glove' is not one of auto,")


def test_gensims_keyed_vectors_load_memory_mapped(tmp_path):
    kv_path = save_native(load_vectors(GENSIM_DATA / "lee_fasttext.vec"), tmp_path / "lee.kv")
    assert detect_format(kv_path) == "kv"
    # Another name: a pickle's first byte says what it is.
    other = tmp_path / "lee.model"
    other.write_bytes(kv_path.read_bytes())
    for array in tmp_path.glob("lee.kv.*.npy"):
        (tmp_path / array.name.replace("lee.kv", "lee.model")).write_bytes(array.read_bytes())
    for path in (kv_path, other):
        assert detect_format(path) == "kv"
        vectors = load_vectors(path)
        assert isinstance(vectors.vectors, np.memmap) and vectors.vectors.shape == (1762, 10)


def test_a_saved_model_gives_its_word_vectors(tmp_path):
    # gensim's Word2Vec model of version 3.3: its `wv` is the KeyedVectors probed.
    vectors = load_vectors(GENSIM_DATA / "word2vec_3.3", "kv")
    assert len(vectors) == 4 and vectors.vector_size == 100
