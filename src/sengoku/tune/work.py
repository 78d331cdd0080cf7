"""One task of a race, as a worker (a local process or a Dask worker) runs it.

A task plays runs start..stop-1 of the incumbent and a group of candidates with compare's own
paired simulation (`goldfish.pairs.play_pairs_chunk`: run i of every deck from the same stream),
and sends back only integers: per candidate, the joint counts of (incumbent's, candidate's)
kill turn, and the incumbent's own kill turns. The worker needs nothing but sengoku itself.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

from sengoku.goldfish.play.pairs import PairPlan, play_pairs_chunk
from sengoku.goldfish.play.simulate import Plan


@dataclass
class TaskResult:
    """What one task sends back: integers to merge, and how long it took (for sizing later tasks only)."""

    kills: list[Counter[tuple[int, int]]]  # per candidate of the group: (incumbent, candidate) kill turn -> runs
    incumbent: Counter[int | None]  # the incumbent's won turn (None: not won) -> runs
    games: int
    seconds: float


def group_plan(incumbent: Plan, candidates: list[Plan]) -> PairPlan:
    """Return the paired plan of the incumbent (the baseline) and a group of candidates."""
    return PairPlan([incumbent, *candidates], [], [[] for _ in range(len(candidates) + 1)])


def play_task(plan: PairPlan, start: int, stop: int) -> TaskResult:
    """Play runs start..stop-1 of a group (see the module's docstring)."""
    began = time.perf_counter()
    tally = play_pairs_chunk(plan, start, stop)
    return TaskResult([p.kill for p in tally.pairings], tally.tallies[0].kill_turn,
                      (stop - start) * len(plan.plans), time.perf_counter() - began)
