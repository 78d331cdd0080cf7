"""Copy a game state, for policies that look ahead (G6: the `search` policy plays the copy forward).

The copy shares only what never changes during a game (the deck's tables); every zone, every ally
and every counter is its own, so playing the copy on leaves the original as it was. Its chance
comes from the `Chance` or random generator it is given (G3: a policy seeds it from
`state.policy_rng`, G7), and what the player cannot know is shuffled anew from it: the order of
the Stronghold (the cards Troop put on its bottom stay known) and of the opponent's Stronghold.
A copy never learns the original game's coming draws or Last Guards.

`copy_state` copies such a copy exactly, its hidden orders and its chance included: a policy that
tries several options from one position draws the hidden orders once (`clone_state`) and plays
each option on an exact copy of that, so that every option meets the same luck (G7).
"""

from __future__ import annotations

import random
from typing import TypeVar

from sengoku.engine.ally import Ally
from sengoku.engine.chance import Chance, unordered_cards
from sengoku.engine.errors import EngineError
from sengoku.engine.state import GameState


_A = TypeVar("_A", bound=Ally)


def copy_ally(a: _A) -> _A:
    """Return a new record of the same class (Ally, or Enemy for the opponent's characters, G4)
    with the same fields (its lists copied)."""
    b = type(a)(a.top, a.hp, a.space, a.entered, a.released, list(a.sources))
    b.defending = a.defending
    b.familiars = list(a.familiars)
    b.used_turn = a.used_turn
    b.used = a.used
    b.in_play = a.in_play
    return b


def _copy_allies(allies: list[_A], new: dict[int, Ally]) -> list[_A]:
    """Copy each record; note each copy under its original's identity in `new`."""
    copies = []
    for a in allies:
        b = copy_ally(a)
        new[id(a)] = b
        copies.append(b)
    return copies


def clone_state(s: GameState, chance: Chance | random.Random) -> GameState:
    """Return a copy of game state `s` that draws its chance from `chance` (every field of STATE_FIELDS).

    The copy's Stronghold and the opponent's are shuffled anew (hidden order, see the module docstring).
    """
    fresh = chance if isinstance(chance, Chance) else Chance(chance)
    fresh.new_game()  # (the seeds a set-up game would draw from `chance`)
    c = GameState(s.t, fresh, s.going_first, s.commander, s.opp_t, s.opp_defends, None, True)
    c.stronghold = c.chance.reshuffle(s.stronghold, s.t.copy_codes)
    opp = s.opp_stronghold
    if opp is not None and s.opp_unordered is not None:  # the whole pile left, in its order
        opp = unordered_cards(s.opp_unordered) + opp
    c.opp_stronghold = None if opp is None else c.chance.reshuffle(opp, s.opp_t.copy_codes)
    _copy_fields(s, c)
    return c


def copy_state(s: GameState) -> GameState:
    """Return an exact copy of `s`, a copy made by `clone_state`: the same hidden orders and the same
    chance from here on (a `Chance` with the same seeds and counts), so that it plays on as `s` would.

    Refused (EngineError) for a state whose Stronghold is not wholly ordered yet (a game's own, set up
    by the compiled engine): only a copy's hidden orders are the policy's to know.
    """
    if s.sh_unordered is not None or s.opp_unordered is not None:
        raise EngineError("copy_state copies a copy made by clone_state, not a game's own state")
    c = GameState(s.t, s.chance.copy(), s.going_first, s.commander, s.opp_t, s.opp_defends, None, True)
    c.stronghold = list(s.stronghold)
    c.opp_stronghold = None if s.opp_stronghold is None else list(s.opp_stronghold)
    _copy_fields(s, c)
    return c


def _copy_fields(s: GameState, c: GameState) -> None:
    """Set every field of `c` but the two Strongholds from `s` (its allies copied: `copy_ally`)."""
    c.turn = s.turn
    c.phase = s.phase
    c.ap = s.ap
    c.hand = list(s.hand)
    c.fam_hand = list(s.fam_hand)
    c.sh_bottom = list(s.sh_bottom)
    c.fam_used = list(s.fam_used)
    c.standby = list(s.standby)
    c.banish = list(s.banish)
    c.summoning = list(s.summoning)
    new: dict[int, Ally] = {}
    c.allies = _copy_allies(s.allies, new)
    c.opp_allies = enemies = _copy_allies(s.opp_allies, new)
    c.opp_commander = None if s.opp_commander is None else enemies[s.opp_allies.index(s.opp_commander)]
    c.opp_board = [None if a is None else new.get(id(a), a) for a in s.opp_board]
    c.occupant = [None if a is None else new[id(a)] for a in s.occupant]
    c.command_zone = None if s.command_zone is None else new[id(s.command_zone)]
    c.cz_name = s.cz_name
    c.by_name = [None if a is None else new[id(a)] for a in s.by_name]
    c.nameless = [new[id(a)] for a in s.nameless]
    c.hp_total = s.hp_total
    c.top_level = s.top_level
    c.defended = s.defended
    c.sh_hp = s.sh_hp
    c.opp_sh_hp = s.opp_sh_hp
    c.opp_unordered = None
    c.opp_standby = list(s.opp_standby)
    c.opp_hand = list(s.opp_hand)
    c.won_turn = s.won_turn
    c.hp_charged = s.hp_charged
    c.fam_charged = s.fam_charged
    c.hand_used = dict(s.hand_used)
    c.opening_hand = s.opening_hand
    c.skipped = s.skipped
    c.m_ap_main = s.m_ap_main
    c.m_charge_cards = s.m_charge_cards
    c.m_growth_focus = s.m_growth_focus
    c.m_spent = s.m_spent
    c.m_ability_ap = s.m_ability_ap
    c.m_attacks = s.m_attacks
    c.m_hits = s.m_hits
    c.m_lost = s.m_lost
    c.chooser = s.chooser  # (policies keep no per-game state in what they answer)
    c.record = None  # a look-ahead's moves are not the game's: they are never traced (G8)
