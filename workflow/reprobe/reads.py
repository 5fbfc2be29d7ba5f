"""What a rule reads, as every stage's `targets.py` names it: the tracked file and the path
its command is given, a member inside an extracted folder, a row name as a file name."""

from __future__ import annotations

import re
from typing import NamedTuple


class Read(NamedTuple):
    """One file a job reads: what Snakemake tracks, and the path the command is given (a
    member inside an extracted folder, or the tracked path itself)."""

    target: str
    path: str


def inside(path: str, member: str | None) -> str:
    """The member inside an extracted folder, or the path itself when there is none."""
    return f"{path}/{member}" if member else path


def slug(name: str) -> str:
    """A row name as a file name: runs of characters other than letters, digits, . and -
    become one -."""
    return re.sub(r"[^\w.-]+", "-", name).strip("-")
