"""One task of a race, as a worker (a local process or a Dask worker) runs it.

A task plays runs start..stop-1 of the incumbent and a group of candidates (changes of the
incumbent it compiles here, `tune.build`, or compiled plans) with compare's own
paired simulation (`goldfish.pairs.play_pairs_chunk`: run i of every deck from the same stream),
and sends back only integers: per candidate, the sums of its per-run gains over the incumbent
(a race's group names its objective: three lists, runs, sums and sums of squares, which the client
adds to its own slice by slice) or the joint counts of (incumbent's, candidate's) kill turn, and
the incumbent's own kill turns. The worker needs nothing but sengoku itself.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

from sengoku.goldfish.play.pairs import PairPlan, play_pairs_chunk
from sengoku.tune.build import Base, Group, built_group, group_plan
from sengoku.tune.race import Gains

__all__ = ["TaskResult", "group_plan", "play_task"]


@dataclass
class TaskResult:
    """What one task sends back: integers to merge, and how long it took (for sizing later tasks only)."""

    kills: list[Counter[tuple[int, int]]]  # per candidate of the group: (incumbent, candidate) kill turn -> runs
    incumbent: Counter[int | None]  # the incumbent's won turn (None: not won) -> runs
    games: int
    seconds: float
    # per candidate, the sums of its per-run gains (`race.Objective.improvement` of its kills) as three lists
    # (runs, sum, sum of squares: `race.Gains.of`), when the group names the objective: then the worker
    # sends these instead of `kills` (empty)
    gains: tuple[list[int], list[int], list[int]] | None = None


def play_task(group: PairPlan | Group, start: int, stop: int, base: Base | None = None) -> TaskResult:
    """Play runs start..stop-1 of a group (see the module's docstring): a `Group` of changes of `base`,
    or a `PairPlan` compiled already (`base` None)."""
    began = time.perf_counter()
    plan = built_group(base, group) if isinstance(group, Group) and base is not None else group
    assert isinstance(plan, PairPlan)
    tally = play_pairs_chunk(plan, start, stop)
    games = (stop - start) * len(plan.plans)
    if isinstance(group, Group) and group.objective is not None:
        objective, turns = group.objective
        return TaskResult([], tally.tallies[0].kill_turn, games, time.perf_counter() - began,
                          Gains.of([objective.improvement(p.kill, turns) for p in tally.pairings]))
    return TaskResult([p.kill for p in tally.pairings], tally.tallies[0].kill_turn, games,
                      time.perf_counter() - began)
