"""One task of an impact race, as a worker (a local process or a Dask worker) runs it.

A task plays runs start..stop-1 of the full deck and of each card's deck (one copy fewer, or one
replaced) still racing, run i of every deck from the same streams (`simulate.play_run`, the one
way a run is played: G7's common random numbers), and sends back integers only: per card, the
joint counts of (full deck's, card's deck's) kill turn; the full deck's own kill turns; and the
association sums of the full deck's games.

The associations come from the full deck's games alone, played with their events recorded (G8:
the same game, read back): which cards were in the opening hand (S6), and which were drawn by
the end of turn `drawn_by` (a Draw Phase, T3, an ability's draw, or a Troop, A4). Per card,
the sums of the objective's per-run value over the games where it was in the opening hand, drawn,
and not drawn: what card trackers report, and biased by game length (G9): a game that lasts
longer draws more cards.

The worker plays the paired games in its own loop, not `pairs.play_pairs_chunk`: that one also
tallies every deck's curve and opening hands, which `impact` never reports and which would cost
about as much as the games.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sengoku.goldfish.play.simulate import Plan, make_runner, play_run
from sengoku.goldfish.statistics.kill_turn import kill_turn_value
from sengoku.goldfish.statistics.paired import Sums
from sengoku.tune.race import Objective

OPENING, DRAWN, NOT_DRAWN = 0, 1, 2  # the association sums kept per card index of the full deck


@dataclass
class ImpactPlan:
    """What a look's tasks play: the full deck, the decks still racing, and the association's settings."""

    full: Plan
    decks: Sequence[Plan]
    objective: Objective
    drawn_by: int  # T: "drawn" means by the end of the player's turn T


@dataclass
class ImpactTaskResult:
    """What one task sends back: integers to merge, and how long it took (for sizing later tasks only)."""

    kills: list[Counter[tuple[int, int]]]  # per racing deck: (full deck's, deck's) kill turn -> runs
    full: Counter[int | None]  # the full deck's won turn (None: not won) -> runs
    association: list[tuple[Sums, Sums, Sums]]  # per card index of the full deck: OPENING, DRAWN, NOT_DRAWN
    games: int
    seconds: float


def empty_association(cards: int) -> list[tuple[Sums, Sums, Sums]]:
    return [(Sums(), Sums(), Sums()) for _ in range(cards)]


def merge_association(into: list[tuple[Sums, Sums, Sums]], other: list[tuple[Sums, Sums, Sums]]) -> None:
    for mine, theirs in zip(into, other):
        for a, b in zip(mine, theirs):
            a.merge(b)


def cards_seen(events: list[dict[str, Any]], drawn_by: int) -> tuple[set[int], set[int]]:
    """Return the card indices of a game's opening hand, and of every card drawn by the end of turn `drawn_by`.

    Read from the game's own events (G8): the setup's hand (S6), then each draw (T3, abilities)
    and Troop (A4) until the first turn after `drawn_by` begins.
    """
    opening: set[int] = set()
    drawn: set[int] = set()
    for event in events:
        kind = event["event"]
        if kind == "setup":
            opening.update(event["hand"])
            drawn.update(event["hand"])
        elif kind == "turn" and event["turn"] > drawn_by:
            break
        elif kind == "draw":
            drawn.update(event["cards"])
        elif kind == "troop":
            drawn.add(event["card"])
    return opening, drawn


def play_impact_task(plan: ImpactPlan, start: int, stop: int, base: Any = None) -> ImpactTaskResult:
    """Play runs start..stop-1 of the full deck and every racing deck (see the module's docstring); `base`, the
    place of tune's deck in a task, is not used (each deck's plan travels whole: a few dozen per race)."""
    began = time.perf_counter()
    full = plan.full
    turns, objective, drawn_by = full.options.turns, plan.objective, plan.drawn_by
    events: list[dict[str, Any]] = []
    full_runner = make_runner(full, record=events)
    runners = [make_runner(p) for p in plan.decks]
    seed = full.options.seed
    kills: list[Counter[tuple[int, int]]] = [Counter() for _ in plan.decks]
    own: Counter[int | None] = Counter()
    n = full.tables.n
    association = empty_association(n)
    main = [i for i in range(n) if full.tables.section[i] == "main"]
    for i in range(start, stop):
        events.clear()
        game = play_run(full_runner, seed, i)
        own[game.won_turn] += 1
        base = kill_turn_value(game.won_turn, turns)
        value = objective.value(base, turns)
        opening, drawn = cards_seen(events, drawn_by)
        for c in main:
            sums = association[c]
            if c in opening:
                sums[OPENING].add(value)
            sums[DRAWN if c in drawn else NOT_DRAWN].add(value)
        for runner, counter in zip(runners, kills):
            counter[(base, kill_turn_value(play_run(runner, seed, i).won_turn, turns))] += 1
    return ImpactTaskResult(kills, own, association, (stop - start) * (1 + len(plan.decks)),
                            time.perf_counter() - began)


@dataclass
class Tallies:
    """A race's merged integers: per card (its index among the measured), and the full deck's."""

    kills: list[Counter[tuple[int, int]]]
    full: Counter[int | None] = field(default_factory=Counter)
    association: list[tuple[Sums, Sums, Sums]] = field(default_factory=list)
    runs: int = 0  # the full deck's runs (every task plays it)
