"""The game state and its rules, for one goldfishing player (G1).

`GameState` is assembled from one class per rule group, each in its own module and each
building on the one before (single inheritance, which mypyc compiles to native classes):

    zones.Zones             the fields; entering and leaving play; drawing (M6, T3)
    setup.Setup             S1-S7
    turn.Turn               T1-T5: the Active Phase, AP/HP/Ultimate HP Charge, the Draw Phase
    abilities.Abilities     C5: effects, triggered and activated abilities
    main_phase.MainPhase    M1-M5: Deployment, Growth, Focus, Move, Swap
    ultimate.Ultimate       U2-U5: Contract, Evolution, Release
    familiar_abilities.FamiliarAbilities  A4: familiar abilities (the die, the rows, their effects)
    attack.Attack           K1-K5, S8: Attack Declaration on the Stronghold
    state.GameState         every legal action as a value, and `apply`

The state knows the rules and nothing else: a policy chooses, the game's `Chance` supplies all
chance (one stream per purpose, G7; `state.policy_rng` is the policy's own). When a trace is asked
for, `record` is a list that each action, draw and roll appends its event to (G8); otherwise it
is None and each action pays one `is not None` test. Every action `X` has a twin `can_X` that returns the reason it is illegal, or None;
`X` raises `IllegalAction` with that reason, without touching the state, when it is illegal.
Where the check finds the ally an action names, a private `_check_X` returns that ally or the
reason, and both `can_X` and `X` call it: one check per rule, one lookup per action.
`legal_actions()` lists exactly the actions those same checks allow, as `Action` values, and
`apply()` runs one. There is one rules implementation: fast policies call the same methods, and
may ask targeted questions (`stack_target`, `name_in_play`, `stack_target_or_name`,
`free_perimeter`, `neediest_ally`) instead of enumerating every action. Actions name an ally by
its number in `allies` (as `legal_actions` does) or pass the `Ally` itself.

Decisions taken here, beyond SPEC (cite them as "engine decision"):
- The Commander and the two Nameless start with 1 HP, as a deployed character does (M1).
- T2: the 10 AP of AP Charge are gained as the Charge Phase opens (taking them first never
  removes an option); sending cards and HP Charge follow in any order the policy likes.
- Nameless cards carry no name (guide I §12 ②), so the same-name rule (M1 Decision) ignores them.
- "Battlefield" abilities (location BF) work only for allies on the field, not in the Command
  Zone (the guide names the two apart); triggers of an ally in the Command Zone do not fire.
- Triggered abilities whose effects the engine runs are used whenever their AP cost can be paid
  (a goldfish player takes free cards, AP and HP); a heal on "an ally" picks the ally missing
  the most HP. Abilities that triggered but cannot run, and each turn's usable ACT abilities of
  allies on the field that cannot run, are counted in `skipped_abilities` (C5). Familiar
  abilities (A4): see `familiar_abilities`.
- The Stronghold is shuffled by giving each card copy a key mixed from the game's shuffle seed
  and a code fixed by the copy's card id and copy number (G7, `chance`): a copy's place does not
  depend on the other cards of the deck. Draws take the top. The Standby Zone shuffled into the
  Stronghold (T3) is keyed the same way from the next seed of the shuffle stream.
- Attacks (K4) target the Stronghold of a do-nothing opponent playing a mirror of this deck:
  their Stronghold (this deck minus their Commander) is shuffled the same way from the
  opponent's own stream; their hand is its top five cards and their Last Guards the cards
  below, in order; they never add their Commander's ATK nor self-boost. Physical
  attacks compare ATK with ATK, magic ones MAT with MAT. With their Stronghold empty, the attack
  meets no Last Guard (power 0). An ally in the Command Zone has no space and cannot attack.
  After a win (K5) the game goes on: goldfish measures development.
- An ally's self-boost cost (K2) is paid from the hand first (lowest level first), then from the
  growth sources, bottom first; a defeated ally returns its highest-level growth source to hand.
- Released familiars are allies: they count in the allies, highest level and HP measures.
  Familiars reach the hand only through U2 (our Stronghold taking damage), which a do-nothing
  opponent never deals: in a goldfish game the S4 Egg is the only familiar contracted from the
  hand, and its evolved forms come from the Summoning Zone through its Evolution ability (A4).
- A familiar Released from a Command Zone holder steps onto a free Perimeter space; a holder
  leaving play from the Command Zone sends its familiars back (Eggs to hand, others to the
  Summoning Zone), since no familiar stands in the Command Zone (Quick Start II §7).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

from sengoku.engine.actions import Action, Kind
from sengoku.engine.attack import Attack
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.constants import (
    AP_CHARGE,
    BETWEEN,
    CHARGE,
    FAMILIAR_HAND_LIMIT,
    HAND_LIMIT,
    MAIN_PHASE,
    STRONGHOLD_HP,
)
from sengoku.engine.errors import IllegalAction
from sengoku.engine.setup import checked_commander, choose_commander
from sengoku.engine.zones import STATE_FIELDS, Checked

__all__ = [
    "AP_CHARGE", "BETWEEN", "CHARGE", "FAMILIAR_HAND_LIMIT", "HAND_LIMIT", "MAIN_PHASE", "STATE_FIELDS",
    "STRONGHOLD_HP", "Checked", "GameState", "checked_commander", "choose_commander",
]


class GameState(Attack):
    """One player's game: zones, allies, AP, the turn and phase; every action checks its rule.

    Public fields (read them, change them only through actions): `turn`, `phase`, `ap`, `hand`,
    `fam_hand`, `stronghold`, `standby`, `banish`, `summoning`, `allies`, `occupant` (per
    space: the ally there or None), `command_zone`, `by_name`, `nameless` (allies topped by a
    Nameless), `hp_total`, `top_level`, `sh_hp`, `opp_sh_hp`, `won_turn`, `skipped`.
    """

    __slots__ = ()

    def legal_actions(self) -> list[Action]:
        """List every legal action, for `apply`."""
        return list(self._candidates())

    def _candidates(self) -> Iterator[Action]:
        if self.phase == CHARGE:
            for p in range(len(self.hand)):
                if self.can_charge_card(p) is None:
                    yield Action(Kind.CHARGE_CARD, (p,))
            for i in range(len(self.allies)):
                if self.can_hp_charge(i) is None:
                    yield Action(Kind.HP_CHARGE, (i,))
            if self.t.ultimate and not self.fam_charged and self.fam_hand:
                targets: list[int | None] = list(range(len(self.allies))) or [None]
                for r in range(1, len(self.fam_hand) + 1):
                    for combo in combinations(range(len(self.fam_hand)), r):
                        for ti in targets:
                            if self.can_familiar_hp_charge(combo, ti) is None:
                                yield Action(Kind.FAMILIAR_HP_CHARGE, (combo, ti))
            if self.can_end_charge_phase() is None:
                yield Action(Kind.END_CHARGE_PHASE)
            return
        if self.phase != MAIN_PHASE:
            if self.phase == BETWEEN:
                yield Action(Kind.BEGIN_TURN)
            return
        t = self.t
        board = t.board
        occ = self.occupant
        allies = self.allies
        index = {id(a): i for i, a in enumerate(allies)}
        # Candidates are narrowed to where each action could possibly go (empty spaces, the ally
        # of a card's name or a Nameless, adjacent allies); the can_* checks alone decide.
        dests = [d for d in board.perimeter if occ[d] is None]
        if self.command_zone is None:
            dests.append(COMMAND_ZONE)
        for p in range(len(self.hand)):
            c = self.hand[p]
            for d in dests:
                if self.can_deploy(p, d) is None:
                    yield Action(Kind.DEPLOY, (p, d))
            # The Battlefield ally of its name, the Commander (M1: it may bear the same name), a Nameless.
            named = self.by_name[t.name_id[c]]
            onto = [named] if named is not None else []
            cz = self.command_zone
            if cz is not None and cz is not named and cz not in self.nameless:
                onto.append(cz)
            for a in onto + self.nameless:
                i = index[id(a)]
                if self.can_stack(p, i) is None:
                    yield Action(Kind.STACK, (p, i))
            for k in range(len(t.hand_act[c])):
                if self.can_use_hand_ability(p, k) is None:
                    yield Action(Kind.USE_HAND_ABILITY, (p, k))
        for i, a in enumerate(allies):
            pos = a.space
            steps = board.perimeter if pos == COMMAND_ZONE else board.neighbours[pos]
            empty = [d for d in steps if occ[d] is None]
            for d in empty:
                if self.can_move(i, d) is None:
                    yield Action(Kind.MOVE, (i, d))
            if pos != COMMAND_ZONE:
                for d in steps:
                    j = index.get(id(occ[d]), -1)  # (an enemy standing there is no ally of ours)
                    if j > i and self.can_swap(i, j) is None:
                        yield Action(Kind.SWAP, (i, j))
            # A refusal without self-boosts holds for every attack kind and boost count (K2 last).
            if self.can_attack(i, False, 0) is None:
                for magic in (False, True):
                    for boosts in range(3):
                        if self.can_attack(i, magic, boosts) is None:
                            yield Action(Kind.ATTACK, (i, magic, boosts))
            for k in range(len(t.act[a.top])):
                if self.can_use_ability(i, k) is None:
                    yield Action(Kind.USE_ABILITY, (i, k))
            if t.ultimate:
                for fp in range(len(self.fam_hand)):
                    if self.can_contract(fp, i) is None:
                        yield Action(Kind.CONTRACT, (fp, i))
                    if self.can_evolve(fp, i) is None:
                        yield Action(Kind.EVOLVE, (fp, i))
                if a.familiars:
                    if self.can_use_familiar_ability(i) is None:
                        yield Action(Kind.USE_FAMILIAR_ABILITY, (i,))
                    for d in empty:
                        for mh in (False, True):
                            if self.can_release(i, d, mh) is None:
                                yield Action(Kind.RELEASE, (i, d, mh))
        yield Action(Kind.END_TURN)

    def apply(self, action: Any) -> Any:
        """Take one action (an `Action`), with the rule checks of its method; return what it returns."""
        if type(action) is not Action or type(action.kind) is not Kind:
            raise IllegalAction(f"not an action: {action!r}")
        return _TAKE[action.kind](self, *action.args)


# Kind -> the method that takes it (looked up once, not by name at each `apply`).
_TAKE: dict[Kind, Any] = {kind: getattr(GameState, kind.method) for kind in Kind}
