# Shared helpers: the package on the path, the expanded sources, path builders.
import shlex
import sys
from pathlib import Path

PACKAGE_ROOT = Path(workflow.basedir) / "workflow"
sys.path.insert(0, str(PACKAGE_ROOT))

from reprobe.config import (  # noqa: E402
    check_references,
    expand_sources,
    fetch_runtime_minutes,
    local_source_path,
    source_filename,
)

check_references(config)
SOURCES = expand_sources(config)
# Rules run the package from this checkout, so a conda env needs only the dependencies.
REPROBE = (
    f"PYTHONPATH={shlex.quote(str(PACKAGE_ROOT))}${{PYTHONPATH:+:$PYTHONPATH}} "
    "python -m reprobe"
)
ENVS = Path(workflow.basedir) / "envs"


def raw_file(name):
    """The fetched file of a source."""
    return f"data/raw/{name}/{source_filename(SOURCES[name])}"


def raw_extracted(name):
    """The folder an archive source is unpacked into."""
    return f"data/raw/{name}/extracted"


def raw_target(name):
    """What materialising a source produces: its folder if extracted, else its file."""
    return raw_extracted(name) if SOURCES[name].get("extract") else raw_file(name)


ALL_SOURCES = [raw_target(name) for name in SOURCES]
