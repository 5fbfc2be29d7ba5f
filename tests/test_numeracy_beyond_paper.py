"""A person's embeddings (`numeracy.extra_vectors`) are rows beyond the paper: probed on their
own numbers by one rule each, marked, and placed below the paper's rows of every table."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import gensim
import pandas as pd
import pytest

from conftest import REPO
from reprobe.config import check_config, fill_defaults, load_yaml
from reprobe.errors import ConfigError
from reprobe.numeracy.tables import write_numeracy_table
from reprobe.numeracy.targets import NumeracyTargets
from reprobe.scores import ScoreRow, write_scores
from reprobe.tables.beyond import BEYOND as BEYOND_PAPER

REFERENCE = REPO / "config/reference/numeracy"
EXTRA = "results/numeracy/scores/extra/Mine.csv"


def targets(**extra: dict) -> NumeracyTargets:
    """The default config's numeracy targets, with these extra vectors."""
    config = load_yaml(REPO / "config/config.yaml")
    config["numeracy"]["extra_vectors"] = extra
    fill_defaults(config)
    check_config(config)
    return NumeracyTargets(config, {"0": "s0.parquet"}, lambda name: f"data/raw/{name}/x")


def test_an_extra_embedding_has_its_own_rule_and_rows_in_every_table_but_4_and_5():
    num = targets(Mine={"path": "test/test_data/lee_fasttext_new.bin", "package": "gensim"})
    model = SimpleNamespace(model="Mine")
    assert Path(num.vectors_file(model)) == Path(gensim.__file__).parent / \
        "test/test_data/lee_fasttext_new.bin"
    assert num.vectors_format(model) == "auto"
    assert "Mine" in num.vector_models and "Mine" not in num.models  # not in the shared sets
    for n in "1236789":
        scores = num.table_scores(SimpleNamespace(n=n))
        assert scores[-1] == EXTRA and EXTRA not in scores[:-1]
    for n in "45":
        assert EXTRA not in num.table_scores(SimpleNamespace(n=n))
    assert num.beyond_paper_option() == ["--beyond-paper=Mine"]
    assert targets().beyond_paper_option() == []


def test_the_default_run_adds_a_row_from_vectors_shipped_with_gensim():
    config = load_yaml(REPO / "config/config.yaml")
    fill_defaults(config)
    num = NumeracyTargets(config, {"0": "s0.parquet"}, str)
    assert list(num.extra) == ["gensim-lee-fastText-new"]
    assert Path(num.vectors_file(SimpleNamespace(model="gensim-lee-fastText-new"))).is_file()


def test_an_extra_embedding_may_not_take_a_models_name():
    with pytest.raises(ConfigError, match=r"extra_vectors\.GloVe-Num: a model of this name"):
        targets(**{"GloVe-Num": {"source": "gensim_lee_fasttext"}})


@pytest.mark.parametrize("entry", [
    {"source": "gensim_lee_fasttext", "path": "x.vec"},  # both
    {"format": "auto"},  # neither
    {"path": "x.vec", "format": "glove"},  # no such format
    {"source": "gensim_lee_fasttext", "package": "gensim"},  # a package without a path
])
def test_a_malformed_entry_is_refused_by_the_schema(entry):
    with pytest.raises(ConfigError, match=r"numeracy\.extra_vectors\.Mine"):
        targets(Mine=entry)


def table_rows(tmp_path: Path, table: str, beyond: list[str]) -> pd.DataFrame:
    """A table written from a paper model's, a stand-in's and a person's scores."""
    metric = "r2" if table == "table6" else "SC-MAG"
    setting = "" if table == "table6" else "cosine"
    scores = tmp_path / "scores.csv"
    write_scores([ScoreRow("numeracy", table, "Mine", setting, metric, 0.5, 10),
                  ScoreRow("numeracy", table, "stand-in", setting, metric, 0.4, 10),
                  ScoreRow("numeracy", table, "GloVe-6B-50D", setting, metric, 0.3, 10)],
                 scores)
    csv, md = tmp_path / f"{table}.csv", tmp_path / f"{table}.md"
    write_numeracy_table(table, [scores], REFERENCE / f"{table}.csv", csv, md,
                         tie_break="smaller", exclude_equidistant=True, beyond_paper=beyond)
    return pd.read_csv(csv, dtype={"model": str})


@pytest.mark.parametrize("table", ["table2", "table6"])
def test_the_row_is_marked_and_placed_below_the_papers_rows(tmp_path, table):
    plain = table_rows(tmp_path, table, [])
    marked = table_rows(tmp_path, table, ["Mine"])
    models = list(dict.fromkeys(marked["model"]))
    assert models[-1] == f"Mine {BEYOND_PAPER}"
    paper = set(pd.read_csv(REFERENCE / f"{table}.csv")["model"])
    assert all(model in paper for model in models[:models.index("stand-in")])
    # Every other row is as it was without the mark.
    pd.testing.assert_frame_equal(
        marked[marked["model"] != models[-1]].reset_index(drop=True),
        plain[plain["model"] != "Mine"].reset_index(drop=True))
    text = (tmp_path / f"{table}.md").read_text(encoding="utf-8")
    assert f"| Mine {BEYOND_PAPER}" in text and f"Rows marked `{BEYOND_PAPER}`" in text


def test_a_row_named_as_a_paper_model_cannot_be_beyond_the_paper(tmp_path):
    with pytest.raises(ConfigError, match=r"extra_vectors\.GloVe-6B-50D: the paper has a row"):
        table_rows(tmp_path, "table2", ["GloVe-6B-50D"])
