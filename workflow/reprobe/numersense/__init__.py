"""NumerSense (Lin et al. 2020): number-word probes, masked-LM and GPT-2 probing, hit@k."""

from reprobe.stage import Stage

STAGE = Stage("numersense", "Lin et al. 2020, Birds have four legs?! NumerSense")
