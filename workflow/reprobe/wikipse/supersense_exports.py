"""Table 8's supersense dataset (Yaghoobzadeh et al. 2019, Appendix D: ambiguity prediction on
UKP's supersense-annotated Wikipedia) as a Hugging Face dataset folder.

The folder has the splits `train` and `test`, one row per line of the split's file (`wikipse
supersense-dataset`), in file order: `word` (as UKP's embeddings spell it: ASCII-lowercased,
punctuation deleted), `supersenses` (its WordNet noun supersenses, `noun.person`, most frequent
first, ties by name), `freqs` (their annotated tokens in the corpus), `n_supersenses`, and
`multi_class` (more than one supersense: the label Table 8's probe predicts). The card says how
it was built (the dataset's `card.json`), from which sources, their licence and how to cite.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa

from reprobe.hf_dataset import DatasetCard, write_dataset_folder
from reprobe.wikipse.exports import CITATION, read_sources, read_splits
from reprobe.wikipse.resource.dataset import SPLITS
from reprobe.wikipse.resource.release import Split, ordered

SCHEMA = pa.schema([("word", pa.string()), ("supersenses", pa.list_(pa.string())),
                    ("freqs", pa.list_(pa.int64())), ("n_supersenses", pa.int64()),
                    ("multi_class", pa.bool_())])
SUMMARY = (
    "The dataset of WIKI-PSE's Table 8 (Yaghoobzadeh et al., 2019, Appendix D): English nouns "
    "of UKP's supersense-annotated Wikipedia (Flekova and Gurevych, 2016), each with the WordNet "
    "noun supersenses its tokens are annotated with (26, such as noun.person and noun.artifact) "
    "and how often, selected as WIKI-PSE's words are, for predicting from a word's embedding "
    "whether it is ambiguous (more than one supersense).")
# UKP's README, read at commit 26ddff1 of github.com/UKPLab/acl2016-supersense-embeddings: its
# words name CC-BY-NC, its link is the CC BY-NC-SA 3.0 deed, so the header says `other`.
LICENCE = (
    "The words and their supersense counts are derived from UKP's supersense-annotated "
    "Wikipedia (supertextwiki). UKP's README (github.com/UKPLab/acl2016-supersense-embeddings, "
    "commit 26ddff1) names CC-BY-NC as the licence of this resource and of the Babelfied "
    "Wikipedia it is made from, and links the CC BY-NC-SA 3.0 deed "
    "(http://creativecommons.org/licenses/by-nc-sa/3.0/: non-commercial, share-alike); "
    "Wikipedia's own text is licensed CC BY-SA. See the source's terms before sharing copies, "
    "cite Flekova and Gurevych (2016) for the corpus and the paper below for the dataset. The "
    "default run's sample (data/samples/wikipse/supersense) was written for reprobe and holds "
    "no UKP text.")


def split_table(split: Split) -> pa.Table:
    """One split's rows, in file order (supersenses most frequent first, without the dash)."""
    rows = {word: ordered(classes) for word, classes in split.classes.items()}
    return pa.table({
        "word": list(rows),
        "supersenses": [[name.lstrip("-") for name, _ in senses] for senses in rows.values()],
        "freqs": [[count for _, count in senses] for senses in rows.values()],
        "n_supersenses": [len(senses) for senses in rows.values()],
        "multi_class": [len(senses) > 1 for senses in rows.values()]}, schema=SCHEMA)


def split_text(name: str, split: Mapping[str, Any]) -> str:
    """One split's sizes as the card says them."""
    return (f"{name}: {split.get('words')} words ({split.get('multi_class')} multi-class, "
            f"{split.get('single_class')} single-class, {split.get('pairs')} word/supersense "
            "pairs)")


def built_lines(built: Mapping[str, Any]) -> list[str]:
    """The card's "how it was built" lines, from the dataset's card.json."""
    corpus, parameters = built.get("corpus", {}), built.get("parameters", {})
    annotated, frequent = built.get("annotated_words", {}), built.get("frequent_words", {})
    rule = ", ".join(f"{key}={json.dumps(parameters.get(key))}"
                     for key in ("multi_per_split", "single_per_split"))
    splits = "; ".join(split_text(name, split) for name in SPLITS
                       if (split := built.get("splits", {}).get(name)))
    return [
        f"Corpus: {corpus.get('files')} article files, {corpus.get('lines')} lines, "
        f"{corpus.get('tokens')} tokens, {corpus.get('noun_tokens')} of them annotated with "
        "one of the 26 noun supersenses (`term_noun.person`); verb and adjective tags are read "
        "past, and noun tokens whose term is only punctuation were skipped "
        f"({corpus.get('empty_words')}).",
        "A word is its term as UKP's embeddings spell it (ASCII-lowercased, punctuation "
        "deleted), counted under each noun supersense its tokens carry.",
        f"Words: every annotated word with at least {parameters.get('min_frequency')} "
        f"annotated noun tokens ({frequent.get('words')} of {annotated.get('words')} words, "
        f"{frequent.get('multi_class')} multi-class).",
        f"Selection (`wikipse.supersense.selection`: {rule}; null: half of the multi-class "
        "words to each split and as many single-class ones), drawn with seed "
        f"{parameters.get('seed')}; train and test are disjoint. {splits}.",
        "Noun tokens per supersense: " + json.dumps(built.get("supersenses", {})) + "."]


def export_supersense(splits: Mapping[str, Path], output: Path, *, built: Mapping[str, Any],
                      sources: Mapping[str, Any]) -> dict[str, int]:
    """Write the supersense dataset as a dataset folder with its card; return the rows per
    split."""
    tables = {name: split_table(split) for name, split in read_splits(splits).items()}
    card = DatasetCard(
        pretty_name="WIKI-PSE Table 8: UKP supersenses", summary=SUMMARY, license="other",
        licence_note=LICENCE, task_categories=("text-classification",), citation=CITATION,
        built=built_lines(built), sources=read_sources(splits, sources))
    write_dataset_folder(Path(output), tables, card)
    return {name: table.num_rows for name, table in tables.items()}
