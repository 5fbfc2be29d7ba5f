"""Config files read and laid over one another: YAML that names file and line on an error
(a duplicate key too), the `extends` chain, and `--config` values typed by the schema.

A config file is laid over the config its `extends` names: absent, the embedded default
(config/config.yaml), so that a three-line file changes only what it names; `null`, nothing
(the tiers' files stand alone, so that the default's samples never join the paper's run); a
path, that file. Several files are laid over the first one's chain in order; Snakemake's
`--config` values come last.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from reprobe.errors import ConfigError

CHECKOUT = Path(__file__).resolve().parents[2]
DEFAULT_NAME = Path("config") / "config.yaml"
EXTENDS = "extends"

# libyaml's parser where PyYAML was built with it: the schema and config are read by every
# Snakemake process, one per job on a cluster, and the pure-Python parser takes ~0.15 s a file.
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class DuplicateKeyError(yaml.YAMLError):
    """A mapping that names one key twice (YAML's loaders keep the last one silently)."""

    def __init__(self, key: Any, first_line: int, line: int) -> None:
        super().__init__(f"duplicate key {key!r} at lines {first_line} and {line} "
                         f"(only one may stay)")
        self.line = line


class _UniqueKeyLoader(SAFE_LOADER):  # type: ignore[misc, valid-type]
    """The safe loader, refusing a mapping that names a key twice."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """The mapping, after checking that no key repeats (merge keys `<<` aside)."""
        first_lines: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if isinstance(key, str | int | float | bool) and key in first_lines:
                raise DuplicateKeyError(key, first_lines[key], line)
            first_lines.setdefault(key, line)
        return super().construct_mapping(node, deep)


def yaml_error_line(path: Path | str, exc: yaml.YAMLError) -> str:
    """One line for a YAML syntax error: `file:line:column: problem (context)`, 1-based."""
    if isinstance(exc, DuplicateKeyError):
        return f"{path}:{exc.line}: {exc}"
    mark = getattr(exc, "problem_mark", None)
    if mark is None:
        return f"{path}: not valid YAML: {' '.join(str(exc).split())}"
    problem = getattr(exc, "problem", None) or "syntax error"
    context, context_mark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    if context and context_mark is not None:
        problem += f" ({context} at line {context_mark.line + 1}, column {context_mark.column + 1})"
    elif context:
        problem += f" ({context})"
    return f"{path}:{mark.line + 1}:{mark.column + 1}: not valid YAML: {problem}"


def parse_yaml(text: str, where: Path | str) -> Any:
    """YAML text as data; a syntax error or a duplicate key is one line naming `where`."""
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)
    except DuplicateKeyError as exc:
        raise ConfigError(yaml_error_line(where, exc)) from exc
    except yaml.YAMLError:
        try:  # the pure-Python parser again, for its message: it says what it found instead
            yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise ConfigError(yaml_error_line(where, exc)) from exc
        raise


def load_yaml(path: Path | str) -> dict[str, Any]:
    """Read one YAML config file, naming the file, line and column on a syntax error."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: no such config file") from exc
    data = parse_yaml(text, path)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of settings at the top level")
    return data


def merge_over(base: dict[str, Any], layer: Mapping[str, Any]) -> dict[str, Any]:
    """`layer` laid over `base`, in place: mappings merge key by key, anything else replaces."""
    for key, value in layer.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            merge_over(base[key], value)
        else:
            base[key] = copy.deepcopy(value)
    return base


def embedded_default() -> Path:
    """The embedded default: config/config.yaml of the working directory, as Snakemake reads
    a workflow's `configfile:` (a checkout edited in place), else the checkout's."""
    return DEFAULT_NAME if DEFAULT_NAME.is_file() else CHECKOUT / DEFAULT_NAME


def _extended_file(name: str, path: Path) -> Path:
    """The file an `extends: <name>` means: beside `path`, else in the checkout."""
    beside = path.parent / name
    return beside if beside.exists() or Path(name).is_absolute() else CHECKOUT / name


def resolved_file(path: Path | str, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """One config file laid over the chain its `extends` names (none for the embedded
    default itself)."""
    path = Path(path)
    if path.resolve() in seen:
        chain = " -> ".join(str(p) for p in (*seen, path.resolve()))
        raise ConfigError(f"{path}: {EXTENDS} goes round in a circle ({chain})")
    data = load_yaml(path)
    default = embedded_default()
    extends = data.pop(EXTENDS, None if path.resolve() == default.resolve() else str(default))
    if extends is None:
        return data
    if not isinstance(extends, str) or not extends:
        raise ConfigError(f"{path}: {EXTENDS} must be a config file's path or null "
                          f"(this file stands alone), not {extends!r}")
    base_file = _extended_file(extends, path)
    if not base_file.is_file():
        raise ConfigError(f"{path}: {EXTENDS}: no config file {extends} (looked beside it "
                          f"and in {CHECKOUT})")
    return merge_over(resolved_file(base_file, (*seen, path.resolve())), data)


def assembled_config(configfiles: Sequence[Path | str] = (),
                     overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The config a run uses: the first file's chain (the embedded default when no file is
    given), each later file laid over it, then `overrides` (Snakemake's `--config`) typed by
    the schema."""
    files = [Path(f) for f in configfiles] or [embedded_default()]
    config = resolved_file(files[0])
    for later in files[1:]:
        layer = load_yaml(later)
        if EXTENDS in layer:
            raise ConfigError(f"{later}: {EXTENDS} is read only in the first config file "
                              f"(this one is laid over {files[0]}); give it first or drop "
                              f"its {EXTENDS}")
        merge_over(config, layer)
    return merge_over(config, typed_overrides(overrides or {}))


def typed_overrides(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Snakemake's `--config` values with the strings it leaves nested (`numeracy={knn: {k:
    3}}` reaches the workflow as `{'k': '3'}`) typed as the schema's key expects."""
    from reprobe.config import load_schema

    schema = load_schema()
    return {key: typed_value(value, schema["properties"].get(key, {}), schema)
            for key, value in overrides.items()}


def _node_types(node: Mapping[str, Any], schema: Mapping[str, Any]) -> set[str]:
    """The JSON types a schema node allows (over its alternatives; empty when any)."""
    from reprobe.config import resolve_ref

    node = resolve_ref(dict(node), dict(schema))
    declared = node.get("type")
    types = {declared} if isinstance(declared, str) else set(declared or ())
    if "enum" in node:
        types |= {_json_type(value) for value in node["enum"]}
    for alternative in (*node.get("oneOf", ()), *node.get("anyOf", ())):
        types |= _node_types(alternative, schema)
    return types


def _json_type(value: Any) -> str:
    """The JSON type name of a Python value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}.get(
        type(value), "object")


def typed_value(value: Any, node: Mapping[str, Any], schema: Mapping[str, Any]) -> Any:
    """A value written as text (a command line's), typed as its schema node expects: a string
    stays one where the node takes strings; otherwise it is read as YAML and kept when its
    type is one the node allows (else left as text, for the schema to refuse by name)."""
    from reprobe.config import resolve_ref

    node = resolve_ref(dict(node), dict(schema))
    if isinstance(value, dict):
        properties, extra = node.get("properties", {}), node.get("additionalProperties")
        return {key: typed_value(item, properties.get(key, extra if isinstance(extra, dict)
                                                      else {}), schema)
                for key, item in value.items()}
    if isinstance(value, list):
        items = node.get("items") if isinstance(node.get("items"), dict) else {}
        return [typed_value(item, items, schema) for item in value]
    if not isinstance(value, str):
        return value
    types = _node_types(node, schema)
    if not types or ("string" in types and not (value == "null" and "null" in types)):
        return value
    try:
        parsed = yaml.safe_load(value)
    except yaml.YAMLError:
        return value
    kind = _json_type(parsed)
    if kind in types or (kind == "integer" and "number" in types):
        return typed_value(parsed, node, schema) if isinstance(parsed, dict | list) else parsed
    return value
