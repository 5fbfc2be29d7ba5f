"""Split rendered paragraphs into sentences and tokens, mapping link spans onto tokens."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import blingfire

from reprobe.wikipedia.text import LinkSpan, Paragraph

# Bling Fire is a rule/automaton-based segmenter whose models ship inside its wheel: no model
# download and C++ speed. Its *_with_offsets functions convert byte to character offsets in
# Python, which costs ten times the segmentation itself, so offsets are found here by aligning
# the returned pieces with str.find, falling back to those functions if a piece was altered.


@dataclass(frozen=True, slots=True)
class TokenLink:
    """A link inside a sentence: tokens [start, end), the visible surface and the target."""

    token_start: int
    token_end: int
    surface: str
    target: str


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence as text and tokens, with the links it contains."""

    text: str
    tokens: list[str]
    links: list[TokenLink]


def segment_paragraph(paragraph: Paragraph) -> list[Sentence]:
    """Split one paragraph into sentences; every link lands in the sentence it starts in."""
    text = paragraph.text
    sentence_spans = _align(text, blingfire.text_to_sentences(text).split("\n"))
    if sentence_spans is None:
        sentence_spans = blingfire.text_to_sentences_and_offsets(text)[1]
    token_spans = _align(text, blingfire.text_to_words(text).split(" "))
    if token_spans is None:
        token_spans = blingfire.text_to_words_with_offsets(text)[1]
    token_starts = [start for start, _ in token_spans]
    token_ends = [end for _, end in token_spans]
    sentences: list[Sentence] = []
    for sent_start, sent_end in sentence_spans:
        first = bisect_left(token_starts, sent_start)
        last = bisect_left(token_starts, sent_end)
        if last <= first:
            continue
        links = [
            link
            for span in paragraph.links
            if sent_start <= span.start < sent_end
            and (link := _token_link(text, span, first, last, token_starts, token_ends))
        ]
        tokens = [text[start:end] for start, end in token_spans[first:last]]
        sentence_text = " ".join(text[sent_start:sent_end].split())
        sentences.append(Sentence(sentence_text, tokens, links))
    return sentences


def _align(text: str, pieces: list[str]) -> list[tuple[int, int]] | None:
    """Character spans of consecutive pieces of `text`, or None if one is not found verbatim."""
    spans: list[tuple[int, int]] = []
    position = 0
    for piece in pieces:
        if not piece:
            continue
        start = text.find(piece, position)
        if start < 0:
            return None
        position = start + len(piece)
        spans.append((start, position))
    return spans


def _token_link(
    text: str,
    span: LinkSpan,
    first: int,
    last: int,
    token_starts: list[int],
    token_ends: list[int],
) -> TokenLink | None:
    """Map a character span to the sentence-relative tokens it overlaps (clipped to the
    sentence)."""
    start_char, end_char = span.start, span.end
    token_start = max(bisect_right(token_ends, start_char, first, last), first)
    token_end = min(bisect_left(token_starts, end_char, first, last), last)
    if token_end <= token_start:
        return None
    return TokenLink(
        token_start=token_start - first,
        token_end=token_end - first,
        surface=text[start_char:end_char],
        target=span.target,
    )
