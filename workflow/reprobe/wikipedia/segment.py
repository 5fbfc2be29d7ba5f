"""Split rendered paragraphs into sentences and tokens, mapping link spans onto tokens."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from ctypes import byref, c_char_p, c_int, c_int32, create_string_buffer
from dataclasses import dataclass

import blingfire
import numpy as np

from reprobe.wikipedia.text import LinkSpan, Paragraph

_LIBRARY = blingfire.blingfire  # the loaded C library behind the Python wrappers

# Bling Fire is a rule/automaton-based segmenter whose models ship inside its wheel: no model
# download and C++ speed. Its Python *_with_offsets wrappers map UTF-8 byte offsets to
# character offsets in a Python loop over every byte, which costs several times the
# segmentation itself; here the same C functions are called and the map is done with NumPy.


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


# Bling Fire always ends a sentence at U+2029 PARAGRAPH SEPARATOR (it does not at newlines), so
# a page's paragraphs are joined with it and segmented in one call: per-call overhead otherwise
# dominates on short paragraphs.
PARAGRAPH_BREAK = "\u2029"


def segment_page(paragraphs: list[Paragraph]) -> list[Sentence]:
    """Split a page's paragraphs into sentences; every link lands in the sentence it starts in."""
    text, links = _join(paragraphs)
    sentence_starts, sentence_ends = char_offsets(text, sentences=True)
    token_starts, token_ends = char_offsets(text, sentences=False)
    sentences: list[Sentence] = []
    next_link = 0
    for sent_start, sent_end in zip(sentence_starts, sentence_ends, strict=True):
        first = bisect_left(token_starts, sent_start)
        last = bisect_left(token_starts, sent_end, first)
        own: list[TokenLink] = []
        while next_link < len(links) and links[next_link].start < sent_end:
            span = links[next_link]
            next_link += 1
            if span.start >= sent_start and last > first and (
                link := _token_link(text, span, first, last, token_starts, token_ends)
            ):
                own.append(link)
        if last <= first:
            continue
        tokens = [text[start:end] for start, end in
                  zip(token_starts[first:last], token_ends[first:last], strict=True)]
        sentence_text = " ".join(text[sent_start:sent_end].split())
        sentences.append(Sentence(sentence_text, tokens, own))
    return sentences


def char_offsets(text: str, *, sentences: bool) -> tuple[list[int], list[int]]:
    """Character start and end offsets of Bling Fire's sentences (or words) of `text`."""
    function = _LIBRARY.TextToSentencesWithOffsets if sentences else _LIBRARY.TextToWordsWithOffsets
    data = text.encode("utf-8")
    capacity = 2 * len(data) + 1
    output = create_string_buffer(capacity)
    starts, ends = (c_int32 * capacity)(), (c_int32 * capacity)()
    written = function(c_char_p(data), c_int(len(data)), byref(output), byref(starts),
                       byref(ends), c_int(capacity))
    if written < 0 or written > capacity:
        # The wrapper's own (slow) path handles whatever the fast call could not.
        slow = blingfire.text_to_sentences_and_offsets if sentences else (
            blingfire.text_to_words_with_offsets)
        spans = slow(text)[1]
        return [start for start, _ in spans], [end for _, end in spans]
    count = output.value.count(b"\n" if sentences else b" ") + 1 if output.value else 0
    first_byte = np.frombuffer(starts, dtype=np.int32, count=count)
    last_byte = np.frombuffer(ends, dtype=np.int32, count=count)
    if not text.isascii():
        # Character index of every byte: count the bytes that start a UTF-8 sequence.
        raw = np.frombuffer(data, dtype=np.uint8)
        char_of_byte = np.cumsum((raw & 0xC0) != 0x80) - 1
        first_byte, last_byte = char_of_byte[first_byte], char_of_byte[last_byte]
    return first_byte.tolist(), (last_byte + 1).tolist()


def _join(paragraphs: list[Paragraph]) -> tuple[str, list[LinkSpan]]:
    """One text of all paragraphs, separated by PARAGRAPH_BREAK, with link spans moved into it."""
    links: list[LinkSpan] = []
    offset = 0
    for paragraph in paragraphs:
        links += [LinkSpan(span.start + offset, span.end + offset, span.target)
                  for span in paragraph.links]
        offset += len(paragraph.text) + len(PARAGRAPH_BREAK)
    return PARAGRAPH_BREAK.join(paragraph.text for paragraph in paragraphs), links


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
