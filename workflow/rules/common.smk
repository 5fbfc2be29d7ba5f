# Shared helpers: the package on the path, the expanded sources, path builders.
import os
import re
import shlex
from pathlib import Path

PACKAGE_ROOT = Path(workflow.basedir) / "workflow"

from reprobe.config import (  # noqa: E402
    checksum_list_file,
    expand_sources,
    fetch_arguments,
    fetch_inputs,
    fetch_runtime_minutes,
    raw_target_path,
    source_filename,
)

from reprobe.errors import SourceError  # noqa: E402
from reprobe.resources import job_memory, job_resources  # noqa: E402
from reprobe.sources.mirror import missing_offline, offline_report  # noqa: E402
from reprobe.sources.settings import (  # noqa: E402
    MIRROR_VARIABLE,
    OFFLINE_VARIABLE,
    workflow_environment,
)

SOURCES = expand_sources(config)
# The lock beside the config file given (else the embedded default's), the mirror and the
# offline switch reach the fetch jobs through the environment (reprobe.sources.settings says why).
CONFIGFILE = Path(
    (
        workflow.overwrite_configfiles
        or [Path(workflow.basedir) / "config" / "config.yaml"]
    )[-1]
)
os.environ.update(workflow_environment(config["download"], CONFIGFILE, os.environ))
if os.environ[OFFLINE_VARIABLE] == "1":
    # Offline: every missing file named at once, before any job runs (a dry run too).
    MIRROR = Path(os.environ[MIRROR_VARIABLE]) if os.environ[MIRROR_VARIABLE] else None
    MISSING = missing_offline(SOURCES, MIRROR, Path.cwd())
    if MISSING:
        raise SourceError(offline_report(MISSING, MIRROR))
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


# The Wikipedia corpus (wikipedia.smk): absent from a config that reads no dump (the released-
# data tier), and then no stage may ask for it (reprobe.config checks).
WIKI_DIR = "data/processed/wikipedia"
WIKI_SHARDS = (
    [f"{k:04d}" for k in range(config["wikipedia"]["shards"])]
    if "wikipedia" in config
    else []
)
TABLES = []
# Tables of the paper stages, by stage name: each enabled stage's rules file sets its list.
STAGE_TABLES = {}
# Each stage's datasets as Hugging Face dataset folders (and harness tasks), by stage name.
STAGE_EXPORTS = {}


def fetch_input(wildcards):
    """A fetch job's input (reprobe.config.fetch_inputs)."""
    return fetch_inputs(SOURCES, wildcards.source, wildcards.filename)


def fetch_command_arguments(wildcards):
    """The `reprobe fetch` arguments for a source, as argument tokens."""
    spec = SOURCES[wildcards.source]
    return fetch_arguments(
        spec, config["download"], wildcards.source, checksum_list_file(spec, SOURCES)
    )
