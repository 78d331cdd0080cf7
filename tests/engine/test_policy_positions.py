"""Hand-made positions where the best choice is known: the default policy (greedy) takes it.

Each position is built card by card on a suite or bundled deck (not taken from a deal, so it does
not depend on the random stream), and the outcome is played out on several seeds.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import sengoku
from sengoku.engine import GameState, compile_deck
from sengoku.engine.clone import clone_state
from sengoku.engine.constants import MAIN_PHASE
from sengoku.engine.policies import GreedyPolicy
from sengoku.engine.policies.greedy.odds import best_attack
from sengoku.paths import data_dir
from sengoku.validate.api import validate_file

from .conftest import SCRIPT, greedy_with, play_out, space, with_hand

SUITE = Path(__file__).resolve().parents[2] / "decklists" / "suite"


def deck(path):
    result = validate_file(path)
    assert result.valid
    return compile_deck(sengoku.load_card_db(), result.sections, result.mode)


@pytest.fixture(scope="module")
def high_level():
    return deck(SUITE / "high-level-supports.toml")


@pytest.fixture(scope="module")
def ultimate():
    return deck(data_dir("decklists") / "ultimate.toml")


def without_nameless(s: GameState) -> GameState:
    for a in list(s.nameless):
        s.allies.remove(a)
        s.occupant[a.space] = None
    s.nameless.clear()
    s.hp_total = sum(a.hp for a in s.allies)
    return s


class SendsNothing(GreedyPolicy):
    """Greedy, except that its first Charge Phase sends no card (the hand is kept)."""

    def charge_phase(self, state):
        if state.turn == 1:
            return
        super().charge_phase(state)


def test_a_heavy_turn_1_hand_sends_two_cards_to_deploy_two_allies_and_wins_a_turn(high_level):
    # Going first, turn 1: Nene Level 3, Kagetora Level 4 twice, Kansuke Level 3, Sorin Level 3
    # (costs 7, 10, 10, 6, 6; charge values 2, 2, 2, 3, 3). The Charge Phase's 10 AP deploy one
    # card; sending two cards (+5 AP at least) deploys a second ally that can attack on turn 2.
    # The opponent's Stronghold has 2 HP left and no Last Guard (every attack hits: 3 hits win,
    # K5), and our side is the Commander alone: three attackers on turn 2 win then.
    t = high_level
    s = without_nameless(GameState(t, random.Random(0), True))
    with_hand(s, ["SY1-032", "SY1-008", "SY2-028", "SY1-030", "SY1-008"])
    s.opp_stronghold, s.opp_sh_hp = [], 2
    s.begin_turn()
    greedy, keeps = [], []
    for seed in range(8):
        g = clone_state(s, random.Random(seed))
        p = GreedyPolicy(SCRIPT)
        p.charge_phase(g)
        sent = len(g.standby)
        g.end_charge_phase()
        p.main_phase(g)
        assert sent >= 2 and len(g.allies) >= 3  # two cards sent (or more: extra_charge); two allies (or more) beside the Commander
        g.end_turn()
        greedy.append(_finish(g))
        keeps.append(play_out(clone_state(s, random.Random(seed)), SendsNothing()).won_turn)
    assert greedy == [2] * 8
    # keeping the hand deploys one ally: the third hit waits a turn (on two seeds of the eight the
    # cards drawn find a third attacker all the same)
    assert keeps == [3] * 6 + [2, 2], keeps


def _finish(s: GameState) -> int | None:
    p = GreedyPolicy(SCRIPT)
    while s.won_turn is None and s.turn < 8:
        s.begin_turn()
        p.charge_phase(s)
        s.end_charge_phase()
        p.main_phase(s)
        s.end_turn()
    return s.won_turn


@pytest.fixture(scope="module")
def standard():
    return deck(data_dir("decklists") / "default.toml")


# Greedy without the extra turn-1 charges (`extra_charge`), to keep a hand as a test built it.
PlanOnly = greedy_with(extra_charge=0)


def test_an_ally_walks_into_a_tiny_chance_attack(standard):
    # Going second, turn 1, a passive opponent: the Nameless Ronin (ATK 5, 1 HP) can walk one step
    # into range, though hardly any Last Guard of the mirror deck has ATK 5 or less and nearly
    # every one defeats it (K4, K1). Greedy walks it in and attacks at any hit chance: holding such
    # walks back (the removed `risky_hit` settings) did not earn its cost on the test set.
    t = standard
    s = GameState(t, random.Random(0), False)
    with_hand(s, ["SY1-009", "SY1-005", "SY1-013", "SY1-002", "SY1-010"])  # Level 1-2 cards to deploy
    ronin = next(a for a in s.nameless if t.name[a.top] == "Ronin")
    s.begin_turn()
    p = GreedyPolicy(SCRIPT)
    PlanOnly().charge_phase(s)  # the hand as built (no extra card sent: the deployments it plans are the point)
    s.end_charge_phase()
    p._prepare_for(s)
    assert 0 < best_attack(p.known, s, ronin)[0] < 0.2
    start = ronin.space
    s.record = []
    p.main_phase(s)
    assert ronin.space != start or not ronin.in_play  # it walked (and was likely lost)
    assert any(e["event"] == "attack" and e["card"] == ronin.top for e in s.record)


def _ronin_on_turn(t, turn: int, policy: GreedyPolicy, going_first: bool, defends: bool) -> tuple[object, int]:
    """The Ronin position of `test_an_ally_walks_into_a_tiny_chance_attack` (its
    board, hand and AP) on turn `turn`, played by `policy` after the plan's own charges; return
    the Ronin and the space it started on."""
    s = GameState(t, random.Random(0), going_first, opponent_defends=defends)
    with_hand(s, ["SY1-009", "SY1-005", "SY1-013", "SY1-002", "SY1-010"])
    ronin = next(a for a in s.nameless if t.name[a.top] == "Ronin")
    s.begin_turn()
    s.turn = turn
    PlanOnly().charge_phase(s)
    s.end_charge_phase()
    policy._prepare_for(s)
    assert best_attack(policy.known, s, ronin)[0] < 0.2
    start = ronin.space
    policy.main_phase(s)
    return ronin, start


def test_the_walk_is_made_on_every_turn_going_first_or_second_against_a_defender_or_not(standard):
    # The Ronin position above on turns 1 to 3, going first or second, the opponent passive or
    # defending (where its Commander's ATK 6 also meets the first attack, and Last Guards
    # self-boost from its hand): the Ronin walks in each time the turn allows an attack (S8).
    t = standard
    Keeps = greedy_with(extra_charge=0)  # the hand kept whole in every play: only the turn and the setting differ
    for going_first in (True, False):
        for defends in (False, True):
            for turn in (1, 2, 3):
                if going_first and turn == 1:
                    continue  # no attack on the first player's turn 1 (S8)
                ronin, start = _ronin_on_turn(t, turn, Keeps(), going_first, defends)
                assert ronin.space != start or not ronin.in_play, (going_first, defends, turn)


def test_no_familiar_is_released(ultimate):
    # Turn 3: Soma Level 3 on (2, 2), in range of the opponent's Stronghold, has attacked (Defense
    # Stance) and holds Radiant Stone of Yellow, Harbee and Raibee. The Stronghold is at 0 HP with
    # no Last Guard: the next hit wins (K5). Releasing Raibee onto (1, 2) (in range; U5) and
    # attacking with it at once (K4: a Released familiar may) would win this turn, but greedy
    # never Releases (`releases` was removed: over the test set it could not be worth 0.002 turns
    # a game, docs/policies.md): the game waits for Soma's attack next turn.
    t = ultimate

    def position() -> GameState:
        s = without_nameless(GameState(t, random.Random(0), True))
        s.hand = []
        a = s.allies[0]
        s.command_zone = None
        s.cz_name = -1
        a.top, a.sources = t.index_of("SY1-003"), [t.index_of("SY1-002"), t.index_of("SY1-001")]
        a.space = space(s, 2, 2)
        s.occupant[a.space] = a
        s.by_name[t.name_id[a.top]] = a
        a.hp = t.cost[a.top]
        a.familiars = [t.index_of(c) for c in ("SY1-037", "SY1-038", "SY1-039")]
        s.fam_hand = []
        s.summoning = [f for f in s.summoning if f not in a.familiars]
        a.defending = s.defended = True
        a.entered = 1
        s.turn, s.phase, s.ap = 3, MAIN_PHASE, 5
        s.opp_stronghold, s.opp_sh_hp = [], 0
        return s

    s = position()
    assert s.can_release(s.allies[0], space(s, 1, 2), False) is None  # (the rules allow it)
    GreedyPolicy(SCRIPT).main_phase(s)
    assert s.won_turn is None and not any(a.released for a in s.allies)
    assert [t.card_id[f] for f in s.allies[0].familiars] == ["SY1-037", "SY1-038", "SY1-039"]
    s.end_turn()
    assert _finish(s) == 4


def _defended_position(t, placed: list[tuple[str, int, int]], hand: list[str], ap: int, opp_hp: int,
                       defends: bool = True) -> GameState:
    """Going second, turn 1's Main Phase against a defending opponent (G4): our Commander and the
    Nameless gone, `placed` (card id, row, column) on the field since an earlier turn, the
    hand `hand`, `ap` AP; the opponent's Stronghold has `opp_hp` HP and no Last Guard left (power 0),
    so an attack meets its Commander's power alone, once, when it joins (K4)."""
    s = without_nameless(GameState(t, random.Random(0), False, opponent_defends=defends))
    cz = s.command_zone
    assert cz is not None
    s.allies.remove(cz)  # (nor our Commander: no other ally to walk into the space freed)
    s.command_zone, s.cz_name, s.hp_total = None, -1, s.hp_total - cz.hp
    s.begin_turn()
    s.end_charge_phase()
    with_hand(s, [cid for cid, _, _ in placed] + hand)
    for _, row, col in placed:
        a = s.deploy(0, space(s, row, col))
        a.entered = 0  # on the field since before this turn: it may attack (K4)
    s.ap = ap
    s.opp_stronghold, s.opp_sh_hp = [], opp_hp
    return s


def test_against_a_defender_an_attacker_steps_off_the_perimeter_to_leave_its_space_to_a_deployment(standard):
    # Kagetora L2 (ATK 9, MAT 4; range c2, b3, c3) stands on c2, the only Perimeter space from which
    # Nene L2 (cost 5; range c2, c3, d3), in hand, reaches the Stronghold; Oichi L1 (range b2, c2,
    # d2, c3) attacks from b2. 6 AP: one step (M4) and Nene. The defending opponent's Commander Soma
    # L1 joins the first attack (G4, K4), steps onto d3 (the first free space of its Perimeter on
    # our side) and stays. Stepping Kagetora to c3 before it attacks leaves c2 to Nene, a third
    # attacker next turn from where it stands. Kept on c2, Kagetora leaves Nene b1 or d1 or d2,
    # from which the nearest way into range is b1, a1, a2, a3, b3, c3: five Moves (1 AP each) next
    # turn. The opponent's Stronghold: 4 HP, no Last Guard left (power 0): 2 hits now, 3 to win.
    t = standard
    placed = [("SY1-006", 1, 2), ("SY1-009", 1, 1)]

    def turn_2(s, p):
        s.end_turn()
        s.record = []
        s.begin_turn()
        p.charge_phase(s)
        s.end_charge_phase()
        p.main_phase(s)
        return [e for e in s.record if e["event"] == "move"]

    s = _defended_position(t, placed, ["SY1-031"], 6, 4)
    kagetora = s.allies[0]
    GreedyPolicy(SCRIPT).main_phase(s)  # (the likelier attacker first: Kagetora meets the Commander, G4)
    nene = next(a for a in s.allies if t.card_id[a.top] == "SY1-031")
    assert kagetora.space == space(s, 2, 2) and kagetora.defending  # stepped to c3, then attacked
    assert s.opp_sh_hp == 2 and s.opp_commander is None  # two hits; the Commander joined (K4)
    assert nene.space == space(s, 1, 2)  # on c2: in range for next turn
    assert turn_2(s, GreedyPolicy(SCRIPT)) == [] and s.won_turn == 2  # three hits, no Move: won (K5)

    StaysPut = greedy_with(step_ahead=False)

    s = _defended_position(t, placed, ["SY1-031"], 6, 4)
    StaysPut().main_phase(s)
    nene = next(a for a in s.allies if t.card_id[a.top] == "SY1-031")
    assert not t.board.reaches_enemy_stronghold(nene.space, t.corners[nene.top]) and s.opp_sh_hp == 2
    moves = turn_2(s, StaysPut())
    assert s.won_turn == 2 and len(moves) == 5 and all(e["card"] == nene.top for e in moves)


def test_against_a_defender_no_ally_steps_onto_the_space_the_joining_commander_takes(standard):
    # Oichi L3 (range b2, c2, d2, c3, d3) on d2: of its neighbours only d3 is off the Perimeter and
    # in range, and d3 is where the opponent's Commander steps when it joins (G4). Standing there
    # would only send the Commander to c3, the space every card reaches: Oichi attacks from d2.
    t = standard
    s = _defended_position(t, [("SY1-011", 1, 3)], ["SY1-031"], 6, 2)
    oichi = s.allies[-1]
    GreedyPolicy(SCRIPT).main_phase(s)
    assert oichi.space == space(s, 1, 3) and oichi.defending
    d3 = s.occupant[space(s, 2, 3)]
    assert d3 is not None and d3 in s.opp_allies and t.card_id[d3.top] == "SY1-001"  # their Commander on d3
    assert s.occupant[space(s, 2, 2)] is None  # c3 left to us
    nene = s.occupant[space(s, 1, 2)]  # Nene deployed on c2, in range
    assert nene is not None and nene in s.allies and t.card_id[nene.top] == "SY1-031"


def test_a_card_is_deployed_where_the_card_growing_onto_it_this_turn_reaches(standard):
    # Going second, turn 1, an empty field (no Commander, no Nameless), 10 AP, a passive opponent.
    # In hand: Kagetora L2 (range c2, b3, c3) with Kagetora L4 (range b2, c2, b3, c3, d3), which
    # grows onto it as soon as it is deployed (M2), and Nene L2 (range c2, c3, d3). Of the
    # Perimeter, Kagetora L4 reaches b2 and c2, Nene only c2: Kagetora on b2 and Nene on c2 both
    # attack next turn from where they stand; Kagetora put on c2 (its Level 2's only space) sends
    # Nene to d2, a Move (d3: M4, 1 AP) from range.
    t = standard
    hand = ["SY1-006", "SY1-008", "SY1-031"]
    s = _defended_position(t, [], hand, 10, 6, defends=False)
    GreedyPolicy(SCRIPT).main_phase(s)
    by_id = {t.card_id[a.top]: a for a in s.allies}
    assert set(by_id) == {"SY1-008", "SY1-031"}  # Kagetora grew to Level 4; Nene deployed
    assert by_id["SY1-008"].space == space(s, 1, 1) and by_id["SY1-031"].space == space(s, 1, 2)
    for a in s.allies:
        assert t.board.reaches_enemy_stronghold(a.space, t.corners[a.top])
    ap = s.ap

    OwnRange = greedy_with(deploy_for_top=False)

    s = _defended_position(t, [], hand, 10, 6, defends=False)
    OwnRange().main_phase(s)
    by_id = {t.card_id[a.top]: a for a in s.allies}
    # Kagetora went to c2 (its Level 2's only space) and, with every space in Nene's range taken,
    # stepped ahead to c3 (still in range, M4) to give c2 to Nene (`step_ahead_for_room`).
    assert by_id["SY1-008"].space == space(s, 2, 2)
    assert by_id["SY1-031"].space == space(s, 1, 2)
    for a in s.allies:
        assert t.board.reaches_enemy_stronghold(a.space, t.corners[a.top])
    assert s.ap == ap - 1  # the same two attackers in range, for a Move more (M4)


def test_a_card_with_no_space_in_range_is_deployed_fewest_moves_from_one(standard):
    # Going second, turn 1, 5 AP: Kagetora L2 stands on c2 (it attacks from there), Nene L2 (cost
    # 5; range c2, c3, d3) in hand. Every free Perimeter space is out of Nene's range; from d2 one
    # Move reaches d3 (M4), from b2 two (b3, then c3), from b1 or d1 more. A passive opponent: Nene
    # goes to d2. Against a defending opponent whose Commander has yet to join, d3 is the space
    # the Commander takes at the first attack (G4): from d2 there is then no way into range, and
    # from b2 two Moves: Nene goes to b2.
    t = standard
    s = _defended_position(t, [("SY1-006", 1, 2)], ["SY1-031"], 5, 6, defends=False)
    GreedyPolicy(SCRIPT).main_phase(s)
    nene = next(a for a in s.allies if t.card_id[a.top] == "SY1-031")
    assert nene.space == space(s, 1, 3)

    FurthestAhead = greedy_with(walk_deploy=False)

    s = _defended_position(t, [("SY1-006", 1, 2)], ["SY1-031"], 5, 6, defends=False)
    FurthestAhead().main_phase(s)
    nene = next(a for a in s.allies if t.card_id[a.top] == "SY1-031")
    assert nene.space == space(s, 1, 1)  # b2: the first of the spaces furthest ahead

    s = _defended_position(t, [("SY1-006", 1, 2)], ["SY1-031"], 5, 6)
    s.ap = 5 + 1  # (Kagetora steps to c3 first against a defender: step_ahead)
    GreedyPolicy(SCRIPT).main_phase(s)
    nene = next(a for a in s.allies if t.card_id[a.top] == "SY1-031")
    assert nene.space == space(s, 1, 2)  # c2, freed: in range


def test_against_a_defender_an_ally_takes_the_last_free_space_the_commander_would_join_from(standard):
    # Going second, turn 1, a defending opponent (G4) whose Commander Soma L1 (ATK 6, MAT 2) waits
    # in its Command Zone: it joins the first attack from a free space of its Stronghold Perimeter
    # (b3, c3, d3 on our board; its Backline ones hold its Nameless). Kagetora L3 (ATK 14, MAT 4)
    # stands on b3, Oichi L2 (ATK 10, MAT 3) on c3, Yukimura L2 (ATK 11, MAT 4; in range from d2
    # and d3) on d2; 1 AP; no card in hand to self-boost with (K2). Every Last Guard left is a
    # Kagetora L2 (ATK 9, MAT 4, no self-boost): each attack beats it alone (K4), none beats it
    # with the Commander (ATK 15, MAT 6), and the attacker (1 HP) then falls (K1: 15 // 14 = 1).
    # Yukimura steps onto d3 first (M4, 1 AP): no free space is left, the Commander cannot join,
    # and three hits win: two take the last 2 Stronghold HP, the third lands on none (K5). Kept on
    # d2, the Commander joins the first attack, which fails: two hits, and the game goes on.
    t = standard

    def position() -> GameState:
        s = _defended_position(t, [], ["SY1-007", "SY1-010", "SY1-014"], 100, 2)
        kagetora = s.deploy(0, space(s, 1, 1))  # (deployed on the Perimeter, M1, then a step ahead)
        oichi = s.deploy(0, space(s, 1, 2))
        s.deploy(0, space(s, 1, 3))
        s.move(kagetora, space(s, 2, 1))
        s.move(oichi, space(s, 2, 2))
        for a in s.allies:
            a.entered = 0  # on the field since before this turn: it may attack (K4)
        s.ap = 1
        ot = s.opp_t
        s.opp_stronghold = [ot.index_of("SY1-006")] * 3
        assert s.opp_commander is not None and ot.card_id[s.opp_commander.top] == "SY1-001"
        assert s.joining_commander() >= 0
        return s

    s = position()
    yukimura = s.allies[-1]
    GreedyPolicy(SCRIPT).main_phase(s)
    assert yukimura.space == space(s, 2, 3) and s.ap == 0
    assert s.opp_commander is not None  # it never joined
    assert s.won_turn == 1

    LetsItJoin = greedy_with(block_commander=0)

    s = position()
    yukimura = s.allies[-1]
    LetsItJoin().main_phase(s)
    assert yukimura.space == space(s, 1, 3)
    assert s.opp_commander is None  # it joined (K4)
    assert s.won_turn is None and s.opp_sh_hp == 0 and len(s.allies) == 2  # the first attacker fell (K1)


def test_in_ultimate_mode_allies_walk_into_an_attack_below_40_percent():
    # Ultimate mode (8 Stronghold HP), going second, turn 1, a passive opponent: the Nameless
    # Ashigaru (ATK 6, 1 HP) and the Commander Soma L1 (ATK 6) can walk into range, though only 29%
    # of the mirror deck's Last Guards have ATK 6 or less, and most of the others defeat them (K4,
    # K1). Both walk into range and attack, as in Standard mode.
    t = deck(SUITE / "ultimate-eggs.toml")
    s = GameState(t, random.Random(0), False)
    with_hand(s, ["SY1-010", "SY1-006", "SY1-030", "SY1-029", "SY1-011"])  # Level 2-3 cards to deploy
    s.begin_turn()
    PlanOnly().charge_phase(s)
    s.end_charge_phase()
    p = GreedyPolicy(SCRIPT)
    p._prepare_for(s)
    waiting = [a for a in s.allies if t.name[a.top] in ("Ashigaru", "Soma")]
    assert len(waiting) == 2
    for a in waiting:
        assert 0.2 <= best_attack(p.known, s, a)[0] < 0.4
    s.record = []
    p.main_phase(s)
    assert sorted(t.name[e["card"]] for e in s.record if e["event"] == "attack") == ["Ashigaru", "Soma"]


def test_an_attacker_steps_ahead_to_open_the_short_way_into_range_for_the_ally_behind_it(standard):
    # Going second, turn 1, a passive opponent, 2 AP. Yukimura L2 (range c2, d2, c3, d3) stands on
    # d2, in range; Oichi L2 (range b2, c2, d2, c3) on d1 behind it, out of range: its only way
    # round is e1, e2, e3, d3, c3 (five Moves, M4; the Stronghold stands on c1). Yukimura steps to
    # d3 first (1 AP, still in range), and Oichi takes d2 (1 AP): two attacks. The opponent's
    # Stronghold: 1 HP and no Last Guard left (power 0): the first hit takes it, the second wins
    # (K5). Without the step, Oichi cannot pay its walk: one hit, and the game goes on.
    t = standard

    def position() -> GameState:
        return _defended_position(t, [("SY1-014", 1, 3), ("SY1-010", 0, 3)], [], 2, 1, defends=False)

    s = position()
    yukimura, oichi = s.allies
    GreedyPolicy(SCRIPT).main_phase(s)
    assert yukimura.space == space(s, 2, 3) and oichi.space == space(s, 1, 3)
    assert s.won_turn == 1

    WalksRound = greedy_with(step_ahead_for_walk=False)

    s = position()
    yukimura, oichi = s.allies
    WalksRound().main_phase(s)
    assert yukimura.space == space(s, 1, 3) and oichi.space == space(s, 0, 3)
    assert s.won_turn is None and s.opp_sh_hp == 0


def test_two_attackers_step_ahead_to_open_the_way_no_single_step_opens(standard):
    # Going second, turn 1, a passive opponent, 4 AP. Oichi L4 (range b2, c2, d2, b3, c3, d3) stands
    # on b2 and Kagetora L2 (range c2, b3, c3) on c2, both in range; Yukimura L1 (range c2, d2, c3)
    # on b1 behind them, out of range: its only way round is a1, a2, a3, b3, c3 (five Moves, M4;
    # the Stronghold stands on c1), more than the AP. No single step opens it: Oichi to b3 or
    # Kagetora to c3 alone leaves it walled in. Both stepping (2 AP, each still in range) open
    # b2, c2: Yukimura walks there (2 AP) and three allies attack. The opponent's Stronghold: 5 HP
    # and no Last Guard left (power 0), so every attack takes 1 HP (K4). Without the pair of steps,
    # two attack.
    t = standard

    def position() -> GameState:
        placed = [("SY1-012", 1, 1), ("SY1-006", 1, 2), ("SY1-013", 0, 1)]
        return _defended_position(t, placed, [], 4, 5, defends=False)

    s = position()
    oichi, kagetora, yukimura = s.allies
    p = GreedyPolicy(SCRIPT)
    p._prepare_for(s)
    p.main_phase(s)
    assert (oichi.space, kagetora.space, yukimura.space) == (space(s, 2, 1), space(s, 2, 2), space(s, 1, 2))
    assert s.opp_sh_hp == 2 and s.ap == 0

    WalledIn = greedy_with(pair_steps_for_walk=False)

    s = position()
    oichi, kagetora, yukimura = s.allies
    WalledIn().main_phase(s)
    assert (oichi.space, kagetora.space, yukimura.space) == (space(s, 1, 1), space(s, 1, 2), space(s, 0, 1))
    assert s.opp_sh_hp == 3
