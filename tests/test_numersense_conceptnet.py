"""Adversarial probes from hand-written ConceptNet edges (reprobe.numersense.conceptnet)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from reprobe.errors import InputFormatError
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.conceptnet import (
    adversarial_variants,
    build_all_set,
    counted_noun,
    noun_keys,
    placements,
    read_properties,
    subject_noun,
    write_all_set,
)
from reprobe.numersense.probes import LabelledProbe, read_masked_tsv, read_masked_txt

HAS_PROPERTY = {"HasProperty": "any"}


def edge(relation: str, start: str, end: str, weight: float | None = 1.0) -> str:
    """One assertion line in the conceptnet-assertions-5.7.0.csv layout."""
    info: dict[str, object] = {"dataset": "/d/conceptnet/4/en", "license": "cc:by/4.0"}
    if weight is not None:
        info["weight"] = weight
    uri = f"/a/[/r/{relation}/,{start}/,{end}/]"
    return f"{uri}\t/r/{relation}\t{start}\t{end}\t{json.dumps(info)}\n"


def write(tmp_path: Path, lines: list[str], name: str = "assertions.csv") -> Path:
    """A ConceptNet CSV of the given lines."""
    path = tmp_path / name
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_keeps_english_single_word_ends_heaviest_first(tmp_path: Path):
    path = write(tmp_path, [
        edge("HasProperty", "/c/en/wheel", "/c/en/black", 1.0),
        edge("HasProperty", "/c/en/wheel/n", "/c/en/round/a", 2.0),
        edge("HasProperty", "/c/en/wheel", "/c/en/big", 1.0),
        edge("HasProperty", "/c/en/wheel", "/c/en/very_big", 3.0),     # two words
        edge("HasProperty", "/c/en/wheel", "/c/en/2m", 3.0),           # not alphabetic
        edge("HasProperty", "/c/de/rad", "/c/de/rund", 3.0),           # not English
        edge("HasProperty", "/c/en/wheel", "/c/fr/rond", 3.0),         # end not English
        edge("IsA", "/c/en/wheel", "/c/en/machine", 3.0),              # other relation
    ])
    properties = read_properties(path, relations=HAS_PROPERTY, min_weight=1.0)
    assert properties == {"wheel": [("round", 2.0), ("big", 1.0), ("black", 1.0)]}


def test_weight_threshold_is_inclusive(tmp_path: Path):
    path = write(tmp_path, [edge("HasProperty", "/c/en/leg", "/c/en/long", 1.0),
                            edge("HasProperty", "/c/en/leg", "/c/en/broken", 0.5)])
    assert read_properties(path, relations=HAS_PROPERTY, min_weight=1.0) == {
        "leg": [("long", 1.0)]}
    assert read_properties(path, relations=HAS_PROPERTY, min_weight=0.5)["leg"] == [
        ("long", 1.0), ("broken", 0.5)]


def test_repeated_edge_keeps_its_largest_weight(tmp_path: Path):
    path = write(tmp_path, [edge("HasProperty", "/c/en/wheel", "/c/en/round", 1.0),
                            edge("HasProperty", "/c/en/wheel/n", "/c/en/round/a", 2.5),
                            edge("HasProperty", "/c/en/Wheel", "/c/en/round", 1.5)])
    properties = read_properties(path, relations=HAS_PROPERTY, min_weight=1.0)
    assert properties == {"wheel": [("round", 2.5)]}


def test_adjective_relation_needs_the_adjective_marker(tmp_path: Path):
    path = write(tmp_path, [
        edge("RelatedTo", "/c/en/wheel/n", "/c/en/circular/a"),
        edge("RelatedTo", "/c/en/moon/n", "/c/en/lunar/a/wn/pert"),
        edge("RelatedTo", "/c/en/wheel", "/c/en/tire"),
        edge("RelatedTo", "/c/en/wheel/n", "/c/en/axle/n"),
        edge("HasProperty", "/c/en/wheel", "/c/en/black"),
    ])
    relations = {"RelatedTo": "adjective", "HasProperty": "any"}
    properties = read_properties(path, relations=relations, min_weight=1.0)
    assert properties == {"moon": [("lunar", 1.0)],
                          "wheel": [("black", 1.0), ("circular", 1.0)]}
    # Under "any", the noun ends count too.
    loose = read_properties(path, relations={"RelatedTo": "any"}, min_weight=1.0)
    assert [a for a, _ in loose["wheel"]] == ["axle", "circular", "tire"]


def test_unknown_relation_mode_is_an_error(tmp_path: Path):
    path = write(tmp_path, [edge("HasProperty", "/c/en/wheel", "/c/en/round")])
    with pytest.raises(ValueError, match="HasProperty"):
        read_properties(path, relations={"HasProperty": "noun"}, min_weight=1.0)


def test_reads_gzip_by_name(tmp_path: Path):
    path = tmp_path / "assertions.csv.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write(edge("HasProperty", "/c/en/string", "/c/en/tight", 2.0))
    properties = read_properties(path, relations=HAS_PROPERTY, min_weight=1.0)
    assert properties == {"string": [("tight", 2.0)]}


@pytest.mark.parametrize(("bad", "problem"), [
    ("/a/[x]\t/r/HasProperty\t/c/en/wheel\t/c/en/round\n", "5 tab-separated"),
    (edge("HasProperty", "/c/en/wheel", "/c/en/round").replace('{"dataset"', '{dataset'),
     "not JSON"),
    (edge("HasProperty", "/c/en/wheel", "/c/en/round", weight=None), "weight"),
    (edge("HasProperty", "/c/en/wheel", "/c/en/round").replace("1.0}", '"heavy"}'),
     "not a number"),
])
def test_malformed_row_names_the_file_and_line(tmp_path: Path, bad: str, problem: str):
    path = write(tmp_path, [edge("HasProperty", "/c/en/leg", "/c/en/long"), "\n", bad])
    with pytest.raises(InputFormatError, match=problem) as caught:
        read_properties(path, relations=HAS_PROPERTY, min_weight=1.0)
    assert caught.value.where == "line 3"
    assert caught.value.path == str(path)


def test_counted_noun_is_the_word_after_the_mask():
    probe = "a car has <mask> wheels ."
    assert counted_noun(probe) == (probe.index("wheels"), "wheels")
    assert counted_noun("<mask> legs hold a table up.") == (7, "legs")
    assert counted_noun("a pair is <mask>.") is None
    assert counted_noun("the answer is <mask>") is None
    assert counted_noun("buy <mask> 4x4 trucks.") is None
    assert counted_noun("a <mask>-legged stool.") is None


@pytest.mark.parametrize(("probe", "word"), [
    ("a kite has <mask> tails.", "kite"),
    ("most crabs walk on <mask> legs.", "crabs"),
    ("one week lasts <mask> days.", "week"),
    ("typically, a canoe seats <mask> people.", "canoe"),
    ("people's hands have <mask> thumbs.", "people"),
    ("you have <mask> hands.", None),
    ("if it rains, <mask> puddles form.", None),
    ("the <mask> seasons pass.", None),
    ("<mask> legs hold a stool up.", None),
    ("u.k. plugs have <mask> pins.", None),
])
def test_subject_noun_is_the_first_word_after_leading_words(probe: str, word: str | None):
    found = subject_noun(probe)
    assert (found and found[1]) == word
    if found is not None:
        assert probe[found[0]:].startswith(word)


@pytest.mark.parametrize(("word", "keys"), [
    ("wheels", ["wheels", "wheel"]),
    ("boxes", ["boxes", "boxe", "box"]),
    ("bodies", ["bodies", "body", "bodie", "bodi"]),
    ("knives", ["knives", "knif", "knife", "knive", "kniv"]),
    ("teeth", ["teeth", "tooth"]),
    ("People", ["people", "person"]),
    ("glass", ["glass"]),
    ("moon", ["moon"]),
])
def test_noun_keys_give_the_word_then_singulars(word: str, keys: list[str]):
    assert noun_keys(word) == keys


def test_variant_inserts_the_adjective_before_the_noun():
    probe = LabelledProbe("a car usually has <mask> wheels .", "four")
    made = adversarial_variants(probe, {"wheel": [("round", 2.0)]}, variants=3)
    assert made == [LabelledProbe("a car usually has <mask> round wheels .", "four")]


def test_variant_at_sentence_start_and_irregular_plural():
    probe = LabelledProbe("<mask> feet hold a tripod up.", "three")
    made = adversarial_variants(probe, {"foot": [("big", 1.0)]}, variants=1)
    assert made == [LabelledProbe("<mask> big feet hold a tripod up.", "three")]


def test_variants_are_capped_and_follow_the_property_order():
    probe = LabelledProbe("a dog has <mask> legs.", "four")
    properties = {"legs": [("hairy", 1.0)],
                  "leg": [("strong", 2.0), ("hairy", 1.5), ("long", 1.0), ("thin", 1.0)]}
    made = adversarial_variants(probe, properties, variants=2)
    assert [p.probe for p in made] == ["a dog has <mask> hairy legs.",
                                       "a dog has <mask> strong legs."]
    assert adversarial_variants(probe, properties, variants=0) == []


def test_variant_skips_the_noun_words_in_the_probe_and_number_words():
    probe = LabelledProbe("a square table has <mask> legs.", "four")
    properties = {"leg": [("leg", 3.0), ("square", 2.0), ("two", 2.0), ("table", 1.5),
                          ("wooden", 1.0)]}
    assert "two" in CANDIDATES
    made = adversarial_variants(probe, properties, variants=5)
    assert made == [LabelledProbe("a square table has <mask> wooden legs.", "four")]


def test_variant_before_the_subject_noun_when_the_counted_noun_has_none():
    probe = LabelledProbe("a kite has <mask> tails.", "two")
    made = adversarial_variants(probe, {"kite": [("paper", 1.0)]}, variants=2)
    assert made == [LabelledProbe("a paper kite has <mask> tails.", "two")]


def test_nouns_take_turns_counted_noun_first():
    probe = LabelledProbe("a crab has <mask> claws.", "two")
    properties = {"claw": [("sharp", 2.0), ("red", 1.0)],
                  "crab": [("small", 1.5), ("blue", 1.0)]}
    made = adversarial_variants(probe, properties, variants=3)
    assert [p.probe for p in made] == ["a crab has <mask> sharp claws.",
                                       "a small crab has <mask> claws.",
                                       "a crab has <mask> red claws."]
    assert [site for site, _, _ in placements(probe.probe, properties, variants=9)] == [
        "counted", "subject", "counted", "subject"]
    assert adversarial_variants(probe, properties, variants=3) == made


def test_no_variant_without_noun_or_property():
    assert adversarial_variants(LabelledProbe("we count to <mask>.", "ten"),
                                {"count": [("high", 1.0)], "we": [("happy", 1.0)]},
                                variants=2) == []
    assert adversarial_variants(LabelledProbe("a cow has <mask> stomachs.", "four"),
                                {"wheel": [("round", 1.0)]}, variants=2) == []


def test_all_set_follows_each_core_probe_with_its_variants():
    core = [LabelledProbe("a car has <mask> wheels.", "four"),
            LabelledProbe("we divide by <mask>.", "two"),
            LabelledProbe("a cow has <mask> stomachs.", "four"),
            LabelledProbe("a bicycle has <mask> wheels.", "two")]
    properties = {"wheel": [("round", 2.0)], "bicycle": [("big", 1.0)]}
    probes, counts = build_all_set(core, properties, variants=2)
    assert [p.probe for p in probes] == [
        "a car has <mask> wheels.", "a car has <mask> round wheels.",
        "we divide by <mask>.", "a cow has <mask> stomachs.",
        "a bicycle has <mask> wheels.", "a bicycle has <mask> round wheels.",
        "a big bicycle has <mask> wheels."]
    assert counts == {"core": 4, "adversarial": 3, "before_counted_noun": 2,
                      "before_subject_noun": 1, "core_with_variant": 2, "no_noun": 1,
                      "no_property": 1}


def test_write_all_set_in_the_released_layouts(tmp_path: Path):
    probes = [LabelledProbe("a car has <mask> wheels.", "four"),
              LabelledProbe("a car has <mask> round wheels.", "four")]
    counts = {"core": 1, "adversarial": 1}
    parameters = {"variants": 1, "input": "cn.csv", "input_sha256": "ab" * 32}
    txt, tsv, card = tmp_path / "all.masked.txt", tmp_path / "all.masked.tsv", tmp_path / "c.json"
    write_all_set(probes, txt, tsv, card, counts, parameters)
    assert read_masked_txt(txt) == [p.probe for p in probes]
    assert read_masked_tsv(tsv, frozenset(CANDIDATES)) == probes
    written = json.loads(card.read_text(encoding="utf-8"))
    assert written == {"probes": 2, "counts": counts, "parameters": parameters}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["all.masked.tsv", "all.masked.txt",
                                                          "c.json"]
