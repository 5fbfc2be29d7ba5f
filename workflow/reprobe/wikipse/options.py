"""Command-line options several `reprobe wikipse` steps share. Kept free of heavy imports: the
CLI builds every parser at each start, once per job."""

from __future__ import annotations

import argparse

from reprobe.step_settings import add_settings_option
from reprobe.wikipse.settings import SelectionSettings

# The vector formats `reprobe.embeddings.load` reads (its FORMATS; a test keeps them equal),
# spelled out here so that building the parser does not import gensim.
VECTOR_FORMATS = ("auto", "glove_txt", "word2vec_txt", "word2vec_bin", "fasttext_vec",
                  "fasttext_bin", "kv")
# Table 6's kinds of dataset (the schema's `similarity.<name>.kind`): word pairs scored by
# Spearman (pairs_pos: MEN's `-n` suffixes stripped) or analogies by accuracy (Google, MSR).
SIMILARITY_KINDS = ("pairs", "pairs_pos", "analogy", "msr_analogy")


def add_selection_options(parser: argparse.ArgumentParser, path: str) -> None:
    """The selection's options (`wikipse dataset`, `wikipse supersense-dataset`): the minimum
    frequency, the config's seed and the selection section at `path` as settings."""
    parser.add_argument("--min-frequency", type=int, required=True,
                        help="corpus mentions a word needs (WIKI-PSE: 20)")
    parser.add_argument("--seed", type=int, required=True)
    add_settings_option(parser, SelectionSettings, path)

