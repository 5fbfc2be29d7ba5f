"""Tests for reading NFGEC's FIGER files and NFGEC's typing scores (Table 5's MC)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from gensim.models import KeyedVectors

from reprobe.errors import InputFormatError
from reprobe.wikipse.tasks.figer import (
    PAD,
    embedding_matrix,
    indicator,
    mention_vectors,
    predicted_types,
    read_mentions,
    typing_scores,
)

LINES = ("3\t5\tthe city of New York grew fast\t/location /location/city\tHEAD_York\n"
         "0\t1\tParis is big\t/location\tHEAD_Paris\n")


def write(tmp_path: Path, text: str, name: str = "train.txt") -> Path:
    """A file of NFGEC lines."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_context_windows_are_padded_toward_the_mention(tmp_path: Path) -> None:
    vocabulary: dict[str, int] = {}
    types: dict[str, int] = {}
    mentions = read_mentions(write(tmp_path, LINES), vocabulary, types, context=4, lowercase=True)
    words = {index: word for word, index in vocabulary.items()}
    assert vocabulary[PAD] == 0 and len(mentions) == 2
    assert [words[i] for i in mentions.left[0]] == [PAD, "the", "city", "of"]
    assert [words[i] for i in mentions.right[0]] == ["grew", "fast", PAD, PAD]
    assert [words[i] for i in mentions.left[1]] == [PAD] * 4
    assert [words[i] for i in mentions.mention_ids] == ["new", "york", "paris"]
    assert mentions.mention_starts.tolist() == [0, 2, 3]
    assert mentions.labels == [[0, 1], [0]] and list(types) == ["/location", "/location/city"]


def test_case_is_kept_when_asked(tmp_path: Path) -> None:
    vocabulary: dict[str, int] = {}
    read_mentions(write(tmp_path, LINES), vocabulary, {}, context=2, lowercase=False)
    assert "Paris" in vocabulary and "paris" not in vocabulary


def test_splits_share_ids(tmp_path: Path) -> None:
    vocabulary: dict[str, int] = {}
    types: dict[str, int] = {}
    read_mentions(write(tmp_path, LINES), vocabulary, types, context=2, lowercase=True)
    test = read_mentions(write(tmp_path, "0\t1\tparis votes\t/location /person\tF\n", "t.txt"),
                         vocabulary, types, context=2, lowercase=True)
    assert test.mention_ids.tolist() == [vocabulary["paris"]]
    assert test.labels == [[0, 2]]


@pytest.mark.parametrize(("line", "message"), [
    ("1\t2\ta b\t/person\n", "expected 5 tab-separated fields"),
    ("x\t2\ta b\t/person\tF\n", "integers"),
    ("1\t5\ta b\t/person\tF\n", "outside its 2 tokens"),
    ("0\t1\ta b\t\tF\n", "no type"),
])
def test_a_bad_line_is_named(tmp_path: Path, line: str, message: str) -> None:
    path = write(tmp_path, LINES + line)
    with pytest.raises(InputFormatError, match=rf"train.txt.*line 3.*{message}"):
        read_mentions(path, {}, {}, context=2, lowercase=True)


def test_mention_vectors_average_the_mention_words(tmp_path: Path) -> None:
    vocabulary: dict[str, int] = {}
    mentions = read_mentions(write(tmp_path, LINES), vocabulary, {}, context=2, lowercase=True)
    vectors = KeyedVectors(vector_size=2)
    # "new" exists only as a mention token: footnote 7's lookup finds it.
    vectors.add_vectors(["york", "@new@", "paris"],
                        np.array([[1, 0], [3, 2], [5, 5]], dtype=np.float32))
    matrix, coverage = embedding_matrix(vocabulary, vectors)
    assert matrix[0].tolist() == [0, 0] and matrix[vocabulary["city"]].tolist() == [0, 0]
    assert coverage == pytest.approx(3 / (len(vocabulary) - 1))
    assert mention_vectors(mentions, matrix).tolist() == [[2, 1], [5, 5]]


def test_the_best_type_is_always_predicted() -> None:
    probabilities = np.array([[0.2, 0.4, 0.1], [0.9, 0.6, 0.3]])
    assert predicted_types(probabilities).tolist() == [[False, True, False],
                                                       [True, True, False]]


def test_strict_and_loose_scores_by_hand() -> None:
    gold = indicator([[0, 1], [2], [0]], 3)
    predicted = indicator([[0, 1], [0, 2], [1]], 3).astype(bool)
    found = typing_scores(gold, predicted)
    # Exact on the first mention only.
    assert found["strict"] == pytest.approx(100 / 3)
    # Per mention precision 1, 1/2, 0 and recall 1, 1, 0.
    precision, recall = (1 + 0.5 + 0) / 3, (1 + 1 + 0) / 3
    assert found["loose_macro"] == pytest.approx(100 * 2 * precision * recall
                                                 / (precision + recall))
    # Over all decisions: 3 right of 5 predicted, of 4 gold.
    assert found["loose_micro"] == pytest.approx(100 * 2 * (3 / 5) * (3 / 4) / (3 / 5 + 3 / 4))
