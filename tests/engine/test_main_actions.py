"""Main Phase actions M1-M6 on hand-worked positions (bundled board: Stronghold at row 0, column 2)."""

from __future__ import annotations

import pytest

from sengoku.engine import COMMAND_ZONE, IllegalAction

from sengoku.engine.tables import FOCUS, GROWTH

from .conftest import idx, position, space


def names(t, cards):
    return [t.card_id[c] for c in cards]


# ---- M1 Deployment ---------------------------------------------------------------------------

def test_m1_deploy_pays_cost_and_enters_with_1_hp(basic):
    s = position(basic, hand=["O2", "B1"], ap=10)
    dest = space(s, 1, 2)
    ally = s.deploy(0, dest)  # Oichi L2: cost 4
    assert s.ap == 6 and s.m_spent == 4
    assert ally.hp == 1 and ally.space == dest and ally.defending is False
    assert s.occupant[dest] is ally and names(basic, s.hand) == ["B1"]


def test_m1_short_of_ap_is_refused_and_leaves_the_state(basic):
    s = position(basic, hand=["S4"], ap=8)  # cost 9
    with pytest.raises(IllegalAction, match="costs 9 AP"):
        s.deploy(0, space(s, 1, 2))
    assert s.ap == 8 and len(s.hand) == 1 and len(s.allies) == 3


def test_m1_only_perimeter_spaces(basic):
    s = position(basic, hand=["O1"], ap=10)
    for r, c in ((0, 0), (1, 0), (1, 4), (2, 2)):  # not around the Stronghold, or the Invasion Zone
        with pytest.raises(IllegalAction, match="Perimeter"):
            s.deploy(0, space(s, r, c))
    with pytest.raises(IllegalAction, match="taken"):
        s.deploy(0, space(s, 0, 1))  # a Nameless stands there (S2)
    allies = len(s.allies)
    for bad in (float(space(s, 1, 2)), float(COMMAND_ZONE), True, None):  # a space is an int
        with pytest.raises(IllegalAction, match="Perimeter"):
            s.deploy(0, bad)
    assert len(s.hand) == 1 and s.ap == 10 and len(s.allies) == allies  # untouched


def test_m1_command_zone_takes_level_1_only_and_only_when_empty(basic):
    s = position(basic, hand=["O1", "O2"], ap=20)
    with pytest.raises(IllegalAction, match="Command Zone is taken"):
        s.deploy(0, COMMAND_ZONE)
    s.command_zone.space = space(s, 1, 2)  # move the Commander out by hand
    s.occupant[space(s, 1, 2)] = s.command_zone
    s.command_zone = None
    with pytest.raises(IllegalAction, match="Level 1"):
        s.deploy(1, COMMAND_ZONE)
    ally = s.deploy(0, COMMAND_ZONE)
    assert s.command_zone is ally and ally.space == COMMAND_ZONE


def test_m1_no_two_allies_with_the_same_name_on_the_battlefield(basic):
    s = position(basic, hand=["O1", "O2", "S2", "S3"], ap=40)  # Soma is the Commander
    s.deploy(0, space(s, 1, 2))
    with pytest.raises(IllegalAction, match="'Oichi' is already on the Battlefield"):
        s.deploy(0, space(s, 1, 1))
    # M1 (revised): the Command Zone is not the Battlefield, so the Commander may share its name
    # with one ally there; a second Soma on the Battlefield is refused.
    soma = s.deploy(1, space(s, 1, 1))
    assert s.by_name[basic.name_id[idx(basic, "S2")]] is soma and s.command_zone.top == idx(basic, "S1")
    with pytest.raises(IllegalAction, match="'Soma' is already on the Battlefield"):
        s.deploy(1, space(s, 1, 3))
    # ... and the Commander may not step out onto the Battlefield while that Soma stands there.
    with pytest.raises(IllegalAction, match="'Soma' is already on the Battlefield"):
        s.move(s.command_zone, space(s, 1, 3))
    # Growth and Focus pick which of the two a Soma card goes onto.
    assert s.can_grow(1, soma) is None and s.can_grow(1, s.command_zone) is None
    s.grow(1, s.command_zone)
    assert s.command_zone.top == idx(basic, "S3") and soma.top == idx(basic, "S2")


# ---- M2 Growth ------------------------------------------------------------------------------

def test_m2_growth_adds_1_hp_and_gains_the_new_top_cards_charge_value(basic):
    s = position(basic, hand=["S2"], ap=0)
    cz = s.allies.index(s.command_zone)
    assert s.stack(0, cz) == GROWTH
    a = s.command_zone
    assert names(basic, [a.top]) == ["S2"] and names(basic, a.sources) == ["S1"]
    assert a.hp == 2
    assert s.ap == 2 and s.m_growth_focus == 2  # Soma L2's charge value (M2 Decision)


def test_actions_refuse_bad_hand_numbers_and_allies_without_touching_the_state(basic):
    s = position(basic, hand=["S2"], ap=0)
    cz = s.allies.index(s.command_zone)
    for bad in (1, -1, True, 0.0, "0", None):
        with pytest.raises(IllegalAction, match="no hand card number"):
            s.stack(bad, cz)
    for bad in ([], [1, 2], 99, -1, "Soma", None):
        with pytest.raises(IllegalAction, match="no ally"):
            s.stack(0, bad)
        with pytest.raises(IllegalAction, match="no ally"):
            s.move(bad, space(s, 1, 2))
    assert names(basic, s.hand) == ["S2"] and s.ap == 0 and names(basic, [s.command_zone.top]) == ["S1"]
    s.stack(0, s.command_zone)  # the ally list itself names the ally too
    assert names(basic, [s.command_zone.top]) == ["S2"]


def test_m2_levels_may_be_skipped(basic):
    s = position(basic, hand=["S4"], ap=0)
    s.grow(0, s.allies.index(s.command_zone))
    assert s.command_zone.hp == 2 and s.ap == 1  # Soma L4: charge 1


def test_m2_hp_never_exceeds_the_new_max(basic):
    s = position(basic, hand=["S2"], ap=0)
    s.command_zone.hp = 3  # at Soma L1's max (3); Soma L2 max 4
    s.grow(0, s.allies.index(s.command_zone))
    assert s.command_zone.hp == 4
    s.hand = [idx(basic, "S2")]
    s.command_zone.top = idx(basic, "S1")
    s.command_zone.hp = 4  # (over the L1 max only to test the cap at L2's max 4)
    s.grow(0, s.allies.index(s.command_zone))
    assert s.command_zone.hp == 4


def test_m2_lower_or_other_name_cannot_grow(basic):
    s = position(basic, hand=["O2", "S1"], ap=0)
    s.command_zone.top = idx(basic, "S2")
    cz = s.allies.index(s.command_zone)
    with pytest.raises(IllegalAction, match="cannot Grow or Focus"):
        s.stack(0, cz)  # other name
    with pytest.raises(IllegalAction, match="cannot Grow or Focus"):
        s.stack(1, cz)  # lower level


def test_m2_nameless_grows_into_any_character_of_its_gender_and_weapon(basic):
    s = position(basic, hand=["O2", "S2", "B2"], ap=0)
    ronin = s.allies.index(s.occupant[space(s, 0, 1)])  # male longsword
    miko = s.allies.index(s.occupant[space(s, 0, 3)])  # female bow
    with pytest.raises(IllegalAction):
        s.grow(2, ronin)  # Benkei: warhammer
    with pytest.raises(IllegalAction):
        s.grow(0, ronin)  # Oichi: female bow
    s.grow(0, miko)
    assert names(basic, [s.allies[miko].top]) == ["O2"] and s.allies[miko].hp == 2
    assert s.by_name[basic.name_id[idx(basic, "O2")]] is s.allies[miko]  # the Nameless now bears Oichi's name
    # Soma L2 matches Ronin's gender and weapon; Soma (the Commander) is in the Command Zone,
    # not on the Battlefield, so Ronin may take the name (M1 revised) ...
    s.grow(0, ronin)
    assert s.by_name[basic.name_id[idx(basic, "S2")]] is s.allies[ronin]
    # ... but the Commander Soma may then not step onto the Battlefield.
    s.ap = 1
    with pytest.raises(IllegalAction, match="'Soma' is already on the Battlefield"):
        s.move(s.command_zone, space(s, 1, 2))


# ---- M3 Focus -------------------------------------------------------------------------------

def test_m3_focus_same_name_and_level_gains_ap_without_hp(basic):
    s = position(basic, hand=["S1"], ap=0)
    assert s.stack(0, s.allies.index(s.command_zone)) == FOCUS
    assert s.command_zone.hp == 1 and s.ap == 3  # Soma L1's charge value 3
    assert names(basic, s.command_zone.sources) == ["S1"]


def test_m3_level_1_focuses_onto_a_nameless_of_its_gender_and_weapon(basic):
    s = position(basic, hand=["O1"], ap=0)
    miko = s.allies.index(s.occupant[space(s, 0, 3)])
    s.focus(0, miko)
    assert names(basic, [s.allies[miko].top]) == ["O1"] and s.ap == 3


def test_m3_a_nameless_never_goes_onto_a_level_1_card(basic):
    s = position(basic, hand=["N1"], ap=0)  # Ronin: male longsword, like Soma L1
    with pytest.raises(IllegalAction):
        s.stack(0, s.allies.index(s.command_zone))
    assert not basic.can_grow_or_focus(idx(basic, "N1"), idx(basic, "S1"))
    assert basic.can_grow_or_focus(idx(basic, "S1"), idx(basic, "N1"))


def test_grow_or_focus_mask_of_the_commander(basic):
    mask = basic.grow_or_focus_mask(idx(basic, "S1"))
    assert {basic.card_id[i] for i, ok in enumerate(mask) if ok} == {"S1", "S2", "S3", "S4"}


# ---- M4 Move ----------------------------------------------------------------------------------

def test_m4_move_one_orthogonal_step_for_1_ap(basic):
    s = position(basic, ap=2)
    ronin = s.occupant[space(s, 0, 1)]
    i = s.allies.index(ronin)
    s.move(i, space(s, 1, 1))
    assert ronin.space == space(s, 1, 1) and s.ap == 1 and s.occupant[space(s, 0, 1)] is None


@pytest.mark.parametrize("dest, why", [((1, 2), "orthogonal"),  # diagonal
                                       ((0, 2), None),  # the Stronghold is no space
                                       ((1, 3), "orthogonal")])  # two steps
def test_m4_illegal_steps(basic, dest, why):
    s = position(basic, ap=5)
    i = s.allies.index(s.occupant[space(s, 0, 1)])
    target = s.t.board.index.get(dest, 99)
    with pytest.raises(IllegalAction, match=why):
        s.move(i, target)


def test_m4_never_into_an_ally_nor_from_defense_stance_nor_without_ap(basic):
    s = position(basic, hand=["O1"], ap=5)
    s.deploy(0, space(s, 1, 1))
    ronin = s.allies.index(s.occupant[space(s, 0, 1)])
    with pytest.raises(IllegalAction, match="taken"):
        s.move(ronin, space(s, 1, 1))
    s.allies[ronin].defending = True
    with pytest.raises(IllegalAction, match="Attack Stance"):
        s.move(ronin, space(s, 0, 0))
    s.allies[ronin].defending = False
    s.ap = 0
    with pytest.raises(IllegalAction, match="1 AP"):
        s.move(ronin, space(s, 0, 0))


def test_m4_command_zone_to_perimeter_for_1_ap_and_never_back(basic):
    s = position(basic, ap=3)
    cmd = s.command_zone
    i = s.allies.index(cmd)
    with pytest.raises(IllegalAction, match="Perimeter"):
        s.move(i, space(s, 1, 0))
    s.move(i, space(s, 1, 2))
    assert s.command_zone is None and cmd.space == space(s, 1, 2) and s.ap == 2
    with pytest.raises(IllegalAction, match="never re-entered"):
        s.move(i, COMMAND_ZONE)


# ---- M5 Swap --------------------------------------------------------------------------------------

def test_m5_swap_adjacent_allies_for_2_ap(basic):
    s = position(basic, hand=["O1"], ap=5)
    oichi = s.deploy(0, space(s, 1, 1))
    ronin = s.occupant[space(s, 0, 1)]
    s.swap(s.allies.index(oichi), s.allies.index(ronin))
    assert oichi.space == space(s, 0, 1) and ronin.space == space(s, 1, 1) and s.ap == 0
    assert s.occupant[space(s, 0, 1)] is oichi and s.occupant[space(s, 1, 1)] is ronin


def test_m5_swap_rules(basic):
    s = position(basic, ap=5)
    ronin = s.allies.index(s.occupant[space(s, 0, 1)])
    miko = s.allies.index(s.occupant[space(s, 0, 3)])
    cz = s.allies.index(s.command_zone)
    with pytest.raises(IllegalAction, match="adjacent"):
        s.swap(ronin, miko)  # the Stronghold lies between them
    with pytest.raises(IllegalAction, match="on the field"):
        s.swap(ronin, cz)
    s.ap = 2
    s.move(ronin, space(s, 1, 1))
    s.move(miko, space(s, 1, 3))
    s.ap = 1
    s.allies[miko].space = space(s, 1, 2)  # put Miko next to Ronin by hand
    s.occupant[space(s, 1, 3)] = None
    s.occupant[space(s, 1, 2)] = s.allies[miko]
    with pytest.raises(IllegalAction, match="2 AP"):
        s.swap(ronin, miko)
    s.ap = 2
    s.allies[miko].defending = True
    with pytest.raises(IllegalAction, match="Attack Stance"):
        s.swap(ronin, miko)
    s.allies[miko].defending = False
    s.swap(ronin, miko)
    assert s.allies[ronin].space == space(s, 1, 2) and s.ap == 0


# ---- M6 Growth sources when an ally leaves play -------------------------------------------------

def test_m6_one_growth_source_returns_to_hand_the_rest_to_standby(basic):
    s = position(basic, hand=["S2", "S3", "S4"], ap=0)
    cz = s.allies.index(s.command_zone)
    for _ in range(3):
        s.grow(0, cz)
    cmd = s.command_zone
    assert names(basic, cmd.sources) == ["S1", "S2", "S3"]
    s.leave_play(cmd)
    assert names(basic, s.hand) == ["S3"]  # the highest-level source
    assert sorted(names(basic, s.standby)) == ["S1", "S2", "S4"]
    assert s.command_zone is None and cmd not in s.allies
    assert s.by_name[basic.name_id[idx(basic, "S1")]] is None


def test_m6_the_player_may_choose_the_returned_source(basic):
    s = position(basic, hand=["S2", "S3"], ap=0)
    cz = s.allies.index(s.command_zone)
    s.grow(0, cz)
    s.grow(0, cz)
    s.leave_play(s.command_zone, keep=0)
    assert names(basic, s.hand) == ["S1"]
