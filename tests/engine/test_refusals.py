"""A refused action leaves the whole game as it was (the engine's promise, see `sengoku.engine.state`).

Games of both bundled decks are played by greedy (the Stronghold taking damage each turn, so
familiars reach the hand, U2); at every phase each action method is tried with a battery of
arguments, on a copy of the state, and every call refused with `IllegalAction` must leave every
field of the state (`STATE_FIELDS`: zones, allies field by field, counters, the game's
streams and how far each has gone) exactly as it was. A call raising anything else fails the test too.
"""

from __future__ import annotations

import random
from itertools import product
from operator import attrgetter
from typing import Any

import pytest

import sengoku
from sengoku.engine import GameState, compile_deck
from sengoku.engine.actions import Action, Kind
from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.chance import Chance
from sengoku.engine.clone import clone_state
from sengoku.engine.errors import IllegalAction
from sengoku.engine.policies import GreedyPolicy
from sengoku.engine.state import STATE_FIELDS
from sengoku.engine.tables import FOCUS, GROWTH

from .conftest import bundled_sections

_ALLY_FIELDS = ("top", "hp", "space", "defending", "sources", "familiars", "entered", "released",
                "used_turn", "used", "in_play")


_ALLY_GET = attrgetter(*_ALLY_FIELDS)
_PLAIN = {int, float, str, bool, type(None)}


def snapshot(s: GameState) -> dict[str, Any]:
    """Every field of the state as plain values (allies by identity and field by field)."""
    def plain(v: Any) -> Any:
        if type(v) in _PLAIN:
            return v
        if isinstance(v, Ally):
            return (type(v).__name__, id(v), tuple(map(plain, _ALLY_GET(v))))
        if isinstance(v, random.Random):
            return v.getstate()
        if isinstance(v, Chance):  # the game's streams: its seeds and how far each has gone
            return tuple(plain(getattr(v, f)) for f in ("shuffle", "opponent", "dice", "policy", "source",
                                                          "rounds", "rolls", "_policy_rng", "_policy_fresh"))
        if isinstance(v, (list, tuple)):
            if set(map(type, v)) <= _PLAIN:  # (most fields: lists of numbers, taken whole)
                return (type(v).__name__, tuple(v))
            return (type(v).__name__, tuple(map(plain, v)))
        if isinstance(v, dict):
            return tuple(sorted((k, plain(x)) for k, x in v.items()))
        if v is None or isinstance(v, (int, float, str, bool)):
            return v
        return ("object", id(v))  # the deck's tables, the chooser: never replaced by an action
    return {f: plain(getattr(s, f)) for f in STATE_FIELDS}


def copy_of(s: GameState) -> GameState:
    chance = Chance()
    ch = s.chance
    chance.set_seeds(ch.shuffle, ch.opponent, ch.dice, ch.policy)
    chance.rounds, chance.rolls = ch.rounds, ch.rolls
    c = clone_state(s, chance)
    assert snapshot(c).keys() == snapshot(s).keys()
    return c


BAD_INTS: tuple[Any, ...] = (-1, 0, 1, 2, 4, 5, 99, None, True, "0", 1.5)


def calls(s: GameState) -> list[tuple[str, tuple[Any, ...]]]:
    """(method, arguments) to try: bad and good values of every argument of every action."""
    n_spaces = s.t.board.n_spaces
    dests: tuple[Any, ...] = (COMMAND_ZONE, *range(n_spaces), n_spaces, None, True, "1")
    stranger = Ally(0, 1, 0, 0)  # an ally not in play
    allies: tuple[Any, ...] = (*BAD_INTS, stranger, *s.allies[:3], *s.opp_allies[:1])
    fam_sets: tuple[Any, ...] = ((), (0,), (1,), (0, 0), (0, 1), (9,), ("a",), (True,), (0, 1, 2, 3))
    out: list[tuple[str, tuple[Any, ...]]] = [("begin_turn", ()), ("end_charge_phase", ()), ("end_turn", ())]
    out += [("charge_card", (p,)) for p in BAD_INTS]
    out += [("charge_cards", (ps,)) for ps in ((0, 0), (-1,), (99,), ("a",), (True,), 3, None, [0, 9])]
    out += [("hp_charge", (i,)) for i in allies]
    out += [("familiar_hp_charge", (ps, i)) for ps, i in product(fam_sets, (None, 0, 1, 7, "x"))]
    out += [("deploy", (p, d)) for p, d in product(BAD_INTS, dests)]
    out += [("stack", (p, i, k)) for p, i, k in product(BAD_INTS[:7], allies, (None, GROWTH, FOCUS, 7))]
    out += [("grow", (p, i)) for p, i in product(BAD_INTS[:7], allies)]
    out += [("focus", (p, i)) for p, i in product(BAD_INTS[:7], allies)]
    out += [("move", (i, d)) for i, d in product(allies, dests)]
    out += [("swap", (i, j)) for i, j in product(allies, allies)]
    out += [("use_ability", (i, k)) for i, k in product(allies, (0, 1, -1, None))]
    out += [("use_hand_ability", (p, k)) for p, k in product(BAD_INTS, (0, 1, -1, None))]
    out += [("attack", (i, m, b)) for i, m, b in product(allies, (False, True), (0, 1, 2, 3, -1, True, None))]
    out += [("contract", (f, i)) for f, i in product(BAD_INTS[:7], allies)]
    out += [("evolve", (f, i)) for f, i in product(BAD_INTS[:7], allies)]
    out += [("use_familiar_ability", (i,)) for i in allies]
    out += [("release", (i, d, m)) for i, d, m in product(allies, dests, (False, True))]
    out += [("stronghold_damaged", (n, picks)) for n, picks in product(
        (-1, 0, 1, 2, None, "1"), (None, [], [0], [1], [0, 0], [0, 1, 2], [99], ["a"], [True], 7))]
    out += [("apply", (x,)) for x in (None, (Kind.END_TURN, ()), Action(Kind.DEPLOY, (99, 99)), "end_turn")]
    return out


def try_refusals(s: GameState, refused: dict[str, int], reasons: set[str]) -> None:
    """Try every call on a copy of `s`; every refused one must leave the copy exactly as it was.

    Calls run one after another on the same copy (a refusal leaves it as it was: the test); a call
    that is taken changes it, and the next call gets a fresh copy.
    """
    c = copy_of(s)
    before = snapshot(c)
    for method, args in calls(s):
        mapped = tuple(_same_in(c, s, a) for a in args)  # the allies named by object: the copy's own
        try:
            getattr(c, method)(*mapped)
        except IllegalAction as exc:
            after = snapshot(c)
            changed = [f for f in STATE_FIELDS if before[f] != after[f]]
            assert not changed, f"refused {method}{args!r} ({exc}) changed {changed}"
            refused[method] = refused.get(method, 0) + 1
            reasons.add(f"{method}: {str(exc)[:40]}")
        else:
            c = copy_of(s)
            before = snapshot(c)


def _same_in(c: GameState, s: GameState, a: Any) -> Any:
    if isinstance(a, Ally):
        if a in s.allies:
            return c.allies[s.allies.index(a)]
        if a in s.opp_allies:
            return c.opp_allies[s.opp_allies.index(a)]
    return a


class Trying(GreedyPolicy):
    """Greedy, trying every refusal at the start of each phase."""

    def __init__(self, refused: dict[str, int], reasons: set[str]) -> None:
        super().__init__()
        self.refused, self.reasons = refused, reasons

    def charge_phase(self, state: GameState) -> None:
        try_refusals(state, self.refused, self.reasons)
        super().charge_phase(state)

    def main_phase(self, state: GameState) -> None:
        try_refusals(state, self.refused, self.reasons)
        super().main_phase(state)
        try_refusals(state, self.refused, self.reasons)


@pytest.mark.parametrize("deck, seed", [("default.toml", 3), ("ultimate.toml", 5)])
def test_every_refused_action_leaves_the_whole_state_as_it_was(deck, seed):
    db = sengoku.load_card_db()
    sections, mode = bundled_sections(db, deck)
    t = compile_deck(db, sections, mode)
    refused: dict[str, int] = {}
    reasons: set[str] = set()
    policy = Trying(refused, reasons)
    s = GameState(t, random.Random(seed), True)
    s.chooser = policy
    try_refusals(s, refused, reasons)
    for _ in range(3):
        if s.sh_hp > 2:
            s.stronghold_damaged(1)  # U2: familiars reach the hand
        s.begin_turn()
        policy.charge_phase(s)
        s.end_charge_phase()
        policy.main_phase(s)
        s.end_turn()
        try_refusals(s, refused, reasons)
    methods = {k.method for k in Kind} - {"begin_turn"} | {"begin_turn", "stronghold_damaged", "apply",
                                                           "grow", "focus", "charge_cards"}
    if mode != "ultimate":
        methods -= {"use_familiar_ability"}  # (refused too, but listed below with Ultimate's reasons)
    assert methods <= refused.keys(), methods - refused.keys()
    assert len(reasons) >= 40  # many different reasons, not one refusal many times


def test_u2_a_disallowed_pick_costs_the_stronghold_nothing():
    # Before: the Stronghold lost its HP (8 -> 7), then the pick was refused.
    db = sengoku.load_card_db()
    sections, mode = bundled_sections(db, "ultimate.toml")
    t = compile_deck(db, sections, mode)
    s = GameState(t, random.Random(1), True)
    hp, zone, hand = s.sh_hp, list(s.summoning), list(s.fam_hand)
    with pytest.raises(IllegalAction, match="U2"):
        s.stronghold_damaged(1, [0, 1])  # two picks for 1 damage
    with pytest.raises(IllegalAction, match="U2"):
        s.stronghold_damaged(1, [len(s.summoning)])  # no such card
    assert (s.sh_hp, s.summoning, s.fam_hand) == (hp, zone, hand)
    taken = s.stronghold_damaged(1, [])
    assert taken == [] and s.sh_hp == hp - 1
