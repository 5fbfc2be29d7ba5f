"""Configuration: schema errors that name the key, source expansion and cross-references."""

from __future__ import annotations

import copy
import functools
import importlib.util
import string
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from reprobe.config_files import CHECKOUT, SAFE_LOADER, assembled_config
from reprobe.config_files import load_yaml as load_yaml  # the config readers' one door
from reprobe.errors import ConfigError

if TYPE_CHECKING:  # jsonschema loads when a config is checked, not at every start
    import jsonschema

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "schemas" / "config.schema.yaml"


@functools.lru_cache(maxsize=4)
def load_schema(schema_path: Path = SCHEMA_PATH) -> dict[str, Any]:
    """The config schema, with the checks across keys (reprobe.config_constraints) attached
    to the nodes they concern (read once per process; callers must not change it)."""
    from reprobe.config_constraints import attach_constraints

    return attach_constraints(yaml.load(schema_path.read_text(encoding="utf-8"),
                                        Loader=SAFE_LOADER))


@functools.cache
def _validator_class() -> Any:
    """jsonschema's validator whose `properties` check first fills in absent defaults (so that
    a check across keys sees the value a step will use) and which runs `x-constraints`."""
    import jsonschema

    properties_check = jsonschema.Draft202012Validator.VALIDATORS["properties"]

    def set_defaults(validator: Any, properties: dict[str, Any], instance: Any,
                     schema: dict[str, Any]) -> Any:
        """jsonschema's `properties` check, after filling in each absent property's default."""
        if isinstance(instance, dict):
            for name, subschema in properties.items():
                if "default" in subschema:
                    instance.setdefault(name, copy.deepcopy(subschema["default"]))
        yield from properties_check(validator, properties, instance, schema)

    def constraints(validator: Any, names: list[str], instance: Any,
                    schema: dict[str, Any]) -> Any:
        """The named checks across keys of reprobe.config_constraints, on a filled object."""
        from reprobe.config_constraints import constraint_problems

        for problem in constraint_problems(names, instance):
            yield jsonschema.ValidationError(problem, validator="x-constraints")

    # jsonschema's documented recipe for defaults (its FAQ; also snakemake.utils.validate's).
    return jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        {"properties": set_defaults, "x-constraints": constraints})


def validation_errors(instance: Any, schema: dict[str, Any], prefix: str = "") -> list[str]:
    """One readable line per violation of `schema` by `instance`, each starting with the
    dotted key it concerns (`prefix` first); the schema's defaults are filled into
    `instance` on the way, in place."""
    validator = _validator_class()(schema)
    errors = sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in
                                                                     e.absolute_path])
    return list(dict.fromkeys(_describe(error, prefix) for error in errors))


def schema_errors(config: dict[str, Any], schema_path: Path = SCHEMA_PATH) -> list[str]:
    """One readable line per schema violation of a config (checked with its defaults filled,
    on a copy), each starting with the dotted key it concerns."""
    return validation_errors(copy.deepcopy(config), load_schema(schema_path))


def _describe(error: jsonschema.ValidationError, prefix: str = "") -> str:
    """Describe one violation by its key path (and the offending key for unknown keys)."""
    parts = [prefix] if prefix else []
    key = ".".join([*parts, *(str(part) for part in error.absolute_path)]) or "(top level)"
    if error.validator == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        unknown = sorted(set(error.instance) - set(allowed)) if isinstance(
            error.instance, dict) else []
        names = ", ".join(f"{key}.{u}" if key != "(top level)" else u for u in unknown)
        hint = f" (known keys: {', '.join(allowed)})" if allowed else ""
        return f"unknown key {names}{hint}"
    if "propertyNames" in list(error.relative_schema_path)[-2:-1]:
        message = error.schema.get("x-message") or error.message
        return f"{key}: the name {error.instance!r} is refused: {message}"
    if error.validator == "pattern" and error.schema.get("x-message"):
        return f"{key}: {error.instance!r} is refused: {error.schema['x-message']}"
    explained = [sub.schema["x-message"] for sub in error.context or ()
                 if isinstance(sub.schema, dict) and sub.schema.get("x-message")]
    if error.validator in ("oneOf", "anyOf") and explained:
        return f"{key}: {error.instance!r} is refused: {explained[0]}"
    path = list(error.absolute_path)
    if error.validator == "oneOf" and len(path) == 2 and path[0] == "sources" and not prefix:
        return f"{key}: a source needs exactly one of 'url' or 'path'"
    return f"{key}: {error.message}"


def check_config(config: dict[str, Any], schema_path: Path = SCHEMA_PATH) -> None:
    """Raise ConfigError listing every schema violation and broken cross-reference."""
    problems = schema_errors(config, schema_path)
    if problems:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(problems))
    check_references(config)


def fill_defaults(config: dict[str, Any], schema_path: Path = SCHEMA_PATH) -> None:
    """Fill the schema's defaults into `config`, in place, where a key is absent."""
    validation_errors(config, load_schema(schema_path))  # check_config reported any problem


def loaded_config(configfiles: Sequence[Path | str] = (),
                  overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The config a run of these files (and `--config` values) uses, as the workflow loads
    it: laid over its `extends` chain, checked, and with the schema's defaults filled in."""
    config = assembled_config(configfiles, overrides)
    check_config(config)
    fill_defaults(config)
    return config


def reference_errors(config: dict[str, Any]) -> list[str]:
    """Keys that name a source which the config does not define (the schema's `x-source`
    strings), inputs whose member needs an unextracted source, and sections missing that
    another needs (the schema's `x-needs`)."""
    sources = config.get("sources", {})
    problems = []
    schema = load_schema()
    for section in config:
        needs = schema["properties"].get(section, {}).get("x-needs", {})
        problems += [f"{section}: {why}, and the config has no `{needed}` section"
                     for needed, why in needs.items() if needed not in config]
    for name, spec in sources.items():
        listing = spec.get("sha1sums")
        if listing is not None and (listing not in sources or sources[listing].get("months")):
            problems.append(f"sources.{name}.sha1sums: no single source named {listing!r}")
    for section, value in config.items():
        if section != "sources" and section in schema["properties"]:
            problems += _source_references(value, schema["properties"][section], section,
                                           schema, sources)
    return list(dict.fromkeys(problems))


def resolve_ref(node: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """A schema node with its local `$ref` (`#/$defs/name`) merged in."""
    ref = node.get("$ref")
    if not ref:
        return node
    target = schema
    for part in ref.removeprefix("#/").split("/"):
        target = target[part]
    return {**resolve_ref(target, schema), **{k: v for k, v in node.items() if k != "$ref"}}


def _source_references(value: Any, node: dict[str, Any], key: str, schema: dict[str, Any],
                       sources: dict[str, Any]) -> list[str]:
    """Problems of the source names inside one config value, walked beside its schema node."""
    node = resolve_ref(node, schema)
    problems: list[str] = []
    for alternative in (*node.get("oneOf", ()), *node.get("anyOf", ()), *node.get("allOf", ())):
        problems += _source_references(value, alternative, key, schema, sources)
    if node.get("x-source") and isinstance(value, str) and value not in sources:
        problems.append(f"{key}: no source named {value!r} under sources")
    elif isinstance(value, dict):
        properties = node.get("properties", {})
        for name, item in value.items():
            child = properties.get(name, node.get("additionalProperties"))
            if isinstance(child, dict):
                problems += _source_references(item, child, f"{key}.{name}", schema, sources)
        source = value.get("source")
        member_of = sources.get(source) if isinstance(source, str) else None
        if value.get("member") and member_of is not None and not member_of.get("extract") \
                and resolve_ref(properties.get("source", {}), schema).get("x-source"):
            problems.append(f"{key}.member: source {source!r} is not extracted (extract: true)")
    elif isinstance(value, list) and isinstance(node.get("items"), dict):
        for index, item in enumerate(value):
            problems += _source_references(item, node["items"], f"{key}[{index}]", schema,
                                           sources)
    return problems


def month_range(first: str, last: str) -> list[str]:
    """Every month from `first` to `last` inclusive, as YYYY-MM."""
    year, month = map(int, first.split("-"))
    end = tuple(map(int, last.split("-")))
    months = []
    while (year, month) <= end:
        months.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return months


def _fill(template: str, values: dict[str, Any], where: str) -> str:
    """Substitute {name} placeholders, naming the key when a variable is undefined."""
    names = {field for _, field, _, _ in string.Formatter().parse(template) if field}
    missing = sorted(names - set(values))
    if missing:
        raise ConfigError(f"{where}: undefined placeholder {{{missing[0]}}} "
                          f"(define it under variables)")
    return template.format_map(values)


def source_instances(config: dict[str, Any], name: str) -> list[str]:
    """The expanded source names of one configured source: itself, or one per month."""
    months = config["sources"][name].get("months")
    if not months:
        return [name]
    return [f"{name}_{m.replace('-', '_')}" for m in month_range(months["first"], months["last"])]


def expand_sources(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Sources with placeholders filled and monthly entries expanded to one source a month."""
    variables = dict(config.get("variables") or {})
    expanded: dict[str, dict[str, Any]] = {}
    for name, spec in config["sources"].items():
        months = spec.get("months")
        instances = (
            list(zip(source_instances(config, name),
                     ({"month": m} for m in month_range(months["first"], months["last"])),
                     strict=True))
            if months else [(name, {})]
        )
        for instance, extra in instances:
            entry = {k: v for k, v in copy.deepcopy(spec).items() if k != "months"}
            for key in ("url", "path"):
                if key in entry:
                    entry[key] = _fill(entry[key], {**variables, **extra},
                                       f"sources.{name}.{key}")
            expanded[instance] = entry
    return expanded


def named_sources(value: Any, names: Iterable[str]) -> list[str]:
    """The source names a config value mentions anywhere inside it, in order."""
    known = set(names)
    if isinstance(value, str):
        return [value] if value in known else []
    items = value.values() if isinstance(value, Mapping) else (
        value if isinstance(value, list) else [])
    found: list[str] = []
    for item in items:
        found += [name for name in named_sources(item, known) if name not in found]
    return found


def source_spec(spec: dict[str, Any]) -> dict[str, str]:
    """What a card says of a configured source: where it is, its pinned sha256, what it is."""
    path = (f"{spec['package']} package: {spec.get('path', '')}" if spec.get("package")
            else spec.get("path"))
    return {key: value for key, value in (("url", spec.get("url")), ("path", path),
                                          ("sha256", spec.get("sha256")),
                                          ("description", spec.get("description"))) if value}


def source_filename(spec: dict[str, Any]) -> str:
    """The name a source's file is stored under in data/raw/<source>/."""
    if spec.get("filename"):
        return spec["filename"]
    location = spec.get("url") or spec["path"]
    return location.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]


def raw_target_path(name: str, spec: dict[str, Any]) -> str:
    """What materialising a source produces: `data/raw/<source>/extracted` for an archive
    unpacked, else `data/raw/<source>/<filename>`."""
    if spec.get("extract"):
        return f"data/raw/{name}/extracted"
    return f"data/raw/{name}/{source_filename(spec)}"


def local_source_path(spec: dict[str, Any], source: str = "?") -> Path:
    """Where a `path:` source lives: relative to its `package:` folder when one is named, else
    to the working directory or, failing that, to the checkout (where data/samples/ ships)."""
    path = Path(spec["path"])
    package = spec.get("package")
    if package is None:
        if path.is_absolute() or path.exists() or not (CHECKOUT / path).exists():
            return path
        return CHECKOUT / path
    found = importlib.util.find_spec(package)
    if found is None or not found.submodule_search_locations:
        raise ConfigError(f"sources.{source}.package: Python package {package!r} is not "
                          f"installed (it holds {spec['path']})")
    return Path(list(found.submodule_search_locations)[0]) / path


def check_references(config: dict[str, Any]) -> None:
    """Raise ConfigError when a key names a source that is not defined."""
    problems = reference_errors(config)
    if problems:
        raise ConfigError("invalid configuration:\n  " + "\n  ".join(problems))


def fetch_runtime_minutes(spec: dict[str, Any], bytes_per_second: float = 5e6) -> int:
    """A runtime to request for materialising a source: its size at a modest rate, 2× margin."""
    size = spec.get("size") or 0
    return max(30, int(2 * size / bytes_per_second / 60))


def checksum_list_file(spec: dict[str, Any], sources: dict[str, dict[str, Any]]) -> str | None:
    """The fetched checksum list (`sha1sums:`) a source is checked against, if it names one."""
    listing = spec.get("sha1sums")
    return None if listing is None else raw_target_path(listing, sources[listing])


def fetch_inputs(sources: dict[str, dict[str, Any]], source: str, filename: str) -> list[str]:
    """What fetching one source reads: a local source's file (so that a changed sample is
    fetched again), or a URL source's checksum list (`sha1sums:`), fetched first."""
    spec = sources[source]
    if filename != source_filename(spec):
        raise ConfigError(f"source {source} is stored as {source_filename(spec)}, "
                          f"not {filename}")
    if "path" in spec:
        return [str(local_source_path(spec, source))]
    listing = checksum_list_file(spec, sources)
    return [listing] if listing else []


def fetch_arguments(spec: dict[str, Any], download: dict[str, Any], source: str,
                    checksum_list: str | None = None) -> list[str]:
    """The `reprobe fetch` arguments that materialise a source as configured, each option and
    its value one token (`--path=-train.tsv`: a value may begin with -)."""
    if "url" in spec:
        args = {"url": spec["url"], "retries": download["retries"],
                "backoff": download["backoff"], "timeout": download["timeout"]}
        if checksum_list is not None:
            args["sha1-list"] = checksum_list
    else:
        args = {"path": local_source_path(spec, source)}
    for key in ("sha256", "size"):
        if spec.get(key) is not None:
            args[key] = spec[key]
    return [f"--{option}={value}" for option, value in args.items()]
