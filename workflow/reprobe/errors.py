"""The one error family reprobe raises for bad input, each naming where the problem is."""

from __future__ import annotations


class ReprobeError(Exception):
    """Base error: a message meant for the person running the workflow."""


class ConfigError(ReprobeError):
    """The configuration does not validate: the message names the key."""


class SourceError(ReprobeError):
    """A source could not be fetched, verified or extracted: the message names the source."""


class InputFormatError(ReprobeError):
    """An input file is malformed: the message names the file and the record or offset."""

    def __init__(self, path: object, where: str, problem: str) -> None:
        self.path = str(path)
        self.where = where
        self.problem = problem
        super().__init__(f"{self.path}: {where}: {problem}")


def error_line(error: BaseException) -> str:
    """One line saying what failed: the file (and the line or offset) where known."""
    if isinstance(error, ReprobeError):
        return str(error)
    if isinstance(error, UnicodeDecodeError):
        return (f"a text input is not {error.encoding}: byte {error.object[error.start:][:1].hex()}"
                f" at offset {error.start} of the text read ({error.reason})")
    if isinstance(error, OSError):
        where = ": ".join(str(name) for name in (error.filename, error.filename2) if name)
        reason = error.strerror or str(error)
        return f"{where}: {reason}" if where else reason
    return f"{type(error).__name__}: {error}"
