"""The CoreNLP fields of the released EQUATE layout, written from a bracketed tree and arcs.

A released row holds, per sentence of each side, lowercased `_tokens`, Penn `_pos` tags, basic
dependencies (`_dep_parse`: dicts with dep, governor, governorGloss, dependent, dependentGloss;
1-based, ROOT at 0) and the bracketed constituency parse (`_syntax_parse`). Samples and tests
write parses by hand in a compact form: the tree, and its arcs as `relation head dependent;…`.
"""

from __future__ import annotations

import re
from typing import Any

LEAF = re.compile(r"\(([^\s()]+) ([^\s()]+)\)")


def leaves(tree: str) -> list[tuple[str, str]]:
    """(tag, word) of every leaf of a bracketed tree."""
    return LEAF.findall(tree)


def pretty(tree: str) -> str:
    """The tree with CoreNLP's line breaks: a new line before each phrase that opens a phrase."""
    return re.sub(r" \((?=[^\s()]+ \()", "\n  (", tree)


def sentence_fields(tree: str, arcs: str) -> dict[str, list[Any]]:
    """The four CoreNLP fields (tokens, pos, dep_parse, syntax_parse) of a one-sentence side."""
    tokens = [word for _, word in leaves(tree)]
    dependencies = []
    for arc in arcs.split(";"):
        relation, head, dependent = arc.split()
        head_index, dependent_index = int(head), int(dependent)
        dependencies.append({
            "dep": relation, "governor": head_index, "dependent": dependent_index,
            "governorGloss": "ROOT" if head_index == 0 else tokens[head_index - 1],
            "dependentGloss": tokens[dependent_index - 1]})
    return {"tokens": [tokens], "pos": [[tag for tag, _ in leaves(tree)]],
            "dep_parse": [dependencies], "syntax_parse": [pretty(tree)]}


def released_row(premise: tuple[str, str], hypothesis: tuple[str, str],
                 gold_label: str = "neutral") -> dict[str, Any]:
    """A released-layout row from (tree, arcs) of each side (text from the tokens)."""
    row: dict[str, Any] = {"gold_label": gold_label}
    for side, (tree, arcs) in (("sentence1", premise), ("sentence2", hypothesis)):
        fields = sentence_fields(tree, arcs)
        text = " ".join(fields["tokens"][0])
        row[side] = row[f"{side}_binary_parse"] = text
        row.update({f"{side}_{key}": value for key, value in fields.items()})
    return row
