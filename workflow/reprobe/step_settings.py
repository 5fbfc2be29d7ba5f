"""A step's settings as one typed object built from its config section.

The schema is the only place a setting's default and description live. A step's settings
class (a frozen dataclass, its fields named like the section's keys, none with a default) is
built from the section; a rule passes it as JSON (`--settings {params.settings:q}`), so that
Snakemake reruns a job whose settings changed and the logged command can be pasted as it is.
`--help` lists each setting with the schema's description, read only when help is asked for.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Mapping
from typing import Any, TypeVar

from reprobe.errors import ConfigError
from reprobe.io import json_object

Settings = TypeVar("Settings")


def schema_section(path: str) -> dict[str, Any]:
    """The schema node of a dotted config path (`wikipse.embeddings`), or of a path into a
    shared definition (`$defs.neural_model.tiny`: a part every config entry of that kind has)."""
    from reprobe.config import load_schema

    node = load_schema()
    keys = path.split(".")
    if keys[0] == "$defs":
        node, keys = node["$defs"][keys[1]], keys[2:]
    for key in keys:
        node = node["properties"][key]
    return node


def schema_default(path: str) -> Any:
    """The schema's default of one config key (`download.retries`)."""
    section, _, key = path.rpartition(".")
    return schema_section(section)["properties"][key]["default"]


def or_schema_default(value: Any, path: str) -> Any:
    """An option's value, or the schema's default of its config key when the option was not
    given (an option a person may leave out keeps its default in the schema, not the CLI)."""
    return schema_default(path) if value is None else value


def setting_names(cls: type) -> list[str]:
    """The config keys a settings class reads: its fields."""
    return [field.name for field in dataclasses.fields(cls)]


def settings_json(section: Mapping[str, Any], cls: type) -> str:
    """The part of a config section a settings class reads, as JSON (keys sorted)."""
    return json.dumps({name: section[name] for name in setting_names(cls)}, sort_keys=True,
                      ensure_ascii=False)


def settings_of(data: Mapping[str, Any], cls: type[Settings], path: str,
                where: str = "--settings") -> Settings:
    """The settings object of a config section's values; a missing or unknown key names it."""
    names = setting_names(cls)
    unknown = sorted(set(data) - set(names))
    missing = [name for name in names if name not in data]
    if unknown or missing:
        problem = f"unknown key {path}.{unknown[0]}" if unknown else f"no {path}.{missing[0]}"
        raise ConfigError(f"{where}: {problem} (the settings are {', '.join(names)})")
    return cls(**data)


def read_settings(text: str, cls: type[Settings], path: str) -> Settings:
    """The settings object of a `--settings` JSON; a missing or unknown key names it."""
    return settings_of(json_object(text, f"--settings (config section {path})"), cls, path)


def filled_default(node: Mapping[str, Any]) -> Any:
    """A schema node's default, with the defaults of an object's own keys filled in (as the
    config loader fills them)."""
    default = node.get("default")
    if not isinstance(default, dict) or "properties" not in node:
        return default
    keys = {key: filled_default(child) for key, child in node["properties"].items()
            if "default" in child}
    return {**keys, **default}


def settings_from_schema(cls: type[Settings], path: str, **changes: Any) -> Settings:
    """A settings object with the schema's defaults, but for `changes` (for use by hand)."""
    section = schema_section(path)["properties"]
    values = {name: filled_default(section[name]) for name in setting_names(cls)}
    return cls(**{**values, **changes})


class SchemaHelp(str):
    """A help text listing a settings class's keys with the schema's descriptions, built only
    when argparse formats help (so that a step does not read the schema on every run)."""

    settings: type
    path: str

    def __new__(cls, settings: type, path: str) -> SchemaHelp:
        text = super().__new__(cls, f"JSON of config section {path}")
        text.settings, text.path = settings, path
        return text

    def __mod__(self, _params: Any) -> str:
        """The help argparse prints (it %-formats every help text with the option's values)."""
        section = schema_section(self.path)
        lines = [f"JSON of config section {self.path} (the workflow passes it)"]
        for name in setting_names(self.settings):
            node = section["properties"][name]
            described = " ".join(str(node.get("description", "")).split())
            default = f" [default {json.dumps(node['default'])}]" if "default" in node else ""
            lines.append(f"{name}: {described or 'see the schema'}{default}")
        return "; ".join(lines)


def add_settings_option(parser: argparse.ArgumentParser, cls: type, path: str,
                        required: bool = True) -> None:
    """`--settings JSON`: the step's settings, one config section (optional where only some
    kinds of the step have settings)."""
    parser.add_argument("--settings", required=required, help=SchemaHelp(cls, path))
