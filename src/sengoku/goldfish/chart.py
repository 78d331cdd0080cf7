"""A terminal chart of one curve measure: the mean per turn on its p10–p90 band, in plain text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

MEAN, BAND, EMPTY = "●", "░", " "


def band_chart(curve: Sequence[Mapping[str, Any]], measure: str = "ap_main", height: int = 10,
               width: int = 5) -> list[str]:
    """Return the lines of a chart: y = the measure, x = turns; ● mean, ░ the p10–p90 band."""
    if not curve:
        return []
    lo = min(row[measure]["p10"] for row in curve)
    hi = max(row[measure]["p90"] for row in curve)
    hi = max(hi, max(row[measure]["mean"] for row in curve))
    lo = min(lo, min(row[measure]["mean"] for row in curve))
    span = (hi - lo) or 1
    height = max(2, height)

    def row_of(v: float) -> int:  # 0 = top row (hi), height-1 = bottom row (lo)
        return round((hi - v) / span * (height - 1))

    label_w = max(len(f"{hi:g}"), len(f"{lo:g}"))
    grid = [[EMPTY * width for _ in curve] for _ in range(height)]
    for x, row in enumerate(curve):
        s = row[measure]
        for y in range(row_of(s["p90"]), row_of(s["p10"]) + 1):
            grid[y][x] = BAND * width
        y = row_of(s["mean"])
        grid[y][x] = (BAND * (width // 2) + MEAN + BAND * (width - width // 2 - 1)
                      if grid[y][x].startswith(BAND) else EMPTY * (width // 2) + MEAN + EMPTY * (width - width // 2 - 1))
    lines = []
    for y in range(height):
        value = hi - y * span / (height - 1)
        label = f"{value:{label_w}.0f}" if y in (0, height - 1) or y % 3 == 0 else " " * label_w
        lines.append(f"{label} ┤" + "".join(grid[y]))
    lines.append(" " * label_w + " └" + "─" * (width * len(curve)))
    lines.append(" " * (label_w + 2) + "".join(f"{row['turn']:^{width}}" for row in curve))
    lines.append(" " * (label_w + 2) + f"turn   ({MEAN} mean, {BAND} p10–p90)")
    return lines
