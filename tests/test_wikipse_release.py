"""Tests for the released WIKI-PSE format: a sample written here and the build's output alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprobe.errors import InputFormatError
from reprobe.wikipse.resource.release import (
    format_line,
    read_release,
    read_split,
    write_release,
)

SAMPLE = (
    "@lamb@\t-food=40 -living_thing=35\n"
    "@new_york@\t-location=120 -organization=3 -art=3\n"
    "@marx@\t-person=9\n"
)


def test_a_released_format_sample_reads(tmp_path: Path) -> None:
    path = tmp_path / "train.tsv"
    path.write_text(SAMPLE, encoding="utf-8")
    words = read_release(path)
    assert words["@new_york@"] == {"-location": 120, "-organization": 3, "-art": 3}
    assert list(words) == ["@lamb@", "@new_york@", "@marx@"]


def test_what_is_written_reads_back_the_same(tmp_path: Path) -> None:
    source = tmp_path / "sample.tsv"
    source.write_text(SAMPLE, encoding="utf-8")
    words = read_release(source)
    out = tmp_path / "out.tsv"
    write_release(words.items(), out)
    assert read_release(out) == words
    # Classes by descending frequency, ties by name: the released order.
    assert out.read_text(encoding="utf-8").splitlines()[1] == \
        "@new_york@\t-location=120 -art=3 -organization=3"


def test_format_line_orders_classes() -> None:
    assert format_line("@apple@", {"-food": 117, "-organization": 1652}) == \
        "@apple@\t-organization=1652 -food=117"


@pytest.mark.parametrize(("line", "message"), [
    ("@lamb@ -food=40\n", "a word, a tab"),
    ("@lamb@\tfood=40\n", "-class=freq"),
    ("@lamb@\t-food=forty\n", "-class=freq"),
    ("@lamb@\t-food=abc\n", "-class=freq"),
    ("@lamb@\t-food\n", "-class=freq"),
    ("@lamb@\t-food=3 =4\n", "-class=freq"),
    ("@lamb@\t\n", "without classes"),
    ("@ok@\t-person=1\n", "appears twice \\(first on line 1\\)"),
])
def test_a_malformed_line_is_named(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "bad.tsv"
    path.write_text("@ok@\t-person=3\n" + line, encoding="utf-8")
    with pytest.raises(InputFormatError, match=message) as error:
        read_release(path)
    assert "line 2" in str(error.value)



# Lines of the shapes the real release holds (words of our own): a class listed twice, once
# as the whole line, once among others and at the end, once after a tie left unsorted by name.
REPEATED = (
    "@fenwick_branch_line@\t-location=31 -location=6\n"
    "@harwood@\t-location=1500 -organization=200 -product=12 -person=9 -food=2 -title=2 "
    "-event=1 -location=1\n"
    "@kestrel_bay@\t-location=88 -event=4 -location=2\n"
    "@lamb@\t-living_thing=7 -food=7\n"
    "@marx@\t-person=9\n"
)
KNOWN = ["-location", "-person", "-organization", "-art", "-event", "-product", "-title",
         "-food", "-living_thing"]


def test_a_class_listed_twice_is_one_class_with_its_counts_summed(tmp_path: Path) -> None:
    path = tmp_path / "train.tsv"
    path.write_text(REPEATED, encoding="utf-8")
    split = read_split(path, KNOWN)
    assert split.classes["@fenwick_branch_line@"] == {"-location": 37}
    assert split.classes["@harwood@"]["-location"] == 1501
    assert len(split.classes["@harwood@"]) == 7
    assert split.classes["@kestrel_bay@"] == {"-location": 90, "-event": 4}
    assert split.entries == {"@fenwick_branch_line@": 2, "@harwood@": 8, "@kestrel_bay@": 3,
                             "@lamb@": 2, "@marx@": 1}
    # The words in file order, a tie left as the file has it.
    assert list(split.classes) == ["@fenwick_branch_line@", "@harwood@", "@kestrel_bay@",
                                   "@lamb@", "@marx@"]
    assert list(split.classes["@lamb@"]) == ["-living_thing", "-food"]


def test_the_two_readings_of_multi_class(tmp_path: Path) -> None:
    path = tmp_path / "train.tsv"
    path.write_text(REPEATED, encoding="utf-8")
    split = read_split(path)
    authors = [w for w in split.classes if split.multi_class(w, "authors")]
    paper = [w for w in split.classes if split.multi_class(w, "paper")]
    # The one-class word whose line lists its class twice is multi-class only by entries.
    assert set(authors) - set(paper) == {"@fenwick_branch_line@"}
    assert paper == ["@harwood@", "@kestrel_bay@", "@lamb@"]
    with pytest.raises(ValueError, match="reading"):
        split.multi_class("@lamb@", "both")


def test_an_unknown_class_is_named_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "train.tsv"
    path.write_text(REPEATED + "@pear@\t-fruit=3\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="line 6.*unknown class -fruit") as error:
        read_split(path, KNOWN)
    assert str(path) in str(error.value)
    # Without a class list any well-formed name reads.
    assert read_release(path)["@pear@"] == {"-fruit": 3}


def test_released_vs_rebuilt_compares_distinct_classes(tmp_path: Path) -> None:
    from reprobe.wikipse.resource.dataset import compare_release

    path = tmp_path / "train.tsv"
    path.write_text(REPEATED, encoding="utf-8")
    rebuilt = {"@fenwick_branch_line@": {"-location": 40},
               "@kestrel_bay@": {"-event": 50, "-location": 9}}
    assert compare_release(read_release(path), rebuilt) == {
        "released_words": 5, "in_rebuilt": 2, "same_classes": 2, "same_dominant_class": 1}
