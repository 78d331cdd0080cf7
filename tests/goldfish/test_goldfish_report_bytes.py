"""The text report's exact bytes for one stored result, plain (a pipe) and in a narrow colour terminal.

The result comes from stored JSON, not from a simulation, so the engine's choices do not move
these bytes; only the report's own layout does. A cheaper way of building the same tables must
keep them (`data/report_*.txt` were written by the report before it built its cells as `Text`).

Rewritten on purpose for issue 25 (the answer first: the report opens with the kill turn, the
opponent and the opening-hand check, then the kill-turn details) and issue 21 (the check shows
the exact binomial tail, not a z-score), and for issue 34 (a share never shows as 100.0% or 0.0%
unless it is exactly that: ">99.9%", "<0.1%"). The stored result's `level1` event holds 150 hits of
300 where 72% are expected, so that the alarm's wording is pinned too; its tail (1.49e-15) is
the real one for those counts.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from rich.console import Console

from sengoku.goldfish.reports.report import render
from sengoku.goldfish.result import GoldfishResult

DATA = Path(__file__).with_name("data")


def result_from_json(doc: dict[str, Any]) -> GoldfishResult:
    """Rebuild a `GoldfishResult` from its JSON form (measures in the order of the curve's keys)."""
    measures = tuple(k for k in doc["curve"][0] if k not in ("turn", "games"))
    fields = {k: v for k, v in doc.items() if k not in ("schema_version", "sengoku_version", "errors")}
    return GoldfishResult(**fields, measures=measures)


def rendered(result: GoldfishResult, *, terminal: bool, width: int) -> str:
    out = io.StringIO()
    render(result, Console(file=out, highlight=False, width=width, force_terminal=terminal or None,
                           color_system="truecolor" if terminal else None))
    return out.getvalue()


def stored() -> GoldfishResult:
    return result_from_json(json.loads((DATA / "report_result.json").read_text(encoding="utf-8")))


def test_plain_report_bytes() -> None:
    want = (DATA / "report_plain.txt").read_text(encoding="utf-8")
    assert rendered(stored(), terminal=False, width=120) == want


def test_terminal_report_bytes() -> None:
    """Colours, bold headers, the dimmed percentiles and wrapping at 70 columns, byte for byte."""
    got = rendered(stored(), terminal=True, width=70)
    assert "\x1b[2m" in got  # the dimmed p10·p50·p90 line
    assert got == (DATA / "report_terminal.txt").read_text(encoding="utf-8")
