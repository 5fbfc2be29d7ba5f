"""How a page looks and how its marks are explained: the inline stylesheet, legend and tallies."""

from __future__ import annotations

from reprobe.report.cells import percent
from reprobe.report.table_html import Counts

# Inline, so that the page needs nothing but itself (the report is read offline).
STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; color: #1f2328; margin: 1.5em 2em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
code, pre, .sha { font-family: ui-monospace, monospace; font-size: 0.92em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #d0d7de; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
thead th { background: #f6f8fa; }
.num { text-align: right; white-space: nowrap; }
.within { background: #dafbe1; } .beyond { background: #ffd7d5; } td.beyond { font-weight: 600; }
.scroll td, .scroll th { white-space: nowrap; }
.scroll td.long { white-space: normal; min-width: 24em; }
.paper-only { color: #6e7781; }
.mark { font-weight: 700; } .within .mark { color: #1a7f37; } .beyond .mark { color: #cf222e; }
.legend span { display: inline-block; padding: 0 0.5em; margin-right: 0.5em; }
.scroll { overflow-x: auto; } .files, figcaption { color: #6e7781; font-size: 0.9em; }
.scroll tr > :first-child { position: sticky; left: 0; z-index: 1; background: #fff;
  box-shadow: inset -1px 0 0 #d0d7de; }
.scroll thead tr > :first-child { background: #f6f8fa; }
.stand-in { background: #eaeef2; color: #57606a; } .stand-in-row td { color: #6e7781; }
.banner { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px;
  padding: 0.6em 1em; margin: 1em 0; max-width: 60em; }
.sha { word-break: break-all; } .origin { word-break: break-all; max-width: 30em; }
.keys th { font-weight: normal; color: #57606a; } figure img { max-width: 100%; }
pre.config { background: #f6f8fa; padding: 1em; overflow-x: auto; }
"""


def legend_html(tolerance: float) -> str:
    """What the colours and marks mean, with the tolerance in force."""
    allowed = percent(tolerance)
    return (
        '<p class="legend">'
        f'<span class="within">✓ within {allowed} of the paper</span>'
        f'<span class="beyond">✗ more than {allowed} from the paper</span>'
        '<span class="paper-only">grey: the paper\'s number, none of ours</span>'
        '<span class="stand-in">grey box: ours from stand-in data, not counted</span>'
        "unmarked: the paper has no such number, or ours is true by construction "
        "(<code>(by construction)</code>: the baseline's Δ over itself). Each cell reads "
        f"ours (paper, Δ = ours − paper); a cell is marked ✗ when |Δ| &gt; {allowed} × "
        "|paper| (config <code>report.tolerance</code>).</p>")


def tally_text(counts: Counts, tolerance: float) -> str:
    """One line: how many numbers compare with the paper's and how many are within tolerance
    (numbers from stand-in data said apart, never counted)."""
    if not counts.compared and not counts.paper_only and not counts.stand_in:
        return "No number here has a published counterpart."
    if counts.compared or not counts.stand_in:
        text = (f"{counts.compared} numbers beside the paper's: {counts.within} within "
                f"{percent(tolerance)} (✓), {counts.beyond} further (✗)")
    else:
        text = "No number here is counted against the paper's"
    if counts.stand_in:
        text += (f"; {counts.stand_in} from stand-in data sit beside the paper's as a plumbing "
                 "check only (grey, not counted)")
    if counts.paper_only:
        text += f"; {counts.paper_only} of the paper's numbers have none of ours"
    return text + "."
