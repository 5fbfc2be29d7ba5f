"""WIKI-PSE embeddings: SKIP and SSKIP training, unifΣ and wghtΣ, vectors on disk."""
