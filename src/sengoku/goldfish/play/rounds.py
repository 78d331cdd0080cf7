"""`--precision X`: play in rounds until a 95% interval is at most ±X, or until `--runs` is used up.

Round sizes depend only on the runs played so far and on the interval they gave, which comes
from exact integer sums: the same inputs give the same rounds, the same number of runs and so
the same result for any `--jobs`. Run i keeps its own seeds (seeds.seed_run), so a round just
plays the next run indices.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

FIRST_ROUND = 200  # runs of the first round: enough for a first estimate of the spread
MIN_ROUND = 100  # a later round plays at least this many more runs
MAX_GROWTH = 4  # and at most this many times the runs played so far
MARGIN = 1.1  # aim 10% past the runs the spread so far says are needed


@dataclass(frozen=True)
class Rounds:
    """How a `--precision` simulation went: the target, each round's cumulative runs and half-width."""

    target: float
    runs: tuple[int, ...]  # runs played by the end of each round
    widths: tuple[float | None, ...]  # the half-width after each round; None: no interval yet

    @property
    def half_width(self) -> float | None:
        return self.widths[-1]

    @property
    def reached(self) -> bool:
        return self.half_width is not None and self.half_width <= self.target

    def to_dict(self) -> dict[str, object]:
        return {"target": self.target, "half_width": _round(self.half_width), "reached": self.reached,
                "rounds": [{"runs": n, "half_width": _round(w)} for n, w in zip(self.runs, self.widths)]}


def _round(width: float | None) -> float | None:
    return None if width is None else round(width, 6)


def next_total(done: int, half_width: float | None, target: float, runs: int) -> int:
    """Return the runs to have played by the end of the next round (at most `runs`).

    The half-width shrinks as 1/√n, so n · (half_width / target)² runs should reach the target.
    Without an interval yet (None: fewer than two runs, or no spread), grow as fast as allowed.
    """
    if half_width is None or math.isinf(half_width) or math.isnan(half_width):
        wanted = MAX_GROWTH * done
    else:
        wanted = math.ceil(MARGIN * done * (half_width / target) ** 2)
    return min(runs, max(done + MIN_ROUND, min(MAX_GROWTH * done, wanted)))


def play_rounds(runs: int, target: float, play: Callable[[int, int], object],
                half_width: Callable[[], float | None]) -> Rounds:
    """Call `play(start, stop)` round after round until `half_width()` ≤ `target` or `runs` are played.

    `half_width()` is None while the interval is undefined; that never reaches the target.
    """
    if not target > 0 or math.isinf(target):
        raise ValueError(f"precision must be a positive number of turns, not {target}")
    done, ends, widths = 0, [], []
    stop = min(runs, FIRST_ROUND)
    while True:
        play(done, stop)
        done = stop
        width = half_width()
        ends.append(done)
        widths.append(width)
        if done >= runs or (width is not None and width <= target):
            return Rounds(target, tuple(ends), tuple(widths))
        stop = next_total(done, width, target, runs)
