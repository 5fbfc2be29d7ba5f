"""Every stage's reader of a raw or released text format, on its sample, through the ground
floor's text helper (`reprobe.text`): a BOM or CRLF line ends give the same rows as the clean
file; an empty file, invalid UTF-8, a truncation at any offset or random bytes give either
rows or the project's one error type naming the file — never another exception.

A truncation at a line end is a shorter file, not a broken one, so corrupted files may still
give (other) rows; what may never happen is a foreign exception or an error naming no file.
"""

from __future__ import annotations

import codecs
import gzip
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO
from reprobe.equate.authors.pruner import read_word_list
from reprobe.equate.jsonl import read_pairs
from reprobe.equate.qreas.pruner import load_word_list
from reprobe.equate.sets.awpnli import read_fold_ids, read_problems
from reprobe.equate.sets.newsnli import iter_stories
from reprobe.equate.sets.redditnli import read_submissions
from reprobe.equate.sets.stresstest import read_questions
from reprobe.errors import ReprobeError
from reprobe.numersense.builder import read_omcs
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.conceptnet import read_properties
from reprobe.numersense.evaluate import read_prediction_lines
from reprobe.numersense.generics import read_generics
from reprobe.numersense.probes import read_masked_tsv, read_masked_txt
from reprobe.wikipse.resource.classes import read_released_classes, read_types_map
from reprobe.wikipse.resource.release import read_split
from reprobe.wikipse.resource.typing import read_title_table
from reprobe.wikipse.tasks.figer import read_mentions
from reprobe.wikipse.tasks.senteval import read_mrpc, read_sentences
from reprobe.wikipse.tasks.similarity import read_analogies, read_word_pairs
from reprobe.wikipse.tasks.supersense import text_lines

SAMPLES = REPO / "data/samples"
GENSIM_DATA = Path(__import__("gensim").__file__).parent / "test/test_data"


def _mentions(path: Path) -> Any:
    """read_mentions as plain lists."""
    found = read_mentions(path, {}, {}, context=2, lowercase=True)
    return [found.left.tolist(), found.right.tolist(), found.mention_ids.tolist(),
            found.mention_starts.tolist(), found.labels]


def _mrpc(path: Path) -> Any:
    """read_mrpc as plain lists."""
    pairs, labels = read_mrpc(path)
    return pairs, labels.tolist()


def _split(path: Path) -> Any:
    """read_split as plain values."""
    split = read_split(path)
    return split.classes, split.entries


# reader name -> (the reader, giving comparable rows; its sample's bytes)
READERS: dict[str, tuple[Callable[[Path], Any], Callable[[], bytes]]] = {
    "numersense masked txt": (read_masked_txt,
                              lambda: (SAMPLES / "numersense/released/test.core.masked.txt")
                              .read_bytes()),
    "numersense masked tsv": (lambda p: read_masked_tsv(p, frozenset(CANDIDATES)),
                              lambda: (SAMPLES / "numersense/released/validation.masked.tsv")
                              .read_bytes()),
    "numersense predictions": (read_prediction_lines,
                               lambda: (SAMPLES / "numersense/released/results/"
                                        "gpt.test.core.output.jsonl").read_bytes()),
    "numersense GenericsKB": (lambda p: list(read_generics(p)),
                              lambda: (SAMPLES / "numersense/genericskb_sample.tsv")
                              .read_bytes()),
    "numersense OMCS": (lambda p: list(read_omcs(p)),
                        lambda: (SAMPLES / "numersense/omcs_sample.tsv").read_bytes()),
    "numersense ConceptNet": (lambda p: read_properties(
        p, relations={"HasProperty": "any", "RelatedTo": "adjective"}, min_weight=0.0),
        lambda: (SAMPLES / "numersense/conceptnet_sample.csv").read_bytes()),
    "wikipse released split": (_split, lambda: (SAMPLES / "wikipse/released/train.tsv")
                               .read_bytes()),
    "wikipse released classes": (read_released_classes,
                                 lambda: (SAMPLES / "wikipse/released/semantic_classes.txt")
                                 .read_bytes()),
    "wikipse FIGER types.map": (read_types_map,
                                lambda: (SAMPLES / "wikipse/figer_types.map").read_bytes()),
    "wikipse title table": (read_title_table,
                            lambda: (SAMPLES / "wikipse/title_types.tsv").read_bytes()),
    "wikipse FIGER mentions": (_mentions, lambda: (SAMPLES / "wikipse/figer/train.txt")
                               .read_bytes()),
    "wikipse SentEval sentences": (read_sentences,
                                   lambda: (SAMPLES / "wikipse/senteval/rt-polarity.pos")
                                   .read_bytes()),
    "wikipse SentEval MRPC": (_mrpc, lambda: (SAMPLES / "wikipse/senteval/"
                                              "msr_paraphrase_train.txt").read_bytes()),
    "wikipse supersense corpus": (lambda p: list(text_lines(p)),
                                  lambda: (SAMPLES / "wikipse/supersense/supertextwiki/1/1021")
                                  .read_bytes()),
    "wikipse WordSim353": (read_word_pairs, lambda: (GENSIM_DATA / "wordsim353.tsv")
                           .read_bytes()),
    "wikipse Google analogies": (read_analogies,
                                 lambda: b"".join((GENSIM_DATA / "questions-words.txt")
                                                  .read_bytes().splitlines(True)[:60])),
    "equate released jsonl": (lambda p: list(read_pairs(p)),
                              lambda: (SAMPLES / "equate/rte_quant.jsonl").read_bytes()),
    "equate AQuA-RAT": (lambda p: list(read_questions(p)),
                        lambda: (SAMPLES / "equate/aqua_dev.json").read_bytes()),
    "equate Pushshift dump": (lambda p: list(read_submissions(p)),
                              lambda: _unzstd(SAMPLES / "equate/reddit_economics.ndjson.zst")),
    "equate AWP questions": (read_problems,
                             lambda: (SAMPLES / "equate/arithmetic_questions.json")
                             .read_bytes()),
    "equate AWP folds": (lambda p: sorted(read_fold_ids([p])), lambda: b"3\n17\n\n250\n"),
    "equate CNN story": (lambda p: list(iter_stories(p)),
                         lambda: (SAMPLES / "equate/cnn_stories/marathon.story").read_bytes()),
    "equate job list (port)": (load_word_list, lambda: (SAMPLES / "equate/jobs.txt")
                               .read_bytes()),
    "equate job list (authors)": (read_word_list, lambda: (SAMPLES / "equate/jobs.txt")
                                  .read_bytes()),
}
# Suffixes the readers dispatch on.
SUFFIX = {"numersense masked tsv": ".tsv", "equate CNN story": ".story"}


def _unzstd(path: Path) -> bytes:
    """A zstd file's bytes, decompressed."""
    import zstandard

    return zstandard.ZstdDecompressor().stream_reader(path.open("rb")).read()


def plain(data: bytes) -> bytes:
    """A sample's text bytes (gunzipped if the sample is gzipped)."""
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def write(folder: Path, name: str, data: bytes) -> Path:
    """The bytes as the file a reader gets."""
    path = folder / ("input" + SUFFIX.get(name, ".txt"))
    path.write_bytes(data)
    return path


def crlf(data: bytes) -> bytes:
    """Windows line ends."""
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


@pytest.mark.parametrize("name", sorted(READERS))
def test_a_bom_and_crlf_line_ends_give_the_same_rows(name, tmp_path):
    reader, sample = READERS[name]
    clean = plain(sample())
    expected = reader(write(tmp_path, name, clean))
    assert expected, f"{name}: the sample gives no rows"
    for variant in (codecs.BOM_UTF8 + clean, crlf(clean), codecs.BOM_UTF8 + crlf(clean),
                    gzip.compress(codecs.BOM_UTF8 + crlf(clean), mtime=0)):
        if name == "equate CNN story" and variant[:2] == b"\x1f\x8b":
            continue  # a .story file is read as it is; stories come compressed as a tar
        assert reader(write(tmp_path, name, variant)) == expected, name


@pytest.mark.parametrize("name", sorted(READERS))
def test_invalid_utf8_names_the_file_the_line_and_the_offset(name, tmp_path):
    reader, sample = READERS[name]
    clean = plain(sample())
    cut = clean.index(b"\n", len(clean) // 2) + 1
    path = write(tmp_path, name, clean[:cut] + b"caf\xe9 \xff\n" + clean[cut:])
    if name == "wikipse SentEval sentences":  # latin-1, as SentEval reads it: every byte is text
        reader(path)
        return
    line = clean[:cut].count(b"\n") + 1
    with pytest.raises(ReprobeError, match=rf"{path.name}: line {line}, byte offset {cut + 3}"):
        reader(path)


# Readers for which an empty file is a legitimate input, and why.
EMPTY_IS_INPUT = {"equate CNN story": "CNN has stories with no text; they give no pair"}


@pytest.mark.parametrize("name", sorted(READERS))
def test_an_empty_file_is_an_error_naming_it_or_gives_no_rows(name, tmp_path):
    reader, _ = READERS[name]
    path = write(tmp_path, name, b"")
    try:
        rows = reader(path)
    except ReprobeError as error:
        assert str(path) in str(error)
    else:
        assert name in EMPTY_IS_INPUT or not rows or not any(rows), (name, rows)


def corruptions() -> st.SearchStrategy:
    """A change to a file's bytes: cut, insert, overwrite, or noise."""
    offset = st.floats(min_value=0, max_value=1)
    junk = st.one_of(st.binary(min_size=1, max_size=8),
                     st.sampled_from([b"\xff", b"\xc3", b"\xe2\x82", b"\x00", b"\t", b"\n",
                                      b"\r", codecs.BOM_UTF8, b'"', b"{", b"-1e999"]))
    return st.one_of(st.tuples(st.just("cut"), offset, st.just(b"")),
                     st.tuples(st.just("insert"), offset, junk),
                     st.tuples(st.just("overwrite"), offset, junk),
                     st.tuples(st.just("noise"), offset, st.binary(max_size=200)))


def corrupt(data: bytes, change: tuple[str, float, bytes]) -> bytes:
    """The bytes with one change applied."""
    kind, where, junk = change
    at = int(where * len(data))
    if kind == "cut":
        return data[:at]
    if kind == "insert":
        return data[:at] + junk + data[at:]
    if kind == "overwrite":
        return data[:at] + junk + data[at + len(junk):]
    return junk


@pytest.mark.parametrize("name", sorted(READERS))
@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(change=corruptions())
def test_a_corrupted_file_gives_rows_or_one_error_naming_it(name, tmp_path, change):
    reader, sample = READERS[name]
    path = write(tmp_path, name, corrupt(plain(sample()), change))
    try:
        reader(path)
    except ReprobeError as error:
        assert str(path) in str(error), (name, str(error))

