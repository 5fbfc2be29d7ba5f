"""Tests for the WIKI-PSE probing classifiers on hand-made and small synthetic data."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from gensim.models import KeyedVectors
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.neighbors import KNeighborsClassifier

from reprobe.step_settings import settings_from_schema
from reprobe.wikipse.probing.probes import (
    ProbeSettings,
    accuracy,
    ambiguity_labels,
    class_order,
    features,
    fit_predict_sclasses,
    frequency_baseline,
    frequency_features,
    indicator,
    make_classifier,
    micro_f1,
    nearest_neighbours,
    predict_ambiguity,
    predict_sclasses,
    probe_grid,
    random_baseline_draw,
    random_baseline_expected,
    word_frequency,
)
from reprobe.wikipse.resource.release import read_release, write_release
from reprobe.wikipse.settings import ClassifierSettings

TRAIN = {"@apple@": {"-food": 3, "-organization": 5}, "@pear@": {"-food": 2},
         "@google@": {"-organization": 9}, "@plum@": {"-food": 1}}
TEST = {"@fig@": {"-food": 4, "-art": 1}, "@ibm@": {"-organization": 2}}


def probe_settings(**changes: object) -> ProbeSettings:
    """The schema's classifier settings (seed 0), but for `changes`."""
    return replace(settings_from_schema(ClassifierSettings, "wikipse.probes").fitting(seed=0),
                   **changes)


def synthetic(n: int, dim: int, n_classes: int, seed: int, noise: float = 1.0
              ) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors = sum of the word's class centroids + noise, with 1-3 classes a word."""
    rng = np.random.default_rng(seed)
    centroids = rng.normal(size=(n_classes, dim))
    prior = 1 / np.arange(1, n_classes + 1)
    y = np.zeros((n, n_classes), dtype=np.int8)
    for i in range(n):
        y[i, rng.choice(n_classes, rng.integers(1, 4), replace=False, p=prior / prior.sum())] = 1
    x = (y @ centroids + noise * rng.normal(size=(n, dim))).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True), y


# --- labels and features ----------------------------------------------------------------------


def test_class_order_by_train_words_then_name_and_test_only_classes_last() -> None:
    # -food: 3 train words, -organization: 2, -art: only in test.
    assert class_order(TRAIN, TEST) == ["-food", "-organization", "-art"]
    assert class_order({"@a@": {"-b": 1}, "@c@": {"-a": 7}}, {}) == ["-a", "-b"]


def test_indicator_marks_each_words_classes() -> None:
    classes = class_order(TRAIN, TEST)
    matrix = indicator(["@fig@", "@ibm@"], TEST, classes)
    assert matrix.dtype == np.int8
    assert matrix.tolist() == [[1, 0, 1], [0, 1, 0]]
    with pytest.raises(ValueError, match="-art"):
        indicator(["@fig@"], TEST, ["-food"])


def test_features_are_unit_rows_and_missing_words_are_masked() -> None:
    vectors = KeyedVectors(2)
    vectors.add_vectors(["@a@", "@b@"], np.array([[3.0, 4.0], [0.0, 2.0]], dtype=np.float32))
    matrix, kept = features(["@b@", "@gone@", "@a@"], vectors)
    assert kept.tolist() == [True, False, True]
    assert matrix.dtype == np.float32
    assert matrix == pytest.approx(np.array([[0.0, 1.0], [0.6, 0.8]]))
    assert (~kept).sum() == 1  # the caller counts the words without a vector


def test_ambiguity_labels_and_word_frequency() -> None:
    assert ambiguity_labels(["@apple@", "@pear@"], TRAIN).tolist() == [1, 0]
    assert word_frequency(TRAIN)["@apple@"] == 8
    assert frequency_features(["@pear@"], {"@pear@": 2}) == pytest.approx(np.log([[3.0]]))
    with pytest.raises(ValueError, match="no frequency"):
        frequency_features(["@kiwi@"], {})


# --- classifiers ------------------------------------------------------------------------------


def test_make_classifier_kinds_and_seed() -> None:
    settings = probe_settings(mlp_hidden=7, seed=3, knn_k=4)
    mlp = make_classifier("MLP", settings)
    assert mlp.hidden_layer_sizes == (7,) and mlp.activation == "relu"
    assert mlp.random_state == 3
    assert make_classifier("KNN", settings).n_neighbors == 4
    assert isinstance(make_classifier("LR", settings), LogisticRegression)
    with pytest.raises(ValueError, match="unknown classifier"):
        make_classifier("SVM", settings)


@pytest.mark.parametrize("k", [5, 4])
def test_shared_neighbour_vote_equals_one_knn_classifier_per_class(k: int) -> None:
    x_train, y_train = synthetic(150, 8, 6, seed=1)
    x_test, _ = synthetic(60, 8, 6, seed=2)
    y_train[:, 5] = 0  # a class without positives predicts its constant
    settings = probe_settings(knn_k=k)
    ours = predict_sclasses(x_train, y_train, x_test, "KNN", settings)
    for c in range(5):
        reference = make_classifier("KNN", settings).fit(x_train, y_train[:, c])
        assert ours[:, c].tolist() == reference.predict(x_test).tolist(), c
    assert not ours[:, 5].any()
    # The ambiguity probe's neighbour share is sklearn's predict_proba, and k = 4 has ties.
    a_train = (y_train.sum(axis=1) > 1).astype(np.int8)
    pred, share = predict_ambiguity(x_train, a_train, x_test, "KNN", settings)
    reference = KNeighborsClassifier(n_neighbors=k, metric="cosine").fit(x_train, a_train)
    assert share == pytest.approx(reference.predict_proba(x_test)[:, 1])
    assert pred.tolist() == reference.predict(x_test).tolist()


def test_neighbours_are_nearest_first() -> None:
    x_train = np.eye(3, dtype=np.float32)
    x_test = np.array([[0.6, 0.8, 0.0]], dtype=np.float32)
    assert nearest_neighbours(x_train, x_test, 2).tolist() == [[1, 0]]
    assert nearest_neighbours(x_train, x_test, 10).shape == (1, 3)  # k capped at train size


def test_lr_per_class_equals_sklearn_and_constant_classes() -> None:
    x_train, y_train = synthetic(200, 10, 5, seed=3)
    x_test, _ = synthetic(50, 10, 5, seed=4)
    y_train[:, 4] = 1  # every train word in it: predicted for every test word
    settings = probe_settings()
    pred, fits = fit_predict_sclasses(x_train, y_train, x_test, "LR", settings)
    for c in range(4):
        reference = LogisticRegression(max_iter=1000).fit(x_train, y_train[:, c])
        assert pred[:, c].tolist() == reference.predict(x_test).tolist()
    assert pred[:, 4].all() and fits[4].n_iter == 0
    assert all(f.n_iter > 0 and f.fit_s >= 0 for f in fits[:4])


def test_parallel_and_seeded_mlp_give_the_same_predictions() -> None:
    x_train, y_train = synthetic(120, 8, 4, seed=5)
    x_test, _ = synthetic(40, 8, 4, seed=6)
    settings = probe_settings(mlp_hidden=8, mlp_max_iter=30)
    one = predict_sclasses(x_train, y_train, x_test, "MLP", settings)
    two = predict_sclasses(x_train, y_train, x_test, "MLP",
                           probe_settings(mlp_hidden=8, mlp_max_iter=30, n_jobs=2))
    assert one.shape == (40, 4) and one.dtype == np.int8
    assert np.array_equal(one, two)


def test_mlp_early_stopping_survives_a_class_with_one_positive() -> None:
    x_train, y_train = synthetic(100, 6, 3, seed=7)
    x_test, _ = synthetic(10, 6, 3, seed=8)
    y_train[:, 2] = 0
    y_train[0, 2] = 1
    settings = probe_settings(mlp_hidden=4, mlp_max_iter=20, mlp_early_stopping=True)
    assert predict_sclasses(x_train, y_train, x_test, "MLP", settings).shape == (10, 3)


def test_predict_ambiguity_lr_gives_labels_and_probabilities() -> None:
    x_train, y_train = synthetic(200, 10, 5, seed=9)
    x_test, _ = synthetic(30, 10, 5, seed=10)
    a_train = (y_train.sum(axis=1) > 1).astype(np.int8)
    pred, proba = predict_ambiguity(x_train, a_train, x_test, "LR", probe_settings())
    reference = LogisticRegression(max_iter=1000).fit(x_train, a_train)
    assert proba == pytest.approx(reference.predict_proba(x_test)[:, 1])
    assert pred.tolist() == reference.predict(x_test).tolist()


# --- scores -----------------------------------------------------------------------------------


def test_micro_f1_by_hand_and_as_sklearn() -> None:
    y_true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    y_pred = np.array([[1, 1, 0], [0, 1, 0], [0, 1, 1]])
    # TP 3 (cells (0,0), (1,1), (2,1)), FP 2 ((0,1), (2,2)), FN 2 ((0,2), (2,0)).
    assert micro_f1(y_true, y_pred) == pytest.approx(6 / 10)
    rng = np.random.default_rng(0)
    for _ in range(5):
        t, p = rng.integers(0, 2, (40, 6)), rng.integers(0, 2, (40, 6))
        assert micro_f1(t, p) == pytest.approx(f1_score(t, p, average="micro", zero_division=0))
    assert micro_f1(np.zeros((3, 2)), np.zeros((3, 2))) == 0.0
    assert micro_f1([[1], [0]], [[1], [1]]) == pytest.approx(2 / 3)  # one column: still cells


def test_accuracy_in_percent() -> None:
    assert accuracy(np.array([1, 0, 1, 1]), np.array([1, 1, 1, 1])) == pytest.approx(75.0)


def test_random_baseline_closed_form_by_hand() -> None:
    y_train = np.array([[1, 0], [1, 1], [0, 0], [1, 0]])  # priors 0.75, 0.25
    y_test = np.array([[1, 0], [0, 1], [1, 1]])  # n_c = 2, 2; N = 3
    tp = 0.75 * 2 + 0.25 * 2
    fp = 0.75 * 1 + 0.25 * 1
    fn = 0.25 * 2 + 0.75 * 2
    assert random_baseline_expected(y_train, y_test) == pytest.approx(2 * tp / (2 * tp + fp + fn))


def test_random_draws_average_to_the_closed_form() -> None:
    _, y_train = synthetic(400, 2, 12, seed=11)
    _, y_test = synthetic(400, 2, 12, seed=12)
    draws = [random_baseline_draw(y_train, y_test, seed) for seed in range(200)]
    assert draws[0] == random_baseline_draw(y_train, y_test, 0)  # seeded
    assert np.mean(draws) == pytest.approx(random_baseline_expected(y_train, y_test), abs=0.005)


# --- the FREQUENCY baseline -------------------------------------------------------------------


def released_split(path: Path, n: int, seed: int) -> dict[str, dict[str, int]]:
    """A released-format file whose ambiguous words are the frequent ones, read back."""
    rng = np.random.default_rng(seed)
    words = []
    for i in range(n):
        ambiguous = rng.random() < 0.5
        total = int(rng.integers(200, 2000) if ambiguous else rng.integers(20, 400))
        classes = {"-person": total // 2, "-location": total - total // 2} if ambiguous \
            else {"-person": total}
        words.append((f"@w{seed}_{i}@", classes))
    write_release(words, path)
    return read_release(path)


def test_frequency_baseline_from_a_released_file_alone(tmp_path: Path) -> None:
    train = released_split(tmp_path / "train.tsv", 120, seed=1)
    test = released_split(tmp_path / "test.tsv", 60, seed=2)
    frequency = word_frequency(train) | word_frequency(test)
    f_train, f_test = (frequency_features(list(d), frequency) for d in (train, test))
    a_train, a_test = (ambiguity_labels(list(d), d) for d in (train, test))
    pred, proba = frequency_baseline(f_train, a_train, f_test)
    assert proba.shape == (60,) and set(pred.tolist()) <= {0, 1}
    assert accuracy(a_test, pred) > 75  # frequency separates them in this file
    with pytest.raises(ValueError, match="one feature column"):
        frequency_baseline(np.hstack([f_train, f_train]), a_train, np.hstack([f_test, f_test]))


def test_frequency_row_does_not_depend_on_the_vectors(tmp_path: Path) -> None:
    train = released_split(tmp_path / "train.tsv", 80, seed=3)
    test = released_split(tmp_path / "test.tsv", 40, seed=4)
    classes = class_order(train, test)
    y_train, y_test = indicator(list(train), train, classes), indicator(list(test), test, classes)
    frequency = word_frequency(train) | word_frequency(test)
    f_train, f_test = (frequency_features(list(d), frequency) for d in (train, test))
    rng = np.random.default_rng(0)

    def frequency_row(x_train: np.ndarray, x_test: np.ndarray) -> dict:
        rows = probe_grid(x_train, y_train, x_test, y_test, probe_settings(), kinds=("KNN",),
                          freq_train=f_train, freq_test=f_test)
        return next(r for r in rows if r["classifier"] == "FREQUENCY")

    x_train, x_test = rng.normal(size=(80, 5)), rng.normal(size=(40, 5))
    first = frequency_row(x_train, x_test)
    x_train[0] += 10.0  # one word's vector changes
    assert frequency_row(x_train, x_test) == first
    assert frequency_row(rng.normal(size=(80, 3)), rng.normal(size=(40, 3))) == first


# --- the grid ---------------------------------------------------------------------------------


def test_probe_grid_rows_beat_the_random_baseline() -> None:
    x, y = synthetic(400, 16, 6, seed=13, noise=0.5)  # one draw: train and test share the centroids
    x_train, y_train, x_test, y_test = x[:300], y[:300], x[300:], y[300:]
    settings = probe_settings(mlp_hidden=16, mlp_max_iter=50)
    rows = probe_grid(x_train, y_train, x_test, y_test, settings)
    by = {(r["task"], r["classifier"]): r for r in rows}
    assert set(by) == {(t, k) for t in ("sclass", "ambiguity") for k in ("LR", "KNN", "MLP")} \
        | {("sclass", "random")}
    assert all(r["n"] == 100 for r in rows)
    random_f1 = by["sclass", "random"]["value"]
    for kind in ("LR", "KNN", "MLP"):
        assert by["sclass", kind]["value"] > random_f1 + 0.2
        assert 0 <= by["ambiguity", kind]["value"] <= 100


# --- the baselines step on lines of the release's shapes ---------------------------------------


def _repeated_split(path: Path, n: int, seed: int) -> None:
    """A released-format file where every third one-class word lists its class twice (the
    release's railway lines) and frequent words are the many-class ones."""
    rng = np.random.default_rng(seed)
    lines = []
    for i in range(n):
        total = int(rng.integers(20, 300))
        if i % 3 == 0:
            entries = f"-location={total} -location={int(rng.integers(1, 9))}"
        elif i % 3 == 1:
            entries = f"-person={10 * total} -art={total} -person=1"
        else:
            entries = f"-person={total}"
        lines.append(f"@r{seed}_{i}@\t{entries}\n")
    path.write_text("".join(lines), encoding="utf-8")


@pytest.mark.parametrize("reading", ["authors", "paper"])
def test_baselines_step_reads_repeated_classes_by_either_reading(tmp_path: Path,
                                                                  reading: str) -> None:
    from reprobe.cli import main
    from reprobe.scores import read_scores
    from reprobe.wikipse.resource.release import read_split

    train, test, scores = tmp_path / "train.tsv", tmp_path / "test.tsv", tmp_path / "b.csv"
    _repeated_split(train, 90, seed=5)
    _repeated_split(test, 60, seed=6)
    main(["wikipse", "baselines", "--train", str(train), "--test", str(test),
          "--ambiguity", reading, "--seed", "0", "--scores", str(scores)])
    rows = read_scores([scores]).set_index("model")
    train_split, test_split = read_split(train), read_split(test)
    # The random baseline on distinct classes, by hand: two classes a third of the words.
    classes = class_order(train_split.classes, test_split.classes)
    y_train = indicator(list(train_split.classes), train_split.classes, classes)
    y_test = indicator(list(test_split.classes), test_split.classes, classes)
    assert y_train.sum() == 90 + 30  # -person/-art words have two, the others one
    assert rows.loc["random", "value"] == round(random_baseline_expected(y_train, y_test), 3)
    assert rows.loc["FREQUENCY", "n"] == 60
    # Authors: the doubled -location lines are multi-class, and, being the rarer words,
    # FREQUENCY cannot find them; paper: only -person/-art words are, and they are frequent.
    a_test = ambiguity_labels(list(test_split.classes), test_split, reading)
    assert a_test.sum() == (40 if reading == "authors" else 20)
    frequency = rows.loc["FREQUENCY", "value"]
    assert (frequency < 90) if reading == "authors" else (frequency == 100.0)
