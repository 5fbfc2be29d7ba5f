"""docs/reproducibility.md's table of the choices the paper config makes where a paper is
silent: every key it names is a key of the config schema, and every plain value it gives is
the paper config's (or the schema's default, where the paper config leaves the key out)."""

from __future__ import annotations

import re
from typing import Any

import yaml

from conftest import REPO

DOC = REPO / "docs" / "reproducibility.md"
SCHEMA = REPO / "workflow" / "schemas" / "config.schema.yaml"
PAPER = REPO / "config" / "paper.yaml"
HEADING = "## Choices the paper configuration makes where a paper is silent"
COLUMNS = ["paper", "key", "value in the paper config", "evidence", "what it affects"]
PAPERS = ["all", "Numeracy", "WIKI-PSE", "NumerSense", "EQUATE"]
ROW = "<row>"  # any entry of a map (`equate.trained.<row>.max_epochs`)
ABSENT = object()
# A value cell made of backticked values only, e.g. `5`, `0.75`: compared key by key.
PLAIN_VALUES = re.compile(r"\s*`[^`]*`(\s*,\s*`[^`]*`)*\s*")


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def table() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    assert HEADING in text, HEADING
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    assert cells(lines[0]) == COLUMNS
    rows = [cells(line) for line in lines[2:]]
    assert rows and all(len(row) == len(COLUMNS) for row in rows), "a row with another width"
    return rows


def keys(cell: str) -> list[str]:
    """The dotted keys of a key cell; `.b` is a sibling of the key before it."""
    found: list[str] = []
    for key in re.findall(r"`([^`]+)`", cell):
        if key.startswith("."):
            assert found, f"{key} has no key before it"
            key = found[-1].rsplit(".", 1)[0] + key
        found.append(key)
    assert found, f"no key in {cell!r}"
    return found


def deref(node: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """The node with its $ref resolved (its own keywords, such as a default, kept over the
    target's)."""
    if "$ref" not in node:
        return node
    target: Any = schema
    for part in node["$ref"].removeprefix("#/").split("/"):
        target = target[part]
    merged = dict(deref(target, schema))
    merged.update({k: v for k, v in node.items() if k != "$ref"})
    return merged


def child(node: dict[str, Any], name: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    node = deref(node, schema)
    properties = node.get("properties", {})
    if name in properties and name != ROW:
        return deref(properties[name], schema)
    entries = node.get("additionalProperties")
    if isinstance(entries, dict):  # a map: any name is an entry
        return deref(entries, schema)
    return None


def lookup(key: str, schema: dict[str, Any], config: dict[str, Any]) -> Any:
    """The paper config's value of a dotted key, falling back on the schema's defaults."""
    node: dict[str, Any] | None = schema
    value: Any = config
    for part in key.split("."):
        node = child(node, part, schema)
        assert node is not None, f"{key}: {part!r} is no key of the config schema"
        if isinstance(value, dict) and part in value:
            value = value[part]
        else:
            value = node.get("default", ABSENT)
    return value


def test_the_table_names_schema_keys_and_the_paper_configs_values():
    schema = yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))
    config = yaml.safe_load(PAPER.read_text(encoding="utf-8"))
    compared = 0
    for paper, key_cell, value_cell, evidence, affects in table():
        assert paper in PAPERS, paper
        assert evidence and affects, key_cell
        names = keys(key_cell)
        values = re.findall(r"`([^`]*)`", value_cell)
        plain = PLAIN_VALUES.fullmatch(value_cell) and len(values) == len(names)
        for index, name in enumerate(names):
            value = lookup(name, schema, config)
            if plain and ROW not in name:
                assert value is not ABSENT, f"{name}: neither in the paper config nor defaulted"
                assert yaml.safe_load(values[index]) == value, (
                    f"{name}: the table says {values[index]}, the paper config {value!r}")
                compared += 1
    assert compared >= 40, compared


def test_the_rows_are_grouped_by_paper():
    order = [row[0] for row in table()]
    groups = [paper for index, paper in enumerate(order) if index == 0 or order[index - 1] != paper]
    assert groups == PAPERS, groups
