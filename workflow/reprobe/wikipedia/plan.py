"""Cut a dump into shards: by the multistream index where there is one, else by page blocks."""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from dataclasses import asdict, dataclass
from pathlib import Path

from reprobe.errors import InputFormatError, ReprobeError
from reprobe.io import atomic_write_text
from reprobe.text import open_text
from reprobe.wikipedia.dump import ByteRange, iter_decompressed
from reprobe.wikipedia.titles import DEFAULT_NAMESPACES

_NAMESPACE = re.compile(rb'<namespace key="(-?\d+)"[^>]*?(?:/>|>([^<]*)</namespace>)')
SITEINFO_LIMIT = 1 << 20


@dataclass(frozen=True)
class ShardPlan:
    """How shard k of n reads the dump.

    mode "multistream": shard k decompresses the byte range ranges[k] (whole bz2 streams).
    mode "interleave": every shard streams the whole dump and keeps the pages whose block
    (ordinal // block_pages) falls to it (block % n == k): contiguous page ranges, balanced.
    dump and dump_size record the dump the plan was made from: a shard job is given its dump
    by the rule and checks it against them (`check_dump`), since byte ranges fit one file only.
    """

    dump: str
    mode: str
    shards: int
    ranges: list[tuple[int, int | None]]
    block_pages: int
    namespaces: dict[str, int]
    dump_size: int | None = None

    def byte_range(self, shard: int) -> ByteRange:
        """The compressed bytes shard `shard` reads."""
        if self.mode == "multistream":
            start, end = self.ranges[shard]
            return ByteRange(start, end)
        return ByteRange()

    def to_json(self) -> str:
        """Serialise for the plan file."""
        return json.dumps(asdict(self), indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ShardPlan:
        """Read a plan file's content."""
        data = json.loads(text)
        data["ranges"] = [tuple(r) for r in data["ranges"]]
        return cls(**data)


def read_stream_offsets(index: Path) -> list[int]:
    """Distinct stream start offsets listed by a multistream index (`offset:page_id:title`)."""
    offsets: list[int] = []
    with open_text(index) as handle:
        for line_number, line in enumerate(handle, 1):
            head = line.split(":", 1)[0]
            if not head.isdigit():
                if line.strip():
                    raise InputFormatError(
                        index, f"line {line_number}", "expected 'offset:page_id:title'"
                    )
                continue
            offset = int(head)
            if not offsets or offset != offsets[-1]:
                if offsets and offset < offsets[-1]:
                    raise InputFormatError(index, f"line {line_number}", "offsets go backwards")
                offsets.append(offset)
    return offsets


def split_by_bytes(offsets: list[int], shards: int) -> list[tuple[int, int | None]]:
    """Group consecutive streams into `shards` ranges of about equal compressed size."""
    if not offsets:
        return [(0, 0)] * shards
    first, last = offsets[0], offsets[-1]
    bounds = [first]
    for k in range(1, shards):
        goal = first + (last - first) * k / shards
        # The stream start closest to the goal, never before the previous bound.
        at = bisect_left(offsets, goal)
        candidates = offsets[max(at - 1, 0) : at + 1]
        nearest = min(candidates, key=lambda o: abs(o - goal))
        bounds.append(max(nearest, bounds[-1]))
    ranges: list[tuple[int, int | None]] = []
    for k in range(shards):
        end = bounds[k + 1] if k + 1 < shards else None
        ranges.append((bounds[k], end))
    return ranges


def read_namespaces(dump: Path) -> dict[str, int]:
    """Namespaces declared in the dump's <siteinfo>, merged over English defaults."""
    head = b""
    for _, data in iter_decompressed(dump):
        head += data
        if b"</siteinfo>" in head or len(head) > SITEINFO_LIMIT:
            break
    namespaces = dict(DEFAULT_NAMESPACES)
    for key, name in _NAMESPACE.findall(head.split(b"</siteinfo>", 1)[0]):
        if name:
            namespaces[name.decode("utf-8").strip()] = int(key)
    return namespaces


def plan_shards(dump: Path, index: Path | None, shards: int, block_pages: int) -> ShardPlan:
    """Plan how `shards` jobs split the dump."""
    namespaces = read_namespaces(dump)
    size = dump.stat().st_size
    if index is None:
        return ShardPlan(str(dump), "interleave", shards, [], block_pages, namespaces, size)
    ranges = split_by_bytes(read_stream_offsets(index), shards)
    return ShardPlan(str(dump), "multistream", shards, ranges, block_pages, namespaces, size)


def check_dump(plan: ShardPlan, dump: Path) -> Path:
    """`dump`, once its file name and size match the dump the plan was made from."""
    if not dump.is_file():
        raise ReprobeError(f"dump {dump}: no such file (the plan was made from {plan.dump})")
    size = dump.stat().st_size
    planned = Path(plan.dump)
    if dump.name != planned.name or plan.dump_size not in (None, size):
        recorded = "size not recorded" if plan.dump_size is None else f"{plan.dump_size} bytes"
        raise ReprobeError(
            f"dump {dump} ({size} bytes) is not the dump the shard plan was made from, "
            f"{plan.dump} ({recorded}); rerun `reprobe wikipedia plan --dump {dump}`")
    return dump


def write_plan(plan: ShardPlan, path: Path) -> None:
    """Write the plan atomically."""
    atomic_write_text(path, plan.to_json())
