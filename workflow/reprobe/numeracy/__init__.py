"""Numeracy in word embeddings (Naik et al. 2019)."""

from reprobe.stage import Stage

STAGE = Stage("numeracy", "Naik et al. 2019, Exploring Numeracy in Word Embeddings")
