"""WIKI-PSE's word → S-classes dataset as Hugging Face dataset folders, one per variant.

A folder has the splits `train` and `test`, one row per line of the split's file, in file order:
`word` (the annotated token without its `@` marks), `token` (as the files and the corpora spell
it, `@apple@`), `classes` (its S-classes without the leading dash, most frequent first, ties by
name), `freqs` (their mentions in the corpus; a class a released line lists twice has its counts
summed), `n_classes` and `n_entries` (the `-class=freq` entries of its line, which the authors'
single/multi-class split counts). The card says how the variant was built (the rebuild's
`card.json`), how it compares with the other variant where both exist (words in common per
split), the sources' licences and how to cite the paper.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa

from reprobe.hf_dataset import DatasetCard, write_dataset_folder
from reprobe.sources.checksum import sha256_file
from reprobe.wikipse.resource.dataset import SPLITS
from reprobe.wikipse.resource.release import Split, ordered, read_split

SCHEMA = pa.schema([("word", pa.string()), ("token", pa.string()),
                    ("classes", pa.list_(pa.string())), ("freqs", pa.list_(pa.int64())),
                    ("n_classes", pa.int64()), ("n_entries", pa.int64())])
CITATION = """@inproceedings{yaghoobzadeh-etal-2019-probing,
  title = {Probing for Semantic Classes: Diagnosing the Meaning Content of Word Embeddings},
  author = {Yaghoobzadeh, Yadollah and Kann, Katharina and Hazen, Timothy J. and
            Agirre, Eneko and Sch{\\\"u}tze, Hinrich},
  booktitle = {Proceedings of the 57th Annual Meeting of the Association for Computational
               Linguistics (ACL)},
  year = {2019}
}"""
LICENCE = (
    "The words and their S-class counts are derived from English Wikipedia, whose text is "
    "licensed CC BY-SA (3.0; 4.0 for text since 2023) and the GFDL: its link annotations say "
    "which page a mention is. The pages' entity types come from Freebase (CC BY 2.5, Google) "
    "through FIGER's type map (the FIGER License Agreement, BSD-style, copyright Xiao Ling and "
    "Daniel S. Weld; cite Ling and Weld 2012). The authors' released files "
    "(github.com/yyaghoobzadeh/WIKI-PSE) state no licence of their own. Share copies under "
    "CC BY-SA, attribute Wikipedia, Freebase and FIGER, and cite the paper.")
SUMMARY = (
    "WIKI-PSE (Yaghoobzadeh et al., 2019): English words annotated with the semantic classes "
    "(S-classes: 34 FIGER types such as location, person, food) of the Wikipedia pages their "
    "mentions link to, with how often each class occurs, for probing word embeddings for "
    "semantic classes and for ambiguity (single- vs multi-class words). This is the {variant} "
    "variant: {what}")
VARIANTS = {
    "rebuilt": "rebuilt by reprobe from a Wikipedia dump, as Section 3 of the paper describes.",
    "released": "the authors' released train.tsv and test.tsv, read as they are.",
}


def plain_word(token: str) -> str:
    """A token without the `@` marks of an annotated word (`@new_york@` → `new_york`)."""
    return token[1:-1] if len(token) > 2 and token[0] == token[-1] == "@" else token


def split_table(split: Split) -> pa.Table:
    """One split's rows, in file order (classes most frequent first)."""
    rows = {word: ordered(classes) for word, classes in split.classes.items()}
    return pa.table({
        "word": [plain_word(word) for word in rows],
        "token": list(rows),
        "classes": [[name.lstrip("-") for name, _ in classes] for classes in rows.values()],
        "freqs": [[count for _, count in classes] for classes in rows.values()],
        "n_classes": [len(classes) for classes in rows.values()],
        "n_entries": [split.entries[word] for word in rows]}, schema=SCHEMA)


def read_splits(paths: Mapping[str, Path]) -> dict[str, Split]:
    """train and test in the released format (an error names the file and line)."""
    return {name: read_split(Path(paths[name])) for name in SPLITS}


def dominant(classes: Mapping[str, int]) -> str:
    """A word's most frequent S-class (ties by name)."""
    return ordered(classes)[0][0]


def compare_split(here: Split, other: Split) -> dict[str, int]:
    """Sizes of two variants' same split, their words in common, and same classes of those."""
    common = [word for word in here.classes if word in other.classes]
    return {
        "words": len(here.classes), "other_words": len(other.classes), "in_common": len(common),
        "same_classes": sum(set(here.classes[w]) == set(other.classes[w]) for w in common),
        "same_dominant_class": sum(dominant(here.classes[w]) == dominant(other.classes[w])
                                   for w in common)}


def comparison_text(variant: str, other: str, counts: Mapping[str, Mapping[str, int]]) -> str:
    """The card's comparison: a table of words in common per split."""
    rows = "\n".join(
        f"| {split} | {c['words']} | {c['other_words']} | {c['in_common']} | "
        f"{c['same_classes']} | {c['same_dominant_class']} |" for split, c in counts.items())
    return (f"Words of each split of this ({variant}) variant against the same split of the "
            f"{other} one (same token; same S-class set; same most frequent S-class):\n\n"
            f"| split | {variant} words | {other} words | in common | same classes | "
            f"same most frequent class |\n|---|---|---|---|---|---|\n{rows}")


def built_lines(variant: str, built: Mapping[str, Any]) -> list[str]:
    """The card's "how it was built" lines: the variant, then the rebuild's own record."""
    if variant == "released":
        return ["The authors' released files, read as they are: each line is a word and its "
                "`-class=freq` entries; a class listed twice on a line has its counts summed "
                "(`n_entries` keeps the number of entries)."]
    selection = built.get("selection", {})
    words = built.get("annotated_words", {})
    typing = {"freebase": "the Freebase dump", "table": "a title → FIGER types table"}.get(
        built.get("typing_method", ""), "the configured typing")
    rule = ", ".join(f"{key}={json.dumps(selection.get(key))}"
                     for key in ("multi_per_split", "single_per_split"))
    built_splits = built.get("splits", {})
    splits = "; ".join(
        f"{name}: {split['words']} words ({split['multi_class']} multi-class, "
        f"{split['single_class']} single-class, {split['pairs']} word/S-class pairs)"
        for name in SPLITS if (split := built_splits.get(name)))
    return [
        f"Wikipedia link targets typed with FIGER types through {typing}, folded into "
        "S-classes (the config's `wikipse.fold`); each linked mention becomes one token "
        "(`@word@`) counted under the S-classes of its target.",
        f"Words: every annotated token with at least {built.get('min_frequency')} corpus "
        f"mentions ({words.get('words')} words, {words.get('multi_class')} multi-class).",
        f"Selection (`wikipse.selection`: {rule}; null: half of the multi-class words to each "
        "split and as many single-class ones), drawn with seed "
        f"{built.get('seed')}; train and test are disjoint. {splits}.",
        "Corpus: " + json.dumps(built.get("corpus", {}), sort_keys=True) + "."]


def read_sources(paths: Mapping[str, Path], configured: Mapping[str, Any]) -> dict[str, Any]:
    """The configured sources (sha256 as pinned), then the split files read (sha256 measured)."""
    return {**configured, **{f"{name} file as read": {"path": str(path),
                                                      "sha256": sha256_file(Path(path))}
                             for name, path in paths.items()}}


def export_variant(splits: Mapping[str, Path], output: Path, *, variant: str,
                   built: Mapping[str, Any], sources: Mapping[str, Any],
                   compare: tuple[str, Mapping[str, Path]] | None) -> dict[str, int]:
    """Write one variant as a dataset folder with its card; return the rows per split."""
    here = read_splits(splits)
    comparison = ""
    if compare is not None:
        other_variant, other_paths = compare
        other = read_splits(other_paths)
        comparison = comparison_text(variant, other_variant, {
            name: compare_split(here[name], other[name]) for name in SPLITS})
    tables = {name: split_table(here[name]) for name in SPLITS}
    card = DatasetCard(
        pretty_name=f"WIKI-PSE ({variant})",
        summary=SUMMARY.format(variant=variant, what=VARIANTS[variant]),
        license="other", licence_note=LICENCE, task_categories=("text-classification",),
        citation=CITATION, built=built_lines(variant, built),
        sources=read_sources(splits, sources), comparison=comparison)
    write_dataset_folder(Path(output), tables, card)
    return {name: table.num_rows for name, table in tables.items()}
