"""The released probe layouts (reprobe.numersense.probes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprobe.errors import InputFormatError
from reprobe.numersense.probes import LabelledProbe, read_masked_tsv, read_masked_txt, whole_words

WORDS = frozenset({"no", "zero", "one", "two", "three", "four"})


def test_masked_txt_keeps_duplicates_and_strips(tmp_path: Path):
    path = tmp_path / "test.core.masked.txt"
    path.write_text("a tricycle has <mask> wheels.  \n\n<mask> of the days is monday.\n"
                    "a tricycle has <mask> wheels.\n")
    assert read_masked_txt(path) == ["a tricycle has <mask> wheels.",
                                     "<mask> of the days is monday.",
                                     "a tricycle has <mask> wheels."]


def test_masked_tsv_reads_labels(tmp_path: Path):
    path = tmp_path / "validation.masked.tsv"
    path.write_text("a bird has <mask> legs.\tTwo\r\nan empty cup holds <mask> tea.\tno\n")
    assert read_masked_tsv(path, WORDS) == [LabelledProbe("a bird has <mask> legs.", "two"),
                                            LabelledProbe("an empty cup holds <mask> tea.", "no")]


@pytest.mark.parametrize(("text", "problem"), [
    ("a bird has two legs.\ttwo\n", "exactly one <mask>"),
    ("a <mask> has <mask> legs.\ttwo\n", "exactly one <mask>"),
    ("a bird has <mask> legs.\n", "expected probe<TAB>word"),
    ("a bird has <mask> legs.\televen\n", "not a number word"),
])
def test_bad_lines_are_named(tmp_path: Path, text: str, problem: str):
    path = tmp_path / "bad.tsv"
    path.write_text("fine <mask> line.\tone\n" + text)
    with pytest.raises(InputFormatError, match=f"line 2.*{problem}"):
        read_masked_tsv(path, WORDS)


def test_whole_words_skip_compounds_and_longer_words() -> None:
    pattern = whole_words(["one", "four"])
    assert [m.group() for m in pattern.finditer("one-way four someone four. none one")] == [
        "four", "four", "one"]
    assert whole_words(["four"]).search("Four legs") is None
    assert whole_words(["four"], ignore_case=True).search("Four legs").group() == "Four"
