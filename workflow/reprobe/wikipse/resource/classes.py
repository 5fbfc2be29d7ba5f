"""FIGER types folded into the WIKI-PSE S-classes (Yaghoobzadeh et al. 2019, §3).

The paper keeps "the 34 parent S-classes in the FIGER hierarchy that have instances". Keeping
the top level of each of FIGER's 113 types gives 57 classes, not 34: the released class list
also merges some top-level types into others (`/building` into location, `/software` into
product, ...), drops one and keeps some two-level types whose parent is no FIGER type
(`/people/ethnicity` -> `-people-ethnicity`). Those exceptions are data, `FoldRule` rows from the
configuration; everything else follows the default rule:

- a type takes the class of its top-most ancestor that is itself a FIGER type (`/person/author`
  -> `-person`, since `/person` is a FIGER type);
- a type none of whose ancestors is a FIGER type keeps its whole path (`/medicine/drug`);
- class names are FIGER paths with "/" written as "-".

A rule's `figer` is a type (exact) or a path ending in "/*", which matches that path and every
type under it. A rule is looked up for the type itself, then for the type its default rule
names (so a rule for `/building` also folds `/building/airport`); the most specific rule wins:
exact before "/*", a longer "/*" prefix before a shorter one. A rule whose sclass is None drops
the type.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from reprobe.errors import ConfigError, InputFormatError
from reprobe.text import open_text, require_rows

WILDCARD = "/*"
TOP_LEVEL = "top level"
TWO_LEVEL = "two-level: parent is no FIGER type"
_RULE_KEYS = ("figer", "sclass", "reason")


class FoldRule(NamedTuple):
    """One exception to the default fold: FIGER type or "/path/*" -> S-class (None: dropped).

    The S-class may be written with or without its leading "-" ("location", "-location")."""

    figer: str
    sclass: str | None
    reason: str


def read_types_map(path: Path) -> dict[str, list[str]]:
    """Freebase type -> FIGER types, in file order, from FIGER's `types.map`."""
    mapping: dict[str, list[str]] = {}
    with open_text(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            fields = line.rstrip("\r\n").split("\t")
            if len(fields) != 2 or not all(f.startswith("/") for f in fields):
                raise InputFormatError(path, f"line {number}", "expected `freebase_type<TAB>"
                                       "figer_type`, two paths starting with /")
            freebase, figer = fields
            found = mapping.setdefault(freebase, [])
            if figer not in found:
                found.append(figer)
    require_rows(path, len(mapping), "type mappings")
    return mapping


def figer_types_of(types_map: Mapping[str, Sequence[str]]) -> list[str]:
    """The distinct FIGER types a types.map names, sorted."""
    return sorted({figer for types in types_map.values() for figer in types})


def fold_rules(rows: Sequence[Mapping]) -> list[FoldRule]:
    """The fold rules of the configuration's rows ({figer, sclass, reason}; sclass null drops)."""
    rules: list[FoldRule] = []
    for index, row in enumerate(rows):
        where = f"wikipse.fold[{index}]"
        if not isinstance(row, Mapping):
            raise ConfigError(f"{where}: expected a mapping with keys {', '.join(_RULE_KEYS)}")
        missing = [key for key in _RULE_KEYS if key not in row]
        if missing:
            raise ConfigError(f"{where}: missing key {', '.join(missing)}")
        figer, sclass = row["figer"], row["sclass"]
        if not isinstance(figer, str) or not figer.startswith("/"):
            raise ConfigError(f"{where}: figer {figer!r} is not a FIGER path such as /building")
        if sclass is not None and (not isinstance(sclass, str) or not sclass):
            raise ConfigError(f"{where}: sclass {sclass!r} is neither a class name nor null")
        rules.append(FoldRule(figer, sclass, str(row["reason"])))
    return rules


def class_name(path: str) -> str:
    """The S-class name of a FIGER path: "/people/ethnicity" -> "-people-ethnicity"."""
    return path.replace("/", "-")


def _ancestors(figer_type: str) -> list[str]:
    """The type's paths from the top level down to itself: /a/b -> [/a, /a/b]."""
    parts = figer_type.strip("/").split("/")
    return ["/" + "/".join(parts[: depth + 1]) for depth in range(len(parts))]


def default_path(figer_type: str, figer_types: Collection[str]) -> str:
    """The FIGER path the default rule folds a type to: its top-most FIGER ancestor, else itself."""
    return next((path for path in _ancestors(figer_type) if path in figer_types), figer_type)


def _matches(rule: FoldRule, path: str) -> bool:
    """Whether a rule covers a path (exact, or the path is at or under a "/*" rule's stem)."""
    if not rule.figer.endswith(WILDCARD):
        return rule.figer == path
    stem = rule.figer[: -len(WILDCARD)]
    return path == stem or path.startswith(stem + "/")


def _specificity(rule: FoldRule) -> tuple[int, int]:
    """Sort key, most specific first: exact rules, then "/*" rules by longer stem."""
    wildcard = rule.figer.endswith(WILDCARD)
    return (1 if wildcard else 0, -len(rule.figer))


def rule_for(path: str, rules: Sequence[FoldRule]) -> FoldRule | None:
    """The most specific rule covering a path, or None."""
    found = [rule for rule in rules if _matches(rule, path)]
    return min(found, key=_specificity) if found else None


def _rule_class(sclass: str | None) -> str | None:
    """A rule's class as a class name: the configuration may write "location" or "-location"."""
    if sclass is None or sclass.startswith("-"):
        return sclass
    return "-" + sclass


def _fold(figer_type: str, figer_types: Collection[str], rules: Sequence[FoldRule]
          ) -> tuple[str | None, str]:
    """(S-class or None, why) of one FIGER type."""
    default = default_path(figer_type, figer_types)
    rule = rule_for(figer_type, rules) or rule_for(default, rules)
    if rule is not None:
        return _rule_class(rule.sclass), rule.reason
    if default in figer_types and default.count("/") == 1:
        return class_name(default), TOP_LEVEL
    return class_name(default), TWO_LEVEL


def sclass_of(figer_type: str, figer_types: Collection[str], rules: Sequence[FoldRule]
              ) -> str | None:
    """The S-class of a FIGER type (None when a rule drops it)."""
    return _fold(figer_type, figer_types, rules)[0]


def sclasses_of(figer: Iterable[str], figer_types: Collection[str], rules: Sequence[FoldRule]
                ) -> list[str]:
    """The distinct S-classes of some FIGER types, sorted; dropped types add none."""
    found = {sclass_of(figer_type, figer_types, rules) for figer_type in figer}
    return sorted(sclass for sclass in found if sclass is not None)


def fold_table(figer_types: Collection[str], rules: Sequence[FoldRule]
               ) -> list[tuple[str, str | None, str]]:
    """(FIGER type, S-class or None, why) for every FIGER type, sorted by type."""
    return [(figer_type, *_fold(figer_type, figer_types, rules))
            for figer_type in sorted(figer_types)]


def read_released_classes(path: Path) -> list[str]:
    """The class names of the released `semantic_classes.txt` (`-name count` lines), in order."""
    names: list[str] = []
    with open_text(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            fields = line.split()
            if len(fields) != 2 or not fields[0].startswith("-") or not fields[1].isdigit():
                raise InputFormatError(path, f"line {number}", "expected `-name count`")
            names.append(fields[0])
    require_rows(path, len(names), "classes")
    return names


def compare_classes(produced: Collection[str], released_classes_file: Path) -> dict:
    """How the produced S-classes differ from the released list: counts, missing and extra."""
    released = read_released_classes(released_classes_file)
    made = set(produced)
    return {
        "released": len(released),
        "produced": len(made),
        "missing": sorted(set(released) - made),
        "extra": sorted(made - set(released)),
    }
