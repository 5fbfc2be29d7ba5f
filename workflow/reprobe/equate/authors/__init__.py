"""Q-REAS as the authors' released code computes it (AbhilashaRavichander/EQUATE at 3f19e77).

The modules follow the released Python 2 files step by step, each function citing the file and
lines it follows: `trees` (utils_segmenter.py, quantity_segmenter.py), `parser`
(numerical_parser.py, utils_parser.py), `pruner` (numset_pruner.py, scorer.py), `equations`
(ilp.py) and `reasoner` (global_reasoner.py, utils_reasoner.py, eval.py). They read the CoreNLP
annotations the released jsonl files carry; `reprobe.equate.qreas` is the row that follows the
paper's Algorithm 1 instead.
"""
