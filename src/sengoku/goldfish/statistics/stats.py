"""Streaming statistics: integer histograms, so memory stays flat however many games run.

Every goldfish measure is an integer, so a histogram (value -> games) holds all there is to
know: means and percentiles computed from it are exact, and adding histograms from parallel
jobs gives exactly the histogram one process would have built (results identical for any
`--jobs`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

PERCENTILES = (10, 50, 90)


class Histogram:
    """Count how many games showed each integer value of one measure."""

    __slots__ = ("counts",)

    def __init__(self, counts: dict[int, int] | None = None) -> None:
        self.counts: Counter[int] = Counter(counts or {})

    def add(self, value: int, games: int = 1) -> None:
        """Count `games` more games with `value`."""
        self.counts[value] = self.counts.get(value, 0) + games

    def merge(self, other: Histogram) -> None:
        """Add another histogram's counts to this one."""
        self.counts.update(other.counts)

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    def mean(self) -> float:
        """Return the exact mean (an integer sum over an integer count)."""
        n = self.n
        return sum(v * c for v, c in self.counts.items()) / n if n else math.nan

    def percentile(self, p: float) -> int:
        """Return the nearest-rank p-th percentile: the smallest value with ≥ p% of games at or below.

        Same as `sorted(values)[ceil(p / 100 * n) - 1]` on the list of every game's value.
        """
        n = self.n
        if n == 0:
            raise ValueError("percentile of an empty histogram")
        rank = max(1, math.ceil(p * n / 100))
        seen = 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            if seen >= rank:
                return value
        raise AssertionError("unreachable")  # pragma: no cover

    def summary(self, digits: int = 4) -> dict[str, float | int]:
        """Return {mean, p10, p50, p90}."""
        out: dict[str, float | int] = {"mean": round(self.mean(), digits)}
        for p in PERCENTILES:
            out[f"p{p}"] = self.percentile(p)
        return out

    def to_dict(self) -> dict[str, int]:
        return {str(v): self.counts[v] for v in sorted(self.counts)}


class CurveTally:
    """Per turn, per measure: a histogram of the values the games showed on that turn.

    A game won before its last turn stops there (unless played on), so each turn counts only
    the games still being played on it (`games` in each curve entry): a won game's later turns
    are neither development nor zeros. Games hand in their rows in batches of games of one
    length (`add_rows`: `length` rows per game, game after game); each turn's rows are
    transposed into one column per measure and counted at C speed (`Counter.update`), several
    times faster than a Python loop over the rows.
    """

    def __init__(self, measures: Sequence[str], turns: int) -> None:
        self.measures = tuple(measures)
        self.turns = turns
        self.hist = [[Histogram() for _ in self.measures] for _ in range(turns)]
        self.games = [0] * turns  # per turn, the games that played it

    def add_rows(self, rows: Sequence[tuple[int, ...]], length: int | None = None) -> None:
        """Count a batch of games that each played `length` turns (default: all): row k is turn k % length."""
        length = self.turns if length is None else length
        if not 1 <= length <= self.turns:
            raise ValueError(f"a game of {length} turns in a {self.turns}-turn tally")
        if len(rows) % length:
            raise ValueError(f"{len(rows)} rows is not a whole number of {length}-turn games")
        if not rows:
            return
        n = len(rows) // length
        for t in range(length):
            self.games[t] += n
            for h, column in zip(self.hist[t], zip(*rows[t::length])):
                h.counts.update(column)

    def merge(self, other: CurveTally) -> None:
        for t, (mine, theirs) in enumerate(zip(self.hist, other.hist)):
            self.games[t] += other.games[t]
            for a, b in zip(mine, theirs):
                a.merge(b)

    def curve(self) -> list[dict[str, object]]:
        """Return one object per turn (numbered from 1): `turn`, `games` and each measure's summary.

        A turn no game played (every game was won before it) has None for each measure.
        """
        return [
            {"turn": t + 1, "games": self.games[t],
             **{m: h.summary() if self.games[t] else None for m, h in zip(self.measures, self.hist[t])}}
            for t in range(self.turns)
        ]


# In a first-turn Counter: the game was won, and so stopped, before the thing happened (not "never").
WON_BEFORE = 0


def first_turn_distribution(counts: Counter[int | None], turns: int, runs: int) -> dict[str, object]:
    """Summarise on which turn something first happened.

    None counts as 'never within N turns'; `WON_BEFORE` as 'the game was won, and stopped,
    before it happened' (`won_before`), which is no statement about what the deck would have
    done later. Both sort after every turn for the median.
    """
    rows = []
    for t in range(1, turns + 1):
        games = counts.get(t, 0)
        rows.append({"turn": t, "games": games, "fraction": round(games / runs, 6) if runs else 0.0})
    never = counts.get(None, 0)
    won_before = counts.get(WON_BEFORE, 0)
    reached = Histogram({t: c for t, c in counts.items() if t is not None and t != WON_BEFORE})
    return {
        "by_turn": rows,
        "never": {"games": never, "fraction": round(never / runs, 6) if runs else 0.0},
        "won_before": {"games": won_before, "fraction": round(won_before / runs, 6) if runs else 0.0},
        # median over every game, 'never' sorting last: None when fewer than half reach it
        "median": _median_with_never(counts, runs),
        "mean_when_reached": round(reached.mean(), 4) if reached.n else None,
    }


def _median_with_never(counts: Counter[int | None], runs: int) -> int | None:
    rank = max(1, math.ceil(runs / 2))
    seen = 0
    for t in sorted(k for k in counts if k is not None and k != WON_BEFORE):
        seen += counts[t]
        if seen >= rank:
            return t
    return None

