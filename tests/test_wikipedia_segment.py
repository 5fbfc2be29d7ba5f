"""Sentences and tokens with character offsets; links mapped onto tokens."""

from __future__ import annotations

import blingfire
import pytest

from reprobe.wikipedia.segment import PARAGRAPH_BREAK, char_offsets, segment_page
from reprobe.wikipedia.text import LinkSpan, Paragraph

TEXTS = [
    "Dr. Smith paid $1,000.50 in 1999. It was -2 degrees!",
    "Café Zürich — naïve résumé. Ünïcödé 東京 is big.  Second   one. 😀 ends",
    "no final period",
]


@pytest.mark.parametrize("text", TEXTS)
def test_offsets_equal_bling_fires_own(text):
    for sentences, reference in ((False, blingfire.text_to_words_with_offsets),
                                 (True, blingfire.text_to_sentences_and_offsets)):
        starts, ends = char_offsets(text, sentences=sentences)
        assert list(zip(starts, ends, strict=True)) == reference(text)[1]


def test_empty_text_has_no_offsets():
    # Bling Fire's own wrapper fails an assertion on an empty string.
    assert char_offsets("", sentences=False) == char_offsets("", sentences=True) == ([], [])


def test_paragraphs_never_share_a_sentence():
    page = [Paragraph("A heading without a period"), Paragraph("Next line. Two sentences.")]
    sentences = segment_page(page)
    assert [s.text for s in sentences] == [
        "A heading without a period", "Next line.", "Two sentences."]
    assert all(PARAGRAPH_BREAK not in token for s in sentences for token in s.tokens)


def test_links_map_to_token_spans_in_their_sentence():
    text = "Café owners met Dr. Jean Müller. The [[x]] talks began."
    first = text.index("Jean Müller")
    page = [Paragraph("Intro"), Paragraph(text, [
        LinkSpan(0, 4, "Café"), LinkSpan(first, first + len("Jean Müller"), "Jean Müller")])]
    sentences = segment_page(page)
    links = [(s.tokens[link.token_start:link.token_end], link.target)
             for s in sentences for link in s.links]
    assert links == [(["Café"], "Café"), (["Jean", "Müller"], "Jean Müller")]
