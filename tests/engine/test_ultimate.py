"""Ultimate Mode (U1-U5, T2c) on hand-worked positions."""

from __future__ import annotations

import pytest

from sengoku.engine import IllegalAction, compile_deck
from sengoku.engine.state import CHARGE

from .conftest import BASIC, BASIC_DECK, fam, make_db, position, space

FAMILIARS = [
    fam("E1", "Stone", 1, 2, 1, egg=True), fam("F2", "Bee", 2, 4, 1, evolves_from="Stone", atk=3),
    fam("F3", "Hornet", 3, 7, 2, evolves_from="Bee", atk=7), fam("K1", "Kodama", 1, 3, 1),
    fam("K2", "Echo", 2, 4, 2, evolves_from="Kodama"), fam("R2", "Raiju", 2, 4, 1),
]


@pytest.fixture(scope="module")
def ult(board):
    deck = {**BASIC_DECK, "familiars": {f["id"]: 1 for f in FAMILIARS}}
    return compile_deck(make_db(BASIC + FAMILIARS), deck, "ultimate", board=board)


def fpos(state, card_id):
    return [state.t.card_id[f] for f in state.fam_hand].index(card_id)


def with_familiars(ult, ids, **kw):
    s = position(ult, **kw)
    s.fam_hand = [ult.index_of(c) for c in ids]
    s.summoning = [f for f in ult.familiar_indices if ult.card_id[f] not in ids]
    return s


# ---- U1 / T2c -----------------------------------------------------------------------------

def test_u1_familiar_hand_limit_3_at_the_end_of_the_charge_phase(ult):
    s = with_familiars(ult, ["E1", "F2", "K1", "R2"], phase=CHARGE)
    with pytest.raises(IllegalAction, match="until 3 remain"):
        s.end_charge_phase()


def test_t2c_familiars_give_hp_equal_to_their_total_charge_value_capped(ult):
    s = with_familiars(ult, ["E1", "F2", "K2", "R2"], phase=CHARGE)
    cz = s.allies.index(s.command_zone)  # Soma L1: max HP 3, at 1
    s.familiar_hp_charge((fpos(s, "K2"),), cz)  # charge 2 -> 3 HP
    assert s.command_zone.hp == 3
    assert [ult.card_id[f] for f in s.fam_hand] == ["E1", "F2", "R2"]
    assert "K2" in [ult.card_id[f] for f in s.summoning]
    with pytest.raises(IllegalAction, match="already used"):
        s.familiar_hp_charge((0,), cz)
    s.end_charge_phase()


def test_t2c_cap_at_max_hp(ult):
    s = with_familiars(ult, ["F3", "K2"], phase=CHARGE)
    cz = s.allies.index(s.command_zone)
    s.familiar_hp_charge((0, 1), cz)  # 2 + 2 = 4, capped at 3
    assert s.command_zone.hp == 3 and s.fam_hand == []


def test_t2c_only_in_ultimate(basic):
    s = position(basic, phase=CHARGE)
    with pytest.raises(IllegalAction, match="Ultimate"):
        s.familiar_hp_charge((0,), 0)


# ---- U2 -----------------------------------------------------------------------------------------

def test_u2_stronghold_damage_takes_familiars_up_to_10_minus_hp(ult):
    s = with_familiars(ult, [])
    s.sh_hp = 5
    # 1 damage: HP 4, so contract cost <= 6: F3 (7) is not allowed.
    hornet = [ult.card_id[f] for f in s.summoning].index("F3")
    with pytest.raises(IllegalAction, match="≤ 6"):
        s.stronghold_damaged(1, [hornet])
    s.sh_hp = 5
    taken = s.stronghold_damaged(2)  # HP 3: cost <= 7, two cards in zone order
    assert s.sh_hp == 3 and len(taken) == 2 and len(s.fam_hand) == 2


# ---- U3 Contract ----------------------------------------------------------------------------------

def test_u3_contract_pays_cost_and_adds_atk_in_attack(ult):
    s = with_familiars(ult, ["E1", "F2", "K1"], ap=10, turn=2)
    cz = s.command_zone
    i = s.allies.index(cz)
    with pytest.raises(IllegalAction, match="Level 2 familiar"):
        s.contract(fpos(s, "F2"), i)  # above the Level 1 holder
    s.contract(fpos(s, "K1"), i)
    assert s.ap == 7 and [ult.card_id[f] for f in cz.familiars] == ["K1"]
    with pytest.raises(IllegalAction, match="one familiar per character"):
        s.contract(fpos(s, "E1"), i)


def test_u3_holder_in_attack_stance_and_ap(ult):
    s = with_familiars(ult, ["K1"], ap=2)
    i = s.allies.index(s.command_zone)
    with pytest.raises(IllegalAction, match="costs 3 AP"):
        s.contract(0, i)
    s.ap = 3
    s.command_zone.defending = True
    with pytest.raises(IllegalAction, match="Attack Stance"):
        s.contract(0, i)


def test_u3_familiar_atk_adds_to_the_holders_attack(ult):
    from sengoku.engine.combat import ATTACKER_HIGHER

    s = with_familiars(ult, ["F2"], ap=10, turn=2)
    a = s.command_zone
    s.command_zone = None
    a.space = space(s, 1, 2)
    s.occupant[a.space] = a
    a.top = ult.index_of("S2")  # Soma L2: ATK 3
    a.entered = 0
    s.contract(0, s.allies.index(a))  # Bee: ATK 3
    s.opp_stronghold = [ult.index_of("O2")]  # Last Guard ATK 3: alone Soma would tie
    assert s.attack(s.allies.index(a)) == ATTACKER_HIGHER  # 3 + 3 > 3
    assert a.hp == 1 and s.opp_sh_hp == 7


# ---- U4 Evolution -------------------------------------------------------------------------------

def contracted(ult, fam_ids, hand_ids, holder="S2", ap=10):
    s = with_familiars(ult, hand_ids, ap=ap, turn=2)
    a = s.command_zone
    a.top = ult.index_of(holder)
    a.familiars = [ult.index_of(f) for f in fam_ids]
    return s, s.allies.index(a), a


def test_u4_evolution_needs_defense_stance_and_the_right_form(ult):
    s, i, a = contracted(ult, ["E1"], ["F2", "K2"])
    with pytest.raises(IllegalAction, match="Defense Stance"):
        s.evolve(fpos(s, "F2"), i)
    a.defending = True
    with pytest.raises(IllegalAction, match="does not evolve from"):
        s.evolve(fpos(s, "K2"), i)
    s.evolve(fpos(s, "F2"), i)
    assert [ult.card_id[f] for f in a.familiars] == ["E1", "F2"]
    assert a.hp == 1  # contracted evolution gives no HP


def test_u4_not_above_the_holders_level(ult):
    s, i, a = contracted(ult, ["E1", "F2"], ["F3"])
    a.defending = True
    with pytest.raises(IllegalAction, match="above its Contract Holder"):
        s.evolve(0, i)


# ---- U5 Release ----------------------------------------------------------------------------------

def on_field(s, a, row, col):
    if a is s.command_zone:
        s.command_zone = None
    a.space = space(s, row, col)
    s.occupant[a.space] = a


def test_u5_release_by_moving_the_holder_for_1_ap(ult):
    s, i, a = contracted(ult, ["E1", "F2"], [], ap=1)
    on_field(s, a, 1, 2)
    new = s.release(i, space(s, 1, 1), move_holder=True)
    assert a.space == space(s, 1, 1) and a.familiars == [] and s.ap == 0
    assert new.released and new.space == space(s, 1, 2) and s.occupant[space(s, 1, 2)] is new
    assert ult.card_id[new.top] == "F2" and [ult.card_id[f] for f in new.sources] == ["E1"]
    assert new.hp == 2  # charge values 1 + 1


def test_u5_release_hp_capped_and_egg_cannot_be_released(ult):
    s, i, a = contracted(ult, ["E1"], [])
    on_field(s, a, 1, 2)
    with pytest.raises(IllegalAction, match="Egg cannot be Released"):
        s.release(i, space(s, 1, 1))
    s, i, a = contracted(ult, ["K1", "K2"], [], holder="S3")
    on_field(s, a, 1, 2)
    new = s.release(i, space(s, 1, 1))  # move the familiar
    assert new.space == space(s, 1, 1) and a.space == space(s, 1, 2)
    assert new.hp == 3  # 1 + 2


def test_u5_released_familiar_evolves_gaining_hp(ult):
    s, i, a = contracted(ult, ["E1", "F2"], ["F3"], holder="S3")
    on_field(s, a, 1, 2)
    new = s.release(i, space(s, 1, 1))
    j = s.allies.index(new)
    s.evolve(0, j)
    assert ult.card_id[new.top] == "F3" and new.hp == 2 + 2  # + Hornet's charge value


def test_u5_holder_defeated_releases_its_familiar_eggs_return_to_hand(ult):
    s, i, a = contracted(ult, ["E1", "F2"], [])
    on_field(s, a, 1, 2)
    s.leave_play(a)
    rel = s.occupant[space(s, 1, 2)]
    assert rel is not None and rel.released and ult.card_id[rel.top] == "F2"
    s.leave_play(rel)  # the Released familiar leaves: Egg to hand, the rest to the Summoning Zone
    assert [ult.card_id[f] for f in s.fam_hand] == ["E1"]
    assert "F2" in [ult.card_id[f] for f in s.summoning]
    s, i, a = contracted(ult, ["E1"], [])
    on_field(s, a, 1, 2)
    s.leave_play(a)
    assert s.occupant[space(s, 1, 2)] is None and [ult.card_id[f] for f in s.fam_hand] == ["E1"]
