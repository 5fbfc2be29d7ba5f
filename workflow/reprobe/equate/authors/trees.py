"""Quantity mentions from a constituency parse, as the released segmenter finds them.

Follows `utils_segmenter.py` (Node, Tree, get_subtree, get_tree, construct_parse, strip_parse)
and `quantity_segmenter.py` (Segmenter.segment). A quantity mention is the prefix traversal of
the lowest NP (or NP-TMP) above a CD leaf, as a list of tokens: `["(", "NP", "(", "CD", "24",
")", "(", "NNS", "caprices", ")", ")"]`. Two behaviours of the released code are kept on
purpose: the noun phrases found in earlier sentences of a multi-sentence side are traversed
again for every later sentence (`quantity_phrases +=` runs over the growing list), and an NP with
two numbers is one mention per number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

# NLTK's `help/tagsets/upenn_tagset.pickle` keys, which `strip_parse` deletes from a mention
# (constants.py line 4: `tagset = load(...).keys()`), in the order a Python 2 dict of these 45
# keys iterates them (string hashes; a Python 2.7 run of the released files gives this order).
# The order matters: a shorter tag is deleted before its longer variants wherever Python 2 puts
# it first, and it leaves the rest of the longer tag behind as a stray capital. Whatever the
# pickle's insertion order, Python 2 always has JJ before JJR and JJS, NN before NNS, NNP and
# NNPS, RB before RBS and DT before PDT, so "(JJS least)" becomes "S least" and "at least" is
# never found in a mention ("at S least 3"); the pairs whose order the insertion order can
# change (RB/RBR, VB/VBD…, DT/WDT, NNP/NNPS) only move capitals, never a lowercase word.
UPENN_TAGS = (
    "PRP$", "VBG", "VBD", "VBN", ",", "''", "VBP", "WDT", "JJ", "WP", "VBZ", "DT", "RP", "$",
    "NN", ")", "(", "FW", "POS", ".", "TO", "LS", "RB", ":", "NNS", "NNP", "``", "WRB", "CC",
    "PDT", "RBS", "RBR", "CD", "PRP", "EX", "IN", "WP$", "MD", "NNPS", "--", "JJS", "JJR",
    "SYM", "VB", "UH")


@dataclass(eq=False)
class Node:
    """A parse node: a label (or a word at a leaf) and its children (utils_segmenter.py
    ≈ lines 5-43)."""

    value: str | None
    children: list[Node] = field(default_factory=list)

    def same_as(self, other: Node) -> bool:
        """Node.__eq__ (≈ lines 10-20): same value and children with the same values."""
        return (self.value == other.value and len(self.children) == len(other.children)
                and all(a.value == b.value
                        for a, b in zip(self.children, other.children, strict=True)))


def prefix_traversal(node: Node | None) -> list[str]:
    """Tree.get_prefix_traversal (≈ lines 63-88): the bracketed tokens of a subtree."""
    if node is None:
        return []
    children = node.children
    if len(children) == 1 and not children[0].children:
        return ["(", str(node.value), str(children[0].value), ")"]
    tokens = ["(", str(node.value)]
    for child in children:
        tokens += prefix_traversal(child)
    return [*tokens, ")"]


def ancestors(query: Node, current: Node | None) -> list[Node]:
    """Tree.get_ancestors (≈ lines 90-114): the chain from the first node equal to `query`
    (by `Node.__eq__`, so an equal-looking node earlier in the tree stands in) up to `current`."""
    if current is None:
        return []
    if current.same_as(query):
        return [current]
    for child in current.children:
        path = ancestors(query, child)
        if path:
            return [*path, current]
    return []


def nodes_with_value(value: str, start: Node) -> list[Node]:
    """Tree.get_nodes_with_value (≈ lines 116-135): every node labelled `value`, in preorder."""
    found: list[Node] = []
    stack = [start]
    while stack:
        node = stack.pop()
        if node.value == value:
            found.append(node)
        stack.extend(reversed(node.children))
    return found


def subtree_end(parts: Sequence[str], start: int) -> int:
    """get_subtree (≈ lines 138-167): where the bracketed subtree opened at `start` closes."""
    if parts[start] != "(":
        return -1
    depth = 0
    for index in range(start, len(parts)):
        if parts[index] == ")":
            depth -= 1
        elif parts[index] == "(":
            depth += 1
        if depth == 0:
            return index
    return -1


def build_tree(parts: Sequence[str], start: int) -> Node:
    """get_tree (≈ lines 170-199): a node per bracket, a POS node with its word as a leaf."""
    if start >= len(parts):
        return Node(None)
    node = Node(parts[start + 1])
    child = start + 2
    while child < len(parts) and parts[child] == "(":
        end = subtree_end(parts, child)
        if end - child == 3:
            node.children.append(Node(parts[child + 1], [Node(parts[end - 1])]))
        else:
            node.children.append(build_tree(parts, child))
        child = end + 1
    return node


def construct_parse(parse: str) -> Node:
    """construct_parse (≈ lines 202-214): the root of a bracketed constituency parse."""
    return build_tree(parse.replace("(", " ( ").replace(")", " ) ").split(), 0)


def strip_parse(mention: Sequence[str]) -> str:
    """strip_parse (utils_segmenter.py ≈ lines 217-224): a mention's words, brackets and POS
    tags removed, the tags one after another in Python 2's order (`UPENN_TAGS`), so a longer
    tag can leave a stray capital ("JJS" → "S")."""
    text = " ".join(mention).replace("(", " ").replace(")", " ")
    for tag in UPENN_TAGS:
        text = text.replace(tag, "")
    return " ".join(text.split())


def segment(parses: Sequence[str]) -> list[list[str]]:
    """Segmenter.segment (quantity_segmenter.py ≈ lines 23-56): the quantity mentions of one
    side."""
    noun_phrases: list[Node] = []
    mentions: list[list[str]] = []
    for parse in parses:
        root = construct_parse(parse)
        for quantity in nodes_with_value("CD", root):
            chain_nodes = ancestors(quantity, root)
            chain = [node.value for node in chain_nodes]
            lowest = chain.index("NP") if "NP" in chain else -1
            if "NP-TMP" in chain:
                temporal = chain.index("NP-TMP")
                if lowest == -1 or temporal < lowest:
                    lowest = temporal
            if lowest != -1:
                noun_phrases.append(chain_nodes[lowest])
        # The released code re-traverses every noun phrase found so far, per sentence.
        mentions += [prefix_traversal(node) for node in noun_phrases]
    return mentions
