"""`reprobe numersense score` and reprobe.numersense.score / sets: any model, any set, one
command; predictions in the released layout, hit@k under every convention."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import pytest
import yaml

from reprobe.cli import main
from reprobe.errors import ReprobeError
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.evaluate import CONVENTIONS, read_prediction_lines
from reprobe.numersense.models import detect_type
from reprobe.numersense.score import check_multi_token, set_label
from reprobe.numersense.sets import resolve_sets
from test_numersense_candidates import build_bert_tokenizer
from test_numersense_causal import build_gpt2
from test_numersense_mlm import build_masked_lm

LABELLED = ("cats have <mask> legs.\tfour\n"
            "a bird has <mask> legs.\ttwo\n"
            "cats have <mask> legs.\tthree\n")


@pytest.fixture(scope="module")
def bert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny masked LM saved to a folder (model and tokenizer)."""
    folder = tmp_path_factory.mktemp("bert") / "tiny"
    _, tokenizer = build_masked_lm("bert", folder)
    tokenizer.save_pretrained(str(folder))
    return folder


def write(path: Path, text: str) -> Path:
    """Write text to path and return it."""
    path.write_text(text, encoding="utf-8")
    return path


def score_rows(path: Path) -> list[dict[str, str]]:
    """The score rows of a scores CSV."""
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.parametrize("protocol", ["authors", "clean"])
def test_score_writes_every_probe_line_and_every_convention(bert: Path, tmp_path: Path,
                                                            protocol: str) -> None:
    probes = write(tmp_path / "mine.tsv", LABELLED)
    out = tmp_path / "out"
    assert main(["numersense", "score", "--model", str(bert), "--probes", str(probes),
                 "--protocol", protocol, "--out", str(out),
                 ]) == 0
    lines = read_prediction_lines(out / "mine.jsonl")
    # A repeated probe is repeated, as in the authors' prediction files.
    assert [line.probe for line in lines] == [p.split("\t")[0] for p in LABELLED.splitlines()]
    assert all(sorted(w for w, _ in line.ranked) == sorted(CANDIDATES) for line in lines)
    rows = score_rows(out / "mine.csv")
    assert {r["setting"] for r in rows} == set(CONVENTIONS)
    # none counts the three gold lines; released the three prediction lines.
    assert {r["n"] for r in rows} == {"3"}
    assert {r["metric"] for r in rows} == {"mine hit@1", "mine hit@2", "mine hit@3"}


def test_a_txt_set_without_gold_writes_predictions_only(bert: Path, tmp_path: Path) -> None:
    probes = write(tmp_path / "plain.txt", "cats have <mask> legs.\ndogs have <mask> ears.\n")
    out = tmp_path / "out"
    assert main(["numersense", "score", "--model", str(bert), "--probes", str(probes),
                 "--out", str(out)]) == 0
    assert len((out / "plain.jsonl").read_text(encoding="utf-8").splitlines()) == 2
    assert not (out / "plain.csv").exists()


def test_named_sets_come_from_the_config(tmp_path: Path) -> None:
    core = write(tmp_path / "core.txt", "cats have <mask> legs.  \ncats have <mask> legs.  ")
    gold = write(tmp_path / "gold.tsv", "cats have <mask> legs.\tfour")
    config = {"extends": None,  # stands alone: the embedded default's `all` must not join
              "sources": {"c": {"path": str(core)}, "g": {"path": str(gold)}},
              "numersense": {"released": {"core": {"source": "c"}},
                             "gold": {"core": {"source": "g"}}}}
    configfile = write(tmp_path / "c.yaml", yaml.safe_dump(config))
    (scored,) = resolve_sets(["core"], [], [], configfile)
    assert scored.name == "core"
    assert len(scored.probes) == 2 and scored.gold[0].label == "four"
    with pytest.raises(ReprobeError, match="numersense.released.all is not configured"):
        resolve_sets(["all"], [], [], configfile)
    with pytest.raises(ReprobeError, match="--gold given 2 times for 1 --probes"):
        resolve_sets([str(core)], [str(gold), "-"], [], configfile)


def test_a_named_set_not_fetched_yet_says_how_to_get_it(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = {"sources": {"c": {"url": "https://example.org/test.core.masked.txt"}},
              "numersense": {"released": {"core": {"source": "c"}}}}
    configfile = write(tmp_path / "c.yaml", yaml.safe_dump(config))
    with pytest.raises(ReprobeError, match="fetch it first"):
        resolve_sets(["core"], [], [], configfile)


def test_the_model_type_is_read_from_its_config(bert: Path, tmp_path: Path) -> None:
    assert detect_type(str(bert)) == "masked"
    gpt2, tokenizer = build_gpt2(tmp_path / "gpt2")
    gpt2.save_pretrained(str(tmp_path / "gpt2"))
    tokenizer.save_pretrained(str(tmp_path / "gpt2"))
    assert detect_type(str(tmp_path / "gpt2")) == "causal"


def test_a_masked_lm_that_splits_number_words_names_them(tmp_path: Path) -> None:
    words = tuple(w for w in CANDIDATES if w not in ("seven", "nine"))
    tokenizer: Any = build_bert_tokenizer(tmp_path, words=words)
    with pytest.raises(ReprobeError, match=r"2 number words .*seven .*nine"):
        check_multi_token(tokenizer)


def test_set_labels_name_the_table_column() -> None:
    assert set_label("released-core") == "core"
    assert set_label("my-probes") == "my-probes"


def test_the_prediction_layout_is_the_authors(bert: Path, tmp_path: Path) -> None:
    probes = write(tmp_path / "one.txt", "cats have <mask> legs.")
    assert main(["numersense", "score", "--model", str(bert), "--probes", str(probes),
                 "--out", str(tmp_path)]) == 0
    record = json.loads((tmp_path / "one.jsonl").read_text(encoding="utf-8"))
    assert set(record) == {"probe", "result_list"}
    assert set(record["result_list"][0]) == {"word", "score"}


def test_an_empty_gold_file_scores_nan_with_n_zero(bert: Path, tmp_path: Path) -> None:
    probes = write(tmp_path / "few.txt", "cats have <mask> legs.\n")
    gold = write(tmp_path / "none.tsv", "")
    out = tmp_path / "out"
    assert main(["numersense", "score", "--model", str(bert), "--probes", str(probes),
                 "--gold", str(gold), "--out", str(out),
                 ]) == 0
    rows = score_rows(out / "few.csv")
    assert {r["n"] for r in rows} == {"0"} and len(rows) == 12
