"""Command-line options several `reprobe wikipse` steps share. Kept free of heavy imports: the
CLI builds every parser at each start, once per job."""

from __future__ import annotations

import argparse

# The vector formats `reprobe.embeddings.load` reads (its FORMATS; a test keeps them equal),
# spelled out here so that building the parser does not import gensim.
VECTOR_FORMATS = ("auto", "glove_txt", "word2vec_txt", "word2vec_bin", "fasttext_vec",
                  "fasttext_bin")


def add_selection_options(parser: argparse.ArgumentParser) -> None:
    """The selection's options (`wikipse dataset`, `wikipse supersense-dataset`)."""
    parser.add_argument("--min-frequency", type=int, required=True,
                        help="corpus mentions a word needs (WIKI-PSE: 20)")
    parser.add_argument("--single-per-split", type=int, default=None,
                        help="single-class words per split (unset: as many as multi-class)")
    parser.add_argument("--multi-per-split", type=int, default=None,
                        help="multi-class words per split (unset: half of them)")
    parser.add_argument("--seed", type=int, required=True)
