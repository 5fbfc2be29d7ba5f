"""Training corpora built from processed sources (plain text, one sentence per line)."""
