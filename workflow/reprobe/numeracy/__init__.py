"""Numeracy in word embeddings (Naik et al. 2019)."""
