"""benchmarks/scale_wikipse_sets*.py: the WIKI-PSE part-2 chains' generated files are read by the
rules' own readers, grow an open vocabulary and repeat no record, and each step runs its rule's
command (workflow/rules/wikipse*.smk) with the same options. Nothing is timed."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import REPO, rule_options

sys.path.insert(0, str(REPO / "benchmarks"))
import scale_wikipse_sets  # noqa: E402
import scale_wikipse_sets_inputs  # noqa: E402
from scale_types import FilesInfo, Level, files_level  # noqa: E402

from reprobe.embeddings.load import load_vectors as load_file  # noqa: E402
from reprobe.wikipse.embedding.outside import read_embedding  # noqa: E402
from reprobe.wikipse.embedding.vectors import load_vectors  # noqa: E402
from reprobe.wikipse.resource.classes import read_released_classes  # noqa: E402
from reprobe.wikipse.resource.dataset import compare_release, read_dataset  # noqa: E402
from reprobe.wikipse.resource.release import read_release, read_split  # noqa: E402

CHAINS = {chain.name: chain for chain in scale_wikipse_sets.CHAINS}
SETTINGS = {"seed": "20190728"}


@pytest.fixture(scope="module")
def levels(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], Level]:
    """Every chain at its two smallest tiny sizes (Table 6's at its smallest: its vectors hold
    30,000 words at every size)."""
    root = tmp_path_factory.mktemp("wikipse_sets")
    found = {}
    for name, chain in CHAINS.items():
        for size in chain.ladders["tiny"][:1 if name == scale_wikipse_sets.SIMILARITY else 2]:
            info = files_level(chain, root / name / f"size-{size}", size)
            found[name, size] = Level(name, size, Path(info.path), info, SETTINGS, 1)
    return found


def pair(levels: dict[tuple[str, int], Level], chain: str) -> tuple[FilesInfo, FilesInfo]:
    """A chain's smaller and larger level's files."""
    small, large = CHAINS[chain].ladders["tiny"][:2]
    return levels[chain, small].info, levels[chain, large].info


def path(info: FilesInfo, role: str) -> Path:
    """A generated file of a level."""
    return Path(info.files[role])


def test_the_splits_and_predictions_are_read_and_grow(levels) -> None:
    small, large = pair(levels, scale_wikipse_sets.SPLITS)
    known = read_released_classes(path(large, "classes"))
    train, test = (read_split(path(large, split), known) for split in ("train", "test"))
    assert len(train.classes) == len(test.classes) == large.size
    assert not set(train.classes) & set(test.classes)
    assert len(read_split(path(small, "train")).classes) < len(train.classes)
    saved = np.load(path(large, "pred_word"))
    assert list(saved["words"]) == list(test.classes)
    assert saved["y_pred_MLP"].shape == saved["y_true"].shape == (large.size,
                                                                   len(saved["classes"]))
    assert saved["a_proba_MLP"].shape == saved["a_true"].shape
    assert load_vectors(path(large, "vectors")).vector_size == 400


def test_the_released_files_meet_the_rebuilt_words(levels) -> None:
    small, large = pair(levels, scale_wikipse_sets.RELEASED)
    rebuilt = read_dataset(path(large, "words"))
    assert len(rebuilt) == large.size > len(read_dataset(path(small, "words")))
    released = read_release(path(large, "train"))
    lines = path(large, "train").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(set(lines)) == large.counts["released words a split"]
    found = compare_release(released, rebuilt)
    assert 0.7 * len(released) < found["in_rebuilt"] < len(released)
    assert not set(released) & set(read_release(path(large, "test")))


def test_the_public_files_share_words_with_the_splits(levels) -> None:
    from reprobe.wikipse.probing.public import shared_subset
    from reprobe.wikipse.tasks.senteval import read_binary, read_mrpc

    small, large = pair(levels, scale_wikipse_sets.PUBLIC)
    glove = load_file(path(large, "glove"), "glove_txt")
    fasttext = load_file(path(large, "fasttext"), "fasttext_vec")
    assert len(glove) + len(fasttext) == large.size
    smaller = path(small, "fasttext").read_text(encoding="utf-8").splitlines()[1:]
    assert len({line.split(" ", 1)[0] for line in smaller}) < len(fasttext)
    train = read_split(path(large, "train")).classes
    shared = shared_subset(train, [glove, fasttext])
    assert 0.15 * len(train) < len(shared) < 0.5 * len(train)
    sentences, labels = read_binary(path(large, "MR.pos"), path(large, "MR.neg"))
    assert len(set(sentences)) == len(sentences) and set(labels.tolist()) == {0, 1}
    pairs, quality = read_mrpc(path(large, "MRPC.train"))
    assert len(pairs) == len(quality) >= 40


def test_the_authors_file_is_read_as_word2vec_text(levels) -> None:
    small, large = pair(levels, scale_wikipse_sets.AUTHORS)
    vectors = read_embedding(path(large, "vectors"), "auto")
    assert (len(vectors), vectors.vector_size) == (large.size, 400)
    assert len(set(vectors.index_to_key)) == large.size > small.size


def test_the_similarity_sets_are_read(levels) -> None:
    from reprobe.wikipse.tasks.similarity import read_analogies, read_word_pairs

    size = CHAINS[scale_wikipse_sets.SIMILARITY].ladders["tiny"][0]
    large = levels[scale_wikipse_sets.SIMILARITY, size].info
    men = read_word_pairs(path(large, "MEN"), strip_pos=True)
    assert all("-" not in left for left, _, _ in men)
    google = read_analogies(path(large, "Google"))
    msr = read_analogies(path(large, "MSR"), layout="msr")
    assert len(google) + len(msr) == pytest.approx(large.size, abs=2)
    assert len({question for _, question in google}) > 0.95 * len(google)
    vectors = load_vectors(path(large, "vectors100"))
    assert len(vectors) == large.counts["vocabulary"] > scale_wikipse_sets_inputs.CANDIDATES


def test_the_supersense_corpus_is_counted_and_grows(levels) -> None:
    from reprobe.wikipse.tasks.supersense import corpus_files, count_corpus, frequent_words

    small, large = pair(levels, scale_wikipse_sets.SUPERSENSE)
    counts = count_corpus(path(large, "corpus"))
    assert counts.files == large.size and counts.tokens == large.counts["tokens"]
    assert 0.15 < counts.noun_tokens / counts.tokens < 0.25
    texts = [f.read_bytes() for f in corpus_files(path(large, "corpus"))]
    assert texts[0][:2] == b"\x1f\x8b" and len(set(texts)) == len(texts)
    words = frequent_words(counts.pairs, 20)
    assert any(len(classes) > 1 for classes in words.values())
    assert len(count_corpus(path(small, "corpus")).pairs) < len(counts.pairs)
    vectors = load_file(path(large, "vectors"), "word2vec_txt")
    assert set(words) <= set(vectors.key_to_index)




def test_each_step_runs_its_rules_command(levels) -> None:
    for step in scale_wikipse_sets.STEPS:
        small = CHAINS[step.chain].ladders["tiny"][0]
        argv = step.argv(levels[step.chain, small])
        assert argv[:3] == [sys.executable, "-m", "reprobe"]
        command, options = rule_options(step.rules[0])
        assert argv[3:5] == command, step.name
        assert options <= set(argv), (step.name, options - set(argv))
        assert step.name in scale_wikipse_sets.OUTPUTS
