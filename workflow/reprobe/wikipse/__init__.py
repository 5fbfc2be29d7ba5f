"""WIKI-PSE (Yaghoobzadeh et al. 2019): probing word embeddings for semantic classes."""
