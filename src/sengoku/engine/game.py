"""Play one goldfish game (G1): set up, then let a policy play `turns` turns; record the measures."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial
from typing import Any

from sengoku.engine.errors import EngineError
from sengoku.engine.policies import Policy, make_policy
from sengoku.engine.state import GameState
from sengoku.engine.tables import DeckTables

# One tuple per turn, in this order (see the package docstring for each measure's meaning).
MEASURES = ("ap_main", "ap_charge_base", "ap_charge_cards", "ap_growth_focus", "ap_spent", "ap_end",
            "allies", "highest_level", "hp_total", "hand", "stronghold")
HIGHEST_LEVEL = MEASURES.index("highest_level")


@dataclass
class GameRecord:
    """What one game produced: the opening hand, the per-turn measures and a few milestones."""

    commander: int
    opening_hand: tuple[int, ...]
    turns: list[tuple[int, ...]]
    first_level3: int | None
    first_level4: int | None
    skipped_abilities: int
    won_turn: int | None = None


def play_game(tables: DeckTables, policy: Policy | str | Any, rng: random.Random, turns: int = 8,
              going_first: bool = True, commander: int | None = None) -> GameRecord:
    """Play one game of `turns` turns with `policy`; all chance comes from `rng` (G3)."""
    if isinstance(policy, str):
        policy = make_policy(policy)
    if not isinstance(turns, int) or turns < 0:
        raise EngineError(f"turns must be a whole number ≥ 0, not {turns!r}")
    state = GameState(tables, rng, going_first, commander)
    record: list[tuple[int, ...]] = []
    first3 = first4 = None
    bind = getattr(policy, "bind", None)  # a Policy prepares its phases once per game
    if bind is not None:
        charge_phase, main_phase = bind(state)
    else:
        charge_phase, main_phase = partial(policy.charge_phase, state), partial(policy.main_phase, state)
    for turn in range(1, turns + 1):
        state.begin_turn()
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
    return GameRecord(state.commander, state.opening_hand, record, first3, first4, state.skipped, state.won_turn)
