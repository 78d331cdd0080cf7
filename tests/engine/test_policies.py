"""The policies (G2, G6): hand-worked positions for the default policy's choices, baselines, determinism.

The test deck has a warrior line (Kenshin: high ATK, low MAT) and a mage line (Abe: low ATK, high
MAT), so the right attack kind and the worth of a self-boost can be worked out by hand from the
Last Guard's distribution (a random card of the mirror opponent's Stronghold, K4).
"""

from __future__ import annotations

import itertools
import math
import random

import pytest

import sengoku
from sengoku.engine import GameRunner, GameState, compile_deck, make_policy, play_game
from sengoku.engine.board import COMMAND_ZONE
from sengoku.engine.clone import clone_state
from sengoku.engine.constants import STRONGHOLD_HP
from sengoku.engine.policies import POLICIES, GreedyPolicy
from sengoku.goldfish.options import DEFAULT_POLICY
from sengoku.engine.policies.greedy.odds import best_attack, chance, defended_hit_chances, hit_chances, plan
from sengoku.engine.tables import NAMELESS
from sengoku.engine.zones import STATE_FIELDS

from .conftest import bundled_sections, char, idx, make_db, position, space

DUEL = [
    char("A1", "Abe", 1, 2, 2, atk=1, mat=6, gender="female", weapon="bow"),
    char("A2", "Abe", 2, 4, 2, atk=2, mat=9, gender="female", weapon="bow"),
    char("A3", "Abe", 3, 6, 2, atk=2, mat=11, gender="female", weapon="bow", boost=((1,), (3,))),
    char("K1", "Kenshin", 1, 2, 2, atk=6, mat=1),
    char("K2", "Kenshin", 2, 4, 2, atk=9, mat=2),
    char("K3", "Kenshin", 3, 6, 2, atk=8, mat=2, boost=((4,), (1,))),
    char("N1", "Ronin", 1, 2, 1, kind="nameless"),
    char("N2", "Miko", 1, 2, 1, kind="nameless", gender="female", weapon="bow"),
]
# The Commander (S1: most higher-level copies, ties to the lowest id) is A1; the mirror
# opponent's Stronghold is then A1 x2, A2 x3, A3 x3, K1 x3, K2 x3, K3 x3 (17 cards):
#   ATK 1 x2, 2 x6, 6 x3, 8 x3, 9 x3;  MAT 1 x3, 2 x6, 6 x2, 9 x3, 11 x3.
DUEL_DECK = {"main": {"A1": 3, "A2": 3, "A3": 3, "K1": 3, "K2": 3, "K3": 3}, "nameless": {"N1": 1, "N2": 1}}


@pytest.fixture(scope="module")
def standard():
    db = sengoku.load_card_db()
    sections, mode = bundled_sections(db, "default.toml")
    return compile_deck(db, sections, mode)


@pytest.fixture(scope="module")
def duel(board):
    return compile_deck(make_db(DUEL), DUEL_DECK, "standard", board=board)


def alone(s: GameState) -> GameState:
    """Take the two Nameless out of the position: the Commander is the only ally."""
    for a in list(s.nameless):
        s.allies.remove(a)
        s.occupant[a.space] = None
    s.nameless.clear()
    s.hp_total = sum(a.hp for a in s.allies)
    return s


def ally_on(s: GameState, card: str, row: int, col: int, *, entered: int = 1, sources=()):
    """Put the Commander's ally record on (row, col) topped by `card`, alone (a hand-worked position)."""
    t = s.t
    alone(s)
    a = s.command_zone
    s.command_zone = None
    s.by_name[t.name_id[a.top]] = None
    a.top = idx(t, card)
    s.by_name[t.name_id[a.top]] = a
    a.space = space(s, row, col)
    a.entered = entered
    a.hp = t.cost[a.top]
    a.sources = [idx(t, c) for c in sources]
    s.occupant[a.space] = a
    return a


def guard(s: GameState, card: str) -> None:
    """The opponent's Stronghold holds this one card: it will be the Last Guard (K4)."""
    s.opp_stronghold = [idx(s.t, card)]


def test_hit_chances_count_guards_not_higher():
    table = hit_chances([3, 5, 5, 9])
    assert [chance(table, p) for p in (2, 3, 4, 5, 8, 9, 40)] == [0, 0.25, 0.25, 0.75, 0.75, 1.0, 1.0]
    assert chance(hit_chances([]), 0) == 1.0  # an empty Stronghold: no Last Guard (power 0)


def test_the_attack_kind_follows_the_last_guards_distribution(duel):
    p = GreedyPolicy()
    s = position(duel, turn=2)
    p.main_phase(position(duel, turn=1))  # prepares the policy for this deck (turn 1: S8, no attack)
    a = ally_on(s, "A2", 1, 2)  # ATK 2: 8/17 guards not higher; MAT 9: 14/17
    assert best_attack(p.known, s, a) == (pytest.approx(14 / 17), True, 0)
    a.top = idx(duel, "K3")  # ATK 8: 14/17; MAT 2: 9/17 (its +4 boost has no card to pay it)
    assert best_attack(p.known, s, a) == (pytest.approx(14 / 17), False, 0)


@pytest.mark.parametrize("card, last_guard", [("A2", "K3"), ("K2", "A3")])
def test_greedy_attacks_with_the_kind_that_beats_the_last_guard(duel, card, last_guard):
    # Abe L2 (MAT 9) against Kenshin L3 (ATK 8, MAT 2): only magic wins; Kenshin L2 (ATK 9)
    # against Abe L3 (ATK 2, MAT 11): only a physical attack wins.
    s = position(duel, turn=2)
    a = ally_on(s, card, 1, 2)
    guard(s, last_guard)
    make_policy("greedy").main_phase(s)
    assert s.opp_sh_hp == STRONGHOLD_HP[False] - 1
    assert a.in_play and a.hp == duel.cost[a.top] and a.defending  # no damage: a win, not a tie


def test_greedy_self_boosts_when_it_turns_a_loss_into_a_win(duel):
    # Kenshin L3: ATK 8 hits 14/17 guards, 17/17 after its +4 self-boost (K2), paid with the
    # growth source. Against Kenshin L2 (ATK 9, MAT 2) only the boosted physical attack wins.
    s = position(duel, turn=2)
    a = ally_on(s, "K3", 1, 2, sources=["K1"])
    guard(s, "K2")
    make_policy("greedy").main_phase(s)
    assert s.opp_sh_hp == STRONGHOLD_HP[False] - 1 and a.hp == duel.cost[a.top]
    assert a.sources == [] and idx(duel, "K1") in s.standby


def test_greedy_keeps_its_boost_cards_when_boosting_cannot_help(duel):
    p = GreedyPolicy()
    p.known.hit_atk = hit_chances([5] * 10)  # an opponent whose every card has ATK 5, MAT 9
    p.known.hit_mat = hit_chances([9] * 10)
    k3 = idx(duel, "K3")
    assert plan(p.known, duel, k3, -1, False, 1) == (1.0, False, 0)  # ATK 8 beats every guard: no card spent
    p.known.hit_atk = hit_chances([9] * 10)
    assert plan(p.known, duel, k3, -1, False, 1) == (1.0, False, 1)  # 8 + 4 beats ATK 9: one card spent
    assert plan(p.known, duel, k3, -1, False, 0) == (0.0, False, 0)  # nothing to pay it with (K2)


def test_greedy_moves_the_commander_out_to_attack(duel):
    # The Commander Abe L1 (MAT 6: 11/17) sits in the Command Zone, where it cannot attack; it
    # entered at setup, so once on a space in range it may attack this turn (K4).
    s = alone(position(duel, turn=2, ap=1))
    cmd = s.command_zone
    guard(s, "K1")  # MAT 1
    make_policy("greedy").main_phase(s)
    assert s.command_zone is None and cmd.space != COMMAND_ZONE and cmd.defending
    assert s.t.board.reaches_enemy_stronghold(cmd.space, s.t.corners[cmd.top])
    assert s.opp_sh_hp == STRONGHOLD_HP[False] - 1 and s.ap == 0


@pytest.mark.parametrize("going_first, attacks", [(True, 0), (False, 1)])
def test_greedy_does_not_attack_on_the_first_players_first_turn(duel, going_first, attacks):
    s = position(duel, turn=1, going_first=going_first)
    ally_on(s, "K2", 1, 2, entered=0)
    guard(s, "A1")
    make_policy("greedy").main_phase(s)
    assert STRONGHOLD_HP[False] - s.opp_sh_hp == attacks  # S8


def test_greedy_does_not_attack_with_an_ally_deployed_this_turn(duel):
    s = position(duel, turn=2)
    ally_on(s, "K2", 1, 2, entered=2)
    guard(s, "A1")
    make_policy("greedy").main_phase(s)
    assert s.opp_sh_hp == STRONGHOLD_HP[False]  # K4


def test_greedy_advances_new_allies_into_range_for_next_turn(duel):
    s = position(duel, turn=2, ap=10)
    a = ally_on(s, "K1", 1, 0, entered=2)  # a Frontline corner: out of range without corner gems
    assert not s.t.board.reaches_enemy_stronghold(a.space, s.t.corners[a.top])
    make_policy("greedy").main_phase(s)
    assert s.t.board.reaches_enemy_stronghold(a.space, s.t.corners[a.top])


def test_clone_copies_every_field_and_stays_apart(duel):
    s = position(duel, turn=2, ap=7, hand=["K2", "A2"])
    ally_on(s, "K3", 1, 2, sources=["K1"])
    # Fields a fresh state would hold anyway get other values, so a field the copy forgets shows.
    s.sh_bottom = [duel.index_of("K1")]
    s.fam_used = [5] * len(s.fam_used) if s.fam_used else [5]
    s.banish = [duel.index_of("A2")]
    s.hand_used = {(duel.index_of("K2"), 1): 1}
    s.skipped, s.m_spent, s.m_lost = 3, 4, 1
    c = clone_state(s, random.Random(1))
    hidden = ("stronghold", "opp_stronghold")  # shuffled anew in the copy (its order is unknown to a player)
    for f in STATE_FIELDS:
        if f in hidden:
            assert sorted(getattr(c, f) or []) == sorted(getattr(s, f) or []), f
        elif f != "chance":
            assert getattr(c, f) == getattr(s, f), f
    assert c.chance is not s.chance
    assert all(x is not y for x, y in zip(c.allies, s.allies))
    assert c.occupant[space(s, 1, 2)] is c.allies[0] and c.by_name[duel.name_id[c.allies[0].top]] is c.allies[0]
    before = [getattr(s, f) for f in STATE_FIELDS if f != "chance"]
    before_allies = [(a.top, a.hp, a.space, a.defending, list(a.sources)) for a in s.allies]
    guard(c, "A1")
    make_policy("greedy").main_phase(c)
    c.end_turn()
    assert c.opp_sh_hp == STRONGHOLD_HP[False] - 1
    assert [getattr(s, f) for f in STATE_FIELDS if f != "chance"] == before
    assert [(a.top, a.hp, a.space, a.defending, list(a.sources)) for a in s.allies] == before_allies


def test_idle_and_develop_never_win(standard):
    for name in ("idle", "develop"):
        runner = GameRunner(standard, name, rng := random.Random(), 12, True)
        for seed in range(60):
            rng.seed(seed)
            assert runner.play().won_turn is None, (name, seed)


def test_greedy_wins_no_sooner_than_the_rules_allow(standard):
    # G5: 7 hits in Standard; each ally attacks once a turn from a space in range, and an ally
    # in Defense Stance after its attack holds that space, so a turn has at most as many hits
    # as spaces from which any ally could reach the Stronghold. Going first, turn 1 has none (S8).
    board = standard.board
    spaces = sum(1 for sp in range(board.n_spaces) if board.reaches_enemy_stronghold(sp, 0b1111))
    needed = STRONGHOLD_HP[False] + 1
    earliest = 1 + math.ceil(needed / spaces)
    runner = GameRunner(standard, "greedy", rng := random.Random(), 12, True)
    turns = []
    for seed in range(200):
        rng.seed(seed)
        turns.append(runner.play().won_turn)
    assert None not in turns and min(turns) >= earliest
    assert sum(turns) / len(turns) <= 3.6  # the bundled deck's measured mean is about 3.3


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_every_policy_is_reproducible_from_the_seed(standard, name):
    games, turns = (2, 3) if name == "search" else (20, 8)
    runs = [[play_game(standard, name, random.Random(seed), turns, seed % 2 == 0) for seed in range(games)]
            for _ in range(2)]
    assert runs[0] == runs[1]
    assert len({repr(g.turns) for g in runs[0]}) > 1  # the seed does change the game


def test_the_default_policy_is_greedy():
    assert DEFAULT_POLICY == "greedy" and type(make_policy(DEFAULT_POLICY)) is GreedyPolicy


def test_search_is_at_least_as_fast_to_win_as_greedy_on_the_same_deals(standard):
    rng = random.Random()
    greedy = GameRunner(standard, "greedy", rng, 6, True)
    search = GameRunner(standard, make_policy("search"), rng2 := random.Random(), 6, True)
    g = s = 0
    for seed in range(3):
        rng.seed(seed)
        rng2.seed(seed)
        g += greedy.play().won_turn or 7
        s += search.play().won_turn or 7
    assert s <= g + 1  # (three games: at most one turn worse in total)


def test_greedy_counts_the_commander_a_defending_opponent_brings_to_the_next_last_guard(duel):
    # G4: a defending opponent's Commander (the mirror's A1: ATK 1, MAT 6) joins the first Last
    # Guard combat; a player sees it waiting in the Command Zone and counts it in.
    p = GreedyPolicy()
    s = position(duel, turn=2)
    p.main_phase(position(duel, turn=1))  # prepares the policy for this deck (turn 1: S8, no attack)
    a = ally_on(s, "K3", 1, 2)  # ATK 8: 14/17 guards not higher; MAT 2: 9/17
    assert s.joining_commander() == -1  # a passive opponent brings nobody
    assert best_attack(p.known, s, a) == (pytest.approx(14 / 17), False, 0)
    s.opp_defends = True
    assert s.joining_commander() == s.opp_commander.top == idx(duel, "A1")
    assert best_attack(p.known, s, a) == (pytest.approx(11 / 17), False, 0)  # ATK 8 - 1: 11 guards at most 7
    a.top = idx(duel, "A2")  # MAT 9 - 6: 9 guards at most 3, against ATK 2 - 1: 2 guards at most 1
    assert best_attack(p.known, s, a) == (pytest.approx(9 / 17), True, 0)
    guard(s, "N1")  # the Commander joins this combat; afterwards it stands on the opponent's Perimeter
    s.attack(a, True, 0)
    assert s.opp_commander is None and s.joining_commander() == -1


def test_a_defending_opponents_last_guards_count_the_boosts_its_hand_can_pay(duel):
    # Oracle: every guard of the mirror's 17-card Stronghold, against every 5-card hand of the 16
    # others (S6), boosting as K2 and G4 say: one namesake card per boost (Nameless never pay),
    # while the attack would still win. Abe L3 boosts +1 ATK / +3 MAT, Kenshin L3 +4 / +1.
    cards = duel.stronghold_after(idx(duel, "A1"))
    for magic in (False, True):
        table = defended_hit_chances(duel, cards, magic)
        passive = hit_chances([(duel.mat if magic else duel.atk)[c] for c in cards])
        for power in (2, 3, 6, 8, 9, 11, 12, 14):
            wins = hands = 0
            for g in range(len(cards)):
                guard_card = cards[g]
                defense = (duel.mat if magic else duel.atk)[guard_card]
                values = (duel.boost_mat if magic else duel.boost_atk)[guard_card]
                others = cards[:g] + cards[g + 1:]
                for hand in itertools.combinations(others, 5):
                    namesakes = sum(1 for c in hand if duel.name_id[c] == duel.name_id[guard_card]
                                    and duel.kind[c] != NAMELESS)
                    final = defense
                    for value in values[:namesakes]:
                        if final > power:
                            break
                        final += value
                    wins += power >= final
                    hands += 1
            assert chance(table, power) == pytest.approx(wins / hands), (magic, power)
            assert chance(table, power) <= chance(passive, power) + 1e-12  # boosts only ever help the guard
    assert chance(defended_hit_chances(duel, cards, False), 11) < 1.0 == chance(hit_chances(
        [duel.atk[c] for c in cards]), 11)  # a Kenshin L3 with a namesake in hand defends at 12


def test_greedy_plays_nothing_more_in_the_turn_it_wins(duel):
    # K5: the attack that lands on a Stronghold at 0 HP ends the game; the Kenshin in hand (cost 2,
    # AP 10) is not deployed afterwards, and the AP stays unspent.
    s = position(duel, turn=2, hand=["K1"], ap=10)
    ally_on(s, "A2", 1, 2)  # MAT 9 beats Kenshin L3's MAT 2
    guard(s, "K3")
    s.opp_sh_hp = 0
    make_policy("greedy").main_phase(s)
    assert s.won_turn == 2
    assert [duel.card_id[c] for c in s.hand] == ["K1"] and s.ap == 10
