"""The words of an NLI sentence as the trained baselines read them.

MultiNLI's baselines read the tokens of its Stanford parses (`sentence1_binary_parse`); EQUATE's
sets carry no parse of their own, so every sentence, training or test, is split by one
Penn-Treebank-like rule here: numbers with their separators, "n't" apart, clitics ("'s")
apart, words, and each other symbol alone. Case is kept: GloVe 840B is cased (a lookup falls
back to lower case, `vocabulary.vector_key`).
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\d+(?:[.,:/]\d+)*%?|\w+(?=n't\b)|n't\b|'\w+|\w+|[^\w\s]")


def words(sentence: str) -> list[str]:
    """A sentence's tokens (numbers whole, "n't" and clitics split off, symbols alone)."""
    return _TOKEN.findall(sentence)
