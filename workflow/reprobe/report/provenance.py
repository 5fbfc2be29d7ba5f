"""Where a paper's numbers come from: its dataset cards, its sources and the config it ran with.

Sources are shown as the config or its lock pins them (url or path, sha256, size): `reprobe fetch`
refused any file whose checksum or size differed, so a fetched file is the pinned one. The page only
says whether the file is on disk and how large, and never hashes it again (a dump is tens of GB).
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from reprobe.errors import InputFormatError
from reprobe.sources.lock import pin_for


def flatten(value: Any, prefix: str = "") -> list[tuple[str, str]]:
    """(dotted key, text) for every leaf of a nested card; lists of plain values joined."""
    if isinstance(value, Mapping):
        pairs = []
        for key, inner in value.items():
            pairs += flatten(inner, f"{prefix}.{key}" if prefix else str(key))
        return pairs or [(prefix, "{}")]
    if isinstance(value, list) and all(not isinstance(v, Mapping | list) for v in value):
        return [(prefix, ", ".join(map(str, value)))]
    if isinstance(value, list):
        pairs = []
        for index, inner in enumerate(value):
            pairs += flatten(inner, f"{prefix}[{index}]")
        return pairs
    return [(prefix, "null" if value is None else str(value))]


def read_card(path: Path) -> dict[str, Any]:
    """A dataset card (a JSON object), naming the file when it is not one."""
    try:
        card = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as error:
        raise InputFormatError(path, "card", f"not JSON ({error})") from None
    if not isinstance(card, dict):
        raise InputFormatError(path, "card", "expected a JSON object")
    return card


def card_html(path: Path) -> str:
    """One card, folded: its path as the summary, its fields as a key/value table."""
    rows = "".join(f"<tr><th>{html.escape(key)}</th><td>{html.escape(text)}</td></tr>"
                   for key, text in flatten(read_card(path)))
    return (f'<details class="card"><summary><code>{html.escape(str(path))}</code></summary>'
            f'<table class="keys"><tbody>{rows}</tbody></table></details>')


def cards_html(paths: Iterable[Path]) -> str:
    """Every card of a paper, or a line saying it has none."""
    cards = [card_html(path) for path in paths]
    return "".join(cards) or "<p>No dataset card: this stage builds no dataset.</p>"


def find_cards(folder: Path) -> list[Path]:
    """The dataset cards (`card.json`, `*.card.json`) under a stage's data folder, sorted."""
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.rglob("*card.json")
                  if path.name == "card.json" or path.name.endswith(".card.json"))


def byte_text(size: object) -> str:
    """A byte count with thousands separators, `—` when unknown."""
    return f"{int(size):,} B" if isinstance(size, int | float) else "—"


def origin_text(spec: Mapping[str, Any]) -> str:
    """Where a source comes from: its URL, or its path (inside which package)."""
    if "url" in spec:
        return str(spec["url"])
    package = spec.get("package")
    return f"{spec.get('path', '')} (in Python package {package})" if package else str(
        spec.get("path", ""))


def on_disk_text(spec: Mapping[str, Any]) -> str:
    """Whether the fetched file is there, and its size."""
    file = Path(str(spec.get("file", "")))
    if not spec.get("file") or not file.is_file():
        return "not fetched"
    return byte_text(file.stat().st_size)


def with_lock(sources: Mapping[str, Mapping[str, Any]],
              lock: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The sources with each one's lock entry (`locked`), where the lock has one."""
    return {name: {**spec, **({"locked": lock[name]} if name in lock else {})}
            for name, spec in sources.items()}


def pin_cell(name: str, spec: Mapping[str, Any]) -> str:
    """A source's sha256 and where it came from: the config, the lock, or neither."""
    lock = {name: spec["locked"]} if "locked" in spec else {}
    pin = pin_for(dict(spec), name, lock)
    if pin.sha256 is None:
        return "not pinned" + ("" if "url" in spec else " (a local file)")
    said = {"config": "from the config", "lock": "from the lock"}[pin.origin]
    return f"<code>{html.escape(pin.sha256)}</code> <small>{said}</small>"


def _sources_table(sources: Mapping[str, Mapping[str, Any]]) -> str:
    """One table of sources: name, description, origin, pinned size and sha256, on disk."""
    rows = []
    for name, spec in sources.items():
        sha_cell = pin_cell(name, spec)
        rows.append(
            f"<tr><td><code>{html.escape(name)}</code></td>"
            f"<td>{html.escape(str(spec.get('description', '')))}</td>"
            f'<td class="origin">{html.escape(origin_text(spec))}</td>'
            f'<td class="num">{byte_text(spec.get("size"))}</td><td class="sha">{sha_cell}</td>'
            f'<td class="num">{html.escape(on_disk_text(spec))}</td></tr>')
    head = ("<tr><th>source</th><th>description</th><th>from</th><th class=num>size</th>"
            "<th>sha256</th><th class=num>on disk</th></tr>")
    return f"<table><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"


def sources_html(sources: Mapping[str, Mapping[str, Any]]) -> str:
    """The sources the config sections name, then any source the config lists but none names;
    each sha256 says whether the config or the lock (the first fetch's measure) pins it."""
    if not sources:
        return "<p>This section of the config names no source.</p>"
    named = {name: spec for name, spec in sources.items() if spec.get("named", True)}
    unnamed = {name: spec for name, spec in sources.items() if name not in named}
    parts = [_sources_table(named)] if named else []
    if unnamed:
        parts.append("<h3>Configured, but named by no section of the config</h3>"
                     + _sources_table(unnamed))
    return "".join(parts)


def config_html(sections: Mapping[str, Any]) -> str:
    """The config sections a paper ran with, as YAML."""
    text = yaml.safe_dump(dict(sections), sort_keys=False, allow_unicode=True, width=100)
    return f'<pre class="config">{html.escape(text)}</pre>'
