"""Word embeddings: load released vectors; train word2vec, fastText and GloVe on a corpus."""
