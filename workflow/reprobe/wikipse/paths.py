"""Where the WIKI-PSE stage's files live: the folders its targets modules and rules name."""

from __future__ import annotations

DATA = "data/processed/wikipse"
MODELS = "data/models/wikipse"
RESULTS = "results/wikipse"
TABLES = "results/tables/wikipse"
# The Wikipedia stage's corpus, which the typing and the corpora read.
WIKI_DIR = "data/processed/wikipedia"
