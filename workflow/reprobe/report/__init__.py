"""The offline report: each paper's tables beside the published numbers, its figures, dataset
cards, sources and config, on one self-contained HTML page per paper.

Ground floor: it reads the files the stages wrote (`results/tables/<paper>/`, the cards under
`data/processed/<paper>/`) and never imports a stage.
"""
