"""The JSON Lines form of a trace: one event an object, one object a line (`schemas/trace.schema.json`).

A reader may split lines as Python's `str.splitlines` does, at U+2028, U+2029 and U+0085 too:
every such character, and every other hidden one (`display.json_text`), is written as a `\\u`
escape, so that a deck's name holding one still gives one record a line.
"""

from __future__ import annotations

from typing import Any

from sengoku.display import json_text


def render_jsonl(events: list[dict[str, Any]]) -> str:
    """Return the events as JSON Lines: compact, keys in the events' order, non-ASCII kept but hidden characters escaped."""
    return "".join(json_text(e, separators=(",", ":")) + "\n" for e in events)
