"""Play one goldfish game (G1): set up, then let a policy play `turns` turns; record the measures."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from sengoku.engine.chance import Chance
from sengoku.engine.chooser import Chooser
from sengoku.engine.errors import EngineError
from sengoku.engine.policies import Policy, make_policy
from sengoku.engine.state import GameState, checked_commander
from sengoku.engine.tables import DeckTables

# One tuple per turn, in this order (see the package docstring for each measure's meaning).
MEASURES = ("ap_main", "ap_charge_base", "ap_charge_cards", "ap_growth_focus", "ap_spent", "ap_end",
            "allies", "highest_level", "hp_total", "hand", "stronghold",
            "opp_stronghold_hp", "attacks", "stronghold_hits", "allies_lost")
HIGHEST_LEVEL = MEASURES.index("highest_level")


@dataclass(init=False)  # (its own __init__: compiled, where the generated one runs interpreted)
class GameRecord:
    """What one game produced: the opening hand, the per-turn measures and a few milestones.

    `won_turn` is the kill turn (G5): the turn whose attack won (K5), or None. A game stops at
    the end of the turn it is won unless it was played on, so `turns` may hold fewer entries.
    """

    commander: int
    opening_hand: tuple[int, ...]
    turns: list[tuple[int, ...]]
    first_level3: int | None
    first_level4: int | None
    skipped_abilities: int
    won_turn: int | None = None

    def __init__(self, commander: int, opening_hand: tuple[int, ...], turns: list[tuple[int, ...]],
                 first_level3: int | None, first_level4: int | None, skipped_abilities: int,
                 won_turn: int | None = None) -> None:
        self.commander = commander
        self.opening_hand = opening_hand
        self.turns = turns
        self.first_level3 = first_level3
        self.first_level4 = first_level4
        self.skipped_abilities = skipped_abilities
        self.won_turn = won_turn


def _unbound() -> None:
    raise EngineError("no game has been set up yet")


class GameRunner:
    """Play game after game of one deck with one policy, on one state set up anew each time (G1).

    The state and the policy's bound phases (`Policy.bind`) are made once; each `play()` runs
    setup (S1-S7) again and draws its chance from `chance`: a `Chance` the caller seeds before
    each game (`chance.seed_run` for run i of a simulation), or a `random.Random` that each game
    draws its seeds from. Every game is the one `play_game` would play with the same arguments
    and chance.
    With `record` (a list), the state appends each game's events to it as they happen (G8).
    """

    def __init__(self, tables: DeckTables, policy: Policy | str | Any, chance: Chance | random.Random, turns: int = 8,
                 going_first: bool = True, commander: int | None = None, *,
                 opponent: DeckTables | None = None, opponent_defends: bool = False, play_on: bool = False,
                 record: list[dict[str, Any]] | None = None):
        if isinstance(policy, str):
            policy = make_policy(policy)
        if not isinstance(turns, int) or isinstance(turns, bool) or turns < 0:
            raise EngineError(f"turns must be a whole number ≥ 0, not {turns!r}")
        self.turns = turns
        self.tables, self.policy, self.going_first = tables, policy, going_first
        self.chance = chance if isinstance(chance, Chance) else Chance(chance)
        self.opponent, self.opponent_defends, self.play_on = opponent, opponent_defends, play_on
        self.record = record  # G8: receives the events of every game played (see `sengoku.trace`)
        self.commander = checked_commander(tables, commander)
        self.state: GameState | None = None  # made by the first game: setting up draws from `chance`
        self._phases: tuple[Callable[[], None], Callable[[], None]] = (_unbound, _unbound)

    def play(self) -> GameRecord:
        """Play one game of `turns` turns; return what it produced."""
        state = self.state
        if state is None:
            state = self.state = GameState(self.tables, self.chance, self.going_first, self.commander,
                                           self.opponent, self.opponent_defends, self.record)
            if isinstance(self.policy, Chooser):  # the policy answers what actions ask on the way (A2)
                state.chooser = self.policy
            bind = getattr(self.policy, "bind", None)  # a Policy prepares its phases once per state
            if bind is not None:
                self._phases = bind(state)
            else:
                self._phases = partial(self.policy.charge_phase, state), partial(self.policy.main_phase, state)
        else:
            state.setup()
        charge_phase, main_phase = self._phases
        record: list[tuple[int, ...]] = []
        first3 = first4 = None
        play_on = self.play_on
        for turn in range(1, self.turns + 1):
            state.begin_turn()  # (called on the state: compiled, no bound method made per game)
            charge_phase()
            state.end_charge_phase()
            main_phase()
            m = state.end_turn()
            record.append(m)
            if first4 is None:
                level = m[HIGHEST_LEVEL]
                if level >= 3 and first3 is None:
                    first3 = turn
                if level >= 4:
                    first4 = turn
            if state.won_turn is not None and not play_on:
                break  # G5: the game is won; its later turns are not played
        return GameRecord(state.commander, state.opening_hand, record, first3, first4, state.skipped, state.won_turn)


def play_game(tables: DeckTables, policy: Policy | str | Any, chance: Chance | random.Random, turns: int = 8,
              going_first: bool = True, commander: int | None = None, *,
              opponent: DeckTables | None = None, opponent_defends: bool = False,
              play_on: bool = False) -> GameRecord:
    """Play one game of `turns` turns with `policy`; all chance comes from `chance` (G3, G7).

    To play many games of one deck, a `GameRunner` saves setting up the state and policy each time.
    """
    return GameRunner(tables, policy, chance, turns, going_first, commander, opponent=opponent,
                      opponent_defends=opponent_defends, play_on=play_on).play()
