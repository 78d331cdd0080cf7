"""Abilities (C5): structured effects run on their timing; the rest are counted as skipped."""

from __future__ import annotations

import pytest

from sengoku.engine import IllegalAction, compile_deck
from sengoku.engine.state import BETWEEN, CHARGE, MAIN_PHASE

from .conftest import char, make_db, position, space


def ability(kind="TRG", timing=None, location="battlefield", ap=None, other=None, effect=(), condition=None):
    ab = {"name": "x", "turn": "your", "category": "other", "location": location, "kind": kind, "text": "x",
          "effect": [dict(e) for e in effect]}
    if timing:
        ab["timing"] = timing
    if ap is not None or other is not None:
        ab["cost"] = {k: v for k, v in (("ap", ap), ("other", other)) if v is not None}
    if condition:
        ab["condition"] = condition
    return ab


DRAW1 = ({"op": "draw", "amount": 1},)
CARDS = [
    char("C1", "Cmd", 1, 3, 3),
    char("C2", "Cmd", 2, 5, 2, abilities=(ability(timing="growth", effect=({"op": "gain_ap", "amount": 1},)),)),
    char("C3", "Cmd", 3, 7, 1, abilities=(ability(timing="growth_frontline", ap=1, effect=DRAW1),)),
    char("D1", "Drawer", 1, 2, 2, abilities=(ability(timing="deployment", ap=3, effect=DRAW1),)),
    char("H1", "Healer", 1, 2, 2, abilities=(
        ability(timing="deployment", effect=({"op": "heal", "amount": 2, "target": "commander"},)),)),
    char("X1", "Mystery", 1, 2, 2, abilities=(ability(timing="deployment"),  # no structured effect
                                              ability(kind="ACT", ap=1))),
    char("A1", "Archer", 1, 2, 2, abilities=(
        ability(kind="ACT", location="battlefield_to_defense", ap=2, effect=DRAW1),)),
    char("P2", "Priest", 2, 4, 3, kind="support", abilities=(
        ability(kind="ACT", location="hand_to_standby", ap=4, effect=({"op": "draw", "amount": 2},)),
        ability(kind="ACT", location="hand_to_standby", ap=3, other="SH→Banish_1 card", effect=DRAW1))),
    char("N1", "Ronin", 1, 2, 1, kind="nameless"),
]
DECK = {"main": {"C1": 3, "C2": 3, "C3": 3, "D1": 3, "H1": 3, "X1": 3, "A1": 3, "P2": 3}, "nameless": {"N1": 2}}


@pytest.fixture(scope="module")
def ab(board):
    return compile_deck(make_db(CARDS), DECK, board=board)


def test_deployment_trigger_draws_and_pays_its_ap(ab):
    s = position(ab, hand=["D1"], stronghold=["C2", "C3"], ap=5)
    s.deploy(0, space(s, 1, 2))
    assert s.ap == 0 and len(s.hand) == 1 and len(s.stronghold) == 1  # 5 - 2 - 3


def test_trigger_is_not_used_without_the_ap(ab):
    s = position(ab, hand=["D1"], stronghold=["C2", "C3"], ap=4)
    s.deploy(0, space(s, 1, 2))
    assert s.ap == 2 and len(s.hand) == 0


def test_heal_the_commander_never_above_max(ab):
    s = position(ab, hand=["H1"], ap=2)
    s.deploy(0, space(s, 1, 2))
    assert s.command_zone.hp == 3  # 1 + 2, max 3


def test_growth_trigger_gains_ap_only_on_the_field(ab):
    s = position(ab, hand=["C2", "C2"], ap=0)
    s.grow(0, s.allies.index(s.command_zone))  # in the Command Zone: BF ability does not fire
    assert s.ap == 2
    nameless = s.occupant[space(s, 0, 1)]
    s.by_name[s.t.name_id[s.t.index_of("C1")]] = None  # (free the name "Cmd" for the test)
    s.grow(0, s.allies.index(nameless))  # Ronin is male longsword, like Cmd
    assert s.ap == 2 + 2 + 1


def test_growth_frontline_fires_only_in_the_frontline(ab):
    s = position(ab, hand=["C3", "C3"], stronghold=["D1", "D1"], ap=1)
    s.by_name[s.t.name_id[s.t.index_of("C1")]] = None  # the Commander out of the way, by hand
    backline = s.occupant[space(s, 0, 1)]
    s.grow(0, s.allies.index(backline))
    assert len(s.hand) == 1 and s.ap == 2  # no draw in the Backline
    s.by_name[s.t.name_id[s.t.index_of("C1")]] = None
    s.nameless.append(backline)
    backline.space = space(s, 1, 1)  # now stand it in the Frontline
    s.occupant[space(s, 0, 1)] = None
    s.occupant[space(s, 1, 1)] = backline
    backline.top = s.t.index_of("N1")
    s.grow(0, s.allies.index(backline))
    assert len(s.hand) == 1 and s.ap == 2 + 1 - 1  # charge 1, draw cost 1, one card drawn


def test_unstructured_abilities_are_counted_as_skipped(ab):
    s = position(ab, hand=["X1"], ap=2, phase=BETWEEN)
    s.phase = MAIN_PHASE
    s.deploy(0, space(s, 1, 2))
    assert s.skipped == 1  # its deployment trigger
    s.end_turn()
    s.begin_turn()
    s.end_charge_phase()
    assert s.skipped == 2  # its ACT ability, usable this turn on the field


def test_act_ability_once_per_turn_and_to_defense(ab):
    s = position(ab, hand=["A1"], stronghold=["C2", "C3", "D1"], ap=10)
    archer = s.deploy(0, space(s, 1, 2))
    i = s.allies.index(archer)
    s.use_ability(i, 0)
    assert s.ap == 10 - 2 - 2 and len(s.hand) == 1 and archer.defending is True
    with pytest.raises(IllegalAction, match="once per turn"):
        s.use_ability(i, 0)
    s.end_turn()
    s.begin_turn()
    s.phase = MAIN_PHASE
    s.use_ability(i, 0)  # a new turn
    assert len(s.hand) == 2


def test_hand_ability_goes_to_standby_and_skips_non_ap_costs(ab):
    s = position(ab, hand=["P2"], stronghold=["C2", "C3", "D1"], ap=4)
    assert len(ab.hand_act[s.hand[0]]) == 1  # the SH→Banish one cannot run
    s.use_hand_ability(0, 0)
    assert s.ap == 0 and len(s.hand) == 2 and [ab.card_id[c] for c in s.standby] == ["P2"]


def test_abilities_only_in_the_main_phase(ab):
    s = position(ab, hand=["P2"], ap=4, phase=CHARGE)
    with pytest.raises(IllegalAction, match="Main Phase"):
        s.use_hand_ability(0, 0)
