"""Hand-made positions for the default policy's Swaps into range (`swap_into_range`, M5), its first
attacker against a defender's joining Commander (G4, K4), its order of deployments (M1) and
`landing_value`. A setting's position is played by greedy and by greedy with the setting off."""

from __future__ import annotations

import random

from sengoku.engine import GameState
from sengoku.engine.policies import GreedyPolicy

from .conftest import SCRIPT, greedy_with, space, with_hand
from .test_policy_positions import standard  # noqa: F401 (a fixture, used by name)
from .test_policy_positions import _defended_position, without_nameless


# Greedy without `step_ahead_for_walk`, which finds another way in the swap's position (below).
SwapNoStep = greedy_with(step_ahead_for_walk=False)


NoSwap = greedy_with(step_ahead_for_walk=False, swap_into_range=False)


def test_two_allies_swap_so_that_both_reach_the_stronghold_and_the_game_is_won(standard):
    # Going second, turn 1, a passive opponent whose Stronghold has 2 HP and no Last Guard left
    # (power 0: every attack hits, K4; three hits win, K5). Oichi L1 (far corners: b2, c2, d2, c3)
    # stands on c2, Nene L2 (near left: c2, c3, d3) on c3, Kagetora L1 (no corner: c2 and c3 only)
    # on d2, out of range: both its spaces are taken, and no walk leads round them (c1 holds our
    # Stronghold). 2 AP: one Swap (M5) of Oichi and Kagetora puts Kagetora on c2 and Oichi on d2,
    # from which its far-left corner still reaches: three attackers instead of two.
    t = standard

    def position() -> GameState:
        s = _defended_position(t, [("SY1-031", 1, 2)], [], 1, 2, defends=False)
        s.move(s.allies[0], space(s, 2, 2))  # Nene to c3 (1 AP)
        with_hand(s, ["SY1-009", "SY1-005"])
        for row, col in ((1, 2), (1, 3)):
            s.ap += 5
            s.deploy(0, space(s, row, col)).entered = 0  # on the field since an earlier turn (K4)
        s.ap = 2
        return s

    s = position()
    nene, oichi, kagetora = s.allies
    assert [t.card_id[a.top] for a in s.allies] == ["SY1-031", "SY1-009", "SY1-005"]
    SwapNoStep().main_phase(s)
    assert kagetora.space == space(s, 1, 2) and oichi.space == space(s, 1, 3)  # swapped (M5)
    assert kagetora.defending and oichi.defending and nene.defending  # all three attacked
    assert s.ap == 0 and s.won_turn == 1

    # The default finds another way for the same 2 AP (`step_ahead_for_walk`): Oichi steps from c2 to
    # b2, from which it still reaches the Stronghold, and Kagetora steps onto c2.
    s = position()
    nene, oichi, kagetora = s.allies
    GreedyPolicy(SCRIPT).main_phase(s)
    assert kagetora.space == space(s, 1, 2) and oichi.space == space(s, 1, 1)
    assert s.ap == 0 and s.won_turn == 1

    s = position()
    NoSwap().main_phase(s)
    assert s.allies[2].space == space(s, 1, 3) and not s.allies[2].defending  # Kagetora idle on d2
    assert s.won_turn is None and s.opp_sh_hp == 0  # two hits: the winning one is still to land


def _first_attack(t, seed: int) -> GameState:
    """Going second, turn 1's Main Phase against a defending opponent (G4) with its whole Stronghold
    (shuffled from `seed`): Kagetora L2 (ATK 9; c2, b3, c3) on c2 and Oichi L1 (ATK 5, MAT 2; b2,
    c2, d2, c3) on b2, both on the field since an earlier turn; no AP, no hand, no other ally."""
    s = without_nameless(GameState(t, random.Random(seed), False, opponent_defends=True))
    cz = s.command_zone
    assert cz is not None
    s.allies.remove(cz)
    s.command_zone, s.cz_name, s.hp_total = None, -1, s.hp_total - cz.hp
    s.begin_turn()
    s.end_charge_phase()
    with_hand(s, ["SY1-006", "SY1-009"])
    for cid, row, col in (("SY1-006", 1, 2), ("SY1-009", 1, 1)):
        a = s.deploy(0, space(s, row, col))
        a.entered = 0
        assert t.card_id[a.top] == cid
    s.ap = 0
    return s


def test_against_a_defender_the_likeliest_attacker_meets_the_commander(standard):
    # The defending opponent's Commander, Soma L1 (ATK 6, MAT 2), adds its power to the first
    # Last Guard only (G4, K4). Kagetora L2 (ATK 9) is likelier to win that combat than Oichi L1
    # (ATK 5 or MAT 2): it attacks first, on every shuffle of the opponent's Stronghold. (Sending
    # the ally the Commander hurts least first, `soak_commander`, was removed: it did not earn its
    # cost on the test set.)
    t = standard
    for seed in range(20):
        s = _first_attack(t, seed)
        s.record = []
        GreedyPolicy(SCRIPT).main_phase(s)
        attacks = [e for e in s.record if e["event"] == "attack"]
        assert t.name[attacks[0]["card"]] == "Kagetora" and attacks[0]["commander"] >= 0  # it met the Commander


def test_new_names_are_deployed_in_hand_order_when_level_and_cost_are_equal(standard):
    # Going second, turn 1, no ally on the field, 4 AP, in hand (in this order) Yukimura L1 (cost 2;
    # far left corner: reaches from c2, d2 and c3) and Kagetora L1 (cost 2; no corner: c2 and c3
    # only; deployed, its ability gains 2 AP, C5). Level and cost are equal: in hand order,
    # Yukimura takes c2, the first free space in its range, and no Perimeter space is left from
    # which Kagetora reaches. (Deploying the card with the fewest spaces in range first,
    # `scarce_first`, was removed: it cost turns on the test set.)
    t = standard

    def reaching(s):
        return sorted(t.name[a.top] for a in s.allies
                      if a.space >= 0 and t.board.reaches_enemy_stronghold(a.space, t.corners[a.top]))

    s = _defended_position(t, [], ["SY1-013", "SY1-005"], 4, 6, defends=False)
    GreedyPolicy(SCRIPT).main_phase(s)
    yukimura = next(a for a in s.allies if t.name[a.top] == "Yukimura")
    assert yukimura.space == space(s, 1, 2) and reaching(s) == ["Yukimura"]  # c2; Kagetora not in range


AvoidsLanding = greedy_with(landing_value=False)


def test_against_a_defender_an_ally_steps_onto_the_commanders_space_when_c3_is_ours(standard):
    # Going second, turn 1, a defending opponent (G4) whose Commander steps onto d3, the first free
    # space of its Perimeter on our side, when it joins the first attack; were d3 ours, onto c3;
    # were c3 ours too, onto b3. Nene L2 stands on c3 and Kagetora L1 on c2 (both deployed this
    # turn: they may not attack, K4); Oichi L3 (range c2, d2, c3, d3) on d2 attacks. In hand
    # Yukimura L1 (cost 2; reaches from c2, d2 and c3: of the Perimeter, d2 is the only one left).
    # 3 AP. With c3 ours, taking d3 sends the Commander to b3, from which fewer of the deck's cards
    # reach the Stronghold (9 of its cards; 14 from d3): Oichi steps to d3 (1 AP) before it
    # attacks, the Commander goes to b3, and Yukimura takes d2, in range for next turn. Avoiding
    # d3 always, Oichi attacks from d2 and Yukimura has no space in range.
    t = standard

    def position() -> GameState:
        s = _defended_position(t, [("SY1-031", 1, 2)], [], 1, 6)
        s.allies[0].entered = s.turn
        s.move(s.allies[0], space(s, 2, 2))  # Nene to c3 (1 AP)
        with_hand(s, ["SY1-005", "SY1-011", "SY1-013"])
        for row, col, entered in ((1, 2, s.turn), (1, 3, 0)):
            s.ap += 10
            s.deploy(0, space(s, row, col)).entered = entered
        s.ap = 3
        return s

    def reaching(s):
        return sorted(t.name[a.top] for a in s.allies
                      if a.space >= 0 and t.board.reaches_enemy_stronghold(a.space, t.corners[a.top]))

    s = position()
    nene, kagetora, oichi = s.allies
    assert [t.name[a.top] for a in s.allies] == ["Nene", "Kagetora", "Oichi"]
    GreedyPolicy(SCRIPT).main_phase(s)
    assert oichi.space == space(s, 2, 3) and oichi.defending  # stepped to d3, then attacked
    b3 = s.occupant[space(s, 2, 1)]
    assert b3 is not None and b3 in s.opp_allies  # their Commander went on to b3
    yukimura = next(a for a in s.allies if t.name[a.top] == "Yukimura")
    assert yukimura.space == space(s, 1, 3) and "Yukimura" in reaching(s)  # on d2, in range

    s = position()
    AvoidsLanding().main_phase(s)
    assert s.allies[2].space == space(s, 1, 3)  # Oichi attacked from d2
    d3 = s.occupant[space(s, 2, 3)]
    assert d3 is not None and d3 in s.opp_allies  # their Commander on d3
    assert "Yukimura" not in reaching(s)
