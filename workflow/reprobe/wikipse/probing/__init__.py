"""WIKI-PSE probing: the S-class and ambiguity classifiers, the part 2 analyses,
public embeddings, the part 2 tables and figures."""
