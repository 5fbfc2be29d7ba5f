"""`reprobe fetch`, `extract`, `config-check` and `clean`: materialise and check the workflow's
sources, and remove what killed jobs left."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reprobe.errors import ConfigError
from reprobe.sources.settings import LOCK_VARIABLE, MIRROR_VARIABLE, OFFLINE_VARIABLE
from reprobe.step_options import add_names, add_paths, optional

log = logging.getLogger("reprobe.sources")
# What `reprobe clean` looks through by default: the workflow's outputs.
CLEANED = ("data", "results", "exports")


def cmd_fetch(args: argparse.Namespace) -> None:
    """Materialise one source: from the mirror or its URL (checked against config or lock, and
    locked when new), or copy a local file, verifying its checksum."""
    from reprobe.sources.fetch import copy_local
    from reprobe.sources.materialise import materialise_url
    from reprobe.sources.settings import FetchSettings, environment_flag
    from reprobe.step_settings import checked_option

    output = Path(args.output)
    if args.url:
        settings = FetchSettings(
            retries=checked_option(args.retries, "download.retries", "--retries"),
            backoff=checked_option(args.backoff, "download.backoff", "--backoff"),
            timeout=checked_option(args.timeout, "download.timeout", "--timeout"),
            lock=Path(args.lock) if args.lock else None,
            mirror=Path(args.mirror) if args.mirror else None,
            offline=args.offline or environment_flag(os.environ.get(OFFLINE_VARIABLE)),
            progress=not args.quiet)
        materialise_url(args.source, args.url, output, sha256=args.sha256, size=args.size,
                        settings=settings,
                        sha1_list=Path(args.sha1_list) if args.sha1_list else None)
    else:
        copy_local(Path(args.path), output, source=args.source, sha256=args.sha256,
                   size=args.size)
    log.info("source %s ready at %s", args.source, output)


def cmd_extract(args: argparse.Namespace) -> None:
    """Unpack a fetched archive into a folder, refusing members that escape it."""
    from reprobe.sources.extract import extract_archive

    files = extract_archive(Path(args.archive), Path(args.output), source=args.source)
    log.info("source %s: %d files extracted into %s", args.source, len(files), args.output)


def cmd_config_check(args: argparse.Namespace) -> None:
    """Check config files as the workflow reads them (each laid over the config its `extends`
    names, later files over earlier ones), list the expanded sources, or --show a section of
    the config the run would use."""
    import yaml

    from reprobe.config import expand_sources, loaded_config, source_filename

    config = loaded_config(args.configfile)
    if args.show is not None:
        node: Any = config
        for key in [k for k in args.show.split(".") if k]:
            if not isinstance(node, dict) or key not in node:
                raise ConfigError(f"--show {args.show}: the config has no key {key!r} there")
            node = node[key]
        print(yaml.safe_dump(node, sort_keys=False, allow_unicode=True), end="")
    else:
        for name, spec in expand_sources(config).items():
            where = spec.get("url") or spec.get("path")
            print(f"{name}\t{source_filename(spec)}\t{where}")
    print(f"{', '.join(args.configfile) or 'the embedded default'}: valid", file=sys.stderr)


def cmd_clean(args: argparse.Namespace) -> None:
    """Remove the staging files and folders (`.NAME.tmp-PID`) that killed jobs left: those
    whose process is gone from this machine (so run it when no run is going on any node that
    shares the folders); --dry-run lists them only."""
    from reprobe.io import remove_path, stale_staging_under

    roots = [Path(folder) for folder in args.folders or CLEANED]
    stale = [path for root in roots if root.is_dir() for path in stale_staging_under(root)]
    for path in stale:
        print(f"{'would remove' if args.dry_run else 'removing'} {path}")
        if not args.dry_run:
            remove_path(path)
    print(f"{len(stale)} stale staging paths under {', '.join(map(str, roots))}",
          file=sys.stderr)


def register(commands: argparse._SubParsersAction,
             add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the `fetch`, `extract`, `config-check` and `clean` commands to the CLI."""
    fetch = add("fetch", cmd_fetch, commands)
    add_names(fetch, source="source name (for messages)")
    add_paths(fetch, output="where the file goes",
              sha1_list=optional("a checksum list (`<sha1>  <file>`) naming the file"))
    where = fetch.add_mutually_exclusive_group(required=True)
    where.add_argument("--url", help="download from this URL (resumable, retried)")
    where.add_argument("--path", help="link or copy this local file")
    fetch.add_argument("--sha256", default=None, help="expected sha256 (hex); unchecked if absent")
    fetch.add_argument("--size", type=int, default=None, help="expected size in bytes")
    fetch.add_argument("--retries", type=int, help="retries of a failed transfer (default: the "
                       "schema's download.retries)")
    fetch.add_argument("--backoff", type=float, help="first retry delay, seconds (default: the "
                       "schema's download.backoff)")
    fetch.add_argument("--timeout", type=float, help="read timeout, seconds (default: the "
                       "schema's download.timeout)")
    fetch.add_argument("--quiet", action="store_true", help="no progress bar")
    fetch.add_argument("--lock", default=os.environ.get(LOCK_VARIABLE) or None,
                       help=f"the lock file (default ${LOCK_VARIABLE}; none: nothing locked)")
    fetch.add_argument("--mirror", default=os.environ.get(MIRROR_VARIABLE) or None,
                       help=f"a mirror folder looked in first (default ${MIRROR_VARIABLE})")
    fetch.add_argument("--offline", action="store_true",
                       help=f"never download (also ${OFFLINE_VARIABLE}=1)")

    extract = add("extract", cmd_extract, commands)
    add_names(extract, source="source name (for messages)")
    add_paths(extract, archive="the fetched archive", output="folder to unpack into")

    config = add("config-check", cmd_config_check, commands)
    config.add_argument("configfile", nargs="*", help="config files, as given to snakemake's "
                        "--configfile (none: the embedded default)")
    config.add_argument("--show", metavar="KEY", help="print this dotted section of the config "
                        "the run would use (defaults filled in; '.' for all) instead of the "
                        "sources")
    clean = add("clean", cmd_clean, commands)
    clean.add_argument("folders", nargs="*", metavar="DIR", help="folders to look through "
                       f"(default: {', '.join(CLEANED)})")
    clean.add_argument("--dry-run", action="store_true", help="list, remove nothing")
    _register_sources(commands, add)


def cmd_sources_fetch(args: argparse.Namespace) -> None:
    """Fill a mirror folder with every source of a config (or of --only sections): URLs with
    progress, resume and the lock, local files copied; run it where there is internet, then
    point `download.mirror` (or REPROBE_MIRROR) at the folder."""
    from reprobe.sources.inventory import fill_mirror, load_config, lock_of

    configfile = Path(args.configfile)
    config = load_config(configfile)
    files = fill_mirror(config, lock_of(config, configfile), Path(args.to), args.only,
                        progress=not args.quiet)
    print(f"{len(files)} sources in {args.to}", file=sys.stderr)


def cmd_sources_lock(args: argparse.Namespace) -> None:
    """Record in the config's lock the sha256 and size of every fetched URL source that the
    config does not pin (data/raw/ under --directory)."""
    from reprobe.sources.inventory import load_config, lock_fetched, lock_of

    configfile = Path(args.configfile)
    config = load_config(configfile)
    lock = lock_of(config, configfile)
    added = lock_fetched(config, lock, Path(args.directory))
    print(f"{lock}: {len(added)} entries added" + (f" ({', '.join(added)})" if added else ""),
          file=sys.stderr)


def cmd_sources_verify(args: argparse.Namespace) -> None:
    """Check every fetched file of a config against its config or lock checksum; exit 1 on a
    mismatch (a file not fetched or not pinned is listed, not an error)."""
    from reprobe.errors import SourceError
    from reprobe.sources.inventory import load_config, lock_of, verify_fetched

    configfile = Path(args.configfile)
    config = load_config(configfile)
    checks = verify_fetched(config, lock_of(config, configfile), Path(args.directory))
    for check in checks:
        print(f"{check.source}\t{check.origin}\t{check.verdict}\t{check.file}")
    bad = [check.source for check in checks if check.verdict.startswith("MISMATCH")]
    if bad:
        raise SourceError(f"{len(bad)} fetched files differ from their pins: {', '.join(bad)}")


def _register_sources(commands: argparse._SubParsersAction,
                      add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the `sources` group: fetch (fill a mirror), lock, verify."""
    group = commands.add_parser("sources", help="a config's sources: mirror, lock, verify")
    sub = group.add_subparsers(dest="sources_command", required=True, metavar="STEP")
    fetch = add("fetch", cmd_sources_fetch, sub)
    lock = add("lock", cmd_sources_lock, sub)
    verify = add("verify", cmd_sources_verify, sub)
    for parser in (fetch, lock, verify):
        parser.add_argument("--configfile", required=True, help="e.g. config/paper.yaml")
    fetch.add_argument("--to", required=True, help="the mirror folder to fill")
    fetch.add_argument("--only", action="append", default=[], metavar="SECTION",
                       help="only the sources this config section names (repeatable), e.g. "
                       "equate, numersense, wikipedia")
    fetch.add_argument("--quiet", action="store_true", help="no progress bars")
    for parser in (lock, verify):
        parser.add_argument("--directory", default=".",
                            help="the workflow's working directory (holds data/raw/)")
