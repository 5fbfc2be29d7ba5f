"""WIKI-PSE part 2 tables and figures: Tables 2, 4, 6 and 7, Figures 3-6, beside the paper."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from reprobe.scores import NO_SCORE, NOT_CONFIGURED, ScoreRow, read_scores, score_frame
from reprobe.tables.beyond import beyond_note, beyond_row, is_beyond
from reprobe.tables.compare import compare_with_reference, read_reference
from reprobe.tables.shape import View
from reprobe.tables.write import write_table
from reprobe.wikipse.probing import analyses
from reprobe.wikipse.probing.figures import plot_levels
from reprobe.wikipse.probing.probes import class_order, indicator, word_frequency
from reprobe.wikipse.resource.release import Split

PAPER = "wikipse"
TITLES = {
    "table2": "Table 2: micro-F1 of S-class prediction",
    "table3": "Table 3: micro-F1 of S-class prediction on the words public embeddings have",
    "table4": "Table 4: accuracy (%) of ambiguity prediction",
    "table5": "Table 5: the NLP tasks (accuracy %)",
    "table6": "Table 6: word similarity (Spearman) and analogy (accuracy)",
    "table7": "Table 7: the words most and least confidently predicted ambiguous",
    "table8": "Table 8: accuracy (%) of ambiguity prediction on UKP's supersense dataset",
}
NOTES = {
    "rebuilt": "The rebuilt dataset and embeddings trained here; the paper's numbers are on "
               "its own corpus (full English Wikipedia).",
    "released": "The released train/test words, with the embeddings trained here (words "
                "without a vector are left out; n says how many were probed).",
    "authors_corpus": "The released train/test words, with embeddings trained here on the "
                      "authors' own corpora (data.zip's corpus.txt and word_sclass/corpus.txt; "
                      "unifΣ/wghtΣ weighted by the released counts); n: words probed.",
    "supersense": "UKP's supersense-annotated Wikipedia (26 noun supersenses as S-classes, "
                  "selected as WIKI-PSE's words are) with UKP's published embeddings; setting: "
                  "L2-normalised vectors (yes) or raw (no); KNN votes by cosine either way; "
                  "MAJORITY and FREQUENCY on the same words (n).",
    "authors_embeddings": "The released train/test words, with the authors' own trained "
                          "embeddings from data.zip (a word/S-class file gives unifΣ/wghtΣ, "
                          "weighted by the released counts); n: words probed.",
}
AMBIGUITY_NOTES = {
    "authors": "Multi-class: more than one entry on the word's line, as the release counts its "
               "25,000 single- and 19,250 multi-class words a split (wikipse.probes.ambiguity: "
               "authors; a class listed twice counts twice).",
    "paper": "Multi-class: more than one distinct S-class, §3's \"those with more than one "
             "S-class\" (wikipse.probes.ambiguity: paper).",
}
# Whose embeddings a variant's Tables 5 and 6 score (they do not probe the dataset's words).
EMBEDDING_NOTES = {
    "authors_corpus": "SKIP and SSKIP trained here on the authors' own corpora (data.zip's "
                      "corpus.txt and word_sclass/corpus.txt); unifΣ/wghtΣ weighted by the "
                      "released counts.",
}
METRICS = {"table2": ("LR", "KNN", "MLP"), "table3": ("LR", "KNN", "MLP"),
           "table4": ("LR", "KNN", "MLP"), "table8": ("LR", "KNN", "MLP"),
           "table5": ("MC", "CR", "MR", "SUBJ", "MRPC"),
           "table6": ("MEN", "MTurk", "RW", "SimLex999", "WS353", "Google", "MSR")}


TABLE5_NOTE = ("word, wghtΣ, unifΣ: the analysed model (probes.analysis_model) at its largest "
               "dimension; sentences are averaged word vectors (a word with and without @ is "
               "the mean of both); MR, CR, SUBJ by seeded stratified cross-validated logistic "
               "regression, MRPC on its test split; MC is the strict accuracy of Shimaoka et al.'s "
               "attentive typer on FIGER (lowercased) over each fixed embedding.")
NOT_AT_SIZE = "NA (not trained at this dimension)"
# Table 6's analogy kinds (config `similarity.<name>.kind`) and the file layout each reads.
ANALOGY_LAYOUTS = {"analogy": "google", "msr_analogy": "msr"}
NO_SHARED_WORD = "NA (no word in every embedding's vocabulary)"
NO_WORD_FOUND = "NA (no train or test word in its vocabulary)"
BEYOND_NOTE = beyond_note(
    "embeddings the paper did not probe (`wikipse.extra_vectors`, or `reprobe wikipse probe "
    "--vectors FILE`); a word `@x@` is looked up as `@x@`, else `x`, title-cased or "
    "upper-cased; words it lacks are left out and n counts those found")


def tidy(table: pd.DataFrame) -> pd.DataFrame:
    """Rows by model (the paper's order, then ours, then those beyond the paper), then dimension
    as a number; a row of a model we ran at a dimension we did not says so, one beyond the paper
    without a score that none of the words was found."""
    beyond = table["model"].map(is_beyond).astype(bool)
    if beyond.any():
        table = table.copy()
        table.loc[beyond & (table["value"] == NO_SCORE), "value"] = NO_WORD_FOUND
    table = table.assign(value=table["value"].replace({NO_SCORE: NOT_AT_SIZE}))
    models = {m: i for i, m in enumerate(dict.fromkeys(table["model"]))}
    dims = pd.to_numeric(table["setting"], errors="coerce").fillna(-1)
    return table.assign(_b=beyond, _m=table["model"].map(models), _d=dims).sort_values(
        ["_b", "_m", "_d"], kind="stable").drop(columns=["_b", "_m", "_d"]).reset_index(drop=True)


def beyond_notes(table: pd.DataFrame) -> list[str]:
    """The note on rows beyond the paper, when the table has any."""
    return [BEYOND_NOTE] if table["model"].map(is_beyond).any() else []


def probe_table(table: str, scores: pd.DataFrame, reference: pd.DataFrame) -> pd.DataFrame:
    """Table 2 or 4 long: ours beside the paper's, rows by model and dimension."""
    return tidy(compare_with_reference(scores, reference, table))


def write_probe_table(table: str, scores: Sequence[Path], reference: Path, csv: Path, md: Path,
                      variant: str, ambiguity: str | None = None) -> None:
    """Build Table 2 or 4 from score files and write it in the paper's shape; Table 4's notes
    name the ambiguity reading."""
    frame = probe_table(table, read_scores(scores), read_reference(reference, table))
    if table == "table3":
        # Table 3's rows are all scored at one dimension: a missing score means no word is in
        # every embedding's vocabulary.
        ran = frame["n"].notna() & (pd.to_numeric(frame["n"], errors="coerce") == 0)
        frame.loc[ran, "value"] = NO_SHARED_WORD
    if table == "table5":
        frame.loc[frame["value"] == NOT_AT_SIZE, "value"] = "NA (task not in this config)"
        if variant != "rebuilt":
            # The public embeddings' rows are the rebuild's table's; they do not change.
            frame.loc[frame["value"] == NOT_CONFIGURED, "value"] = "NA (public: see table5.csv)"
    count = "#test sentences (MC: mentions)" if table == "table5" else "#test words"
    view = View(rows=("model", "setting"), order=METRICS[table], count_label=count)
    notes = [NOTES[variant]] if table != "table5" else [
        TABLE5_NOTE, *([] if variant == "rebuilt" else [EMBEDDING_NOTES[variant]])]
    if table == "table4" and ambiguity:
        notes.append(AMBIGUITY_NOTES[ambiguity])
    notes += beyond_notes(frame)
    plain = table == "table8" or (table == "table5" and variant == "rebuilt")
    title = TITLES[table] if plain else f"{TITLES[table]} ({variant})"
    write_table(frame, csv, md, title, view=view, notes=notes)


def write_variants_table(table: str, scores: Mapping[str, Sequence[Path]], reference: Path,
                         csv: Path, md: Path, ambiguity: str | None = None) -> None:
    """Table 2 or 4 with every probed variant side by side (rebuild, released words, authors'
    corpus, authors' embeddings): a column per variant and classifier, each beside the
    paper's number."""
    published = read_reference(reference, table)
    frames = [probe_table(table, read_scores(paths), published).assign(variant=variant)
              for variant, paths in scores.items()]
    frame = tidy(pd.concat(frames, ignore_index=True))
    order = [f"{variant} {metric}" for variant in scores for metric in METRICS[table]]
    view = View(rows=("model", "setting"), columns=("variant", "metric"), order=tuple(order),
                count_label="#test words")
    notes = [f"{variant}: {NOTES[variant]}" for variant in scores]
    if table == "table4" and ambiguity:
        notes.append(AMBIGUITY_NOTES[ambiguity])
    notes += beyond_notes(frame)
    write_table(frame, csv, md, f"{TITLES[table]} (every variant)", view=view, notes=notes)


def _load(path: Path) -> dict[str, np.ndarray]:
    """The arrays a probe step saved."""
    with np.load(path, allow_pickle=False) as saved:
        return {name: saved[name] for name in saved.files}


def write_analyses(predictions: Mapping[str, Path], train: Split, test: Split,
                   word_vectors: Path, out: Path, classifier: str, reading: str,
                   suffix: str = "") -> None:
    """Figures 3a/3b/5a/5b (one line per embedding), 4, 6 and Table 7, into out (each file
    name ending in suffix, e.g. `figure3a_authors_corpus.png`); Figure 4's FREQUENCY learns
    the ambiguity labels of the given reading, as the probes did."""
    from reprobe.wikipse.embedding.vectors import load_vectors
    from reprobe.wikipse.probing.probes import (
        ambiguity_labels,
        features,
        frequency_baseline,
        frequency_features,
    )

    train_data, test_data = train.classes, test.classes
    data = {**train_data, **test_data}
    saved = {series: _load(path) for series, path in predictions.items()}
    classes = list(class_order(train_data, test_data))
    compatibility = analyses.class_compatibility(indicator(list(train_data), train_data,
                                                           classes))
    factors = {
        "figure3a": (analyses.recall_by_dominance, "dominance level"),
        "figure3b": (analyses.recall_by_class_count, "number of S-classes"),
        "figure5a": (analyses.recall_by_frequency, "frequency level"),
    }
    for name, (factor, xlabel) in factors.items():
        frames = {series: factor(list(s["words"]), list(s["classes"]), data, s["y_true"],
                                 s[f"y_pred_{classifier}"]) for series, s in saved.items()}
        plot_levels(frames, "level", "recall", f"Recall ({classifier}) by {xlabel}", xlabel,
                    "recall", out / f"{name}{suffix}.csv", out / f"{name}{suffix}.png")
    frames = {series: analyses.recall_by_typicality(
        list(s["words"]), list(s["classes"]), data, s["y_true"], s[f"y_pred_{classifier}"],
        _aligned(compatibility, classes, list(s["classes"])))
        for series, s in saved.items()}
    plot_levels(frames, "level", "recall", f"Recall ({classifier}) by typicality", "typicality",
                "recall", out / f"figure5b{suffix}.csv", out / f"figure5b{suffix}.png")
    first = next(iter(saved.values()))
    words = list(first["words"])
    frequency = word_frequency(data)
    freq_pred, _ = frequency_baseline(frequency_features(list(train_data), frequency),
                                      ambiguity_labels(list(train_data), train, reading),
                                      frequency_features(words, frequency))
    word_series = next(iter(saved))
    plot_levels({word_series: analyses.accuracy_by_class_count(
                     words, data, first["a_true"], first[f"a_pred_{classifier}"]),
                 "FREQUENCY": analyses.accuracy_by_class_count(words, data, first["a_true"],
                                                               freq_pred)},
                "level", "accuracy", "Ambiguity accuracy by number of S-classes",
                "number of S-classes", "accuracy (%)", out / f"figure4{suffix}.csv",
                out / f"figure4{suffix}.png")
    vectors = load_vectors(word_vectors)
    everything = list(data)
    matrix, kept = features(everything, vectors)
    kept_words = [w for w, k in zip(everything, kept, strict=True) if k]
    plot_levels({word_series: analyses.neighbour_diversity(kept_words, data, matrix)},
                "level", "unique_classes", "Unique S-classes among the 5 nearest neighbours of "
                "two-class words", "dominance level (minor class)", "unique S-classes",
                out / f"figure6{suffix}.csv", out / f"figure6{suffix}.png")
    examples = analyses.ambiguity_examples(words, data, frequency,
                                           first[f"a_proba_{classifier}"])
    title = TITLES["table7"] + (f" ({suffix.lstrip('_')})" if suffix else "")
    write_table(examples, out / f"table7{suffix}.csv", out / f"table7{suffix}.md", title, notes=[
        f"{word_series}, {classifier}: likelihood of being ambiguous; frequency: the word's "
        "mentions in the corpus (the sum of its class frequencies)."])


def _aligned(compatibility: np.ndarray, order: Sequence[str], wanted: Sequence[str]
             ) -> np.ndarray:
    """The compatibility matrix with rows and columns in another class order."""
    index = [list(order).index(c) for c in wanted]
    return compatibility[np.ix_(index, index)]


def similarity_rows(vectors: Mapping[str, Path], datasets: Mapping[str, Mapping[str, str]],
                    beyond: Mapping[str, Path] | None = None) -> list[ScoreRow]:
    """Spearman (pairs) or accuracy (analogies) of every word embedding on every dataset: ours
    (`MODEL DIM` → folder), then those beyond the paper (name → folder or file)."""
    from reprobe.wikipse.embedding.outside import read_embedding
    from reprobe.wikipse.embedding.vectors import load_vectors

    rows = []
    for name, folder in vectors.items():
        model, dim = name.rsplit(" ", 1)
        rows += similarity_of(model, dim, load_vectors(folder), datasets)
    for name, path in (beyond or {}).items():
        loaded = read_embedding(path, None)
        rows += similarity_of(beyond_row(name), str(loaded.vector_size), loaded, datasets)
    return rows


def similarity_of(model: str, dim: str, loaded: Any, datasets: Mapping[str, Mapping[str, str]]
                   ) -> list[ScoreRow]:
    """One embedding's rows of Table 6."""
    from reprobe.wikipse.tasks.similarity import analogy_accuracy, similarity_scores

    rows = []
    for dataset, spec in datasets.items():
        if spec["kind"] in ANALOGY_LAYOUTS:
            # Footnote 7's averaging is for §5.3's tasks only: plain words here.
            found = analogy_accuracy(loaded, Path(spec["path"]),
                                     layout=ANALOGY_LAYOUTS[spec["kind"]], footnote7=False)
            value, n = found["accuracy"], found["covered"]
        else:
            found = similarity_scores(loaded, Path(spec["path"]),
                                      strip_pos=spec["kind"] == "pairs_pos",
                                      footnote7=False)
            value, n = found["spearman"], found["pairs"]
        rows.append(ScoreRow(PAPER, "table6", model, dim, dataset, round(float(value), 3),
                             int(n)))
    return rows


def write_similarity_table(vectors: Mapping[str, Path],
                           datasets: Mapping[str, Mapping[str, str]], reference: Path,
                           csv: Path, md: Path, variant: str = "rebuilt",
                           beyond: Mapping[str, Path] | None = None) -> None:
    """Table 6 beside the paper's numbers (the rebuild's embeddings, or another variant's,
    named in the title), and the embeddings beyond the paper below them."""
    rows = similarity_rows(vectors, datasets, beyond)
    frame = tidy(compare_with_reference(score_frame(rows), read_reference(reference, "table6"),
                                        "table6"))
    view = View(rows=("model", "setting"), order=METRICS["table6"], count_label="#covered")
    title = TITLES["table6"] + ("" if variant == "rebuilt" else f" ({variant})")
    write_table(frame, csv, md, title, view=view, notes=[
        "Pairs and questions whose words all have a vector (n), each word its plain "
        "lowercased token: footnote 7's averaging with the @-form is for §5.3's tasks "
        "(Table 5) only.", *([] if variant == "rebuilt" else [EMBEDDING_NOTES[variant]]),
        *beyond_notes(frame)])
