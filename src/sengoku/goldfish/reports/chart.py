"""Terminal charts in plain text: a curve measure's mean on its p10–p90 band, and the win curve."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

MEAN, BAND, EMPTY, BAR = "●", "░", " ", "█"


def _frame(grid: list[list[str]], labels: Sequence[str], turns: Sequence[int], width: int, legend: str) -> list[str]:
    """Put y labels (`labels[y]` for row y, '' for none), the x axis and a legend around `grid`."""
    label_w = max(len(label) for label in labels)
    lines = [f"{label:>{label_w}} ┤" + "".join(row) for label, row in zip(labels, grid)]
    lines.append(" " * label_w + " └" + "─" * (width * len(turns)))
    lines.append(" " * (label_w + 2) + "".join(f"{t:^{width}}" for t in turns))
    lines.append(" " * (label_w + 2) + legend)
    return lines


def band_chart(curve: Sequence[Mapping[str, Any]], measure: str = "ap_main", height: int = 10,
               width: int = 5) -> list[str]:
    """Return the lines of a chart: y = the measure, x = turns; ● mean, ░ the p10–p90 band.

    A turn no game played (its measure is None: every game was won before it) stays blank.
    """
    played = [row[measure] for row in curve if row[measure] is not None]
    if not played:
        return []
    lo = min(min(s["p10"] for s in played), min(s["mean"] for s in played))
    hi = max(max(s["p90"] for s in played), max(s["mean"] for s in played))
    span = (hi - lo) or 1
    height = max(2, height)

    def row_of(v: float) -> int:  # 0 = top row (hi), height-1 = bottom row (lo)
        return round((hi - v) / span * (height - 1))

    grid = [[EMPTY * width for _ in curve] for _ in range(height)]
    for x, row in enumerate(curve):
        s = row[measure]
        if s is None:
            continue
        for y in range(row_of(s["p90"]), row_of(s["p10"]) + 1):
            grid[y][x] = BAND * width
        y = row_of(s["mean"])
        grid[y][x] = (BAND * (width // 2) + MEAN + BAND * (width - width // 2 - 1)
                      if grid[y][x].startswith(BAND) else EMPTY * (width // 2) + MEAN + EMPTY * (width - width // 2 - 1))
    labels = []
    for y in range(height):
        value = hi - y * span / (height - 1)
        labels.append(f"{value:.0f}" if y in (0, height - 1) or y % 3 == 0 else "")
    return _frame(grid, labels, [row["turn"] for row in curve], width,
                  f"turn   ({MEAN} mean, {BAND} p10–p90)")


def win_chart(by_turn: Sequence[Mapping[str, Any]], height: int = 10, width: int = 5) -> list[str]:
    """Return the lines of the cumulative win curve: y = % of games won by the end of each turn (0–100).

    A row is filled when the share reaches its label; any games won at all fill the bottom row.
    """
    if not by_turn:
        return []
    height = max(2, height)
    grid = [[EMPTY * width for _ in by_turn] for _ in range(height)]
    cell = EMPTY + BAR * (width - 2) + EMPTY if width >= 3 else BAR * width
    for x, row in enumerate(by_turn):
        won = row["cumulative"]
        if won["games"] == 0:
            continue
        rows = max(1, int(won["fraction"] * height + 1e-9))  # rows filled, bottom up
        for y in range(height - rows, height):
            grid[y][x] = cell
    labels = []
    for y in range(height):
        top = 100 * (height - y) / height  # row y holds shares up to `top` percent
        labels.append(f"{top:.0f}%" if y in (0, height - 1) or y % 3 == 0 else "")
    return _frame(grid, labels, [row["turn"] for row in by_turn], width,
                  f"turn   ({BAR} games won by the end of the turn)")
