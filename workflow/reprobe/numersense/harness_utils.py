"""NumerSense (Lin et al. 2020) as lm-evaluation-harness multiple choice: the sentence rule.

`reprobe numersense harness-tasks` copies this file beside the task YAMLs as `utils.py`; the
harness imports it alone, so it imports nothing of reprobe (a test checks that CANDIDATES is
reprobe's list).

The sentence rule (tasks with `target_delimiter: ""`): the context is empty and each of the 12
choices is the whole probe with a number word in place of its mask, the probe's own spacing and
case kept (reprobe's `causal.filled`). With an empty context the harness scores a choice after
the model's prefix token (its BOS token, else EOS; `<|endoftext|>` for GPT-2), so a choice's
log-likelihood is the sum of the log-probabilities of every token of the filled sentence: what
reprobe's causal scorer with `bos=True` gives, its score (the mean token log-probability) times
the sentence's token count. hit@k: the gold word among the k choices of highest log-likelihood,
ties in the candidates' order, words as they are ("no" and "zero" apart: convention `none`).
"""

from __future__ import annotations

from pathlib import Path

MASK = "<mask>"
# reprobe.numersense.candidates.CANDIDATES, in its order (the order ties keep).
CANDIDATES = ("no", "zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
              "nine", "ten")
KS = (1, 2, 3)


def filled(probe: str, word: str) -> str:
    """The probe with the word in place of its mask, otherwise as written."""
    return probe.strip().replace(MASK, word, 1)


def sentence_text(doc: dict) -> str:
    """The context: empty, so that every token of the filled sentence is scored."""
    return ""


def sentence_choices(doc: dict) -> list[str]:
    """The 12 filled sentences, in the candidates' order."""
    return [filled(doc["probe"], word) for word in CANDIDATES]


def doc_to_target(doc: dict) -> int:
    """The index of the gold number word among the candidates."""
    return CANDIDATES.index(doc["label"])


def ranking(lls: list[float]) -> list[int]:
    """Choice indices, highest log-likelihood first; ties keep the candidates' order."""
    return sorted(range(len(lls)), key=lambda index: -lls[index])


def process_results(doc: dict, results: list) -> dict[str, float]:
    """hit@1/2/3 of one probe from its (log-likelihood, is_greedy) pair per choice."""
    order = ranking([float(ll) for ll, _ in results])
    gold = doc_to_target(doc)
    return {f"hit@{k}": float(gold in order[:k]) for k in KS}


def exported_dataset(dataset_folder: str, **metadata: object) -> object:
    """The task's data (its `custom_dataset`): the exported dataset folder named relative to
    this file's folder, so that the exports folder can be moved or copied whole."""
    import datasets

    return datasets.load_dataset(str(Path(__file__).resolve().parent / dataset_folder))
