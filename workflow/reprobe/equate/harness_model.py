"""An NLI classifier as an lm-evaluation-harness model, for EQUATE's harness tasks: a local
Hugging Face checkpoint or a baseline trained here (`equate train-baseline`).

The tasks (reprobe.equate.harness_tasks) are multiple choice: after the prompt, the choices
" True", " False" (" Neither" on a three-way set). A causal LM scores a choice by its tokens'
log-likelihood; a sequence classifier has none, so here a choice's score is the classifier's
log-probability of the class the choice names:

- three-way set: True = entailment, Neither = neutral, False = contradiction;
- two-way set: True = entailment, False = the more probable of the classes that are not
  entailment (neutral, contradiction, or a two-way checkpoint's non-entailment).

So the best choice is the checkpoint's argmax class folded to the set's labels, the prediction
reprobe's Table 6 scores (`reprobe.equate.neural.predict_nli`, then `labels.fold`): the paper
frames RTE-Quant, NewsNLI and AwpNLI as 2-class (its Table 2) but does not say how a 3-class
model's prediction is read on them; reprobe folds the argmax, and so does this model.

The classifier reads the pair from the task's document (`sentence1`, `sentence2`), not from
the prompt text, exactly as Table 6's predictor does. Imports lm-eval (the `[harness]` extra).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from lm_eval.api.instance import Instance
from lm_eval.api.model import LM

from reprobe.equate.labels import CONTRADICTION, ENTAILMENT, NEUTRAL, NON_ENTAILMENT
from reprobe.equate.neural import nli_log_probs
from reprobe.equate.trained.saved import is_trained_folder, trained_log_probs

# The classes each choice names: on a three-way set, and on a two-way set.
THREE_WAY_CHOICES = {"True": (ENTAILMENT,), "Neither": (NEUTRAL,), "False": (CONTRADICTION,)}
TWO_WAY_CHOICES = {"True": (ENTAILMENT,), "False": (NEUTRAL, CONTRADICTION, NON_ENTAILMENT)}


def choice_log_likelihood(log_probs: Mapping[str, float], choice: str, three_way: bool) -> float:
    """A choice's score: the log-probability of the most probable class it names (-inf when
    the checkpoint has none of them, e.g. a two-way checkpoint's Neither)."""
    names = (THREE_WAY_CHOICES if three_way else TWO_WAY_CHOICES).get(choice.strip())
    if names is None:
        raise ValueError(f"choice {choice!r} is not one of EQUATE's task choices "
                         f"{sorted(THREE_WAY_CHOICES)}")
    return max((log_probs[name] for name in names if name in log_probs), default=-math.inf)


def _document_key(request: Instance) -> tuple[Any, Any]:
    """Which question a request belongs to: its task and document."""
    return request.task_name, request.doc_id


class NliClassifierLM(LM):
    """A local sequence-classification checkpoint that answers EQUATE's multiple-choice tasks."""

    def __init__(self, checkpoint: Path, *, batch_size: int,
                 label_map: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.checkpoint = Path(checkpoint)
        self.classify_batch_size = batch_size
        self.label_map = label_map

    def _log_probs(self, documents: list[dict[str, Any]]) -> list[dict[str, float]]:
        """Each document's log-probability per label: a baseline trained here, or a Hugging
        Face checkpoint."""
        if is_trained_folder(self.checkpoint):
            return trained_log_probs(self.checkpoint, documents,
                                     batch_size=self.classify_batch_size)
        return nli_log_probs(self.checkpoint, documents, batch_size=self.classify_batch_size,
                             label_map=self.label_map)

    def loglikelihood(self, requests: list[Instance], disable_tqdm: bool = False,
                      ) -> list[tuple[float, bool]]:
        """Each choice's score and whether it is the document's best choice."""
        choices: dict[tuple[Any, Any], list[str]] = defaultdict(list)
        documents: dict[tuple[Any, Any], dict[str, Any]] = {}
        for request in requests:
            choices[_document_key(request)].append(request.args[1].strip())
            documents.setdefault(_document_key(request), request.doc)
        keys = list(documents)
        log_probs = dict(zip(keys, self._log_probs([documents[k] for k in keys]), strict=True))
        scores = {key: {c: choice_log_likelihood(log_probs[key], c, "Neither" in names)
                        for c in names} for key, names in choices.items()}
        answers = [(scores[_document_key(r)], r.args[1].strip()) for r in requests]
        return [(options[choice], options[choice] == max(options.values()))
                for options, choice in answers]

    def loglikelihood_rolling(self, requests: Sequence[Instance],
                              disable_tqdm: bool = False) -> list[float]:
        """Not defined for a classifier: it scores multiple-choice tasks only."""
        raise NotImplementedError("an NLI classifier scores multiple-choice tasks only")

    def generate_until(self, requests: Sequence[Instance],
                       disable_tqdm: bool = False) -> list[str]:
        """Not defined for a classifier: it scores multiple-choice tasks only."""
        raise NotImplementedError("an NLI classifier scores multiple-choice tasks only")
