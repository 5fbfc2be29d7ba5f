"""A step's settings as one typed object, validated as the workflow validates its config.

The schema is the only place a setting's default and description live. A step's settings
class (a frozen dataclass, its fields named like the section's keys, none with a default) is
built from its config section. Every way in goes through the one schema validation, with the
defaults filled in at every depth and the checks across keys (reprobe.config_constraints):
the values start from `--configfile`'s section when one is given (else nothing), `--settings`
JSON is laid over them, then each `--set KEY=VALUE` (typed by the schema), and what is still
absent takes the schema's default. A wrong type, value or range is one line naming the key and
what is allowed. The rules pass the whole section as JSON (`--settings={params.settings:q}`),
so that Snakemake reruns a job whose settings changed and the logged command can be pasted as
it is; `--help` lists each setting with its description and the value that will be used.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import functools
import json
from collections.abc import Mapping
from typing import Any, TypeVar

from reprobe.errors import ConfigError

Settings = TypeVar("Settings")


def schema_section(path: str) -> dict[str, Any]:
    """The schema node of a dotted config path (`wikipse.embeddings`), or of a path into a
    shared definition (`$defs.neural_model.tiny`: a part every config entry of that kind has)."""
    from reprobe.config import load_schema
    from reprobe.config_constraints import schema_node

    return schema_node(load_schema(), path)


def schema_default(path: str) -> Any:
    """The schema's default of one config key (`download.retries`)."""
    section, _, key = path.rpartition(".")
    return schema_section(section)["properties"][key]["default"]


def checked_option(value: Any, path: str, option: str) -> Any:
    """An option's value checked against its config key's schema (`download.timeout`), or
    the schema's default when the option was not given (its one home is the schema)."""
    from reprobe.config import load_schema, validation_errors

    if value is None:
        return schema_default(path)
    section, _, key = path.rpartition(".")
    node = {"$defs": load_schema()["$defs"], **schema_section(section)["properties"][key]}
    problems = validation_errors(value, node, prefix=path)
    if problems:
        raise ConfigError(f"{option}: {problems[0]}")
    return value


def setting_names(cls: type) -> list[str]:
    """The config keys a settings class reads: its fields."""
    return [field.name for field in dataclasses.fields(cls)]


def settings_json(section: Mapping[str, Any], cls: type) -> str:
    """The part of a config section a settings class reads, as JSON (keys sorted)."""
    return json.dumps({name: section[name] for name in setting_names(cls)}, sort_keys=True,
                      ensure_ascii=False)


@functools.cache
def defs_place(name: str) -> str:
    """Where the config holds entries of a shared definition (`numersense.models.<row>` for
    `$defs.numersense_model`), found in the schema; the definition's own name if nowhere."""
    from reprobe.config import load_schema

    target = f"#/$defs/{name}"

    def walk(node: Any, where: str) -> str | None:
        """The first config place under `node` whose schema refers to the definition."""
        if not isinstance(node, dict):
            return None
        if node.get("$ref") == target:
            return where
        for key, child in node.get("properties", {}).items():
            if (found := walk(child, f"{where}.{key}".lstrip("."))) is not None:
                return found
        extra = node.get("additionalProperties")
        return walk(extra, f"{where}.<row>") if isinstance(extra, dict) else None

    return walk(load_schema(), "") or f"<{name}>"


def section_label(path: str) -> str:
    """A settings section as a person reads its keys: `$defs.numersense_model.tiny` is
    `numersense.models.<row>.tiny`."""
    keys = path.split(".")
    return ".".join([defs_place(keys[1]), *keys[2:]]) if keys[0] == "$defs" else path


@functools.cache
def section_schema(cls: type, path: str) -> dict[str, Any]:
    """The schema of the keys a settings class reads from its section (with the section's
    checks across keys), standing alone (the root's `$defs` beside it)."""
    from reprobe.config import load_schema, resolve_ref

    root = load_schema()
    node = resolve_ref(schema_section(path), root)
    names = setting_names(cls)
    schema: dict[str, Any] = {
        "$defs": root["$defs"], "type": "object", "additionalProperties": False,
        "properties": {name: node["properties"][name] for name in names},
        "required": [name for name in node.get("required", ()) if name in names]}
    if "x-constraints" in node:
        schema["x-constraints"] = node["x-constraints"]
    return schema


def settings_of(data: Mapping[str, Any], cls: type[Settings], path: str,
                where: str = "--settings") -> Settings:
    """The settings object of a section's values: checked by the schema, defaults filled in
    at every depth; what is wrong is one line per key (`where`: how the values came)."""
    from reprobe.config import validation_errors

    values = copy.deepcopy(dict(data))
    problems = validation_errors(values, section_schema(cls, path), prefix=section_label(path))
    if problems:
        raise ConfigError(f"{where}: " + "; ".join(problems))
    return cls(**{name: values[name] for name in setting_names(cls)})


def read_settings(text: str, cls: type[Settings], path: str) -> Settings:
    """The settings object of a `--settings` JSON (checked, defaults filled)."""
    from reprobe.io import json_object

    return settings_of(json_object(text, f"--settings (config section {section_label(path)})"),
                       cls, path)


def settings_from_schema(cls: type[Settings], path: str, **changes: Any) -> Settings:
    """A settings object with the schema's defaults, but for `changes` (for use by hand)."""
    return settings_of(changes, cls, path, where=f"settings of {section_label(path)}")


def set_value(values: dict[str, Any], assignment: str, cls: type, path: str) -> None:
    """Apply one `KEY=VALUE` (KEY dotted below the section) to `values`, in place, the value
    typed as the schema's key expects."""
    from reprobe.config import load_schema, resolve_ref
    from reprobe.config_files import typed_value

    key, equals, text = assignment.partition("=")
    if not equals or not key:
        raise ConfigError(f"--set {assignment!r}: expected KEY=VALUE (e.g. --set "
                          f"{setting_names(cls)[0]}=…)")
    root, node = load_schema(), section_schema(cls, path)
    *parents, last = key.split(".")
    target = values
    for part in parents:
        node = resolve_ref(node, root)
        node = node.get("properties", {}).get(part) or node.get("additionalProperties") or {}
        target = target.setdefault(part, {})
        if not isinstance(target, dict):
            raise ConfigError(f"--set {key}: {section_label(path)}.{part} holds no keys")
    node = resolve_ref(node, root)
    leaf = node.get("properties", {}).get(last) or node.get("additionalProperties") or {}
    target[last] = typed_value(text, leaf if isinstance(leaf, dict) else {}, root)


@dataclasses.dataclass(frozen=True)
class SettingsOption:
    """One settings option of a step: where its value goes, its class and config section."""

    dest: str
    cls: type
    path: str

    @property
    def set_flag(self) -> str:
        """The option that sets one key of this section."""
        return "--set" if self.dest == "settings" else f"--set-{self.dest}"

    def value(self, args: argparse.Namespace) -> Any:
        """The settings object of a parsed command line."""
        from reprobe.io import json_object

        values: dict[str, Any] = {}
        configfile = getattr(args, "configfile", None)
        if configfile:
            # --section names the main settings' place; a second option has a place of its own.
            section = getattr(args, "section", None) if self.dest == "settings" else None
            values = self.configured(configfile, section)
        text = getattr(args, self.dest)
        if text is not None and not dataclasses.is_dataclass(text):
            from reprobe.config_files import merge_over

            merge_over(values, json_object(
                text, f"--{self.dest} (config section {section_label(self.path)})"))
        for assignment in getattr(args, f"set_{self.dest}") or ():
            set_value(values, assignment, self.cls, self.path)
        where = " / ".join(name for name, given in (
            ("--configfile", configfile), (f"--{self.dest}", text is not None),
            (self.set_flag, getattr(args, f"set_{self.dest}"))) if given) or "the defaults"
        return settings_of(values, self.cls, self.path, where=where)

    def configured(self, configfile: str, section: str | None) -> dict[str, Any]:
        """The keys this section reads from a config file (laid over its `extends` chain)."""
        from reprobe.config_files import assembled_config

        place = section or (None if self.path.startswith("$defs") else self.path)
        if place is None:
            raise ConfigError(f"--configfile: give --section too: the config holds this "
                              f"step's settings under {section_label(self.path)}")
        node: Any = assembled_config([configfile])
        for key in place.split("."):
            node = node.get(key) if isinstance(node, dict) else None
        if node is None:
            return {}
        if not isinstance(node, dict):
            raise ConfigError(f"--configfile {configfile}: {place} is no section of settings")
        return {key: node[key] for key in setting_names(self.cls) if key in node}


class SchemaHelp(str):
    """A help text listing a settings class's keys with the schema's descriptions and the
    values they take when not given, built only when argparse formats help (so that a step
    does not read the schema on every run)."""

    settings: type
    path: str

    def __new__(cls, settings: type, path: str) -> SchemaHelp:
        text = super().__new__(cls, f"JSON of config section {path}")
        text.settings, text.path = settings, path
        return text

    def __mod__(self, _params: Any) -> str:
        """The help argparse prints (it %-formats every help text with the option's values)."""
        from reprobe.config import validation_errors

        schema = section_schema(self.settings, self.path)
        used: dict[str, Any] = {}
        validation_errors(used, schema)  # fills in every default, at every depth
        lines = [f"JSON of config section {section_label(self.path)} (the workflow passes "
                 f"it; optional: each key absent takes the value shown)"]
        for name, node in schema["properties"].items():
            described = " ".join(str(node.get("description", "")).split())
            value = f" [default {json.dumps(used[name])}]" if name in used else " [required]"
            lines.append(f"{name}: {described or 'see the schema'}{value}")
        return "; ".join(lines)


def add_settings_option(parser: argparse.ArgumentParser, cls: type, path: str,
                        dest: str = "settings") -> None:
    """`--settings JSON`, `--set KEY=VALUE` and `--configfile` (with `--section` where the
    section is an entry of a map): the step's settings, one config section, all optional."""
    option = SettingsOption(dest, cls, path)
    parser.add_argument(f"--{dest}", default=None, metavar="JSON", help=SchemaHelp(cls, path))
    parser.add_argument(option.set_flag, action="append", default=[], metavar="KEY=VALUE",
                        dest=f"set_{dest}",
                        help=f"one key of {section_label(path)} (dotted below it, typed as "
                             f"the schema says; repeatable), laid over --{dest}")
    if "--configfile" not in parser._option_string_actions:
        parser.add_argument("--configfile", metavar="PATH",
                            help="a config file (laid over the config its `extends` names, as "
                                 "the workflow reads it) whose section gives what --settings "
                                 "and --set leave out (absent: the schema's defaults)")
    if path.startswith("$defs") and "--section" not in parser._option_string_actions:
        parser.add_argument("--section", metavar="KEY", help=(
            f"with --configfile: the dotted config key of this step's settings (e.g. "
            f"{section_label(path)} with the row's name)"))
    parser.set_defaults(settings_options=[*(parser.get_default("settings_options") or ()),
                                          option])


def resolve_settings(args: argparse.Namespace) -> None:
    """Replace each settings option's text on a parsed command line by its settings object."""
    for option in getattr(args, "settings_options", ()):
        setattr(args, option.dest, option.value(args))

