"""Render wikitext to plain paragraphs, keeping every internal link as a character span."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import mwparserfromhell
from mwparserfromhell.nodes import (
    Argument,
    Comment,
    ExternalLink,
    Heading,
    HTMLEntity,
    Node,
    Tag,
    Template,
    Text,
    Wikilink,
)

from reprobe.wikipedia.titles import HIDDEN_LINK_NAMESPACES, normalise_title, split_namespace

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
_MAGIC_WORD = re.compile(r"__[A-Z]+__")
_LINK_TRAIL = re.compile(r"^[a-z]+")


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


@dataclass(slots=True)
class _Renderer:
    """Accumulates rendered text and link spans while walking a wikitext tree."""

    page_title: str
    namespaces: dict[str, int]
    parts: list[str] = field(default_factory=list)
    length: int = 0
    links: list[LinkSpan] = field(default_factory=list)

    def add(self, text: str) -> None:
        """Append rendered text."""
        if text:
            self.parts.append(text)
            self.length += len(text)

    def render(self, nodes: list[Node]) -> None:
        """Render a node list, attaching link trails ("[[apple]]s") to the link before them."""
        trail = ""
        for index, node in enumerate(nodes):
            if isinstance(node, Text):
                value = node.value[len(trail):] if trail else node.value
                trail = ""
                self.add(_MAGIC_WORD.sub("", value) if "__" in value else value)
            elif isinstance(node, Wikilink):
                following = nodes[index + 1] if index + 1 < len(nodes) else None
                match = _LINK_TRAIL.match(following.value) if isinstance(following, Text) else None
                trail = match.group(0) if match else ""
                self.render_link(node, trail)
            else:
                trail = ""
                self.render_other(node)

    def render_link(self, node: Wikilink, trail: str) -> None:
        """Render an internal link and record its span when it points at an article."""
        raw = str(node.title).strip()
        visible_colon = raw.startswith(":")
        namespace, _ = split_namespace(raw.lstrip(":"), self.namespaces)
        if not visible_colon and (namespace is None or namespace in HIDDEN_LINK_NAMESPACES):
            return  # media, categories and interlanguage links render nothing
        start = self.length
        if node.text is not None and str(node.text).strip():
            self.render(node.text.nodes)
        else:
            self.add(raw.lstrip(":"))
        self.add(trail)
        if namespace == 0 and not visible_colon and self.length > start:
            target = normalise_title(raw) if not raw.startswith("#") else self.page_title
            if target:
                self.links.append(LinkSpan(start, self.length, target))

    def render_other(self, node: Node) -> None:
        """Render tags, templates, entities and external links; drop the rest."""
        if isinstance(node, Tag):
            name = str(node.tag).strip().lower()
            if name in DROPPED_TAGS:
                return
            if name == "br":
                self.add(" ")
            elif name in LINE_BREAK_TAGS:
                self.add("\n")
                if node.contents is not None:
                    self.render(node.contents.nodes)
            elif node.contents is not None:
                self.render(node.contents.nodes)
        elif isinstance(node, HTMLEntity):
            self.add(node.normalize())
        elif isinstance(node, ExternalLink):
            if node.title is not None:
                self.render(node.title.nodes)
        elif isinstance(node, Template):
            self.render_template(node)
        elif isinstance(node, Heading):
            self.add("\n")  # headings are not sentences; they end the line before them
        elif isinstance(node, Comment | Argument):
            return

    def render_template(self, node: Template) -> None:
        """Render the few inline templates that carry prose (numbers with units above all)."""
        name = str(node.name).strip().lower().replace("_", " ")
        positional = [str(p.value).strip() for p in node.params if not p.showkey]
        if name in CONVERT_TEMPLATES and len(positional) >= 2:
            words = [positional[0]]
            rest = positional[1:]
            while len(rest) >= 2 and rest[0] in CONVERT_RANGE_WORDS:
                words += rest[:2]
                rest = rest[2:]
            if rest:
                words.append(rest[0])
            self.add(" ".join(words))
        elif (name in TEXT_TEMPLATES or name == "lang" or name.startswith("lang-")) and positional:
            value = node.params[[p.showkey for p in node.params].index(False)].value
            if name == "lang" and len(positional) >= 2:
                value = [p for p in node.params if not p.showkey][1].value
            self.render(value.nodes)


def render_wikitext(wikitext: str, page_title: str, namespaces: dict[str, int]) -> list[Paragraph]:
    """Render an article's wikitext into non-empty paragraphs (lines) with their link spans."""
    renderer = _Renderer(page_title=page_title, namespaces=namespaces)
    renderer.render(mwparserfromhell.parse(wikitext).nodes)
    text = "".join(renderer.parts)
    return _split_lines(text, renderer.links)


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
