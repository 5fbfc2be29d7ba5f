"""Render wikitext to plain paragraphs, keeping every internal link as a character span.

The wikitext is tokenized by mwparserfromhell's C tokenizer and the flat token list is walked
directly: building mwparserfromhell's node tree costs about three times as much as tokenizing,
and rendering only needs to know where each construct opens, splits and closes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html.entities import name2codepoint

from mwparserfromhell.parser import tokens as tk
from mwparserfromhell.parser.builder import Builder

from reprobe.wikipedia.titles import HIDDEN_LINK_NAMESPACES, normalise_title, split_namespace

try:
    from mwparserfromhell.parser._tokenizer import CTokenizer as _Tokenizer
except ImportError:  # no compiled extension: same tokens, only slower
    from mwparserfromhell.parser.tokenizer import Tokenizer as _Tokenizer

# Tags whose content is not running prose: references, tables, maths, media, code.
DROPPED_TAGS = frozenset({
    "ref", "references", "table", "math", "chem", "ce", "gallery", "timeline", "imagemap",
    "syntaxhighlight", "source", "pre", "score", "hiero", "graph", "mapframe", "maplink",
    "templatedata", "templatestyles", "noinclude", "includeonly", "onlyinclude", "nowiki",
    "div", "caption", "style", "poem", "inputbox", "categorytree", "sup", "sub",
})
# Tags that end a line of text when rendered.
LINE_BREAK_TAGS = frozenset({"li", "dt", "dd", "p", "tr"})
# Inline templates whose first positional argument is the visible text.
TEXT_TEMPLATES = frozenset({"nowrap", "nobr", "small", "big", "nobold", "noitalic", "smallcaps"})
# {{convert|5|km|mi}} renders "5 km"; ranges such as {{convert|3|to|5|km}} render "3 to 5 km".
CONVERT_TEMPLATES = frozenset({"convert", "cvt"})
CONVERT_RANGE_WORDS = frozenset({"to", "-", "–", "and", "or", "x", "by", "+/-", "±"})
# Extension tags whose content never renders as prose. MediaWiki cuts comments and extension
# tags out of the wikitext before it parses anything else (up to the first matching close
# tag), so doing the same here is both faithful and cheap: references hold a quarter of an
# article's wikitext and most of its citation templates, and an odd construct inside one can no
# longer swallow the prose after it.
OPAQUE_TAGS = (
    "ref", "math", "chem", "ce", "gallery", "timeline", "imagemap", "syntaxhighlight", "source",
    "pre", "score", "hiero", "graph", "mapframe", "maplink", "templatedata", "templatestyles",
    "nowiki", "poem", "inputbox", "categorytree",
)
_OPAQUE = re.compile(
    r"<!--.*?(?:-->|\Z)"
    rf"|<({'|'.join(OPAQUE_TAGS)})\b[^>]*?/>"
    rf"|<({'|'.join(OPAQUE_TAGS)})\b[^>]*>.*?</\2\s*>",
    re.DOTALL | re.IGNORECASE,
)
_MAGIC_WORD = re.compile(r"__[A-Z]+__")
_LINK_TRAIL = re.compile(r"^[a-z]+")

# Every construct is one opening token, its inner tokens and one closing token.
_OPENERS = frozenset({
    tk.TemplateOpen, tk.ArgumentOpen, tk.WikilinkOpen, tk.ExternalLinkOpen,
    tk.HTMLEntityStart, tk.HeadingStart, tk.CommentStart, tk.TagOpenOpen,
})
_CLOSERS = frozenset({
    tk.TemplateClose, tk.ArgumentClose, tk.WikilinkClose, tk.ExternalLinkClose,
    tk.HTMLEntityEnd, tk.HeadingEnd, tk.CommentEnd, tk.TagCloseSelfclose, tk.TagCloseClose,
})
# The tag name runs up to its first attribute or the end of the opening tag.
_TAG_NAME_ENDS = frozenset({tk.TagAttrStart, tk.TagCloseOpen, tk.TagCloseSelfclose})
_TEXT = tk.Text


@dataclass(frozen=True, slots=True)
class LinkSpan:
    """An internal link: character span of its visible text and its normalised target."""

    start: int
    end: int
    target: str


@dataclass(slots=True)
class Paragraph:
    """One line of rendered text with the links it contains."""

    text: str
    links: list[LinkSpan] = field(default_factory=list)


def _pair(tokens: list[tk.Token]) -> list[int]:
    """Map each opening token to its closing token and back; -1 for every other token."""
    match = [-1] * len(tokens)
    stack: list[int] = []
    for index, token in enumerate(tokens):
        kind = type(token)
        if kind is _TEXT:
            continue
        if kind in _OPENERS:
            stack.append(index)
        elif kind in _CLOSERS and stack:  # a stray close with nothing open is ignored
            opener = stack.pop()
            match[opener] = index
            match[index] = opener
    for opener in stack:  # an unclosed construct runs to the end of the tokens
        match[opener] = len(tokens)
    return match


@dataclass(slots=True)
class _Renderer:
    """Accumulates rendered text and link spans while walking a flat token list."""

    # Methods take half-open token ranges [start, stop) holding whole constructs: the token
    # counterpart of a node list. A construct's range runs from its opening to its closing token.

    page_title: str
    namespaces: dict[str, int]
    tokens: list[tk.Token]
    match: list[int]
    parts: list[str] = field(default_factory=list)
    length: int = 0
    links: list[LinkSpan] = field(default_factory=list)

    def add(self, text: str) -> None:
        """Append rendered text."""
        if text:
            self.parts.append(text)
            self.length += len(text)

    def after(self, index: int) -> int:
        """Return the index just past the construct (or lone token) starting at index."""
        end = self.match[index]
        return end + 1 if end > index else index + 1

    def find(self, start: int, stop: int, kind: type) -> int:
        """Return the first token of this kind outside nested constructs, or -1."""
        tokens = self.tokens
        index = start
        while index < stop:
            if type(tokens[index]) is kind:
                return index
            index = self.after(index)
        return -1

    def source(self, start: int, stop: int) -> str:
        """Return the wikitext of a token range, as str() of the matching node list gives."""
        tokens = self.tokens
        texts = []
        for index in range(start, stop):
            token = tokens[index]
            if type(token) is not _TEXT:
                return _build_source(tokens[start:stop])
            texts.append(token["text"])
        return "".join(texts)

    def has_source(self, start: int, stop: int) -> bool:
        """Tell whether a token range's wikitext has anything besides whitespace."""
        tokens = self.tokens
        for index in range(start, stop):
            token = tokens[index]
            # Every construct writes visible delimiters ("{{", "<", "&", "''", a URL ...).
            if type(token) is not _TEXT or token["text"].strip():
                return True
        return False

    def render(self, start: int, stop: int) -> None:
        """Render a token range, attaching link trails ("[[apple]]s") to the link before them."""
        tokens, match, parts = self.tokens, self.match, self.parts
        stop = min(stop, len(tokens))
        trail = ""
        index = start
        while index < stop:
            token = tokens[index]
            kind = type(token)
            if kind is _TEXT:
                value = token["text"]
                if trail:
                    value = value[len(trail):]
                    trail = ""
                if "__" in value:
                    value = _MAGIC_WORD.sub("", value)
                if value:
                    parts.append(value)
                    self.length += len(value)
                index += 1
                continue
            end = min(match[index], stop)
            if end <= index:  # a separator or close outside its construct renders nothing
                trail = ""
                index += 1
                continue
            if kind is tk.WikilinkOpen:
                following = tokens[end + 1] if end + 1 < stop else None
                found = (
                    _LINK_TRAIL.match(following["text"]) if type(following) is _TEXT else None
                )
                trail = found.group(0) if found else ""
                self.render_link(index, end, trail)
            else:
                trail = ""
                handler = _HANDLERS.get(kind)
                if handler is not None:
                    handler(self, index, end)
            index = end + 1

    def render_link(self, start: int, stop: int, trail: str) -> None:
        """Render an internal link and record its span when it points at an article."""
        separator = self.find(start + 1, stop, tk.WikilinkSeparator)
        raw = self.source(start + 1, stop if separator < 0 else separator).strip()
        visible_colon = raw.startswith(":")
        namespace, _ = split_namespace(raw.lstrip(":"), self.namespaces)
        if not visible_colon and (namespace is None or namespace in HIDDEN_LINK_NAMESPACES):
            return  # media, categories and interlanguage links render nothing
        begin = self.length
        if separator >= 0 and self.has_source(separator + 1, stop):
            self.render(separator + 1, stop)
        else:
            self.add(raw.lstrip(":"))
        self.add(trail)
        if namespace == 0 and not visible_colon and self.length > begin:
            target = normalise_title(raw) if not raw.startswith("#") else self.page_title
            if target:
                self.links.append(LinkSpan(begin, self.length, target))

    def render_tag(self, start: int, stop: int) -> None:
        """Render a tag's contents unless the tag is dropped; <br> is a space."""
        tokens = self.tokens
        name_end = start + 1
        while name_end < stop and type(tokens[name_end]) not in _TAG_NAME_ENDS:
            name_end = self.after(name_end)
        name = self.source(start + 1, name_end).strip().lower()
        if name in DROPPED_TAGS:
            return
        if name == "br":
            self.add(" ")
            return
        if name in LINE_BREAK_TAGS:
            self.add("\n")
        contents = self.tag_contents(name_end, stop)
        if contents is not None:
            self.render(*contents)

    def tag_contents(self, name_end: int, stop: int) -> tuple[int, int] | None:
        """Return the token range between a tag's opening and closing tags; None if none."""
        tokens = self.tokens
        if stop >= len(tokens) or type(tokens[stop]) is not tk.TagCloseClose:
            return None  # self-closing ("<br/>", "* ") or unclosed
        opened = self.find(name_end, stop, tk.TagCloseOpen)
        if opened < 0:
            return None
        # The closing tag ("</b>") is short: look for its start backwards from the end.
        index = stop - 1
        while index > opened:
            if type(tokens[index]) is tk.TagOpenClose:
                return opened + 1, index
            partner = self.match[index]
            index = partner - 1 if opened < partner < index else index - 1
        return None

    def render_entity(self, start: int, stop: int) -> None:
        """Render an HTML entity as its character (HTMLEntity.normalize())."""
        named, hexadecimal, value = True, False, ""
        for token in self.tokens[start + 1:stop]:
            kind = type(token)
            if kind is tk.HTMLEntityNumeric:
                named = False
            elif kind is tk.HTMLEntityHex:
                hexadecimal = True
            elif kind is _TEXT:
                value = token["text"]
        try:
            if named:
                self.add(chr(name2codepoint[value]))
            else:
                self.add(chr(int(value, 16 if hexadecimal else 10)))
        except (KeyError, ValueError, OverflowError):  # not an entity after all: keep it
            self.add(self.source(start, min(stop + 1, len(self.tokens))))

    def render_external_link(self, start: int, stop: int) -> None:
        """Render an external link's title; bare URLs and untitled links render nothing."""
        separator = self.find(start + 1, stop, tk.ExternalLinkSeparator)
        if separator >= 0:
            self.render(separator + 1, stop)

    def render_heading(self, start: int, stop: int) -> None:
        """Headings are not sentences: they end the line before them and render nothing."""
        self.add("\n")

    def render_template(self, start: int, stop: int) -> None:
        """Render the few inline templates that carry prose (numbers with units above all)."""
        first = self.find(start + 1, stop, tk.TemplateParamSeparator)
        name = self.source(start + 1, stop if first < 0 else first)
        name = name.strip().lower().replace("_", " ")
        is_text = name in TEXT_TEMPLATES or name == "lang" or name.startswith("lang-")
        if first < 0 or not (is_text or name in CONVERT_TEMPLATES):
            return
        values = self.positional_values(first, stop)
        if name in CONVERT_TEMPLATES:
            if len(values) < 2:
                return
            positional = [self.source(*value).strip() for value in values]
            words = [positional[0]]
            rest = positional[1:]
            while len(rest) >= 2 and rest[0] in CONVERT_RANGE_WORDS:
                words += rest[:2]
                rest = rest[2:]
            if rest:
                words.append(rest[0])
            self.add(" ".join(words))
        elif values:
            self.render(*values[1 if name == "lang" and len(values) >= 2 else 0])

    def positional_values(self, first: int, stop: int) -> list[tuple[int, int]]:
        """Return the token ranges of a template's positional (unnamed) parameter values."""
        tokens = self.tokens
        values = []
        begin, named = first + 1, False
        index = begin
        while index < stop:
            kind = type(tokens[index])
            if kind is tk.TemplateParamSeparator:
                if not named:
                    values.append((begin, index))
                begin, named = index + 1, False
            elif kind is tk.TemplateParamEquals:
                named = True
            index = self.after(index)
        if not named:
            values.append((begin, stop))
        return values


def _skip(renderer: _Renderer, start: int, stop: int) -> None:
    """Comments and template arguments render nothing."""


# Opening token type -> how its construct renders; constructs not listed render nothing.
_HANDLERS: dict[type, Callable[[_Renderer, int, int], None]] = {
    tk.TagOpenOpen: _Renderer.render_tag,
    tk.TemplateOpen: _Renderer.render_template,
    tk.HTMLEntityStart: _Renderer.render_entity,
    tk.ExternalLinkOpen: _Renderer.render_external_link,
    tk.HeadingStart: _Renderer.render_heading,
    tk.CommentStart: _skip,
    tk.ArgumentOpen: _skip,
}


def _build_source(tokens: list[tk.Token]) -> str:
    """Return the wikitext of a token range holding constructs, via mwparserfromhell's tree."""
    try:
        return str(Builder().build(tokens))
    # The builder trusts its tokens to come straight from the tokenizer and fails in many ways
    # (ParserError, IndexError, ValueError ...) on anything else: keep the plain text then.
    except Exception:
        return "".join(token["text"] for token in tokens if type(token) is _TEXT)


def render_wikitext(wikitext: str, page_title: str, namespaces: dict[str, int]) -> list[Paragraph]:
    """Render an article's wikitext into non-empty paragraphs (lines) with their link spans."""
    wikitext = strip_opaque(wikitext)
    # The same arguments mwparserfromhell.parse() passes: context 0, style tags parsed.
    tokens = _Tokenizer().tokenize(wikitext, 0, False)
    renderer = _Renderer(page_title, namespaces, tokens, _pair(tokens))
    renderer.render(0, len(tokens))
    text = "".join(renderer.parts)
    return _split_lines(text, renderer.links)


def strip_opaque(wikitext: str) -> str:
    """Remove comments and non-prose extension tags (references, maths, code …) first."""
    return _OPAQUE.sub("", wikitext)


def _split_lines(text: str, links: list[LinkSpan]) -> list[Paragraph]:
    """Cut rendered text at newlines, tidy spaces and move link spans into their line."""
    paragraphs: list[Paragraph] = []
    link_index = 0
    line_start = 0
    for line in text.split("\n"):
        line_end = line_start + len(line)
        own: list[LinkSpan] = []
        while link_index < len(links) and links[link_index].start < line_end + 1:
            link = links[link_index]
            if link.start >= line_start and link.end <= line_end:
                own.append(link)
            link_index += 1
        paragraph = _tidy(line, line_start, own)
        if paragraph is not None:
            paragraphs.append(paragraph)
        line_start = line_end + 1
    return paragraphs


def _tidy(line: str, offset: int, links: list[LinkSpan]) -> Paragraph | None:
    """Strip a line's outer whitespace, moving its link spans to the stripped text."""
    stripped = line.strip()
    if not stripped:
        return None
    shift = offset + (len(line) - len(line.lstrip()))
    moved = [
        LinkSpan(link.start - shift, min(link.end - shift, len(stripped)), link.target)
        for link in links
        if link.end - shift > max(link.start - shift, 0)
    ]
    return Paragraph(stripped, [m for m in moved if m.start >= 0])
