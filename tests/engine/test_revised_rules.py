"""The rules SPEC revised or added for play to win: A1, A2 (abilities), K4 (Released familiars),
G4 (the opponent), and the per-turn measures of attacks, on hand-worked positions."""

from __future__ import annotations

import random

import pytest

from sengoku.engine import Chooser, IllegalAction, MEASURES, compile_deck, play_game
from sengoku.engine.board import COMMAND_ZONE, OFF_OUR_BOARD
from sengoku.engine.combat import ATTACKER_HIGHER, EQUAL, GUARD_HIGHER

from .conftest import BASIC, BASIC_DECK, char, idx, make_db, position, space
from .test_abilities import ability
from .test_combat import frontline_attacker

GAIN1 = ({"op": "gain_ap", "amount": 1},)
DRAW1 = ({"op": "draw", "amount": 1},)
CARDS = [
    char("C1", "Cmd", 1, 3, 3),
    # A hand ability that keeps the card in hand, and field abilities sharing a name across levels.
    char("R1", "Ranger", 1, 2, 2, abilities=({**ability(kind="ACT", location="hand", ap=1, effect=GAIN1),
                                               "name": "Scout"},)),
    char("W1", "Warden", 1, 2, 2, abilities=({**ability(kind="ACT", ap=1, effect=DRAW1), "name": "Watch"},)),
    char("W2", "Warden", 2, 3, 2, abilities=({**ability(kind="ACT", ap=1, effect=DRAW1), "name": "Watch"},
                                               {**ability(kind="ACT", ap=1, effect=GAIN1), "name": "Rally"})),
    # Two triggered abilities on one timing (A2: one of them at most).
    char("T1", "Twin", 1, 2, 2, abilities=(
        {**ability(timing="deployment", ap=1, effect=GAIN1), "name": "First"},
        {**ability(timing="deployment", ap=1, effect=DRAW1), "name": "Second"})),
    char("N1", "Ronin", 1, 2, 1, kind="nameless"),
]
DECK = {"main": {"C1": 3, "R1": 3, "W1": 3, "W2": 3, "T1": 3}, "nameless": {"N1": 2}}


@pytest.fixture(scope="module")
def t(board):
    return compile_deck(make_db(CARDS), DECK, board=board)


# ---- A1: once per turn, per physical card in hand and per ally on the field ------------------

def test_a1_each_copy_in_hand_has_its_own_use(t):
    s = position(t, hand=["R1", "R1", "C1"], ap=5)
    s.use_hand_ability(0, 0)
    s.use_hand_ability(1, 0)  # the second copy: its own use (the old rule refused it)
    assert s.ap == 5 - 1 + 1 - 1 + 1
    with pytest.raises(IllegalAction, match="each copy"):
        s.use_hand_ability(0, 0)


def test_a1_a_copy_that_leaves_the_hand_is_taken_to_be_the_used_one(t):
    s = position(t, hand=["R1", "R1"], ap=10)
    s.use_hand_ability(0, 0)
    s.deploy(0, space(s, 1, 2))  # copies are alike: the player parts with the used one
    s.use_hand_ability(0, 0)  # the copy left in hand has not used its ability
    with pytest.raises(IllegalAction, match="each copy"):
        s.use_hand_ability(0, 0)


def test_a1_growth_does_not_give_a_used_ability_a_second_use(t):
    s = position(t, hand=["W1", "W2"], stronghold=["C1", "C1", "C1"], ap=10)
    warden = s.deploy(0, space(s, 1, 2))
    s.use_ability(warden, 0)  # Watch
    s.grow(0, warden)
    with pytest.raises(IllegalAction, match="once per turn"):
        s.use_ability(warden, 0)  # Watch again, now printed on the Level 2 card
    s.use_ability(warden, 1)  # Rally: another ability, unused
    s.end_turn()
    s.begin_turn()
    s.end_charge_phase()
    s.use_ability(warden, 0)  # a new turn


# ---- A2: triggered abilities are optional, one per ally per timing ---------------------------

class Decline(Chooser):
    def use_trigger(self, state, ally, trigger):
        return False


def test_a2_a_trigger_is_optional(t):
    s = position(t, hand=["T1"], ap=5)
    s.chooser = Decline()
    s.deploy(0, space(s, 1, 2))
    assert s.ap == 3 and s.hand == []  # 5 - 2, no trigger paid


def test_a2_one_trigger_per_ally_per_timing(t):
    s = position(t, hand=["T1"], stronghold=["C1", "C1"], ap=5)
    s.deploy(0, space(s, 1, 2))
    # "First" is offered first and used (+1 AP for 1 AP); "Second" (draw) is then not offered.
    assert s.ap == 5 - 2 - 1 + 1 and s.hand == []


# ---- K4 (revised): a familiar Released this turn may attack ----------------------------------

def test_k4_a_familiar_released_this_turn_may_attack(board):
    from .test_ultimate import FAMILIARS, contracted, on_field

    ult = compile_deck(make_db(BASIC + FAMILIARS), {**BASIC_DECK, "familiars": {f["id"]: 1 for f in FAMILIARS}},
                       "ultimate", board=board)
    s, i, a = contracted(ult, ["E1", "F2"], [], ap=2)  # turn 2
    on_field(s, a, 1, 1)
    new = s.release(i, space(s, 1, 2))  # in front of our Stronghold: theirs is 2 ahead
    assert new.entered == s.turn == 2
    assert s.can_attack(new) is None
    s.attack(new)
    assert new.defending


# ---- G4: the opponent, set up and never acting ------------------------------------------------

def test_g4_the_mirror_opponent_is_set_up_as_s1_s7_say(t):
    s = position(t, hand=[], ap=0)
    cmd, *nameless = s.opp_allies
    # S1's decision for their Commander too: the Level 1 card with the most higher-level copies.
    assert cmd.space == COMMAND_ZONE and s.opp_commander is cmd and t.card_id[cmd.top] == "W1"
    assert [t.card_id[e.top] for e in nameless] == ["N1", "N1"]
    # The bundled board puts them beside its Stronghold on its Backline, out of our reach.
    assert [e.space for e in nameless] == [OFF_OUR_BOARD, OFF_OUR_BOARD]
    assert s.opp_sh_hp == 6 and s.opp_stronghold is None  # dealt when the first Last Guard is revealed


def test_g4_an_attack_meets_a_last_guard_of_the_opponents_own_deck(board, basic):
    other = compile_deck(make_db(BASIC + [char("G9", "Giant", 1, 2, 1, atk=20)]),
                         {"main": {"G9": 3, "S1": 3}, "nameless": BASIC_DECK["nameless"]}, board=board)
    s, i, a = frontline_attacker(basic)
    s._set_opponent(other, False)
    s.opp_stronghold = [other.index_of("G9")]
    assert s.attack(i) == GUARD_HIGHER  # Soma L3's ATK 7 against the Giant's 20
    assert [other.card_id[c] for c in s.opp_hand] == ["G9"]  # K4: the Last Guard goes to hand


def test_g4_a_defending_opponent_adds_its_commander_once_and_boosts_from_its_hand(basic):
    s, i, a = frontline_attacker(basic, ap=10)  # Soma L3, ATK 7
    s.opp_defends = True
    s.opp_stronghold = [idx(basic, "O1")]  # Last Guard Oichi L1: ATK 3
    # Their Commander (Soma L1, ATK 3) joins: 3 + 3 = 6 < 7, the attack still wins.
    assert s.attack(i) == ATTACKER_HIGHER and s.opp_sh_hp == 5
    assert s.opp_commander is None and s.opp_allies[0].space != COMMAND_ZONE
    # Next turn no Commander is left to join; a Level 3 Last Guard boosts with a namesake in hand.
    s.end_turn()
    s.begin_turn()
    s.end_charge_phase()
    s.opp_stronghold = [idx(basic, "S3")]  # Soma L3, ATK 7, boost +2 (conftest)
    s.opp_hand = [idx(basic, "S1")]
    assert s.attack(i) == GUARD_HIGHER  # 7 against 7 + 2
    assert s.opp_hand == [idx(basic, "S3")] and s.opp_standby == [idx(basic, "O1"), idx(basic, "S1")]


def test_g4_a_passive_opponent_neither_joins_nor_boosts(basic):
    s, i, a = frontline_attacker(basic)
    s.opp_stronghold = [idx(basic, "S3")]
    s.opp_hand = [idx(basic, "S1")]
    assert s.attack(i) == EQUAL and s.opp_commander is not None and s.opp_hand == [idx(basic, "S1")]


# ---- the per-turn measures of attacks, and stopping at the win (G5) ---------------------------

def test_attack_measures_and_the_opponents_stronghold_hp(basic):
    s, i, a = frontline_attacker(basic, hp=1)
    s.opp_stronghold = [idx(basic, "S1"), idx(basic, "S4")]
    outcome = s.attack(i)
    m = dict(zip(MEASURES, s.end_turn()))
    hit = outcome != GUARD_HIGHER
    lost = outcome != ATTACKER_HIGHER  # 1 HP: a tie or a stronger Last Guard defeats it
    assert (m["attacks"], m["stronghold_hits"], m["allies_lost"], m["opp_stronghold_hp"]) == (
        1, int(hit), int(lost), 6 - hit)


def test_a_won_game_stops_unless_played_on(basic):
    rng = random.Random(4)
    won = [g for g in (play_game(basic, "random", rng, turns=25) for _ in range(40)) if g.won_turn]
    assert won, "the random policy wins some games"
    assert all(len(g.turns) == g.won_turn for g in won)
    g = play_game(basic, "random", random.Random(4), turns=25, play_on=True)
    assert len(g.turns) == 25
