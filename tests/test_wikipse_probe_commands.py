"""The WIKI-PSE part 2 steps through the CLI on a small hand-made dataset and vectors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from gensim.models import KeyedVectors

from reprobe.cli import main
from reprobe.wikipse.embedding.vectors import save_vectors
from reprobe.wikipse.resource.release import write_release

CLASSES = ("-person", "-location", "-art")


def classifiers(kinds: list[str], **changes: object) -> str:
    """`--settings` JSON of the classifiers (wikipse.probes) a probe step reads."""
    return json.dumps({"classifiers": kinds, "lr_c": 1, "knn_k": 3, "mlp_hidden": 16,
                       "mlp_max_iter": 300, "mlp_early_stopping": False, "n_jobs": 1,
                       **changes})


def dataset(tmp_path: Path) -> tuple[Path, Path, Path]:
    """40 train and 20 test words in the released format, and vectors that carry their
    classes (a direction per class, plus noise), saved as the stage saves vectors."""
    rng = np.random.default_rng(0)
    words: dict[str, dict[str, int]] = {}
    for i in range(60):
        chosen = [CLASSES[i % 3]] + ([CLASSES[(i + 1) % 3]] if i % 4 == 0 else [])
        words[f"@w{i}@"] = {c: int(rng.integers(2, 50)) for c in chosen}
    names = list(words)
    write_release(((w, words[w]) for w in names[:40]), tmp_path / "train.tsv")
    write_release(((w, words[w]) for w in names[40:]), tmp_path / "test.tsv")
    basis = np.eye(8)[:3]
    rows = [sum(basis[CLASSES.index(c)] for c in words[w]) + 0.1 * rng.standard_normal(8)
            for w in names]
    vectors = KeyedVectors(8)
    vectors.add_vectors(names[:-1], np.array(rows[:-1], dtype=np.float32))  # one word missing
    save_vectors(vectors, tmp_path / "vectors")
    return tmp_path / "train.tsv", tmp_path / "test.tsv", tmp_path / "vectors"


def test_probe_baselines_and_tables(tmp_path: Path) -> None:
    train, test, vectors = dataset(tmp_path)
    scores = tmp_path / "probe.csv"
    assert main(["wikipse", "probe", "--train", str(train), "--test", str(test),
                 "--vectors", str(vectors), "--row", "SSKIP word", "--dim", "8",
                 "--settings", classifiers(["LR", "KNN", "MLP"], ambiguity="authors"),
                 "--seed", "0", "--scores", str(scores), "--predictions",
                 str(tmp_path / "probe.npz")]) == 0
    rows = pd.read_csv(scores)
    table2 = rows[rows["table"] == "table2"]
    assert set(table2["metric"]) == {"LR", "KNN", "MLP"} and (table2["n"] == 19).all()
    # Classes are one direction each: every classifier finds them.
    assert (table2["value"] > 0.8).all()
    saved = np.load(tmp_path / "probe.npz")
    assert saved["y_pred_MLP"].shape == saved["y_true"].shape == (19, 3)
    baselines = tmp_path / "baselines.csv"
    assert main(["wikipse", "baselines", "--train", str(train), "--test", str(test),
                 "--ambiguity", "authors", "--seed", "1", "--scores", str(baselines)]) == 0
    found = pd.read_csv(baselines).set_index("model")
    assert 0 < found.loc["random", "value"] < 1
    assert found.loc["FREQUENCY", "table"] == "table4"
    reference = tmp_path / "reference.csv"
    reference.write_text("table,model,setting,metric,value,n\n"
                         "table2,SSKIP word,8,LR,0.5,44250\n", encoding="utf-8")
    assert main(["wikipse", "table", "--table", "table2", "--variant", "rebuilt", "--reference",
                 str(reference), "--csv", str(tmp_path / "t2.csv"), "--md",
                 str(tmp_path / "t2.md"), str(scores), str(baselines)]) == 0
    table = pd.read_csv(tmp_path / "t2.csv")
    lr = table[(table["model"] == "SSKIP word") & (table["metric"] == "LR")].iloc[0]
    assert lr["paper_value"] == 0.5 and lr["delta"] == pytest.approx(float(lr["value"]) - 0.5)
    assert lr["within_tolerance"] == (abs(lr["delta"]) <= 0.05 * 0.5)
    assert "random" in set(table["model"])
    # Two variants side by side: a column per variant and classifier.
    assert main(["wikipse", "variants", "--table", "table2", "--reference", str(reference),
                 "--csv", str(tmp_path / "v.csv"), "--md", str(tmp_path / "v.md"),
                 f"rebuilt={scores}", f"rebuilt={baselines}", f"released={scores}"]) == 0
    side = pd.read_csv(tmp_path / "v.csv")
    assert set(side["variant"]) == {"rebuilt", "released"}
    header = next(line for line in (tmp_path / "v.md").read_text().splitlines()
                  if line.startswith("| model"))
    assert header.index("rebuilt LR") < header.index("rebuilt MLP") < header.index("released LR")


def test_analyses_write_every_figure_and_table7(tmp_path: Path) -> None:
    train, test, vectors = dataset(tmp_path)
    predictions = []
    for kind in ("word", "unif"):
        out = tmp_path / f"{kind}.npz"
        assert main(["wikipse", "probe", "--train", str(train), "--test", str(test),
                     "--vectors", str(vectors), "--row", f"SSKIP {kind}", "--dim", "8",
                     "--settings", classifiers(["MLP"], mlp_hidden=8, mlp_max_iter=100,
                                               ambiguity="paper"),
                     "--seed", "0", "--scores", str(tmp_path / f"{kind}.csv"),
                     "--predictions", str(out)]) == 0
        predictions.append(f"SSKIP {kind}={out}")
    figures = tmp_path / "figures"
    assert main(["wikipse", "analyses", "--train", str(train), "--test", str(test),
                 "--ambiguity", "paper", "--word-vectors", str(vectors),
                 "--output-dir", str(figures),
                 *predictions]) == 0
    for name in ("figure3a", "figure3b", "figure4", "figure5a", "figure5b", "figure6"):
        assert (figures / f"{name}.png").stat().st_size > 0, name
        assert len(pd.read_csv(figures / f"{name}.csv")) > 0, name
    examples = pd.read_csv(figures / "table7.csv")
    assert list(examples.columns) == ["group", "rank", "word", "frequency", "n_classes",
                                      "classes", "likelihood"]
    # 19 test words with a vector: the top 10 ambiguous, then the rest as unambiguous.
    assert examples["group"].value_counts().to_dict() == {"ambiguous": 10, "unambiguous": 9}
    ambiguous = examples[examples["group"] == "ambiguous"]["likelihood"]
    assert ambiguous.is_monotonic_decreasing


def test_public_embeddings_on_the_shared_words(tmp_path: Path) -> None:
    train, test, vectors = dataset(tmp_path)
    rng = np.random.default_rng(1)
    glove = tmp_path / "glove.txt"
    # Every other word in the public vocabulary: the subset is those (and ours must have them).
    glove.write_text("".join(f"w{i} " + " ".join(f"{v:.4f}" for v in rng.standard_normal(8))
                             + "\n" for i in range(0, 60, 2)), encoding="utf-8")
    scores = tmp_path / "table3.csv"
    assert main(["wikipse", "public", "--train", str(train), "--test", str(test), "--public",
                 f"GloVe (6B)={glove}:glove_txt", "--ours", f"SSKIP word 8={vectors}",
                 "--settings", classifiers(["LR", "KNN"], mlp_hidden=8, mlp_max_iter=50),
                 "--seed", "0", "--scores", str(scores)]) == 0
    rows = pd.read_csv(scores, dtype={"setting": str})
    assert set(rows["model"]) == {"SSKIP word", "GloVe (6B)"}
    assert set(rows[rows["model"] == "SSKIP word"]["setting"].astype(str)) == {"8"}
    # Test words 40..58 even, and 59 has no vector of ours: 10 words.
    assert (rows["n"] == 10).all()


def test_nlp_tasks_through_the_cli(tmp_path: Path) -> None:
    from conftest import REPO

    _, _, vectors = dataset(tmp_path)
    samples = REPO / "data/samples/wikipse/senteval"
    tasks = {"SUBJ": {"pos": str(samples / "subj.objective"),
                      "neg": str(samples / "subj.subjective")},
             "MRPC": {"train": str(samples / "msr_paraphrase_train.txt"),
                      "test": str(samples / "msr_paraphrase_test.txt")}}
    scores = tmp_path / "nlp.csv"
    assert main(["wikipse", "nlp", "--tasks", json.dumps(tasks), "--ours",
                 f"word={vectors}", "--settings", '{"folds": 3}', "--seed", "0", "--scores",
                 str(scores)]) == 0
    rows = pd.read_csv(scores).set_index("metric")
    assert set(rows.index) == {"SUBJ", "MRPC"} and (rows["table"] == "table5").all()
    assert rows.loc["SUBJ", "n"] == 60 and rows.loc["MRPC", "n"] == 20
