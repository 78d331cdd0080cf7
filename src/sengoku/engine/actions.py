"""Actions as values: what `GameState.legal_actions()` lists and `GameState.apply()` runs."""

from __future__ import annotations

from enum import IntEnum
from typing import Any, NamedTuple


class Kind(IntEnum):
    """Every action a player takes, by rule group (T: the turn, M: Main Phase, K: attack, U: Ultimate)."""

    BEGIN_TURN = 0  # T1, T2a
    CHARGE_CARD = 1  # T2a
    CHARGE_CARDS = 2  # T2a
    HP_CHARGE = 3  # T2b
    FAMILIAR_HP_CHARGE = 4  # T2c
    END_CHARGE_PHASE = 5  # T3, T4
    DEPLOY = 6  # M1
    STACK = 7  # M2 or M3
    GROW = 8  # M2
    FOCUS = 9  # M3
    MOVE = 10  # M4
    SWAP = 11  # M5
    USE_ABILITY = 12  # C5
    USE_HAND_ABILITY = 13  # C5
    ATTACK = 14  # K4
    CONTRACT = 15  # U3
    EVOLVE = 16  # U4
    RELEASE = 17  # U5
    END_TURN = 18  # T5
    USE_FAMILIAR_ABILITY = 19  # A4

    @property
    def method(self) -> str:
        """The name of the GameState method that takes this action (and `can_` + it, its check)."""
        return self.name.lower()


class Action(NamedTuple):
    """One action: its kind and the arguments of the GameState method that takes it."""

    kind: Kind
    args: tuple[Any, ...] = ()

    def __str__(self) -> str:
        return f"{self.kind.method}({', '.join(map(repr, self.args))})"
