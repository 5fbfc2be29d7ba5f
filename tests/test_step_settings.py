"""A step's settings object: built from its config section's JSON, tied key for key to the
schema (the one home of every default), explained by `--help` from the schema."""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Iterator

import pytest

from conftest import REPO
from reprobe.cli import build_parser
from reprobe.config import fill_defaults, load_yaml
from reprobe.errors import ConfigError
from reprobe.step_settings import (
    SchemaHelp,
    add_settings_option,
    read_settings,
    schema_section,
    setting_names,
    settings_json,
)
from reprobe.wikipse.embedding.embedding_settings import EmbeddingSettings


def settings_options(parser: argparse.ArgumentParser, where: str = "reprobe"
                     ) -> Iterator[tuple[str, type, str]]:
    """(command, settings class, config path) of every `--settings` option of the CLI."""
    for action in parser._actions:
        if isinstance(action.help, SchemaHelp):
            yield where, action.help.settings, action.help.path
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from settings_options(sub, f"{where} {name}")


def test_every_settings_class_matches_its_schema_section_key_for_key():
    found = list(settings_options(build_parser()))
    assert found, "no step reads a settings object"
    for command, settings, path in found:
        keys = set(schema_section(path)["properties"])
        read = set(setting_names(settings)) | set(getattr(settings, "NOT_READ", ()))
        assert not read - keys, f"{command}: {sorted(read - keys)} not in the schema's {path}"
        assert not keys - read, f"{command}: {path}.{sorted(keys - read)[0]} is not read"
        for field in dataclasses.fields(settings):
            assert field.default is dataclasses.MISSING, \
                f"{settings.__name__}.{field.name} restates a default (the schema has it)"
            assert field.default_factory is dataclasses.MISSING, field.name


def test_the_config_section_round_trips_through_json():
    config = load_yaml(REPO / "config/config.yaml")
    fill_defaults(config)
    text = settings_json(config["wikipse"]["embeddings"], EmbeddingSettings)
    assert list(json.loads(text)) == sorted(setting_names(EmbeddingSettings))
    settings = read_settings(text, EmbeddingSettings, "wikipse.embeddings")
    assert settings.min_count == config["wikipse"]["embeddings"]["min_count"]
    assert settings.trainer(dim=16, seed=3).dim == 16


@pytest.mark.parametrize(("text", "message"), [
    ("{oops", r"--settings \(config section wikipse.embeddings\): not JSON"),
    ("[1]", r"--settings \(config section wikipse.embeddings\): expected a JSON object"),
    ('{"windw": 5}', "unknown key wikipse.embeddings.windw"),
])
def test_bad_settings_name_the_key(text, message):
    with pytest.raises(ConfigError, match=message):
        read_settings(text, EmbeddingSettings, "wikipse.embeddings")


def test_a_missing_key_is_named():
    values = {name: 1 for name in setting_names(EmbeddingSettings) if name != "alpha"}
    with pytest.raises(ConfigError, match=r"no wikipse\.embeddings\.alpha"):
        read_settings(json.dumps(values), EmbeddingSettings, "wikipse.embeddings")


def test_help_lists_each_setting_with_the_schemas_description_and_default(capsys):
    parser = argparse.ArgumentParser(prog="step")
    add_settings_option(parser, EmbeddingSettings, "wikipse.embeddings")
    text = " ".join(parser.format_help().split())
    assert "min_count: Words seen fewer times are left out of the vocabulary. [default 20]" \
        in text
    assert "wang2vec_models:" in text


def schema_defaults(node: dict, found: dict[str, list]) -> dict[str, list]:
    """Every key of the schema with the defaults it has anywhere."""
    for key, child in (node.get("properties") or {}).items():
        if "default" in child:
            found.setdefault(key, []).append(child["default"])
        schema_defaults(child, found)
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            schema_defaults(node[key], found)
    for key in ("oneOf", "anyOf", "allOf"):
        for alternative in node.get(key, ()):
            schema_defaults(alternative, found)
    return found


def cli_defaults(parser: argparse.ArgumentParser, where: str = "reprobe"
                 ) -> Iterator[tuple[str, str, object]]:
    """(command, option, default) of every optional option that has a default."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from cli_defaults(sub, f"{where} {name}")
        elif action.option_strings and not action.required and action.default not in (
                None, False, argparse.SUPPRESS):
            yield where, action.dest, action.default


def test_no_command_line_option_restates_a_default_of_the_schema():
    from reprobe.config import load_schema

    schema = load_schema()
    defaults = schema_defaults(schema, {})
    for definition in schema["$defs"].values():
        schema_defaults(definition, defaults)
    restated = [f"{command} --{option.replace('_', '-')}={value!r}"
                for command, option, value in cli_defaults(build_parser())
                if value in defaults.get(option, [])]
    assert not restated, f"defaults restated outside the schema: {restated}"
