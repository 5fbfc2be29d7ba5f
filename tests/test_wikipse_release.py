"""Tests for the released WIKI-PSE format: a sample written here and the build's output alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from reprobe.errors import InputFormatError
from reprobe.wikipse.release import (
    format_line,
    read_release,
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
    ("@lamb@\t-food=1 -food=2\n", "twice"),
    ("@lamb@\t\n", "without classes"),
])
def test_a_malformed_line_is_named(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "bad.tsv"
    path.write_text("@ok@\t-person=3\n" + line, encoding="utf-8")
    with pytest.raises(InputFormatError, match=message) as error:
        read_release(path)
    assert "line 2" in str(error.value)

