"""WIKI-PSE extrinsic tasks (Tables 5, 6, 8): sentence classification, similarity and
analogy, mention classification, the supersense dataset."""
