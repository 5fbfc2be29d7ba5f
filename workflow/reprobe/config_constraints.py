"""Checks across keys of one config object, beside the schema that cannot say them.

Each check is attached to the schema node of the objects it concerns (`LOCATIONS`, by dotted
schema path) when the schema is loaded, so the one validator runs it wherever such an object
is: in the workflow's config, in `reprobe config-check` and in every step's settings. It sees
the object with the schema's defaults filled in and returns what is wrong, naming the keys
relative to that object, or None.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

Check = Callable[[Mapping[str, Any]], str | None]


def heads_divide_hidden(model: Mapping[str, Any]) -> str | None:
    """A transformer's hidden size splits evenly over its attention heads."""
    hidden, heads = model.get("hidden"), model.get("heads")
    if (isinstance(hidden, int) and isinstance(heads, int) and not isinstance(heads, bool)
            and heads > 0 and hidden % heads):
        return (f"hidden ({hidden}) must be a multiple of heads ({heads}): each attention "
                f"head takes an equal share of the hidden size")
    return None


def at_most(low: str, high: str) -> Check:
    """A check that key `low` is not above key `high` (when both are set)."""

    def check(section: Mapping[str, Any]) -> str | None:
        """`low` ≤ `high`."""
        first, last = section.get(low), section.get(high)
        # Only values of one comparable kind: a wrong type is the schema's to name.
        comparable = all(isinstance(v, int | float) and not isinstance(v, bool)
                         for v in (first, last)) or all(isinstance(v, str) for v in (first, last))
        if comparable and first > last:
            return f"{low} ({first}) is above {high} ({last}): nothing could fall between"
        return None

    check.__name__ = f"{low}_at_most_{high}"
    return check


CHECKS: dict[str, Check] = {
    "heads_divide_hidden": heads_divide_hidden,
    "min_tokens_at_most_max_tokens": at_most("min_tokens", "max_tokens"),
    "first_month_at_most_last": at_most("first", "last"),
}

# Where each check applies: a dotted path through the schema's `properties` (from a `$defs`
# entry when it starts with `$defs.`), as reprobe.step_settings.schema_section reads it.
LOCATIONS: dict[str, tuple[str, ...]] = {
    "$defs.numersense_model.tiny": ("heads_divide_hidden",),
    "numersense.builder": ("min_tokens_at_most_max_tokens",),
    "$defs.source.months": ("first_month_at_most_last",),
}


def schema_node(schema: dict[str, Any], location: str) -> dict[str, Any]:
    """The schema node at a dotted location (`numersense.builder`, `$defs.source.months`)."""
    keys = location.split(".")
    node = schema
    if keys[0] == "$defs":
        node, keys = schema["$defs"][keys[1]], keys[2:]
    for key in keys:
        node = node["properties"][key]
    return node


def attach_constraints(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with each location's checks named under `x-constraints`, in place."""
    for location, names in LOCATIONS.items():
        schema_node(schema, location)["x-constraints"] = list(names)
    return schema


def constraint_problems(names: Iterable[str], instance: Any) -> list[str]:
    """What the named checks find wrong with one object (nothing when it is no object)."""
    if not isinstance(instance, Mapping):
        return []
    return [problem for name in names if (problem := CHECKS[name](instance))]
