# Shared helpers: the package on the path, the expanded sources, path builders.
import re
import shlex
from pathlib import Path

PACKAGE_ROOT = Path(workflow.basedir) / "workflow"

from reprobe.config import (  # noqa: E402
    expand_sources,
    fetch_arguments,
    fetch_runtime_minutes,
    local_source_path,
    raw_target_path,
    source_filename,
)

SOURCES = expand_sources(config)
# Rules run `python -m reprobe` from this checkout, so a conda env needs only the dependencies.
shell.prefix(
    f"set -euo pipefail; export PYTHONPATH={shlex.quote(str(PACKAGE_ROOT))}"
    "${{PYTHONPATH:+:$PYTHONPATH}}; "
)
ENVS = Path(workflow.basedir) / "envs"
# The papers' published numbers ship with the workflow, not with the working directory.
REFERENCE = Path(workflow.basedir) / "config" / "reference"


def raw_file(name):
    """The fetched file of a source."""
    return f"data/raw/{name}/{source_filename(SOURCES[name])}"


def raw_extracted(name):
    """The folder an archive source is unpacked into."""
    return f"data/raw/{name}/extracted"


def raw_target(name):
    """What materialising a source produces: its folder if extracted, else its file."""
    return raw_target_path(name, SOURCES[name])


ALL_SOURCES = [raw_target(name) for name in SOURCES]
# Tables of the paper stages; a stage's rules file sets its list when the config enables it.
NUMERACY_TABLES = []
EQUATE_TABLES = []
NUMERSENSE_TABLES = []
WIKIPSE_TABLES = []


def fetch_input(wildcards):
    """A local source's file, so that a changed sample triggers a refetch."""
    spec = SOURCES[wildcards.source]
    if wildcards.filename != source_filename(spec):
        raise ValueError(
            f"source {wildcards.source} is stored as {source_filename(spec)}, "
            f"not {wildcards.filename}"
        )
    return [str(local_source_path(spec, wildcards.source))] if "path" in spec else []


def fetch_command_arguments(wildcards):
    """The `reprobe fetch` arguments for a source, shell-quoted."""
    arguments = fetch_arguments(
        SOURCES[wildcards.source], config["download"], wildcards.source
    )
    return " ".join(shlex.quote(argument) for argument in arguments)
