"""The kill turn (SPEC G5): on which of its own turns a deck wins, over every simulated game.

Games hand in their kill turns as a Counter (turn -> games; None: not won within `--turns`),
so the summary is exact and the same for any `--jobs`: fractions are counts over runs, and the
mean and percentiles over the games won come from a `Histogram` (nearest rank, as the curve's).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from sengoku.goldfish.statistics.paired import FEWER_THAN_TWO, Sums
from sengoku.goldfish.statistics.stats import PERCENTILES, Histogram

MIRROR = "mirror"  # `opponent.deck` when the opponent plays a copy of the simulated deck (G4)


def _share(games: int, runs: int) -> dict[str, Any]:
    return {"games": games, "fraction": round(games / runs, 6) if runs else 0.0}


def kill_turn_value(won_turn: int | None, turns: int) -> int:
    """Return a game's kill turn for means over every game: a game not won within `turns` counts as turns + 1."""
    return turns + 1 if won_turn is None else won_turn


def kill_turn_sums(counts: Mapping[int | None, int], turns: int) -> Sums:
    """Return the games, sum and sum of squares of every game's kill turn (never won: turns + 1)."""
    sums = Sums()
    for t, games in counts.items():
        value = kill_turn_value(t, turns)
        sums.n += games
        sums.total += games * value
        sums.squares += games * value * value
    return sums


def mean_over_all_games(counts: Counter[int | None], turns: int) -> dict[str, Any]:
    """Return the mean kill turn over every game (never won: turns + 1) with its 95% t interval.

    The interval is None, and `no_interval` says why, with fewer than two games or no spread.
    """
    sums = kill_turn_sums(counts, turns)
    if not sums.n:
        return {"mean": None, "ci95": None, "no_interval": FEWER_THAN_TWO, "never_counts_as": turns + 1}
    ci = sums.interval()  # None with one game, or when every game ended on the same turn
    return {"mean": round(sums.mean, 4), "ci95": None if ci is None else [round(ci[0], 4), round(ci[1], 4)],
            "no_interval": sums.no_interval(), "never_counts_as": turns + 1}


def kill_turn_summary(counts: Counter[int | None], turns: int, runs: int,
                      opponent: dict[str, Any]) -> dict[str, Any]:
    """Return `by_turn` (won on / by each turn), `won`, `never`, `mean`, `p10`/`p50`/`p90`, `opponent`.

    `by_turn[i]` has `turn`, `games` and `fraction` won on that turn, and `cumulative`
    (`games`, `fraction`) won by its end. `never` counts the games not won within `turns`; the
    mean and percentiles are over the games won only (None when no game was won);
    `mean_all_games` is over every game, a game never won counting as `turns + 1`, with its
    95% t interval (what `--precision` and `compare` use).
    """
    won = Histogram({t: c for t, c in counts.items() if t is not None})
    by_turn = []
    so_far = 0
    for t in range(1, turns + 1):
        games = counts.get(t, 0)
        so_far += games
        by_turn.append({"turn": t, **_share(games, runs), "cumulative": _share(so_far, runs)})
    stats: dict[str, Any] = {"mean": None, **{f"p{p}": None for p in PERCENTILES}}
    if won.n:
        stats = won.summary()
    return {
        "by_turn": by_turn,
        "won": _share(won.n, runs),
        "never": _share(counts.get(None, 0), runs),
        **stats,
        "mean_all_games": mean_over_all_games(counts, turns),
        "opponent": opponent,
    }
