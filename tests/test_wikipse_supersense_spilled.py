"""The supersense counts spilled a stretch at a time give the dataset the whole Counter gave."""

from __future__ import annotations

import gzip
import json
import math
import tarfile
from pathlib import Path

import pytest

from conftest import REPO
from reprobe.cli import main
from reprobe.wikipedia.spilled import SPILL_PREFIX
from reprobe.wikipse.resource.dataset import SPLITS, select, summary
from reprobe.wikipse.resource.release import write_release
from reprobe.wikipse.tasks import supersense_spilled
from reprobe.wikipse.tasks.supersense import (
    article_files,
    count_corpus,
    count_stretches,
    frequent_words,
    supersense_tokens,
    supersense_words,
)
from reprobe.wikipse.tasks.supersense_spilled import corpus_supersenses

# Ties (bank: 2 and 2), a word spread over files and folders, duplicates within a line, a
# word below the minimum, an all-punctuation term and a verb tag.
ARTICLES = {
    "b/2": "bank_noun.group bank_noun.object Bank_noun.group ..._noun.act\n",
    "b/10": "bank_noun.object river_noun.object river_noun.object go_verb.motion\n",
    "a/x": "Émile_noun.person émile_noun.person U.S._noun.location us_noun.location\n"
           "apple_noun.food apple_noun.food apple_noun.plant apple_noun.food\n",
    "a/.hidden": "river_noun.location cat_noun.animal\n",
    "c": "apple_noun.plant dog_noun.animal dog_noun.animal dog_noun.animal.\n",
}


def write_corpus(root: Path) -> Path:
    """The articles under root, every other one gzipped."""
    for number, (name, text) in enumerate(sorted(ARTICLES.items())):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode()
        path.write_bytes(gzip.compress(data, mtime=0) if number % 2 else data)
    return root


def test_files_come_in_the_order_sorted_rglob_gives(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "corpus")
    (root / "a.txt").write_text("x_noun.act\n", encoding="utf-8")
    (root / "a" / "sub").mkdir()
    (root / "a" / "sub" / "y").write_text("y_noun.act\n", encoding="utf-8")
    expected = sorted(p for p in root.rglob("*") if p.is_file())
    assert list(article_files(root)) == expected
    assert list(article_files(root / "missing")) == []


def test_stretches_split_after_the_file_that_fills_them(tmp_path: Path) -> None:
    root = write_corpus(tmp_path / "corpus")
    stretches = list(count_stretches(root, 3))
    assert sum(s.files for s in stretches) == len(ARTICLES) and len(stretches) > 2
    assert all(len(s.pairs) >= 3 for s in stretches[:-1])
    whole = count_corpus(root)
    assert sum((s.pairs for s in stretches), start=type(whole.pairs)()) == whole.pairs


@pytest.mark.parametrize("held", [1, 3, 1_000])
@pytest.mark.parametrize("min_frequency", [0, 2, 4, 99])
def test_spilled_counts_equal_the_whole_counter(tmp_path: Path, held: int,
                                                min_frequency: int) -> None:
    root = write_corpus(tmp_path / "corpus")
    whole = count_corpus(root)
    out = tmp_path / "out"
    (out / (SPILL_PREFIX + "killed")).mkdir(parents=True)  # a killed run's folder
    found = corpus_supersenses(root, min_frequency, out, held=held)
    assert list(out.iterdir()) == []  # the stale folder and this run's are gone
    assert found.frequent == frequent_words(whole.pairs, min_frequency)
    assert found.supersenses == supersense_tokens(whole.pairs)
    assert list(found.supersenses) == list(supersense_tokens(whole.pairs))
    assert found.annotated == summary(supersense_words(whole.pairs))
    totals = (whole.files, whole.lines, whole.tokens, whole.noun_tokens, whole.empty_words)
    assert (found.corpus.files, found.corpus.lines, found.corpus.tokens,
            found.corpus.noun_tokens, found.corpus.empty_words) == totals
    assert not found.corpus.pairs


def test_a_corpus_without_noun_tokens(tmp_path: Path) -> None:
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "1").write_text("go_verb.motion plain words\n", encoding="utf-8")
    found = corpus_supersenses(tmp_path / "corpus", 1, tmp_path / "out")
    assert found.frequent == {} and found.supersenses == {}
    expected = summary({})
    assert math.isnan(found.annotated.pop("mean_classes"))
    assert found.annotated == {k: v for k, v in expected.items() if k != "mean_classes"}


def old_outputs(root: Path, min_frequency: int, seed: int, out: Path) -> None:
    """The dataset step as it was: every pair in one Counter."""
    counts = count_corpus(root)
    words = frequent_words(counts.pairs, min_frequency)
    splits = select(words, single_per_split=None, multi_per_split=None, seed=seed)
    for split in SPLITS:
        write_release(((w, words[w]) for w in splits[split]), out / f"{split}.tsv")
    card = {
        "corpus": {"files": counts.files, "lines": counts.lines, "tokens": counts.tokens,
                   "noun_tokens": counts.noun_tokens, "empty_words": counts.empty_words},
        "supersenses": supersense_tokens(counts.pairs),
        "annotated_words": summary(supersense_words(counts.pairs)),
        "frequent_words": summary(words),
        "splits": {split: summary({w: words[w] for w in splits[split]}) for split in SPLITS},
        "parameters": {"min_frequency": min_frequency, "single_per_split": None,
                       "multi_per_split": None, "seed": seed},
    }
    (out / "card.json").write_text(json.dumps(card, indent=2, sort_keys=True) + "\n",
                                   encoding="utf-8")


def test_the_step_writes_the_bytes_it_wrote_before(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # The sample corpus, in stretches of a few pairs: many chunks.
    with tarfile.open(REPO / "data/samples/wikipse/supersense/supertextwiki.tar.xz") as tar:
        tar.extractall(tmp_path / "corpus", filter="data")
    root = tmp_path / "corpus"
    before, after = tmp_path / "before", tmp_path / "after"
    before.mkdir()
    old_outputs(root, 2, 0, before)
    monkeypatch.setattr(supersense_spilled, "PAIRS_HELD", 5)
    chunks: list[Path] = []
    write = supersense_spilled.write_chunk
    monkeypatch.setattr(supersense_spilled, "write_chunk",
                        lambda pairs, path: (chunks.append(path), write(pairs, path)))
    assert main(["wikipse", "supersense-dataset", "--corpus", str(root), "--min-frequency", "2",
                 "--seed", "0", "--settings",
                 '{"single_per_split": null, "multi_per_split": null}', "--output-dir",
                 str(after)]) == 0
    assert len(chunks) > 5
    assert sorted(p.name for p in after.iterdir()) == ["card.json", "test.tsv", "train.tsv"]
    for name in ("card.json", "test.tsv", "train.tsv"):
        assert (after / name).read_bytes() == (before / name).read_bytes(), name

