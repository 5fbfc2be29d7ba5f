"""Loading word vectors: GloVe, word2vec and fastText formats, errors, and the mmap cache."""

from __future__ import annotations

import importlib.util
import struct
from pathlib import Path

import numpy as np
import pytest

from reprobe.embeddings.load import (
    cache_native,
    detect_format,
    load_native,
    load_vectors,
    save_native,
)
from reprobe.errors import InputFormatError

GENSIM = Path(importlib.util.find_spec("gensim").submodule_search_locations[0])
GENSIM_DATA = GENSIM / "test/test_data"

WORDS = ["three", "four", "3"]
VECTORS = np.array([[0.5, -1.0, 2.0], [0.25, 0.0, -3.5], [1e-3, 7.0, 1.5]], dtype=np.float32)


def text_lines(header: bool) -> str:
    """The three test vectors as text, with or without a word2vec header."""
    rows = zip(WORDS, VECTORS, strict=True)
    body = "".join(f"{w} {' '.join(str(x) for x in v)}\n" for w, v in rows)
    return (f"{len(WORDS)} {VECTORS.shape[1]}\n" if header else "") + body


def write_word2vec_bin(path: Path) -> Path:
    """The three test vectors in the C tool's binary format."""
    with path.open("wb") as f:
        f.write(f"{len(WORDS)} {VECTORS.shape[1]}\n".encode())
        for word, vector in zip(WORDS, VECTORS, strict=True):
            f.write(word.encode() + b" " + vector.astype("<f4").tobytes() + b"\n")
    return path


def assert_test_vectors(kv) -> None:
    """The loaded vectors are the three written ones."""
    assert list(kv.index_to_key) == WORDS
    np.testing.assert_allclose(np.stack([kv[w] for w in WORDS]), VECTORS, rtol=1e-6)


@pytest.mark.parametrize(("name", "header", "fmt"), [
    ("glove.6B.3d.txt", False, "glove_txt"),
    ("vectors.txt", True, "word2vec_txt"),
    ("wiki.en.vec", True, "fasttext_vec"),
])
def test_text_formats_load_and_are_detected(tmp_path, name, header, fmt):
    path = tmp_path / name
    path.write_text(text_lines(header), encoding="utf-8")
    assert detect_format(path) == fmt
    assert_test_vectors(load_vectors(path))
    assert_test_vectors(load_vectors(path, fmt))


def test_word2vec_binary_loads_and_is_detected(tmp_path):
    path = write_word2vec_bin(tmp_path / "vectors.bin")
    assert detect_format(path) == "word2vec_bin"
    assert_test_vectors(load_vectors(path))


def test_a_glove_file_of_one_dimensional_vectors_is_not_taken_for_a_header(tmp_path):
    path = tmp_path / "tiny.txt"
    path.write_text("2 3\nfour 4\n", encoding="utf-8")
    assert detect_format(path) == "glove_txt"
    assert load_vectors(path)["2"][0] == 3.0


def test_unknown_format_is_refused(tmp_path):
    path = tmp_path / "v.txt"
    path.write_text(text_lines(False), encoding="utf-8")
    with pytest.raises(ValueError, match="unknown vector format"):
        load_vectors(path, "glove")


@pytest.mark.parametrize(("header", "bad_line", "line_no"), [
    (False, "five 1.0 2.0\n", 3),  # a number missing
    (False, "five 1.0 2.0 3.0 4.0\n", 3),  # a number too many
    (True, "five 1.0 2.0\n", 4),  # after the header line
    (False, "five 1.0 x 3.0\n", 3),  # not a number
])
def test_a_malformed_line_is_named(tmp_path, header, bad_line, line_no):
    lines = text_lines(header).splitlines(keepends=True)
    lines.insert(line_no - 1, bad_line)
    path = tmp_path / "vectors.txt"
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(InputFormatError) as info:
        load_vectors(path)
    assert info.value.where == f"line {line_no}" and info.value.path == str(path)


def test_a_malformed_line_past_the_prevalidated_head_is_named(tmp_path, monkeypatch):
    # Only the first lines are checked before gensim reads; a later bad line is found on error.
    monkeypatch.setattr("reprobe.embeddings.load.PREVALIDATE_LINES", 1)
    path = tmp_path / "vectors.txt"
    path.write_text(text_lines(False) + "five 1.0\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="expected 3 numbers after the word, found 1") as e:
        load_vectors(path)
    assert e.value.where == "line 4"


def test_non_finite_components_are_refused_with_their_line(tmp_path):
    path = tmp_path / "vectors.txt"
    path.write_text(text_lines(False) + "five 1.0 nan 3.0\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="'five' is not finite") as info:
        load_vectors(path)
    assert info.value.where == "line 4"


def test_a_truncated_binary_file_is_refused(tmp_path):
    path = write_word2vec_bin(tmp_path / "vectors.bin")
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(InputFormatError, match="truncated"):
        load_vectors(path)


def test_an_empty_file_is_refused(tmp_path):
    path = tmp_path / "vectors.txt"
    path.write_text("", encoding="utf-8")
    with pytest.raises(InputFormatError, match="empty"):
        load_vectors(path)


@pytest.mark.parametrize(("name", "fmt", "size", "dim"), [
    ("lee_fasttext.vec", "fasttext_vec", 1762, 10),
    ("test_glove.txt", "glove_txt", 76, 50),
    ("euclidean_vectors.bin", "word2vec_bin", 2747, 10),
    ("lee_fasttext.bin", "fasttext_bin", 1762, 10),  # fastText's old binary layout: no magic
    ("lee_fasttext_new.bin", "fasttext_bin", 1763, 10),  # with the magic number
])
def test_gensims_shipped_vectors_load(name, fmt, size, dim):
    path = GENSIM_DATA / name
    assert detect_format(path) == fmt
    kv = load_vectors(path)
    assert (len(kv), kv.vector_size) == (size, dim)
    assert np.isfinite(kv.vectors).all()


def test_gensims_shipped_fasttext_text_and_binary_agree():
    text = load_vectors(GENSIM_DATA / "lee_fasttext.vec")
    binary = load_vectors(GENSIM_DATA / "lee_fasttext.bin")
    np.testing.assert_allclose(text["the"], binary["the"], atol=1e-4)
    # The binary model also builds vectors for unseen words from character n-grams.
    assert np.isfinite(binary["numeracyy"]).all()


def test_gensims_damaged_pretrained_vec_is_refused_with_the_reason():
    # pretrained.vec declares 3 vectors in its header but holds one.
    with pytest.raises(InputFormatError, match="declares 3 vectors, the file has 1") as info:
        load_vectors(GENSIM_DATA / "pretrained.vec")
    assert info.value.where == "line 3"


def test_fasttext_magic_is_detected_whatever_follows(tmp_path):
    path = tmp_path / "model.bin"
    path.write_bytes(struct.pack("<ii", 793712314, 12) + b"\0" * 16)
    assert detect_format(path) == "fasttext_bin"


def test_native_cache_converts_once_and_memory_maps(tmp_path):
    source = tmp_path / "glove.txt"
    source.write_text(text_lines(False), encoding="utf-8")
    cache = tmp_path / "cache"
    kv_path = cache_native(source, "auto", cache)
    assert kv_path.parent == cache and kv_path.suffix == ".kv"
    assert (cache / f"{kv_path.name}.vectors.npy").is_file()
    assert not list(cache.glob(".*tmp*"))
    modified = kv_path.stat().st_mtime_ns
    assert cache_native(source, "auto", cache) == kv_path
    assert kv_path.stat().st_mtime_ns == modified  # not converted again
    kv = load_native(kv_path)
    assert isinstance(kv.vectors, np.memmap)
    assert_test_vectors(kv)


def test_native_cache_of_a_fasttext_model_memory_maps_every_array(tmp_path):
    kv_path = cache_native(GENSIM_DATA / "lee_fasttext.bin", "auto", tmp_path)
    kv = load_native(kv_path)
    assert isinstance(kv.vectors_ngrams, np.memmap)
    original = load_vectors(GENSIM_DATA / "lee_fasttext.bin")
    np.testing.assert_allclose(kv["numeracyy"], original["numeracyy"], rtol=1e-6)


def test_native_cache_key_follows_the_source(tmp_path):
    source = tmp_path / "glove.txt"
    source.write_text(text_lines(False), encoding="utf-8")
    first = cache_native(source, "auto", tmp_path / "cache")
    source.write_text(text_lines(False) + "five 1 2 3\n", encoding="utf-8")
    second = cache_native(source, "auto", tmp_path / "cache")
    assert first != second and len(load_native(second)) == 4


def test_native_load_names_a_missing_array(tmp_path):
    source = tmp_path / "glove.txt"
    source.write_text(text_lines(False), encoding="utf-8")
    kv_path = cache_native(source, "auto", tmp_path)
    (tmp_path / f"{kv_path.name}.vectors.npy").unlink()
    with pytest.raises(InputFormatError, match="missing"):
        load_native(kv_path)


def test_plain_vectors_keep_a_fasttext_models_word_vectors():
    from reprobe.embeddings.load import plain_vectors

    model = load_vectors(GENSIM_DATA / "lee_fasttext.bin", "fasttext_bin")
    plain = plain_vectors(model)
    assert type(plain).__name__ == "KeyedVectors"
    assert plain.index_to_key == model.index_to_key
    word = model.index_to_key[5]
    assert (plain[word] == model[word]).all()


def test_save_native_writes_the_same_bytes_for_the_same_vectors(tmp_path: Path) -> None:
    # gensim would pickle its event log (dates, host, the temporary file's name) into the .kv.
    first = save_native(load_vectors(GENSIM_DATA / "lee_fasttext.vec"), tmp_path / "a.kv")
    second = save_native(load_vectors(GENSIM_DATA / "lee_fasttext.vec"), tmp_path / "b.kv")
    assert first.read_bytes() == second.read_bytes()
    assert load_native(second).most_similar("government", topn=1)


@pytest.mark.parametrize(("name", "reason"), [("nonexistent.vec", "no such file"),
                                              (".", "is a directory")])
def test_a_missing_vectors_file_says_why(tmp_path: Path, name: str, reason: str) -> None:
    with pytest.raises(InputFormatError, match=rf"cannot be read \({reason}\)"):
        load_vectors(tmp_path / name)
