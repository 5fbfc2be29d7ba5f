"""WIKI-PSE (Yaghoobzadeh et al. 2019): probing word embeddings for semantic classes."""

from reprobe.stage import Stage

STAGE = Stage("wikipse", "Yaghoobzadeh et al. 2019, Probing for Semantic Classes (WIKI-PSE)")
