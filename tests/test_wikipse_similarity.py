"""Tests for Table 6's similarity and analogy scores: the @-averaging rule, coverage, and
agreement with gensim's own evaluation on plain vectors (gensim's shipped benchmark files)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from gensim.models import KeyedVectors
from gensim.test.utils import datapath

from reprobe.errors import InputFormatError
from reprobe.wikipse.tasks.similarity import (
    analogy_accuracy,
    candidate_words,
    lookup_vector,
    plain_form,
    read_analogies,
    read_word_pairs,
    similarity_scores,
)


def keyed(vectors: dict[str, list[float]]) -> KeyedVectors:
    """KeyedVectors holding the given keys in the given order."""
    size = len(next(iter(vectors.values())))
    kv = KeyedVectors(vector_size=size)
    kv.add_vectors(list(vectors), np.asarray(list(vectors.values()), dtype=np.float32))
    return kv


def test_plain_and_at_forms_are_averaged() -> None:
    kv = keyed({"apple": [1.0, 0.0], "@apple@": [0.0, 1.0], "pear": [2.0, 2.0],
                "@plum@": [3.0, 1.0], "@new_york@": [1.0, 1.0], "@apple@-food": [9.0, 9.0]})
    assert lookup_vector(kv, "Apple").tolist() == [0.5, 0.5]
    assert lookup_vector(kv, "pear").tolist() == [2.0, 2.0]
    assert lookup_vector(kv, "plum").tolist() == [3.0, 1.0]
    assert lookup_vector(kv, "New York").tolist() == [1.0, 1.0]
    assert lookup_vector(kv, "fig") is None
    # Table 6 reads plain tokens only: footnote 7 is for §5.3's tasks.
    assert lookup_vector(kv, "Apple", footnote7=False).tolist() == [1.0, 0.0]
    assert lookup_vector(kv, "plum", footnote7=False) is None


def test_plain_form_of_keys() -> None:
    assert [plain_form(k) for k in ("apple", "@apple@", "@new_york@", "@apple@-food", "@")] == \
        ["apple", "apple", "new_york", None, None]


def at_angle(degrees: float, length: float = 1.0) -> list[float]:
    """A 2-d vector at an angle."""
    return [length * np.cos(np.radians(degrees)), length * np.sin(np.radians(degrees))]


def test_similarity_uses_covered_pairs_and_averaged_vectors(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("# Word 1\tWord 2\tHuman\n"
                     "apple\tpear\t1.0\napple\tplum\t2.0\napple\tfig\t3.0\n"
                     "apple\tkiwi\t4.0\nfig\tpear\t5.0\nApple\tlime\t6.0\n", encoding="utf-8")
    # apple = mean(apple, @apple@) points at 45°: the partners at 0°, 15°, 30°, 45° come ever
    # closer to it, in the human order.
    vectors = {"apple": [2.0, 0.0], "@apple@": [0.0, 2.0], "pear": at_angle(0),
               "@plum@": at_angle(15), "kiwi": at_angle(30), "@lime@": at_angle(45, 3.0),
               "lime": at_angle(45)}
    scores = similarity_scores(keyed(vectors), pairs)
    assert scores["total"] == 6
    assert scores["pairs"] == 4
    assert scores["coverage"] == pytest.approx(4 / 6)
    assert scores["spearman"] == pytest.approx(1.0)
    # Plain tokens only (Table 6): apple points at 0°, plum has no vector, the partners move
    # away in the human order.
    plain = similarity_scores(keyed(vectors), pairs, footnote7=False)
    assert plain["pairs"] == 3 and plain["spearman"] == pytest.approx(-1.0)
    # Without its @-form, apple points at 0°: the partners move away in the human order.
    del vectors["@apple@"]
    assert similarity_scores(keyed(vectors), pairs)["spearman"] == pytest.approx(-1.0)


def test_a_malformed_pair_line_is_named(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("a b 1\na b\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="line 2"):
        read_word_pairs(pairs)


@pytest.mark.parametrize(("name", "total"), [("wordsim353.tsv", 353), ("simlex999.txt", 999)])
def test_shipped_benchmarks_agree_with_gensim_on_plain_vectors(name: str, total: int) -> None:
    path = Path(datapath(name))
    pairs = read_word_pairs(path)
    assert len(pairs) == total
    vocabulary = sorted({w.lower() for a, b, _ in pairs for w in (a, b)})
    kept = vocabulary[::3] + vocabulary[1::3]  # a third of the words left out
    rng = np.random.default_rng(0)
    kv = keyed({w: rng.normal(size=8).tolist() for w in kept})
    ours = similarity_scores(kv, path)
    found = set(kept)
    expected = sum(a.lower() in found and b.lower() in found for a, b, _ in pairs)
    assert ours["pairs"] == expected
    assert ours["total"] == total
    _, (rho, _), oov = kv.evaluate_word_pairs(str(path))
    assert ours["spearman"] == pytest.approx(rho, abs=1e-6)
    assert 1 - ours["coverage"] == pytest.approx(oov / 100)


def test_analogies_read_with_sections() -> None:
    questions = read_analogies(Path(datapath("questions-words.txt")))
    assert len(questions) == 19544
    assert questions[0] == ("capital-common-countries", ("athens", "greece", "baghdad", "iraq"))


def test_msr_analogies_take_the_category_as_section(tmp_path: Path) -> None:
    path = tmp_path / "EN-MSR.txt"
    path.write_text("good better rough JJ_JJR rougher\nCity city's Town NN_NNPOS town's\n",
                    encoding="utf-8")
    assert read_analogies(path, "msr") == [
        ("JJ_JJR", ("good", "better", "rough", "rougher")),
        ("NN_NNPOS", ("city", "city's", "town", "town's"))]
    path.write_text("good better rough rougher\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="line 1.*expected 5 words"):
        read_analogies(path, "msr")


def test_men_lemma_form_and_other_layouts(tmp_path: Path) -> None:
    men = tmp_path / "EN-MEN-LEM.txt"
    men.write_text("sun-n sunlight-n 50.000000\nbeach-n swim-v 40.0\n", encoding="utf-8")
    assert read_word_pairs(men, strip_pos=True) == [("sun", "sunlight", 50.0),
                                                    ("beach", "swim", 40.0)]
    mturk = tmp_path / "MTurk.csv"
    mturk.write_text("word1,word2,score\nanimal,zoo,3.5\n", encoding="utf-8")
    assert read_word_pairs(mturk) == [("animal", "zoo", 3.5)]
    rw = tmp_path / "rw.txt"
    rw.write_text("squishing\tsquirt\t5.88\t7\t7\t6\n", encoding="utf-8")
    assert read_word_pairs(rw) == [("squishing", "squirt", 5.88)]


def test_table6_dispatches_each_kind(tmp_path: Path) -> None:
    from reprobe.wikipse.embedding.vectors import save_vectors
    from reprobe.wikipse.probing.part2_tables import similarity_rows

    vectors = keyed({"sun": [1.0, 0.0], "sunlight": [0.9, 0.1], "beach": [0.0, 1.0],
                     "swim": [0.2, 0.9], "good": [1.0, 1.0], "better": [2.0, 1.0],
                     "rough": [1.0, 3.0], "rougher": [2.0, 3.0]})
    save_vectors(vectors, tmp_path / "v")
    (tmp_path / "men.txt").write_text("sun-n sunlight-n 50\nbeach-n swim-v 40\n"
                                      "sun-n swim-v 5\n", encoding="utf-8")
    (tmp_path / "msr.txt").write_text("good better rough JJ_JJR rougher\n", encoding="utf-8")
    rows = similarity_rows({"SKIP 2": tmp_path / "v"}, {
        "MEN": {"path": str(tmp_path / "men.txt"), "kind": "pairs_pos"},
        "MSR": {"path": str(tmp_path / "msr.txt"), "kind": "msr_analogy"}})
    found = {row.metric: (row.value, row.n) for row in rows}
    assert found["MEN"][1] == 3 and found["MSR"] == (1.0, 1)


def capital_vectors(at_forms: set[str]) -> dict[str, list[float]]:
    """Countries one-hot and capitals one-hot plus a shared offset, so that every
    capital-common-countries question has its answer nearest; words of at_forms as @word@."""
    lines = Path(datapath("questions-words.txt")).read_text(encoding="utf-8").splitlines()
    section = lines[1:1 + 506]
    pairs = sorted({tuple(line.lower().split()[:2]) for line in section})
    size = len(pairs) + 1
    vectors = {}
    for i, (capital, country) in enumerate(pairs):
        vectors[country] = np.eye(size)[i].tolist()
        vectors[capital] = (np.eye(size)[i] + np.eye(size)[-1]).tolist()
    return {(f"@{w}@" if w in at_forms else w): v for w, v in vectors.items()}


def covered_by(words: set[str], path: Path) -> int:
    """Questions of a file whose four words are all in words."""
    return sum(all(w in words for w in quad) for _, quad in read_analogies(path))


def test_analogy_accuracy_counts_covered_questions() -> None:
    path = Path(datapath("questions-words.txt"))
    # Some words only in the @-form: still found, still candidates.
    vectors = capital_vectors({"athens", "iraq"})
    kv = keyed(vectors)
    result = analogy_accuracy(kv, path)
    assert result["total"] == 19544
    # The section's own 506 and the capital-world questions among the same countries.
    expected = covered_by({plain_form(k) for k in vectors}, path)
    assert expected > 506
    assert result["covered"] == expected
    assert result["correct"] == expected
    assert result["accuracy"] == 1.0
    assert result["coverage"] == pytest.approx(expected / 19544)
    first = result["sections"][0]
    assert first == {"section": "capital-common-countries", "total": 506, "covered": 506,
                     "correct": 506, "accuracy": 1.0}
    assert sum(s["total"] for s in result["sections"]) == 19544
    # Plain keys only (Table 6): the words only in the @-form are not candidates.
    plain = analogy_accuracy(kv, path, footnote7=False)
    assert plain["covered"] == covered_by({k for k in vectors if not k.startswith("@")}, path)
    assert plain["covered"] < expected


def test_restricting_the_vocabulary_drops_questions() -> None:
    path = Path(datapath("questions-words.txt"))
    kv = keyed(capital_vectors(set()))
    last = kv.index_to_key[-1]
    assert last not in candidate_words(kv, len(kv) - 1)
    result = analogy_accuracy(kv, path, restrict_vocab=len(kv) - 1)
    assert result["covered"] == covered_by(set(kv.index_to_key) - {last}, path)
    assert result["covered"] < analogy_accuracy(kv, path)["covered"]


def test_analogy_agrees_with_gensim_on_plain_vectors(tmp_path: Path) -> None:
    questions = tmp_path / "questions.txt"
    lines = Path(datapath("questions-words.txt")).read_text(encoding="utf-8").splitlines()
    questions.write_text("\n".join(lines[:300]) + "\n", encoding="utf-8")
    words = sorted({w.lower() for line in lines[:300] if not line.startswith(":")
                    for w in line.split()})
    rng = np.random.default_rng(1)
    kv = keyed({w: rng.normal(size=6).tolist() for w in words[::2] + words[1::2]})
    ours = analogy_accuracy(kv, questions)
    score, sections = kv.evaluate_word_analogies(str(questions))
    total = sections[-1]
    assert ours["covered"] == len(total["correct"]) + len(total["incorrect"])
    assert ours["correct"] == len(total["correct"])
    assert ours["accuracy"] == pytest.approx(score)
