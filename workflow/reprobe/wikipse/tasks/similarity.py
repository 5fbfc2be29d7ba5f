"""Word similarity and analogy of WIKI-PSE embeddings (Yaghoobzadeh et al. 2019, Table 6).

The embeddings hold plain tokens (`apple`) and annotated mention tokens (`@apple@`) side by
side. Footnote 7 averages the two only for §5.3's NLP tasks (Table 5): "For the embeddings used
in this experiment, if there are versions with and without “@”s, then we average the two"; the
appendix's Table 6 says nothing of it, so there a benchmark word is its plain, lowercased token
(`footnote7=False`), and the averaged lookup (`footnote7=True`) serves Table 5's sentence and
mention tasks. Similarity is the Spearman correlation of cosines with human scores over the
pairs whose two words are found; analogy is 3CosAdd (as gensim's `most_similar`) among the words
of the most frequent keys, counted over the questions whose four words are among them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors
from scipy.stats import spearmanr

from reprobe.errors import InputFormatError
from reprobe.text import open_text, require_rows

# Questions scored at once: bounds the (questions × candidates) score block in memory.
BATCH = 512


def at_form(word: str) -> str:
    """The mention token of a word: `@new_york@` for "New York"."""
    return "@" + "_".join(word.lower().split()) + "@"


def plain_form(key: str) -> str | None:
    """The word a vector key stands for (`@apple@` and `apple` → apple); None for a
    word/S-class token (`@apple@-food`)."""
    if key.startswith("@"):
        if len(key) > 2 and key.endswith("@"):
            return key[1:-1]
        return None
    return key


def lookup_vector(vectors: KeyedVectors, word: str, footnote7: bool = True
                  ) -> np.ndarray | None:
    """The word's vector, lowercased: the mean of its plain and @-forms that exist (footnote
    7), or its plain form alone; None if there is none."""
    plain = "_".join(word.lower().split())
    forms = (plain, at_form(word)) if footnote7 else (plain,)
    found = [vectors[form] for form in dict.fromkeys(forms) if form in vectors.key_to_index]
    if not found:
        return None
    return np.mean(np.asarray(found, dtype=np.float64), axis=0)


def _fields(line: str) -> list[str]:
    """A data line's fields: tab-, comma- or space-separated."""
    text = line.rstrip("\r\n")
    for separator in ("\t", ","):
        if separator in text:
            return [field.strip() for field in text.split(separator)]
    return text.split()


def _without_pos(word: str) -> str:
    """MEN's lemma form without its part-of-speech suffix: `sun-n` → sun."""
    return word[:-2] if len(word) > 2 and word[-2] == "-" else word


def read_word_pairs(path: Path, strip_pos: bool = False) -> list[tuple[str, str, float]]:
    """(word, word, score) of a similarity file: tab-, comma- or space-separated, `#` comments
    and a header line (a score that is no number on line 1) skipped; strip_pos drops MEN's
    `-n`/`-v`/`-j` suffixes."""
    pairs = []
    with open_text(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip() or line.startswith("#"):
                continue
            fields = _fields(line)
            try:
                left, right, score = fields[0], fields[1], float(fields[2])
            except (IndexError, ValueError):
                if number == 1 and len(fields) >= 3:
                    continue
                raise InputFormatError(path, f"line {number}",
                                       "expected two words and a score") from None
            if strip_pos:
                left, right = _without_pos(left), _without_pos(right)
            pairs.append((left, right, score))
    require_rows(path, len(pairs), "word pairs")
    return pairs


def _cosine(left: np.ndarray, right: np.ndarray) -> float:
    """Cosine of two vectors (0 for a zero vector)."""
    norm = float(np.linalg.norm(left) * np.linalg.norm(right))
    return float(left @ right) / norm if norm else 0.0


def similarity_scores(vectors: KeyedVectors, pairs_file: Path, strip_pos: bool = False,
                      footnote7: bool = True) -> dict[str, float | int]:
    """Spearman correlation between cosines and human scores over the pairs found, with the
    pairs used, the total and the coverage (used / total)."""
    pairs = read_word_pairs(pairs_file, strip_pos)
    model, human = [], []
    for left, right, score in pairs:
        first, second = (lookup_vector(vectors, word, footnote7) for word in (left, right))
        if first is not None and second is not None:
            model.append(_cosine(first, second))
            human.append(score)
    rho, pvalue = (spearmanr(model, human) if len(model) > 1
                   else (float("nan"), float("nan")))
    return {"spearman": float(rho), "pvalue": float(pvalue), "pairs": len(model),
            "total": len(pairs), "coverage": len(model) / len(pairs) if pairs else 0.0}


def read_analogies(path: Path, layout: str = "google"
                   ) -> list[tuple[str, tuple[str, str, str, str]]]:
    """(section, (a, b, c, d)) of an analogy file: gensim's Google format (`: section` headers,
    `a b c d` lines) or MSR's (`a b c CATEGORY d` lines, the category as section)."""
    questions, section = [], ""
    expected = {"google": 4, "msr": 5}[layout]
    with open_text(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            if layout == "google" and line.startswith(":"):
                section = line[1:].strip()
                continue
            words = line.split()
            if len(words) != expected:
                raise InputFormatError(path, f"line {number}", f"expected {expected} words")
            if layout == "msr":
                section = words.pop(3)
            a, b, c, d = (word.lower() for word in words)
            questions.append((section, (a, b, c, d)))
    require_rows(path, len(questions), "analogy questions")
    return questions


def candidate_words(vectors: KeyedVectors, restrict_vocab: int, footnote7: bool = True
                    ) -> list[str]:
    """The words of the first restrict_vocab keys (the most frequent), in key order: the
    plain words their plain and @-forms stand for (footnote 7), or the plain keys alone."""
    keys = vectors.index_to_key[:restrict_vocab]
    words = (plain_form(key) for key in keys) if footnote7 else (
        key for key in keys if not key.startswith("@"))
    return list(dict.fromkeys(w for w in words if w is not None))


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (a zero row stays zero)."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


def _answers(unit: np.ndarray, questions: Sequence[tuple[int, int, int]]) -> np.ndarray:
    """The candidate row closest to b − a + c (unit vectors) for each question, a, b and c
    themselves excluded, ties by lower row."""
    answers = np.empty(len(questions), dtype=int)
    for start in range(0, len(questions), BATCH):
        batch = np.asarray(questions[start:start + BATCH], dtype=int)
        query = _unit_rows(unit[batch[:, 1]] - unit[batch[:, 0]] + unit[batch[:, 2]])
        scores = query @ unit.T
        rows = np.arange(len(batch))[:, None]
        scores[rows, batch] = -np.inf
        answers[start:start + len(batch)] = np.argmax(scores, axis=1)
    return answers


def analogy_accuracy(vectors: KeyedVectors, questions_file: Path, restrict_vocab: int = 30000,
                     layout: str = "google", footnote7: bool = True) -> dict[str, object]:
    """Accuracy on the analogy questions whose four words are among the candidate words of
    the first restrict_vocab keys; counts and accuracy overall and per section."""
    questions = read_analogies(questions_file, layout)
    found = {w: lookup_vector(vectors, w, footnote7)
             for w in candidate_words(vectors, restrict_vocab, footnote7)}
    # A cased vocabulary's key (`Mr`) has no vector when its lowercased form is missing.
    words = [w for w, vector in found.items() if vector is not None]
    index = {w: i for i, w in enumerate(words)}
    covered = [(section, tuple(index[w] for w in quad)) for section, quad in questions
               if all(w in index for w in quad)]
    unit = _unit_rows(np.asarray([found[w] for w in words],
                                 dtype=np.float64).reshape(len(words), vectors.vector_size))
    answers = _answers(unit, [quad[:3] for _, quad in covered]) if covered else np.empty(0)
    correct = [bool(answer == quad[3]) for answer, (_, quad) in zip(answers, covered,
                                                                      strict=True)]
    return {"accuracy": float(np.mean(correct)) if correct else float("nan"),
            "correct": sum(correct), "covered": len(covered), "total": len(questions),
            "coverage": len(covered) / len(questions) if questions else 0.0,
            "sections": _sections(questions, covered, correct)}


def _sections(questions: Iterable[tuple[str, tuple]], covered: Sequence[tuple[str, tuple]],
              correct: Sequence[bool]) -> list[dict[str, object]]:
    """Per section (in file order): questions, covered, correct and accuracy."""
    totals: dict[str, list[int]] = {}
    for section, _ in questions:
        totals.setdefault(section, [0, 0, 0])[0] += 1
    for (section, _), right in zip(covered, correct, strict=True):
        totals[section][1] += 1
        totals[section][2] += int(right)
    return [{"section": s, "total": t, "covered": c, "correct": r,
             "accuracy": r / c if c else float("nan")} for s, (t, c, r) in totals.items()]
