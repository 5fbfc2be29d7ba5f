"""A masked LM as an lm-evaluation-harness model, for NumerSense's harness tasks.

The tasks (reprobe.numersense.harness) are multiple choice with the sentence rule: an empty
context and, as the 12 choices, the probe filled with each number word. A causal LM scores a
filled sentence by its tokens; a masked LM, which the harness's `hf` model cannot load, scores
the probe as the paper's masked-LM rows do: here a choice's log-likelihood is the log of the
softmax probability of its number word at the probe's mask, over the whole vocabulary (reprobe's
`clean` protocol, `reprobe.numersense.mlm.score_probes`). The harness's hit@k then ranks the 12
words as that protocol does (ties in the candidates' order, as `mlm.rank` keeps them), so its
hit@1/2/3 are reprobe's.

The authors' protocol (`reprobe.numersense.authors`) is not offered: it breaks ties in their
own option order (one … ten, no, zero), which the harness's ranking cannot follow.

The probe is read from the task's document (`probe`), the word from the choice's index.
Imports lm-eval (the `[harness]` extra).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from lm_eval.api.instance import Instance
from lm_eval.api.model import LM

from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.mlm import score_probes


class MaskedLMProbe(LM):
    """A masked LM (model and tokenizer, loaded) that answers NumerSense's harness tasks."""

    def __init__(self, model: Any, tokenizer: Any, *, batch_size: int, device: str) -> None:
        super().__init__()
        self.model, self.tokenizer = model, tokenizer
        self.probe_batch_size, self.probe_device = batch_size, device

    def loglikelihood(self, requests: list[Instance], disable_tqdm: bool = False,
                      ) -> list[tuple[float, bool]]:
        """Each choice's log-probability at the mask and whether it is the probe's best."""
        probes = list(dict.fromkeys(request.doc["probe"] for request in requests))
        ranked = score_probes(self.model, self.tokenizer, probes, self.probe_batch_size,
                              self.probe_device)
        scores = {probe: dict(ranking) for probe, ranking in zip(probes, ranked, strict=True)}
        answers = []
        for request in requests:
            options = scores[request.doc["probe"]]
            probability = options[CANDIDATES[request.idx]]
            answers.append((math.log(probability) if probability > 0 else -math.inf,
                            probability == max(options.values())))
        return answers

    def loglikelihood_rolling(self, requests: Sequence[Instance],
                              disable_tqdm: bool = False) -> list[float]:
        """Not defined here: a masked LM scores NumerSense's multiple-choice tasks only."""
        raise NotImplementedError("a masked LM scores NumerSense's multiple-choice tasks only")

    def generate_until(self, requests: Sequence[Instance],
                       disable_tqdm: bool = False) -> list[str]:
        """Not defined here: a masked LM scores NumerSense's multiple-choice tasks only."""
        raise NotImplementedError("a masked LM scores NumerSense's multiple-choice tasks only")
