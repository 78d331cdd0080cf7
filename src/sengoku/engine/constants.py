"""The rules' numbers, in one place: the engine and the opening-hand model both read them."""

from __future__ import annotations

from typing import Final

# Final: the compiled engine (mypyc) inlines these numbers where they are read, instead of
# looking each up in its module's namespace every time.
HAND_LIMIT: Final = 5  # S6 (the opening hand), T2a (most cards kept), T3 (drawn up to), U1
FAMILIAR_HAND_LIMIT: Final = 3  # U1, T2c
AP_CHARGE: Final = 10  # T2a: AP gained by AP Charge
STARTING_AP = {True: 0, False: 5}  # S7: going first -> 0, going second -> 5
STRONGHOLD_HP = {False: 6, True: 8}  # S5: Standard -> 6, Ultimate -> 8
HP_CHARGE_MIN: Final = 5  # T2b: HP Charge costs max(5, deployment cost) AP
SUMMONING_LIMIT: Final = 10  # U2: familiars taken cost at most 10 minus the Stronghold's remaining HP

# The phases a turn passes through (T1-T5): between turns, the Charge Phase, the Main Phase.
BETWEEN: Final = 0
CHARGE: Final = 1
MAIN_PHASE: Final = 2
