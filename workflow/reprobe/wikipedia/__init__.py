"""Read MediaWiki dumps into Parquet shards of sentences, tokens and links."""
