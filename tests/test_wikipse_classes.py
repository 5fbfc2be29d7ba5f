"""WIKI-PSE S-classes: FIGER's types.map, the fold rules and the 34 released class names."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REPO
from reprobe.config import load_yaml
from reprobe.errors import ConfigError, InputFormatError
from reprobe.wikipse.resource.classes import (
    TOP_LEVEL,
    TWO_LEVEL,
    FoldRule,
    class_name,
    compare_classes,
    figer_types_of,
    fold_rules,
    fold_table,
    read_released_classes,
    read_types_map,
    sclass_of,
    sclasses_of,
)

SAMPLES = REPO / "data" / "samples" / "wikipse"
TYPES_MAP = SAMPLES / "figer_types.map"
RELEASED_CLASSES = SAMPLES / "released" / "semantic_classes.txt"
CONFIG = REPO / "config" / "config.yaml"

# The 34 S-classes of the release (Table 1 of the paper), most frequent first.
RELEASED = [
    "-location", "-person", "-organization", "-art", "-event", "-broadcast_program", "-title",
    "-product", "-living_thing", "-people-ethnicity", "-language", "-broadcast_network",
    "-time", "-religion-religion", "-award", "-internet-website", "-god",
    "-education-educational_degree", "-food", "-computer-programming_language",
    "-metropolitan_transit-transit_line", "-transit", "-finance-currency", "-disease",
    "-chemistry", "-body_part", "-finance-stock_exchange", "-law",
    "-medicine-medical_treatment", "-medicine-drug", "-broadcast-tv_channel",
    "-medicine-symptom", "-biology", "-visual_art-color",
]

# The fold, as config/config.yaml's wikipse.fold holds it (checked below when it is there).
FOLD: list[dict] = [
    {"figer": "/written_work", "sclass": "art", "reason": (
        "books and journals are art in the release: @yale_law_journal@ -art, @oxford_poetry@ "
        "-art; no -written_work class")},
    {"figer": "/music", "sclass": "art", "reason": (
        "songs and albums are art: @the_wayward_wind@ -art, @strong_enough@ -art, "
        "@candy_shop@ -art; no -music class")},
    {"figer": "/play", "sclass": "art", "reason": (
        "plays and operas have no class of their own in the release; stage works sit with "
        "films and books under -art")},
    {"figer": "/newspaper", "sclass": "art", "reason": (
        "newspapers are art: @jersey_evening_post@ -art, @chattanooga_times_free_press@ -art;"
        " no -newspaper class")},
    {"figer": "/software", "sclass": "product", "reason": (
        "software is a product: @acrobat@ -product; no -software class")},
    {"figer": "/game", "sclass": "product", "reason": (
        "video games are products: @tom_clancy's_endwar@ -product; no -game class")},
    {"figer": "/train", "sclass": "product", "reason": (
        "locomotive classes are vehicles like /product/car and /product/ship; no -train class")},
    {"figer": "/building", "sclass": "location", "reason": (
        "buildings are places: @bbva_compass_stadium@, @crystal_palace_transmitting_station@,"
        " @seattle_children's@ (hospital) are -location; no -building class")},
    {"figer": "/astral_body", "sclass": "location", "reason": (
        "the release has no -astral_body class; planets and stars are places, as FIGER's own "
        "types.map maps /astronomy/planet to a /location type")},
    {"figer": "/park", "sclass": "location", "reason": (
        "parks are places: @heritage_usa@ (a theme park) is -location; no -park class")},
    {"figer": "/geography/*", "sclass": "location", "reason": (
        "glaciers, islands and mountains are places: @byrd_glacier@, @grand_cayman@, @tahiti@"
        " are -location; no -geography class")},
    {"figer": "/rail/railway", "sclass": "location", "reason": (
        "railways are routes on the ground like roads; the release has no -rail class")},
    {"figer": "/transportation/road", "sclass": "location", "reason": (
        "roads are places: @u.s._route_169@, @i-376@, @via_salaria@ are -location; no "
        "-transportation class")},
    {"figer": "/military", "sclass": "organization", "reason": (
        "military units are organizations: @light_dragoons@ -organization; no -military class")},
    {"figer": "/news_agency", "sclass": "organization", "reason": (
        "news agencies are organizations; the release has no -news_agency class")},
    {"figer": "/government_agency", "sclass": "organization", "reason": (
        "agencies are organizations: @ministry_of_natural_resources@ -organization, "
        "@malaysian_highway_authority@ -organization; no -government_agency class")},
    {"figer": "/government/*", "sclass": "organization", "reason": (
        "governments and parties are organizations: @city_council_of_tehran@, "
        "@party_of_progress_and_socialism@ are -organization; no -government class")},
    {"figer": "/education/department", "sclass": "organization", "reason": (
        "university departments are organizations; only -education-educational_degree "
        "survives as an education class")},
    {"figer": "/livingthing/*", "sclass": "living_thing", "reason": (
        "animals are living things: @serow@ -living_thing; FIGER spells this branch "
        "livingthing, the release has only -living_thing")},
    {"figer": "/computer/algorithm", "sclass": None, "reason": (
        "no class in the release: -computer-programming_language is the only computer class "
        "and an algorithm is no language")},
]


@pytest.fixture(scope="module")
def figer_types() -> list[str]:
    """The FIGER types of the sample types.map."""
    return figer_types_of(read_types_map(TYPES_MAP))


def covered(row: dict, figer_types: list[str]) -> list[str]:
    """The FIGER types a fold row's path names (itself, or all under a "/*" path)."""
    figer = row["figer"]
    if figer.endswith("/*"):
        stem = figer[:-2]
        return [t for t in figer_types if t == stem or t.startswith(stem + "/")]
    return [t for t in figer_types if t == figer or t.startswith(figer + "/")]


def test_read_types_map_keeps_all_565_rows_in_file_order():
    types_map = read_types_map(TYPES_MAP)
    assert sum(len(figer) for figer in types_map.values()) == 565
    assert list(types_map)[:3] == [
        "/base/terrorism/terrorist", "/base/terrorism/terrorist_attack",
        "/base/terrorism/terrorist_organization"]
    assert types_map["/people/person"] == ["/person"]
    assert len(figer_types_of(types_map)) == 113


def test_read_types_map_names_the_malformed_line(tmp_path):
    path = tmp_path / "types.map"
    path.write_text("/people/person\t/person\n/location/location /location\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="line 2"):
        read_types_map(path)


def test_class_name_writes_slashes_as_dashes():
    assert class_name("/people/ethnicity") == "-people-ethnicity"
    assert class_name("/person") == "-person"


def test_top_level_is_the_default(figer_types):
    assert sclass_of("/person/author", figer_types, []) == "-person"
    assert sclass_of("/event/military_conflict", figer_types, []) == "-event"
    assert sclass_of("/location", figer_types, []) == "-location"
    table = {row[0]: row for row in fold_table(figer_types, [])}
    assert table["/person/author"] == ("/person/author", "-person", TOP_LEVEL)


@pytest.mark.parametrize("figer_type", [
    "/people/ethnicity", "/medicine/drug", "/finance/currency", "/religion/religion",
    "/visual_art/color", "/broadcast/tv_channel", "/internet/website",
])
def test_two_level_when_the_parent_is_no_figer_type(figer_types, figer_type):
    assert sclass_of(figer_type, figer_types, []) == class_name(figer_type)
    table = {row[0]: row for row in fold_table(figer_types, [])}
    assert table[figer_type][2] == TWO_LEVEL


def test_without_the_fold_the_top_level_gives_57_classes(figer_types):
    assert len(sclasses_of(figer_types, figer_types, [])) == 57


@pytest.mark.parametrize("row", FOLD, ids=[row["figer"] for row in FOLD])
def test_each_fold_row_on_its_own(figer_types, row):
    types = covered(row, figer_types)
    assert types, f"{row['figer']} covers no FIGER type"
    rules = fold_rules([row])
    expected = None if row["sclass"] is None else "-" + row["sclass"]
    for figer_type in types:
        assert sclass_of(figer_type, figer_types, []) != expected
        assert sclass_of(figer_type, figer_types, rules) == expected
    table = {row[0]: row for row in fold_table(figer_types, rules)}
    assert {table[t][2] for t in types} == {row["reason"]}


def test_a_rule_for_a_parent_folds_its_children(figer_types):
    rules = fold_rules([{"figer": "/building", "sclass": "location", "reason": "places"}])
    assert sclass_of("/building/airport", figer_types, rules) == "-location"
    assert sclass_of("/building", figer_types, rules) == "-location"


def test_a_dropped_type_has_no_class(figer_types):
    rules = fold_rules(FOLD)
    assert sclass_of("/computer/algorithm", figer_types, rules) is None
    assert sclasses_of(["/computer/algorithm"], figer_types, rules) == []
    assert sclasses_of(["/computer/algorithm", "/person/author", "/person"], figer_types,
                       rules) == ["-person"]


def test_exact_beats_prefix_and_longer_prefix_beats_shorter():
    figer_types = ["/a", "/a/b", "/a/b/c", "/a/b/d", "/x/y"]
    rules = [
        FoldRule("/a/*", "one", "short prefix"),
        FoldRule("/a/b/*", "two", "long prefix"),
        FoldRule("/a/b/c", "three", "exact"),
    ]
    assert sclass_of("/a/b/c", figer_types, rules) == "-three"
    assert sclass_of("/a/b/d", figer_types, rules) == "-two"
    assert sclass_of("/a/b", figer_types, rules) == "-two"
    assert sclass_of("/a", figer_types, rules) == "-one"
    assert sclass_of("/x/y", figer_types, rules) == "-x-y"
    # The order of the rows does not matter.
    assert sclass_of("/a/b/c", figer_types, rules[::-1]) == "-three"


def test_sclasses_of_is_distinct_and_sorted(figer_types):
    rules = fold_rules(FOLD)
    found = sclasses_of(["/person/author", "/written_work", "/person", "/music"], figer_types,
                        rules)
    assert found == ["-art", "-person"]


def test_the_113_figer_types_fold_into_the_34_released_classes(figer_types):
    rules = fold_rules(FOLD)
    produced = {sclass for _, sclass, _ in fold_table(figer_types, rules) if sclass}
    assert len(figer_types) == 113
    assert sorted(produced) == sorted(RELEASED)
    assert compare_classes(produced, RELEASED_CLASSES) == {
        "released": 34, "produced": 34, "missing": [], "extra": []}


def test_compare_classes_reports_missing_and_extra(tmp_path):
    path = tmp_path / "classes.txt"
    path.write_text("-person 10\n-location 5\n", encoding="utf-8")
    assert compare_classes({"-person", "-game"}, path) == {
        "released": 2, "produced": 2, "missing": ["-location"], "extra": ["-game"]}
    path.write_text("-person 10\nlocation\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="line 2"):
        compare_classes({"-person"}, path)


def test_released_sample_lists_the_34_names_in_order():
    names = [line.split()[0] for line in
             RELEASED_CLASSES.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert names == RELEASED


def test_fold_rules_name_the_row_of_a_missing_key():
    rows = [FOLD[0], {"figer": "/music", "reason": "no class given"}]
    with pytest.raises(ConfigError, match=r"wikipse\.fold\[1\].*sclass"):
        fold_rules(rows)
    with pytest.raises(ConfigError, match=r"wikipse\.fold\[0\]"):
        fold_rules([{"figer": "music", "sclass": "art", "reason": "no leading slash"}])


def test_fold_rules_accept_a_class_with_its_dash(figer_types):
    rules = fold_rules([{"figer": "/music", "sclass": "-art", "reason": "written as a name"}])
    assert sclass_of("/music", figer_types, rules) == "-art"


def test_the_config_fold_is_this_fold():
    config = load_yaml(Path(CONFIG))
    if "wikipse" not in config:
        pytest.skip("config/config.yaml has no wikipse section yet")
    assert config["wikipse"]["fold"] == FOLD


def test_released_class_list_reads_names_in_order_and_names_a_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "classes.txt"
    path.write_text("-location 12\n-person 7\n\n-people-ethnicity 2\n", encoding="utf-8")
    assert read_released_classes(path) == ["-location", "-person", "-people-ethnicity"]
    path.write_text("-location 12\nperson 7\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="line 2"):
        read_released_classes(path)
