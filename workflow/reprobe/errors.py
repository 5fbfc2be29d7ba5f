"""The one error family reprobe raises for bad input, each naming where the problem is."""

from __future__ import annotations

from pathlib import Path

# Why an OSError that carries no strerror (FileNotFoundError(path), say) failed, in words.
_OS_REASONS = {FileNotFoundError: "no such file", PermissionError: "permission denied",
               IsADirectoryError: "is a directory", NotADirectoryError: "not a directory"}


class ReprobeError(Exception):
    """Base error: a message meant for the person running the workflow."""


class ConfigError(ReprobeError):
    """The configuration does not validate: the message names the key."""


class SourceError(ReprobeError):
    """A source could not be fetched, verified or extracted: the message names the source."""


def origin_path(copy: Path | str) -> Path:
    """The sidecar beside a copied input (`.NAME.origin`) that names the file it came from."""
    copy = Path(copy)
    return copy.with_name(f".{copy.name}.origin")


def copied_from(path: Path | str) -> str | None:
    """The configured file a copied input (data/raw/<source>/<file>) was made from, if any."""
    try:
        return origin_path(path).read_text(encoding="utf-8").strip() or None
    except (OSError, UnicodeDecodeError, ValueError):
        return None


class InputFormatError(ReprobeError):
    """An input file is malformed: the message names the file and the record or offset, and
    the configured file it is a copy of, where it is one."""

    def __init__(self, path: object, where: str, problem: str) -> None:
        self.path = str(path)
        self.where = where
        self.problem = problem
        origin = copied_from(self.path)
        copy = f" (copied from {origin})" if origin else ""
        super().__init__(f"{self.path}{copy}: {where}: {problem}")


def error_line(error: BaseException) -> str:
    """One line saying what failed: the file (and the line or offset) where known."""
    if isinstance(error, ReprobeError):
        return str(error)
    if isinstance(error, UnicodeDecodeError):
        return (f"a text input is not {error.encoding}: byte {error.object[error.start:][:1].hex()}"
                f" at offset {error.start} of the text read ({error.reason})")
    if isinstance(error, OSError):
        names = [name for name in (error.filename, error.filename2) if name]
        if not names and error.strerror is None and len(error.args) == 1:
            names = [error.args[0]]  # FileNotFoundError(path): the path is the only argument
        where = ": ".join(str(name) for name in names)
        reason = error.strerror or _OS_REASONS.get(type(error)) or str(error)
        return f"{where}: {reason}" if where else reason
    return f"{type(error).__name__}: {error}"
