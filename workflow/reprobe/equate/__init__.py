"""EQUATE (Ravichander et al. 2019): synthetic NLI test sets and the released jsonl layout."""

from reprobe.stage import Stage

STAGE = Stage("equate", "Ravichander et al. 2019, EQUATE")
