"""MediaWiki title rules: normalisation, namespaces and interlanguage prefixes."""

from __future__ import annotations

import html
import re
from urllib.parse import unquote

# English Wikipedia's namespaces and their aliases; a dump's <siteinfo> may add more.
DEFAULT_NAMESPACES: dict[str, int] = {
    "Media": -2, "Special": -1, "Talk": 1, "User": 2, "User talk": 3, "Wikipedia": 4,
    "Wikipedia talk": 5, "File": 6, "File talk": 7, "MediaWiki": 8, "MediaWiki talk": 9,
    "Template": 10, "Template talk": 11, "Help": 12, "Help talk": 13, "Category": 14,
    "Category talk": 15, "Portal": 100, "Portal talk": 101, "Draft": 118, "Draft talk": 119,
    "TimedText": 710, "TimedText talk": 711, "Module": 828, "Module talk": 829,
    "Image": 6, "Image talk": 7, "WP": 4, "Project": 4, "Project talk": 5, "WT": 5,
}
# Links into these namespaces are not rendered in the text (embedded media, categories).
HIDDEN_LINK_NAMESPACES = frozenset({-2, 6, 14})
# Interlanguage links: "de:", "zh-min-nan:", "simple:" … They render nothing in the article.
_LANGUAGE_PREFIX = re.compile(r"^(?:[a-z]{2,3}(?:-[a-z]{2,8})*|simple)$")
_SPACES = re.compile(r"[\s_]+")


def normalise_title(raw: str) -> str:
    """Normalise a link target or page title the way MediaWiki does (first-letter case)."""
    title = html.unescape(raw)
    if "%" in title:
        title = unquote(title)
    title = title.split("#", 1)[0]
    title = _SPACES.sub(" ", title).strip()
    return title[:1].upper() + title[1:]


def split_namespace(title: str, namespaces: dict[str, int]) -> tuple[int | None, str]:
    """Split 'Category:Foo' into (14, 'Foo'); (0, title) for main namespace; None prefix for
    interlanguage links."""
    prefix, sep, rest = title.partition(":")
    if not sep:
        return 0, title
    key = _SPACES.sub(" ", prefix).strip()
    canonical = key[:1].upper() + key[1:]
    if canonical in namespaces:
        return namespaces[canonical], rest
    if _LANGUAGE_PREFIX.match(key):
        return None, rest
    return 0, title
