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
    hp_charge: bool = False  # HP Charge (5 AP or more for 1 HP) with AP to spare
    extra_charge: int = 3  # on the first turns, send this many more of the cards the plan keeps, lowest level first
    extra_charge_turns: int = 1  # ... in the first this many turns (the Draw Phase refills the hand, T3)
    fitted_charges: bool = True  # ... unless the fitted rule (charge_weights) picks other extra cards
    fitted_margin: float = 0.02  # ... that it values at least this many turns sooner
    keep_commander_name: bool = True  # no Growth or Focus names a Nameless after the Commander in the Command Zone
    # Moves (M4) and Swaps (M5) into attack range.
    step_ahead: bool = True  # against a defender, an attacker steps off the Stronghold Perimeter, still in range
    landing_value: bool = True  # avoid the defender's Commander's landing space only when the next is worth more
    swap_into_range: bool = True  # Swap two adjacent allies when more of the two then reach the Stronghold
    block_commander: int = 3  # against a defender, walk allies onto its last free Perimeter spaces (at most this many)
    step_ahead_for_walk: bool = True  # an ally in range steps aside to shorten another's walk by two Moves or more
    pair_steps_for_walk: bool = True  # ... or two step aside when that shortens it by three Moves or more
    # Deployment (M1).
    move_for_room: bool = True  # with no free Perimeter space, move a Perimeter ally off to make room
    deploy_for_top: bool = True  # deploy where the card that tops the ally this turn reaches the Stronghold
    walk_deploy: bool = True  # with no free space in range, deploy on the one fewest Moves from range
    step_ahead_for_room: bool = True  # every space in range taken: the ally there steps ahead, the card takes its space
    fitted_focus: bool = True  # turn 1: deploy in range, not Focus onto a far Nameless, as focus_weights says
    focus_margin: float = 0.0  # ... by more than this many turns
    # Familiars (U3, A4) and abilities (C5).
    contracts: bool = True  # Ultimate: contract familiars (U3)
    abilities: bool = True  # use the runnable abilities that help, last in the turn
    familiar_abilities: bool = True  # ... and the Contracted familiars' abilities among them (A4)
    draw_first_turns: int = 1  # in the first this many turns, a hand card's ability that draws is used first (any AP)
    # The look-ahead (`lookahead`): Main Phase steps chosen by playing the turn out on copies.
    lookahead_turns: int = 2  # in the first this many turns (0: never), going second
    lookahead_first_defends: bool = True  # ... and going first against a defending opponent
    lookahead_first: bool = False  # ... and going first against a passive one
    lookahead_first_ultimate: bool = True  # ... and going first against a passive one in Ultimate mode
    lookahead_charges: bool = True  # the Charge Phase plan too: greedy's, or one card sent more or fewer, or an HP Charge
    lookahead_steps: int = 2  # the steps a turn chosen so, greedy's script playing the rest
    lookahead_copies: int = 16  # the second stage's copies of the position, per finalist
    lookahead_finalists: int = 3  # the options the second stage plays again (with "let greedy play")
    lookahead_margin: float = 0.0  # a step is taken when its value is this many turns sooner than greedy's turn
    lookahead_next_turn_first: bool = True  # going first (no attack on turn 1, S8), the second stage values an option at the next turn's end, greedy playing it

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
        naming the setting when a name is unknown or was removed (`REMOVED`: saying what greedy does
        now), or a value has the wrong type (an int stands for a float, never a bool for a number)."""
        types = cls.names()
        changes: dict[str, Any] = {}
        for name, value in values.items():
            kind = types.get(name)
            if kind is None and name in REMOVED:
                raise EngineError(removed_setting(name))
            if kind is None:
                raise EngineError(f"greedy has no setting {name!r} (known: {', '.join(types)})")
            if kind is float and type(value) is int:
                value = float(value)
            if type(value) is not kind:
                article = "an" if kind is int else "a"
                raise EngineError(f"greedy's setting {name} takes {article} {kind.__name__}, not {value!r}")
            changes[name] = value
        return dataclasses.replace(base if base is not None else cls(), **changes)


# Settings removed because they did not earn their cost on the test set (issue 36; docs/policies.md,
# "Settings the machine chooses"), each with what greedy now always does: a record that names one
# is refused with this, not taken for a typo.
REMOVED: dict[str, str] = {
    "deploy_first": "plans this turn's deployments before the cards kept for the next",
    "min_hit": "attacks, and walks into range to attack, at any hit chance",
    "boost_gain": "self-boosts whenever that raises the hit chance",
    "risky_hit": "walks an ally into an attack at any hit chance",
    "risky_hit_ultimate": "walks an ally into an attack at any hit chance, in Ultimate mode too",
    "risky_turns": "walks an ally into an attack at any hit chance, on every turn",
    "risky_defended": "walks an ally into an attack at any hit chance, against a defender too",
    "risky_turns_defended": "walks an ally into an attack at any hit chance, against a defender too",
    "risky_turns_first": "walks an ally into an attack at any hit chance, going first too",
    "releases": "attacks with a Contracted familiar's power added to its holder's, and never Releases it (U5)",
    "soak_commander": "attacks a defender's joining Commander with the likeliest attacker first",
    "step_ahead_end": "steps allies off the Stronghold Perimeter only before an attack, not at the end of the turn",
    "scarce_first": "deploys the new names in develop's order (the name's cards in hand, then level and cost)",
    "fitted_deploy": "deploys on its own space on turn 1 too (no fitted rule for the space)",
    "deploy_margin": "deploys on its own space on turn 1 too (no fitted rule for the space)",
    "draw_first_ap": "uses a drawing ability first in the first draw_first_turns turns, at any AP",
}


def removed_setting(name: str) -> str:
    """The message for a setting of `REMOVED`: its name, that it was removed, what greedy does instead."""
    return (f"greedy's setting {name} was removed (it did not earn its cost on the test set; "
            f"see docs/policies.md): greedy now always {REMOVED[name]}")


DEFAULT_SETTINGS = GreedySettings()
