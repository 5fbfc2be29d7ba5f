"""Which probe and gold files `reprobe numersense score` reads, and its settings' defaults.

A set is a file (`.txt`: one probe a line; `.tsv`: probe<TAB>word) or the name of a released
set configured in a config file (`core`, `all`, `validation`): its file is where the workflow
fetched it (`data/raw/<source>/…`, or a `path:` source's own place). The gold of `core` and
`all` is `numersense.gold.<set>` where configured; a `.tsv` set carries its own labels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reprobe.errors import ReprobeError
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.probes import read_masked_tsv, read_masked_txt
from reprobe.numersense.score import ScoredSet

NAMED_SETS = ("core", "all", "validation")
# Where `numersense score` run by hand finds core, all and validation without --configfile.
NAMED_SETS_CONFIG = "config/config.yaml"
NO_GOLD = "-"


def load_numersense(configfile: str | Path) -> dict[str, Any]:
    """The config file laid over its `extends` chain, defaults filled (a hand run's config
    need hold only what the step reads: its settings section is checked by the step), or {}
    when there is none."""
    from reprobe.config import fill_defaults
    from reprobe.config_files import assembled_config

    path = Path(configfile)
    if not path.is_file():
        return {}
    config = assembled_config([path])
    fill_defaults(config)
    return config


def numersense_setting(config: Mapping[str, Any], key: str) -> Any:
    """`numersense.<key>` of the config, else the schema's default."""
    from reprobe.config import load_schema

    section = config.get("numersense") or {}
    if key in section:
        return section[key]
    return load_schema()["properties"]["numersense"]["properties"][key]["default"]


def source_file(config: Mapping[str, Any], spec: Mapping[str, Any], where: str) -> Path:
    """The file a `{source, member}` input names, as the workflow stores it; an error if the
    workflow has not fetched it yet."""
    from reprobe.config import expand_sources, local_source_path, raw_target_path

    sources = expand_sources(dict(config))
    name = spec["source"]
    if name not in sources:
        raise ReprobeError(f"{where}: no source {name!r} in the config")
    source = sources[name]
    # A local file is read where it lives; anything else where the workflow stores it.
    if "path" in source and not source.get("extract"):
        path = local_source_path(source, name)
    else:
        path = Path(raw_target_path(name, source)) / spec.get("member", "")
    if not path.is_file():
        raise ReprobeError(f"{where}: {path} is not there; fetch it first "
                           f"(snakemake --cores 1 data/raw/{name}/…) or give the file itself")
    return path


def named_set(config: Mapping[str, Any], name: str) -> tuple[Path, Path | None]:
    """The probe file and gold file (if any) of a configured released set."""
    numersense = config.get("numersense") or {}
    released = numersense.get("released") or {}
    if name not in released:
        raise ReprobeError(f"--probes {name}: numersense.released.{name} is not configured; give "
                           f"a probe file instead")
    probes = source_file(config, released[name], f"numersense.released.{name}")
    if name == "validation":
        return probes, probes
    gold = (numersense.get("gold") or {}).get(name)
    return probes, source_file(config, gold, f"numersense.gold.{name}") if gold else None


def read_probe_lines(path: Path) -> list[str]:
    """Every probe line of a `.txt` or `.tsv` file, repeats kept."""
    if path.suffix == ".tsv":
        return [p.probe for p in read_masked_tsv(path, frozenset(CANDIDATES))]
    return read_masked_txt(path)


def resolve_sets(sets: Sequence[str], golds: Sequence[str], names: Sequence[str],
                 configfile: str | Path) -> list[ScoredSet]:
    """The sets to score, with their probe lines and gold lines, in the order given."""
    for option, values in (("--gold", golds), ("--name", names)):
        if values and len(values) != len(sets):
            raise ReprobeError(f"{option} given {len(values)} times for {len(sets)} --probes")
    config = load_numersense(configfile) if any(s in NAMED_SETS for s in sets) else {}
    resolved = []
    for index, item in enumerate(sets):
        if item in NAMED_SETS:
            probes_path, gold_path = named_set(config, item)
        else:
            probes_path = Path(item)
            if not probes_path.is_file():
                raise ReprobeError(f"--probes {item}: no such file (or use core, all, validation)")
            gold_path = probes_path if probes_path.suffix == ".tsv" else None
        if golds:
            gold_path = None if golds[index] == NO_GOLD else Path(golds[index])
        name = names[index] if names else (item if item in NAMED_SETS else probes_path.stem)
        gold = (read_masked_tsv(gold_path, frozenset(CANDIDATES), may_be_empty=True)
                if gold_path else None)
        resolved.append(ScoredSet(name, read_probe_lines(probes_path), gold))
    return resolved
