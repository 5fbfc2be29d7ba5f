"""Stand-in data: which of a page's inputs are samples rather than the paper's data, and the
banner that says so at the top of the page.

A source is a stand-in when its file ships with the project (`path` under `data/samples/`) or
inside an installed package (`package`, gensim's test data): the embedded default config
(config/config.yaml) is made of them, so that it runs offline in minutes. A row is a stand-in
when its model is named `tiny-…` (the default config's small stand-ins for the paper's models).
Numbers computed from stand-ins are shown beside the paper's as a check that the workflow runs
end to end, greyed and never counted as reproducing (or missing) the paper's.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

SAMPLES = ("data", "samples")
STAND_IN_ROW = "tiny-"


def stand_in_source(spec: Mapping[str, Any]) -> bool:
    """Whether a source spec is sample data: a file under data/samples/ or in a package."""
    if spec.get("package"):
        return True
    parts = PurePosixPath(str(spec.get("path") or "").replace("\\", "/")).parts
    return any(parts[i:i + 2] == SAMPLES for i in range(len(parts) - 1))


def stand_in_sources(sources: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The names of the page's sources that are stand-ins, in order."""
    return [name for name, spec in sources.items() if stand_in_source(spec)]


def is_stand_in_row(label: str) -> bool:
    """Whether a table row's label names a stand-in model (`tiny-ESIM (beyond the paper)`)."""
    return label.strip().lower().startswith(STAND_IN_ROW)


def banner_html(sources: Sequence[str], rows: Sequence[str]) -> str:
    """The page's stand-in banner ("" when nothing on it is a stand-in)."""
    if not sources and not rows:
        return ""
    said = []
    if sources:
        names = ", ".join(f"<code>{html.escape(name)}</code>" for name in sources)
        said.append(f"its sources {names} are samples (files under <code>data/samples/</code> "
                    "or shipped in an installed package), not the paper's data")
    if rows:
        names = ", ".join(f"<code>{html.escape(row)}</code>" for row in rows)
        said.append(f"the rows {names} are small stand-in models, not the paper's")
    scope = "Every number of ours on this page" if sources else "The numbers of those rows"
    return ('<div class="banner" id="stand-in" role="note"><strong>Made from stand-in '
            f"data.</strong> On this page {'; '.join(said)}. {scope} checks that the workflow "
            "runs end to end (a plumbing check): it is shown beside the paper's greyed, and "
            "counted neither within nor beyond the tolerance.</div>")
