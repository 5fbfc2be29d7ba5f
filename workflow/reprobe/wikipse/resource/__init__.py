"""The WIKI-PSE resource: FIGER types folded into S-classes, link targets typed, the
corpora of each Wikipedia shard, the dataset and its released format."""
