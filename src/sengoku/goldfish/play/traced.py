"""A run played again with its events recorded (G8): which run to pick, and what a trace is made from.

`replay_run` plays run i of a plan through `simulate.play_run`, the way the simulation played
it, so the recorded game is the game the simulation counted. `sengoku.trace` turns a
`TracedRun` into the events and text a user reads.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sengoku.goldfish.errors import GoldfishError
from sengoku.goldfish.options import PlayOptions
from sengoku.goldfish.play.simulate import Plan, make_runner, play_run

CHOICES = ("fastest", "median", "slowest")


def pick_run(kill_turns: Sequence[int], which: str, turns: int) -> int:
    """Return the index of the fastest, median or slowest run; ties go to the lowest index.

    `kill_turns[i]` is run i's kill turn, 0 when it was not won; a game not won counts as
    `turns` + 1 (slower than any won one). The median is the lower median of the runs.
    """
    if which not in CHOICES:
        raise GoldfishError(f"a run to trace is an index or one of {', '.join(CHOICES)}, not {which!r}")
    if not kill_turns:
        raise GoldfishError("no run was played, so none can be traced")
    values = [k if k else turns + 1 for k in kill_turns]
    if which == "fastest":
        target = min(values)
    elif which == "slowest":
        target = max(values)
    else:
        target = sorted(values)[(len(values) - 1) // 2]
    return values.index(target)


def parse_run(run: int | str) -> int | str:
    """Return a run index (an int ≥ 0) or a choice word from what a user typed."""
    if isinstance(run, int) and not isinstance(run, bool):
        return run
    word = str(run).strip().lower()
    if word in CHOICES:
        return word
    try:
        return int(word)
    except ValueError:
        raise GoldfishError(f"a run to trace is an index from 0 or one of {', '.join(CHOICES)}, not {run!r}") from None


@dataclass(frozen=True)
class TracedRun:
    """Run `run` of a simulation played again, its events recorded, with what a trace's header says."""

    run: int
    chosen: str | None  # "fastest", "median" or "slowest" when picked by its kill turn
    runs: int  # the runs of the simulation it is one of
    options: PlayOptions  # the options it was played with (the mode the deck's, when not given)
    deck: str  # the deck's name, else its path
    opponent: dict[str, Any]  # the opponent's deck and whether it defends (G4)
    won_turn: int | None
    turns_played: int
    record: list[dict[str, Any]]  # the engine's own events, as it played them
    tables: Any  # the deck's DeckTables (the events name cards by index)
    opponent_tables: Any  # the opponent's, None for a mirror


def replay_run(plan: Plan, run: int | str, runs: int, deck: str, opponent: dict[str, Any],
               kill_turns: Sequence[int] | None = None) -> TracedRun:
    """Play run `run` (an index, or "fastest", "median", "slowest" of `kill_turns`) of `plan` again, recording it."""
    which = parse_run(run)
    chosen = None
    if isinstance(which, str):
        chosen = which
        if kill_turns is None:
            raise GoldfishError("the runs' kill turns are needed to pick the fastest, median or slowest")
        if len(kill_turns) != runs:
            raise GoldfishError(f"{len(kill_turns)} kill turns given for {runs} runs")
        index = pick_run(kill_turns, which, plan.options.turns)
    else:
        index = which
        if not 0 <= index < runs:
            raise GoldfishError(f"run {index} is not one of the {runs:,} runs (0 to {runs - 1})")
    record: list[dict[str, Any]] = []
    game = play_run(make_runner(dataclasses.replace(plan, kill_turns=False), record), plan.options.seed, index)
    return TracedRun(index, chosen, runs, plan.options, deck, opponent, game.won_turn, len(game.turns), record,
                     plan.tables, plan.opponent)
