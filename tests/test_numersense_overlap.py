"""Released versus rebuilt NumerSense sets, and recovered labels (reprobe.numersense.overlap)."""

from __future__ import annotations

import csv
import math
from pathlib import Path

from conftest import REPO
from reprobe.numersense.builder import MISC, RULES, build_probes
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.conceptnet import build_all_set, read_properties
from reprobe.numersense.evaluate import probe_key, read_predictions
from reprobe.numersense.generics import finetune_rows, read_generics
from reprobe.numersense.overlap import (
    label_map,
    overlap_key,
    overlap_rows,
    recover_labels,
    write_overlap_table,
)
from reprobe.numersense.probes import LabelledProbe, read_masked_tsv, read_masked_txt
from reprobe.numersense.settings import BuilderSettings
from reprobe.step_settings import settings_from_schema

SAMPLES = REPO / "data/samples/numersense"
CATEGORIES = ("objects", "biology", "geometry", "unit", "math", "physics", "geography", MISC)


def test_overlap_key_ignores_case_spacing_and_trailing_spaces():
    assert overlap_key("  A Car  has <mask>\twheels.  ") == "a car has <mask> wheels."


def labelled(*probes: str, label: str = "four") -> list[LabelledProbe]:
    """The probes, each with the same label."""
    return [LabelledProbe(p, label) for p in probes]


def test_overlap_rows_count_lines_and_distinct_probes():
    released = {
        "core": ["a car has <mask> wheels.  ", "A car has <mask> wheels.",
                 "a dog has <mask> legs."],
        "all": ["x <mask> y."],
        "train": ["Bees have <mask> eyes."],
    }
    rebuilt = {"core": labelled("a car has <mask> wheels.", "an ant has <mask> legs.",
                                "a cube has <mask> faces.", "a cube has <mask>  faces."),
               "train": []}
    rows = overlap_rows(released, rebuilt)
    assert [row["set"] for row in rows] == ["core", "train"]   # "all" was not rebuilt
    core = rows[0]
    assert {k: core[k] for k in ("released_lines", "released_distinct", "rebuilt_distinct",
                                 "shared_distinct")} == {
        "released_lines": 3, "released_distinct": 2, "rebuilt_distinct": 3, "shared_distinct": 1}
    assert core["share_of_released"] == 50.0
    assert math.isclose(core["share_of_rebuilt"], 100 / 3)
    assert rows[1]["shared_distinct"] == 0 and math.isnan(rows[1]["share_of_rebuilt"])
    assert core["label_compared"] == 0 and math.isnan(core["label_agreement"])


def test_label_agreement_where_the_released_labels_are_known():
    released = {"core": ["a car has <mask> wheels.", "a dog has <mask> legs.",
                         "a kite has <mask> sides."]}
    rebuilt = {"core": [LabelledProbe("a car has <mask> wheels.", "four"),
                        LabelledProbe("a dog has <mask> legs.", "three"),
                        LabelledProbe("a cube has <mask> faces.", "six")]}
    gold = label_map([LabelledProbe("A car has <mask> wheels. ", "four"),
                      LabelledProbe("a dog has <mask> legs.", "four"),
                      LabelledProbe("a kite has <mask> sides.", "four")])
    (row,) = overlap_rows(released, rebuilt, {"core": gold})
    # Two shared probes carry a label on both sides; one agrees.
    assert (row["label_compared"], row["label_agreement"]) == (2, 50.0)


def test_recovered_labels_keep_every_released_line_in_order():
    released = ["a car has <mask> wheels.  ", "A Dog has <mask> legs. ",
                "a kite has <mask> sides.", "a car has <mask> wheels.  "]
    rebuilt = [LabelledProbe("a dog has <mask> legs.", "four"),
               LabelledProbe("a car has <mask> wheels.", "four")]
    assert recover_labels(released, rebuilt) == [
        LabelledProbe("a car has <mask> wheels.", "four"),
        LabelledProbe("A Dog has <mask> legs.", "four"),
        LabelledProbe("a car has <mask> wheels.", "four")]


def test_ambiguous_rebuilt_label_is_left_out():
    released = ["a cat has <mask> legs.", "birds have <mask> wings."]
    rebuilt = [LabelledProbe("a cat has <mask> legs.", "four"),
               LabelledProbe("A cat has <mask> legs.", "three"),
               LabelledProbe("birds have <mask> wings.", "two"),
               LabelledProbe("birds have <mask>  wings.", "two")]
    assert recover_labels(released, rebuilt) == [LabelledProbe("birds have <mask> wings.", "two")]


def test_write_overlap_table_as_csv_and_markdown(tmp_path: Path):
    rows = overlap_rows({"core": ["a <mask> b.", "c <mask> d."], "all": ["e <mask> f."]},
                        {"core": labelled("a <mask> b."), "all": []})
    csv_path, md_path = tmp_path / "overlap.csv", tmp_path / "overlap.md"
    write_overlap_table(rows, csv_path, md_path)
    with csv_path.open(encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert table[0] == {"set": "core", "released_lines": "2", "released_distinct": "2",
                        "rebuilt_distinct": "1", "shared_distinct": "1",
                        "share_of_released": "50.00", "share_of_rebuilt": "100.00",
                        "label_compared": "0", "label_agreement": ""}
    assert table[1]["share_of_rebuilt"] == ""
    markdown = md_path.read_text(encoding="utf-8").splitlines()
    assert markdown[0].startswith("| set | released_lines |")
    assert markdown[2] == "| core | 2 | 2 | 1 | 1 | 50.0 | 100.0 | 0 | n/a |"
    assert markdown[3].endswith("| 0.0 | n/a | 0 | n/a |")


def test_sample_files_run_through_the_whole_stage():
    """Builder, adversarial set, fine-tuning rows and label recovery on the committed samples."""
    built = build_probes(SAMPLES / "omcs_sample.tsv",
                         settings_from_schema(BuilderSettings, "numersense.builder"))
    assert built.rows_read > built.english_rows                      # other languages skipped
    assert all(built.filter_counts[rule] > 0 for rule in RULES), built.filter_counts
    assert all(built.category_counts[c] > 0 for c in CATEGORIES), built.category_counts

    # The default config's relations: RelatedTo with an adjective end (/a) adds candidates.
    properties = read_properties(SAMPLES / "conceptnet_sample.csv",
                                 relations={"HasProperty": "any", "RelatedTo": "adjective"},
                                 min_weight=1.0)
    all_set, counts = build_all_set(built.probes, properties, variants=2)
    assert counts["core"] == len(built.probes)
    assert counts["adversarial"] >= 10
    assert len(all_set) == counts["core"] + counts["adversarial"]

    sentences = [sentence for _, sentence in read_generics(SAMPLES / "genericskb_sample.tsv")]
    exclude = {probe_key(p.probe) for p in all_set}
    rows, finetune_counts = finetune_rows(sentences, exclude=exclude)
    assert finetune_counts["excluded_test_probe"] >= 2
    assert finetune_counts["duplicate"] >= 1
    assert not {probe_key(r.probe) for r in rows} & exclude

    released = SAMPLES / "released"
    core = read_masked_txt(released / "test.core.masked.txt")
    recovered = recover_labels(core, built.probes)
    assert len(recovered) >= 5
    assert len(recovered) > len({overlap_key(p.probe) for p in recovered})  # a duplicate kept

    words = frozenset(CANDIDATES)
    rows_by_set = overlap_rows(
        {"core": core, "all": read_masked_txt(released / "test.all.masked.txt"),
         "validation": [p.probe for p in read_masked_tsv(released / "validation.masked.tsv",
                                                          words)],
         "train": [p.probe for p in read_masked_tsv(released / "train.masked.tsv", words)]},
        {"core": built.probes, "all": all_set, "validation": built.probes, "train": rows})
    assert all(0 < row["share_of_released"] < 100 for row in rows_by_set), rows_by_set

    for model in ("gpt", "bert-base"):
        predictions = read_predictions(released / "results" / f"{model}.test.core.output.jsonl")
        assert set(predictions) == {probe_key(p) for p in core}
        assert all(sorted(w for w, _ in ranked) == sorted(CANDIDATES)
                   for ranked in predictions.values())
