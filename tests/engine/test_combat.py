"""Combat (K1-K5, S8): the guide's damage table, self-boosts, Last Guards, attacks in the engine."""

from __future__ import annotations

import pytest

from sengoku.engine import IllegalAction, boosted_attack, boosted_defense, combat_damage, last_guard_combat
from sengoku.engine.combat import ATTACKER_HIGHER, EQUAL, GUARD_HIGHER, LETHAL


from .conftest import idx, position, space

# ---- K1: the guide's own example, Defense Power 6 ----------------------------------------------

GUIDE_TABLE = [(range(0, 7), 0), (range(7, 12), 1), (range(12, 18), 2), (range(18, 24), 3), (range(24, 30), 4)]


@pytest.mark.parametrize("attacks, damage", GUIDE_TABLE)
def test_k1_guide_damage_table_for_defense_6(attacks, damage):
    assert [combat_damage(a, 6) for a in attacks] == [damage] * len(attacks)


def test_k1_floor_of_the_ratio_when_attack_exceeds_defense():
    assert combat_damage(10, 3) == 3
    assert combat_damage(3, 3) == 0
    assert combat_damage(2, 3) == 0


def test_k1_decision_defense_0():
    assert combat_damage(1, 0) == LETHAL  # A > 0 = D defeats the target
    assert combat_damage(0, 0) == 0


# ---- K2, K3: self-boosts ---------------------------------------------------------------------------

def test_k2_level3_boosts_once_level4_first_then_second():
    assert boosted_attack(7, (3,), 1) == 10
    assert boosted_attack(9, (2, 4), 1) == 11
    assert boosted_attack(9, (2, 4), 2) == 15
    with pytest.raises(ValueError):
        boosted_attack(7, (3,), 2)
    with pytest.raises(ValueError):
        boosted_attack(3, (), 1)  # Levels 1-2 cannot boost


def test_k3_defense_boost_plus_1_each_at_most_level_times():
    assert boosted_defense(4, 2, 2) == 6
    with pytest.raises(ValueError):
        boosted_defense(4, 2, 3)


# ---- K4: Last Guard outcomes --------------------------------------------------------------------

def test_k4_three_outcomes():
    assert last_guard_combat(8, 5) == (ATTACKER_HIGHER, 0, 1)
    assert last_guard_combat(30, 1) == (ATTACKER_HIGHER, 0, 1)  # never more than 1 to the Stronghold
    assert last_guard_combat(3, 9) == (GUARD_HIGHER, 3, 0)  # the attacker takes K1 damage
    assert last_guard_combat(4, 9) == (GUARD_HIGHER, 2, 0)
    assert last_guard_combat(5, 5) == (EQUAL, 1, 1)


def frontline_attacker(basic, card="S3", hp=3, turn=2, **kw):
    """Soma (card) on the Perimeter space in front of the Stronghold, deployed on turn 1."""
    s = position(basic, turn=turn, **kw)
    a = s.command_zone
    s.command_zone = None
    a.space = space(s, 1, 2)
    s.occupant[a.space] = a
    a.top = idx(basic, card)
    a.hp = hp
    a.sources = [idx(basic, "S1")]
    return s, s.allies.index(a), a


def test_k4_attacker_higher_defeats_the_last_guard_and_damages_the_stronghold(basic):
    s, i, a = frontline_attacker(basic)  # Soma L3: ATK 7
    s.opp_stronghold = [idx(basic, "S1")]  # Last Guard ATK 3
    assert s.attack(i) == ATTACKER_HIGHER
    assert s.opp_sh_hp == 5 and a.hp == 3 and a.defending is True
    assert [basic.card_id[c] for c in s.opp_standby] == ["S1"]


def test_k4_guard_higher_damages_the_attacker_and_goes_to_hand(basic):
    s, i, a = frontline_attacker(basic, card="S2", hp=4)  # Soma L2: ATK 3
    s.opp_stronghold = [idx(basic, "S4")]  # ATK 9: 9 // 3 = 3 damage
    assert s.attack(i) == GUARD_HIGHER
    assert a.hp == 1 and s.opp_sh_hp == 6
    assert [basic.card_id[c] for c in s.opp_hand if c == idx(basic, "S4")] == ["S4"]


def test_k4_equal_both_take_1_and_defeated_attacker_leaves_play(basic):
    s, i, a = frontline_attacker(basic, card="S2", hp=1)  # ATK 3
    s.opp_stronghold = [idx(basic, "S1")]  # ATK 3
    assert s.attack(i) == EQUAL
    assert s.opp_sh_hp == 5
    assert a not in s.allies and s.occupant[space(s, 1, 2)] is None
    assert [basic.card_id[c] for c in s.hand] == ["S1"]  # M6: its growth source back to hand
    assert [basic.card_id[c] for c in s.standby] == ["S2"]


def test_k2_boost_is_paid_with_a_same_name_card_from_hand(basic):
    s, i, a = frontline_attacker(basic, hand=["S2", "O1"])  # Soma L3 ATK 7, boost +2
    s.opp_stronghold = [idx(basic, "S4")]  # ATK 9
    assert s.attack(i, boosts=1) == EQUAL  # 7 + 2 = 9
    assert [basic.card_id[c] for c in s.hand] == ["O1"]
    assert "S2" in [basic.card_id[c] for c in s.standby]


def test_k2_boost_from_growth_sources_and_limits(basic):
    s, i, a = frontline_attacker(basic)  # one growth source (S1), no Soma in hand
    with pytest.raises(IllegalAction, match="0 to 1 times"):
        s.attack(i, boosts=2)  # Level 3 boosts once
    s.opp_stronghold = [idx(basic, "S4")]
    assert s.attack(i, boosts=1) == EQUAL
    assert a.sources == [] and [basic.card_id[c] for c in s.standby] == ["S1"]


def test_k2_boost_needs_a_card(basic):
    s, i, a = frontline_attacker(basic)
    a.sources = []
    with pytest.raises(IllegalAction, match="same-name"):
        s.attack(i, boosts=1)


def test_k5_damage_on_a_stronghold_at_0_hp_wins(basic):
    s, i, a = frontline_attacker(basic)
    s.opp_sh_hp = 0
    s.opp_stronghold = [idx(basic, "B1")]
    s.attack(i)
    assert s.won_turn == 2


def test_s8_first_player_cannot_attack_on_turn_1(basic):
    s, i, a = frontline_attacker(basic, turn=1)
    a.entered = 0  # entered play before the turn
    with pytest.raises(IllegalAction, match="S8"):
        s.attack(i)
    s2, i2, _ = frontline_attacker(basic, turn=1, going_first=False)
    s2.allies[i2].entered = 0
    s2.opp_stronghold = [idx(basic, "B1")]
    s2.attack(i2)  # the second player may


def test_k4_a_new_ally_may_not_target_the_stronghold_that_turn(basic):
    s = position(basic, hand=["O3"], ap=10, turn=2)
    ally = s.deploy(0, space(s, 1, 2))
    with pytest.raises(IllegalAction, match="entered play this turn"):
        s.attack(s.allies.index(ally))


def test_k4_range_from_the_board_file(basic):
    # From the Backline the opponent's Stronghold is 3 rows ahead: out of the common range.
    s, i, a = frontline_attacker(basic)
    s.occupant[a.space] = None
    a.space = space(s, 0, 0)
    s.occupant[a.space] = a
    with pytest.raises(IllegalAction, match="out of this ally's attack range"):
        s.attack(i)
    # From the Frontline beside the centre column, only a far corner gem reaches it.
    board = basic.board
    assert not board.reaches_enemy_stronghold(space(s, 1, 1), 0)
    assert board.reaches_enemy_stronghold(space(s, 1, 1), 0b1000)  # far_right
    assert board.reaches_enemy_stronghold(space(s, 1, 2), 0)


def test_ally_in_command_zone_cannot_attack(basic):
    s = position(basic, turn=2)
    s.command_zone.entered = 0
    with pytest.raises(IllegalAction, match="Command Zone"):
        s.attack(s.allies.index(s.command_zone))
