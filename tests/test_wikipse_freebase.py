"""WIKI-PSE Freebase path: stream the RDF dump sample, unescape title keys, join the types."""

from __future__ import annotations

import gzip
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from conftest import REPO, freebase_kinds
from reprobe.errors import InputFormatError
from reprobe.wikipse.resource.classes import read_types_map
from reprobe.wikipse.resource.freebase import (
    freebase_iri,
    parse_key,
    stream_freebase,
    write_mid_titles,
)

SAMPLES = REPO / "data" / "samples" / "wikipse"
DUMP = SAMPLES / "freebase_sample.nt.gz"
TYPES_MAP = SAMPLES / "figer_types.map"
NS = "http://rdf.freebase.com/ns/"
# What the hand-written sample holds: 240 triples, 49 of them types of types.map (the rest:
# /common/topic, /people/deceased_person, ... and other predicates) and 30 English title keys
# (the rest: en_id, en_title, fr and de keys, /en/ keys, a type's own key).
COUNTS = {"lines": 240, "type_triples_kept": 49, "title_keys_kept": 30}


@pytest.fixture(scope="module")
def streamed(tmp_path_factory):
    """The sample streamed once: (counts, types parquet, titles parquet)."""
    folder = tmp_path_factory.mktemp("freebase")
    types_out, titles_out = folder / "types.parquet", folder / "titles.parquet"
    counts = stream_freebase(DUMP, read_types_map(TYPES_MAP), types_out, titles_out)
    return counts, types_out, titles_out


def test_parse_key_unescapes_code_points_and_underscores():
    assert parse_key("Stalker_$00281979_film$0029") == "Stalker (1979 film)"
    assert parse_key("Vlor$00EB") == "Vlorë"
    assert parse_key("Mobile$002C_Alabama") == "Mobile, Alabama"
    assert parse_key("Palme_d$0027Or") == "Palme d'Or"
    # Beyond the BMP: two escapes, a UTF-16 surrogate pair.
    assert parse_key("$D834$DD1E_clef") == "\U0001D11E clef"


def test_parse_key_rejects_a_bad_escape():
    with pytest.raises(ValueError, match="bad escape"):
        parse_key("Price_$12")


def test_freebase_iri_of_a_types_map_type():
    assert freebase_iri("/people/person") == f"<{NS}people.person>".encode()
    assert freebase_iri("/user/tsegaran/computer/algorithm") == (
        f"<{NS}user.tsegaran.computer.algorithm>".encode())


def test_stream_counts(streamed):
    counts, _, _ = streamed
    assert counts == COUNTS


def test_stream_keeps_only_types_of_the_map(streamed):
    _, types_out, _ = streamed
    rows = pq.read_table(types_out).to_pylist()
    kinds = {row["freebase_type"] for row in rows}
    assert {"/people/person", "/book/author", "/user/tsegaran/computer/algorithm"} <= kinds
    assert not kinds & {"/common/topic", "/people/deceased_person", "/type/type",
                        "/education/field_of_study"}
    assert {"mid": "m.0wp005", "freebase_type": "/location/citytown"} in rows


def test_stream_keeps_english_titles_unescaped(streamed):
    _, _, titles_out = streamed
    rows = pq.read_table(titles_out).to_pylist()
    titles = {row["title"] for row in rows}
    assert {"Stalker (1979 film)", "Vlorë", "Gjirokastër", "Confederación Nacional del Trabajo",
            "Mobile, Alabama", "Palme d'Or", "Alexander III of Macedon"} <= titles
    # Other languages, page ids and the en_title namespace are not English title keys here.
    assert not titles & {"Alexandre le Grand", "308", "Stalker (Film)", "Jean Dupont"}
    assert {"mid": "m.0wp001", "title": "Alexander the Great"} in rows


def test_stream_reads_plain_and_gzip_module(tmp_path):
    plain = tmp_path / "dump.nt"
    plain.write_bytes(gzip.decompress(DUMP.read_bytes()))
    types_map = read_types_map(TYPES_MAP)
    assert stream_freebase(plain, types_map, tmp_path / "a.parquet",
                           tmp_path / "b.parquet") == COUNTS
    assert stream_freebase(DUMP, types_map, tmp_path / "c.parquet", tmp_path / "d.parquet",
                           external_gunzip=False) == COUNTS


def test_a_malformed_line_names_its_line(tmp_path):
    dump = tmp_path / "bad.nt.gz"
    good = f"<{NS}m.01>\t<{NS}type.object.type>\t<{NS}people.person>\t.\n"
    bad = f"<{NS}m.02>\t<{NS}type.object.type> <{NS}people.person>\t.\n"
    dump.write_bytes(gzip.compress((good + "\n" + good + bad).encode()))
    types_out, titles_out = tmp_path / "t.parquet", tmp_path / "k.parquet"
    with pytest.raises(InputFormatError, match="line 4"):
        stream_freebase(dump, ["/people/person"], types_out, titles_out)
    # Nothing half-written is left behind.
    assert not types_out.exists() and not titles_out.exists()


def test_a_bad_key_escape_names_its_line(tmp_path):
    dump = tmp_path / "bad.nt"
    dump.write_text(f'<{NS}m.01>\t<{NS}type.object.key>\t"/wikipedia/en/A_$00G1"\t.\n',
                    encoding="utf-8")
    with pytest.raises(InputFormatError, match="line 1"):
        stream_freebase(dump, [], tmp_path / "t.parquet", tmp_path / "k.parquet")


def test_a_truncated_gzip_is_an_error(tmp_path):
    dump = tmp_path / "cut.nt.gz"
    dump.write_bytes(DUMP.read_bytes()[:-40])
    for external in (True, False):
        with pytest.raises(InputFormatError, match="gzip stream"):
            stream_freebase(dump, [], tmp_path / "t.parquet", tmp_path / "k.parquet",
                            external_gunzip=external)


def test_join_gives_each_title_its_freebase_types(streamed):
    _, types_out, titles_out = streamed
    joined = freebase_kinds(types_out, titles_out)
    assert joined["Alexander the Great"] == [
        "/military/military_commander", "/people/person", "/royalty/monarch"]
    # A redirect key of the same topic gets the same types.
    assert joined["Alexander III of Macedon"] == joined["Alexander the Great"]
    assert joined["Stalker (1979 film)"] == ["/film/film"]
    assert joined["USSR"] == joined["Soviet Union"] == ["/location/country",
                                                         "/location/location"]
    # A title with no type of the map is absent (typing counts it as unmapped).
    assert "Psychology" not in joined
    assert len(joined) == 29


def test_join_restricted_to_some_titles(streamed):
    _, types_out, titles_out = streamed
    joined = freebase_kinds(types_out, titles_out, only=["Vlorë", "Psychology", "Nowhere"])
    assert joined == {"Vlorë": ["/location/citytown", "/location/location"]}


def test_figer_mid_titles_replace_the_dump_keys(tmp_path: Path) -> None:
    mids = tmp_path / "mid2name.tsv"
    mids.write_text("/m/0wp001\tAda_Lovelace\nm.0wp002\tRome\n", encoding="utf-8")
    out = tmp_path / "titles.parquet"
    assert write_mid_titles(mids, out) == 2
    import pyarrow.parquet as pq

    assert pq.read_table(out).to_pydict() == {"mid": ["m.0wp001", "m.0wp002"],
                                              "title": ["Ada Lovelace", "Rome"]}
    mids.write_text("/m/0wp001\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="line 1"):
        write_mid_titles(mids, out)


def test_typing_through_freebase_types_each_linked_title_as_its_joined_types(
        streamed, tmp_path: Path, monkeypatch) -> None:
    import pyarrow as pa

    from reprobe.wikipse.resource import typing_spilled
    from reprobe.wikipse.resource.classes import figer_types_of
    from reprobe.wikipse.resource.typing import read_typed_targets, to_figer, type_titles

    monkeypatch.setattr(typing_spilled, "BATCH_ROWS", 3)  # titles' rows split across batches
    _, types_out, titles_out = streamed
    types_map = read_types_map(TYPES_MAP)
    figer = figer_types_of(types_map)
    targets = ["Alexander the Great", "USSR", "Psychology", "Nowhere", "USSR", "Vlorë"]
    links = tmp_path / "links.parquet"
    pq.write_table(pa.table({"target": targets}), links)
    produced, counts = typing_spilled.type_dump_targets(
        links, tmp_path / "typed.parquet", figer, [], 16, freebase=(types_out, titles_out),
        types_map=types_map)
    known = to_figer(freebase_kinds(types_out, titles_out, only=targets), types_map)
    expected, expected_counts = type_titles(dict.fromkeys(targets), known, figer, [])
    assert read_typed_targets(tmp_path / "typed.parquet") == expected
    assert {k: counts[k] for k in expected_counts} == expected_counts
    assert counts["titles"] == 5 and counts["links"] == 6 and counts["unmapped_title"] == 2
    assert counts["links_typed"] == 4 and produced
