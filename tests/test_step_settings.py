"""A step's settings object: built from its config section's JSON, tied key for key to the
schema (the one home of every default), explained by `--help` from the schema."""

from __future__ import annotations

import argparse
import ast
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

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
        undescribed = [name for name in setting_names(settings)
                       if not schema_section(path)["properties"][name].get("description")]
        assert not undescribed, f"{command}: --help cannot explain {path}.{undescribed[0]}"
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


def test_a_missing_key_takes_the_schemas_default():
    settings = read_settings('{"alpha": 0.5}', EmbeddingSettings, "wikipse.embeddings")
    assert settings.alpha == 0.5
    assert settings.min_count == schema_section("wikipse.embeddings")["properties"][
        "min_count"]["default"]


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


# The schema sections whose defaults a package's functions could restate: a stage's own
# section (and its shared definitions, with every key below them).
PACKAGE_SECTIONS = {
    "numeracy": ["numeracy"], "equate": ["equate", "$defs.neural_model"],
    "numersense": ["numersense", "$defs.numersense_model"], "wikipse": ["wikipse"],
    "wikipedia": ["wikipedia"], "sources": ["download", "$defs.source"]}
# The embedding trainers serve `numeracy.retrain`: word2vec and fastText its own keys, GloVe
# those and its `glove` keys (fastText's own learning rate is not GloVe's).
MODULE_KEYS = {"embeddings/train.py": ["numeracy.retrain"],
               "embeddings/glove.py": ["numeracy.retrain", "numeracy.retrain.glove"]}


def section_defaults(paths: list[str]) -> dict[str, list]:
    """Every key under these schema sections with the defaults it has there."""
    found: dict[str, list] = {}
    for path in paths:
        schema_defaults(schema_section(path), found)
    return found


def own_key_defaults(paths: list[str]) -> dict[str, list]:
    """The keys of these schema sections (not of their subsections), with their defaults."""
    found: dict[str, list] = {}
    for path in paths:
        for key, child in schema_section(path)["properties"].items():
            if "default" in child:
                found.setdefault(key, []).append(child["default"])
    return found


def checked_modules() -> Iterator[tuple[Path, dict[str, list]]]:
    """Each module checked for restated defaults, with the defaults it could restate."""
    for package, sections in PACKAGE_SECTIONS.items():
        defaults = section_defaults(sections)
        for module in sorted((REPO / "workflow/reprobe" / package).rglob("*.py")):
            yield module, defaults
    for module, sections in MODULE_KEYS.items():
        yield REPO / "workflow/reprobe" / module, own_key_defaults(sections)


def keyword_defaults(source: str) -> Iterator[tuple[int, str, str, object]]:
    """(line, function, parameter, default) of every constant keyword default in a module, and
    of every constant default of a class field."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            positional = [*node.args.posonlyargs, *node.args.args]
            pairs = [*zip(positional[len(positional) - len(node.args.defaults):],
                          node.args.defaults, strict=True),
                     *zip(node.args.kwonlyargs, node.args.kw_defaults, strict=True)]
            for argument, default in pairs:
                if isinstance(default, ast.Constant):
                    yield node.lineno, node.name, argument.arg, default.value
        elif isinstance(node, ast.ClassDef):
            for field in node.body:
                if (isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name)
                        and isinstance(field.value, ast.Constant)):
                    yield field.lineno, node.name, field.target.id, field.value.value


def test_keyword_defaults_are_found():
    source = "def f(a, b=3, *, c='x', d=None):\n    pass\nclass C:\n    e: int = 5\n"
    assert list(keyword_defaults(source)) == [(1, "f", "b", 3), (1, "f", "c", "x"),
                                              (1, "f", "d", None), (4, "C", "e", 5)]


def test_no_function_restates_a_default_of_its_section():
    restated = []
    for module, defaults in checked_modules():
        for line, owner, name, value in keyword_defaults(module.read_text(encoding="utf-8")):
            # None is "not given": an optional argument, not a restated value.
            if value is not None and any(value == d and type(value) is type(d)
                                         for d in defaults.get(name, [])):
                restated.append(f"{module.relative_to(REPO)}:{line} {owner}({name}={value!r})")
    assert not restated, "defaults restated outside the schema:\n" + "\n".join(restated)
