"""reprobe: rebuild probing datasets from raw sources and rerun their papers' experiments."""

__version__ = "0.1.0"
