"""The default policy's settings: one frozen record, made and checked once, passed whole.

Every knob of `greedy` is a named value here, one line each, grouped by the decision it steers.
What each setting won or lost when it was measured (benchmarks/greedy_ab.py, on the suite's
decks) is told in docs/policies.md; `GreedySettings.from_mapping` makes a record from names
and values (a benchmark's `NAME=VALUE`), `dataclasses.replace` changes one of a record.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sengoku.engine.errors import EngineError


@dataclass(frozen=True)
class GreedySettings:
    """The default policy's settings (the defaults are the policy's own)."""

    # The Charge Phase (T2a, T2b): what the plan sends for AP Charge.
    keep_for_next_turn: bool = False  # keep a card deployable next turn instead of sending it for AP
    deploy_first: bool = True  # plan this turn's deployments before the cards kept for the next
    hp_charge: bool = False  # HP Charge (5 AP or more for 1 HP) with AP to spare
    extra_charge: int = 3  # on the first turns, send this many more of the cards the plan keeps, lowest level first
    extra_charge_turns: int = 1  # ... in the first this many turns (the Draw Phase refills the hand, T3)
    fitted_charges: bool = True  # ... unless the fitted rule (charge_weights) picks other extra cards
    fitted_margin: float = 0.04  # ... that it values at least this many turns sooner
    keep_commander_name: bool = True  # no Growth or Focus names a Nameless after the Commander in the Command Zone
    # Attacks (K2, K4) and their odds.
    min_hit: float = 0.01  # attack (or walk into range to attack) with at least this hit chance
    boost_gain: float = 0.02  # pay a self-boost only when it raises the hit chance by more than this
    risky_hit: float = 0.2  # walk no likely-lost ally into an attack below this hit chance (and Release none below it)
    risky_hit_ultimate: float = 0.4  # ... in Ultimate mode, the walk's threshold instead
    risky_turns: int = 1  # ... in the first this many turns
    risky_defended: bool = True  # ... against a defending opponent too (G4), in Standard mode
    risky_turns_defended: int = 2  # ... there in the first this many turns
    risky_turns_first: int = 2  # ... and going first in Standard mode, at least this many turns
    soak_commander: bool = True  # against a defender (Standard), the ally its Commander hurts least attacks first
    releases: bool = True  # Release a Contracted familiar (U5) where it reaches the Stronghold and attack with it
    # Moves (M4) and Swaps (M5) into attack range.
    step_ahead: bool = True  # against a defender, an attacker steps off the Stronghold Perimeter, still in range
    step_ahead_end: bool = True  # ... and at the end of the turn
    landing_value: bool = True  # avoid the defender's Commander's landing space only when the next is worth more
    swap_into_range: bool = True  # Swap two adjacent allies when more of the two then reach the Stronghold
    block_commander: int = 3  # against a defender, walk allies onto its last free Perimeter spaces (at most this many)
    step_ahead_for_walk: bool = True  # an ally in range steps aside to shorten another's walk by two Moves or more
    pair_steps_for_walk: bool = True  # ... or two step aside when that shortens it by three Moves or more
    # Deployment (M1).
    move_for_room: bool = True  # with no free Perimeter space, move a Perimeter ally off to make room
    scarce_first: bool = True  # of the new names, deploy first the card with the fewest spaces in range
    deploy_for_top: bool = True  # deploy where the card that tops the ally this turn reaches the Stronghold
    walk_deploy: bool = True  # with no free space in range, deploy on the one fewest Moves from range
    step_ahead_for_room: bool = True  # every space in range taken: the ally there steps ahead, the card takes its space
    fitted_focus: bool = True  # turn 1: deploy in range, not Focus onto a far Nameless, as focus_weights says
    focus_margin: float = 0.0  # ... by more than this many turns
    fitted_deploy: bool = True  # turn 1: deploy on the free Perimeter space deploy_weights values highest
    deploy_margin: float = 0.03  # ... when it beats greedy's own space by more than this many turns
    # Familiars (U3, A4) and abilities (C5).
    contracts: bool = True  # Ultimate: contract familiars (U3)
    abilities: bool = True  # use the runnable abilities that help, last in the turn
    familiar_abilities: bool = True  # ... and the Contracted familiars' abilities among them (A4)
    draw_first_turns: int = 1  # in the first this many turns, a hand card's ability that draws is used first
    draw_first_ap: int = 22  # ... when the Main Phase starts with at least this AP

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the class and its values, in order (to a worker process: a compiled frozen
        record cannot be restored field by field)."""
        return (GreedySettings, tuple(getattr(self, name) for name in GreedySettings.names()))

    @classmethod
    def names(cls) -> dict[str, type]:
        """Every setting's name and type (bool, int or float), in the record's order."""
        return {f.name: type(f.default) for f in dataclasses.fields(cls)}

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], base: GreedySettings | None = None) -> GreedySettings:
        """Return `base` (default: the policy's own settings) with `values` changed; raise EngineError
        naming the setting when a name is unknown or a value has the wrong type (an int stands for
        a float, never a bool for a number)."""
        types = cls.names()
        changes: dict[str, Any] = {}
        for name, value in values.items():
            kind = types.get(name)
            if kind is None:
                raise EngineError(f"greedy has no setting {name!r} (known: {', '.join(types)})")
            if kind is float and type(value) is int:
                value = float(value)
            if type(value) is not kind:
                raise EngineError(f"greedy's setting {name} takes a {kind.__name__}, not {value!r}")
            changes[name] = value
        return dataclasses.replace(base if base is not None else cls(), **changes)


DEFAULT_SETTINGS = GreedySettings()
