"""The JSON Lines form of a trace: one event an object, one object a line (`schemas/trace.schema.json`)."""

from __future__ import annotations

import json
from typing import Any


def render_jsonl(events: list[dict[str, Any]]) -> str:
    """Return the events as JSON Lines: compact, keys in the events' order, non-ASCII kept."""
    return "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in events)
