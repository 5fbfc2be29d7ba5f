"""Tests for reprobe.wikipedia.text: rendering wikitext to paragraphs with link spans."""

from __future__ import annotations

import pytest

from reprobe.wikipedia.text import LinkSpan, Paragraph, render_wikitext
from reprobe.wikipedia.titles import DEFAULT_NAMESPACES


def render(wikitext: str, page_title: str = "Page") -> list[tuple[str, list[tuple[str, str]]]]:
    """Render wikitext to (line, [(linked text, target), ...]) pairs for readable asserts."""
    rendered = []
    for paragraph in render_wikitext(wikitext, page_title, DEFAULT_NAMESPACES):
        spans = [(paragraph.text[link.start:link.end], link.target) for link in paragraph.links]
        rendered.append((paragraph.text, spans))
    return rendered


def lines(wikitext: str) -> list[str]:
    """Render wikitext and keep only the text of each line."""
    return [text for text, _ in render(wikitext)]


def test_returns_paragraphs_with_link_spans() -> None:
    assert render_wikitext("See [[apple]].", "Page", DEFAULT_NAMESPACES) == [
        Paragraph("See apple.", [LinkSpan(4, 9, "Apple")])
    ]


def test_bold_and_italic_text_is_kept() -> None:
    assert render("'''Apple''' is a ''fruit''.") == [("Apple is a fruit.", [])]


def test_refs_are_dropped_with_their_links() -> None:
    wikitext = 'Apples.<ref name="a">[[Pomology]] {{cite|x}}</ref> Pears.<ref name="a"/>'
    assert render(wikitext) == [("Apples. Pears.", [])]


def test_odd_markup_inside_a_ref_does_not_swallow_the_prose_after_it() -> None:
    # Refs are cut out before parsing, as MediaWiki does: an unclosed template inside one
    # cannot reach past its </ref>.
    wikitext = "Catholics<ref>{{cite web|title=x</ref> and 50,000 [[Protestant]]s lived there."
    assert render(wikitext) == [
        ("Catholics and 50,000 Protestants lived there.", [("Protestants", "Protestant")])]


def test_comments_and_math_are_cut_before_parsing() -> None:
    wikitext = "A<!-- [[hidden]] {{x --> b <math>x^{2}</math> c <REF>y</ref> d<!-- to the end"
    assert lines(wikitext) == ["A b  c  d"]


def test_tables_are_dropped_with_their_links() -> None:
    assert lines("Before\n{|\n|-\n| [[Apple]] || [[Pear]]\n|}\nAfter") == ["Before", "After"]


def test_templates_are_dropped() -> None:
    assert render("A{{Infobox fruit|name=[[Apple]]|{{flag|x}}}}B{{{arg|[[Pear]]}}}C") == [
        ("ABC", [])
    ]


def test_convert_renders_value_and_unit() -> None:
    assert lines("It is {{convert|5|km|mi|abbr=on}} long.") == ["It is 5 km long."]


def test_convert_renders_a_range() -> None:
    assert lines("It is {{cvt|3|to|5|km}} or {{convert|1|-|2|x|3|m}}.") == [
        "It is 3 to 5 km or 1 - 2 x 3 m."
    ]


def test_nowrap_renders_its_text_and_links() -> None:
    assert render("Born {{nowrap|[[1 May]] 1900}}.") == [("Born 1 May 1900.", [("1 May", "1 May")])]


def test_lang_renders_the_foreign_text() -> None:
    assert lines("The {{lang|fr|''pomme''}} and {{lang-de|Apfel}}.") == ["The pomme and Apfel."]


def test_link_with_text_spans_the_text() -> None:
    assert render("An [[apple tree|orchard]] grows.") == [
        ("An orchard grows.", [("orchard", "Apple tree")])
    ]


def test_link_trail_joins_the_link() -> None:
    assert render("Two [[apple]]s, three [[pear|Pear]]s.") == [
        ("Two apples, three Pears.", [("apples", "Apple"), ("Pears", "Pear")])
    ]


def test_file_category_and_interlanguage_links_are_dropped() -> None:
    wikitext = "[[File:A.jpg|thumb|An [[apple]] on a [[Tree|tree]]]]Text[[Category:Fruit]][[de:X]]"
    assert render(wikitext) == [("Text", [])]


def test_leading_colon_link_renders_text_without_span() -> None:
    assert render("See [[:Category:Fruit]] and [[:File:A.jpg|the image]].") == [
        ("See Category:Fruit and the image.", [])
    ]


def test_section_link_points_at_the_page_itself() -> None:
    assert render("See [[#History|below]].", page_title="Apple") == [
        ("See below.", [("below", "Apple")])
    ]


def test_html_entities_are_normalised() -> None:
    assert lines("A&nbsp;B &amp; C &#65; &#x42;") == ["A\xa0B & C A B"]


def test_external_links_render_their_title_only() -> None:
    assert lines("See [https://example.org the ''site''] or https://example.org now.") == [
        "See the site or  now."
    ]


def test_headings_end_the_line_and_render_nothing() -> None:
    assert lines("Intro text\n== History ==\nOld [[apple]]s") == ["Intro text", "Old apples"]


def test_magic_words_are_removed() -> None:
    assert lines("__NOTOC__Apples__TOC__ are red.") == ["Apples are red."]


def test_br_renders_as_a_space() -> None:
    assert lines("Red<br/>green<br>blue") == ["Red green blue"]


def test_list_items_are_lines_of_their_own() -> None:
    assert render("Fruits:\n* [[Apple]]\n# Pear\n<ul><li>Plum</li></ul>") == [
        ("Fruits:", []),
        ("Apple", [("Apple", "Apple")]),
        ("Pear", []),
        ("Plum", []),
    ]


def test_dropped_tags_inside_link_text_are_dropped() -> None:
    assert render("[[Apple|Red<sup>1</sup> apple]]") == [("Red apple", [("Red apple", "Apple")])]


def test_nested_links_in_templates_in_refs_are_dropped() -> None:
    wikitext = "A<ref>{{cite|title=[[Pear]] {{nowrap|[[Plum]]}}}}</ref> [[Apple|{{nowrap|B}}]]"
    assert render(wikitext) == [("A B", [("B", "Apple")])]


@pytest.mark.parametrize(
    "wikitext",
    [
        "<b>unclosed bold and <i>italic",
        "stray </b></ref> closes",
        "<ref>unclosed ref with [[link]]",
        "{{unclosed|template [[link]]",
        "[[unclosed link|text",
        "{| unclosed table\n| [[cell]]",
        "''' unbalanced '' quotes ''''' here",
        "&bogus; &#99999999; &#xZZ;",
        "<!-- unclosed comment",
        "[[a|[[b|[[c]]]]]] {{{{{{x}}}}}} <div><span></div></span>",
    ],
)
def test_malformed_wikitext_does_not_crash(wikitext: str) -> None:
    assert isinstance(render_wikitext(wikitext, "Page", DEFAULT_NAMESPACES), list)
