"""EQUATE (Ravichander et al. 2019): synthetic NLI test sets and the released jsonl layout."""
