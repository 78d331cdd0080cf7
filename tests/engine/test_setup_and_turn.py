"""Setup (S1-S7) and the turn's phases (T1-T3, T6), on hand-worked positions."""

from __future__ import annotations

import random

import pytest

from sengoku.engine import COMMAND_ZONE, EngineError, GameState, IllegalAction, choose_commander, compile_deck
from sengoku.engine.state import BETWEEN, CHARGE, MAIN_PHASE

from .conftest import BASIC, BASIC_DECK, char, fam, idx, make_db, position, space


# ---- S1: the Commander ----------------------------------------------------------------------

def test_s1_commander_has_most_higher_level_copies(basic):
    # Soma has 3+3+2 = 8 higher-level copies, Oichi 3+2 = 5, Benkei 3.
    assert basic.card_id[choose_commander(basic)] == "S1"


def test_s1_tie_goes_to_lowest_card_id(board):
    cards = [char("Z1", "Zed", 1, 3, 3), char("Z2", "Zed", 2, 4, 2),
             char("A1", "Ann", 1, 3, 3), char("A2", "Ann", 2, 4, 2)]
    t = compile_deck(make_db(cards), {"main": {"Z1": 3, "Z2": 2, "A1": 3, "A2": 2}}, board=board)
    assert t.card_id[choose_commander(t)] == "A1"


def test_s1_commander_pinned_by_name_or_id(basic):
    assert basic.card_id[choose_commander(basic, "Oichi")] == "O1"
    assert basic.card_id[choose_commander(basic, "B1")] == "B1"


@pytest.mark.parametrize("name", ["Nobody", "Ronin"])  # unknown; a Nameless is no Main card
def test_s1_pinned_commander_must_be_a_level1_main_in_the_deck(basic, name):
    with pytest.raises(EngineError, match="Level 1 Main"):
        choose_commander(basic, name)


# ---- S1-S7: setup counts ---------------------------------------------------------------------

@pytest.mark.parametrize("going_first, ap", [(True, 0), (False, 5)])
def test_setup_zones_and_starting_ap(basic, going_first, ap):
    s = GameState(basic, random.Random(3), going_first=going_first)
    deck = len(basic.deck_indices)  # 25 main cards
    assert deck == 25
    assert len(s.hand) == 5  # S6
    assert len(s.stronghold) == deck - 1 - 5  # S1 + S6
    assert s.ap == ap  # S7
    assert s.sh_hp == 6  # S5 Standard
    cz = s.command_zone
    assert cz.space == COMMAND_ZONE and basic.card_id[cz.top] == "S1" and cz.hp == 1  # S1
    # S2: the two Nameless stand on the first two Perimeter spaces of the board file.
    per = basic.board.perimeter
    assert {basic.card_id[s.occupant[p].top] for p in per[:2]} == {"N1", "N2"}
    assert all(s.occupant[p] is None for p in per[2:])
    assert len(s.allies) == 3
    assert s.opening_hand == tuple(s.hand)
    # Every copy is somewhere: 25 main = Commander + hand + Stronghold.
    assert sorted([cz.top, *s.hand, *s.stronghold]) == sorted(basic.deck_indices)


def test_s6_opening_hand_never_holds_the_commander_copy(basic):
    # Three copies of S1 in the deck; one is the Commander, so at most 2 can be in hand.
    s1 = idx(basic, "S1")
    for seed in range(300):
        s = GameState(basic, random.Random(seed))
        assert s.hand.count(s1) + s.stronghold.count(s1) == 2


def test_s4_s5_ultimate_setup(board):
    cards = BASIC + [fam("E1", "Egg", 1, 2, 1, egg=True), fam("E0", "Pebble", 1, 2, 1, egg=True),
                     fam("F2", "Bee", 2, 4, 1, evolves_from="Egg")]
    deck = {**BASIC_DECK, "familiars": {"E1": 1, "E0": 1, "F2": 1}}
    t = compile_deck(make_db(cards), deck, "ultimate", board=board)
    s = GameState(t, random.Random(0))
    assert [t.card_id[f] for f in s.fam_hand] == ["E0"]  # the lowest-id Egg goes to hand (S4)
    assert sorted(t.card_id[f] for f in s.summoning) == ["E1", "F2"]
    assert s.sh_hp == 8  # S5 Ultimate


def test_d7_standard_mode_ignores_familiars(board):
    cards = BASIC + [fam("E1", "Egg", 1, 2, 1, egg=True)]
    t = compile_deck(make_db(cards), {**BASIC_DECK, "familiars": {"E1": 1}}, "standard", board=board)
    assert "E1" not in t.card_id


def test_ultimate_deck_without_egg_is_refused(board):
    cards = BASIC + [fam("F1", "Bee", 1, 2, 1)]
    with pytest.raises(EngineError, match="Egg"):
        compile_deck(make_db(cards), {**BASIC_DECK, "familiars": {"F1": 1}}, "ultimate", board=board)


def test_unknown_card_is_refused_with_its_id(basic, board):
    with pytest.raises(EngineError, match="'XX'"):
        compile_deck(make_db(BASIC), {"main": {"XX": 1, "S1": 3}}, board=board)


# ---- T1, T2a: Active Phase and AP Charge ---------------------------------------------------

def test_t1_allies_return_to_attack_stance_and_t2a_gives_10(basic):
    s = position(basic, ap=3, phase=BETWEEN)
    s.command_zone.defending = s.defended = True
    s.begin_turn()
    assert s.phase == CHARGE
    assert s.command_zone.defending is False
    assert s.ap == 13


def test_t2a_sending_cards_gains_their_charge_values(basic):
    s = position(basic, hand=["S2", "O1", "B2"], ap=10, phase=CHARGE)
    s.charge_card(0)  # Soma L2: charge 2
    s.charge_card(1)  # B2 (now position 1): charge 3
    assert s.ap == 15
    assert [basic.card_id[c] for c in s.standby] == ["S2", "B2"]
    assert [basic.card_id[c] for c in s.hand] == ["O1"]
    assert s.m_charge_cards == 5


def test_t2a_hand_limit_forces_sending_down_to_5(basic):
    s = position(basic, hand=["S2", "S2", "O1", "O2", "B1", "B2", "S3"], ap=10, phase=CHARGE)
    with pytest.raises(IllegalAction, match="until 5 remain"):
        s.end_charge_phase()
    s.charge_card(0)
    with pytest.raises(IllegalAction):
        s.end_charge_phase()
    s.charge_card(0)
    s.end_charge_phase()
    assert s.phase == MAIN_PHASE and len(s.hand) == 5


def test_t2a_positions_must_be_distinct_hand_cards(basic):
    s = position(basic, hand=["S2", "O1"], ap=10, phase=CHARGE)
    for bad in ([0, 0], [2], [-1], ["a"], [0.5], [0, 0.5], [True], [1, 0, 1]):
        with pytest.raises(IllegalAction, match="bad hand card numbers"):
            s.charge_cards(bad)
    assert len(s.hand) == 2 and s.ap == 10
    s.charge_cards([1, 0])
    assert s.hand == [] and s.ap == 15


def test_t2a_a_range_of_positions_is_checked_like_any_other(basic):
    # range(len(hand)) is the whole hand; any other range is a set of positions like a list.
    s = position(basic, hand=["S2", "O1", "B1"], ap=10, phase=CHARGE)
    for bad in (range(1, 4), range(-1, 2), range(0, 4)):
        with pytest.raises(IllegalAction, match="bad hand card numbers"):
            s.charge_cards(bad)
    s.charge_cards(range(1, 2))  # O1: charge value 3
    assert [s.t.card_id[c] for c in s.hand] == ["S2", "B1"] and s.ap == 13
    s.charge_cards(range(2))  # S2 and B1: 2 + 2
    assert s.hand == [] and s.ap == 17 and s.m_charge_cards == 7
    assert sorted(s.t.card_id[c] for c in s.standby) == ["B1", "O1", "S2"]


def test_charge_card_only_in_charge_phase(basic):
    s = position(basic, hand=["S2"], ap=10, phase=MAIN_PHASE)
    with pytest.raises(IllegalAction, match="Charge Phase"):
        s.charge_card(0)
    assert len(s.hand) == 1 and s.ap == 10  # untouched


# ---- T2b: HP Charge ---------------------------------------------------------------------------

def test_t2b_costs_5_for_cheap_allies_and_gives_one_hp(basic):
    s = position(basic, ap=12, phase=CHARGE)
    cz = s.allies.index(s.command_zone)  # Soma L1: deployment cost 3 -> HP Charge costs 5
    s.hp_charge(cz)
    assert s.ap == 7 and s.command_zone.hp == 2
    with pytest.raises(IllegalAction, match="once per turn"):
        s.hp_charge(cz)


def test_t2b_costs_the_deployment_cost_above_5(basic):
    s = position(basic, ap=7, phase=CHARGE)
    s.command_zone.top = idx(basic, "S3")  # deployment cost 7
    cz = s.allies.index(s.command_zone)
    s.hp_charge(cz)
    assert s.ap == 0 and s.command_zone.hp == 2


def test_t2b_refused_at_max_hp_or_short_of_ap(basic):
    s = position(basic, ap=4, phase=CHARGE)
    cz = s.allies.index(s.command_zone)
    with pytest.raises(IllegalAction, match="costs 5 AP"):
        s.hp_charge(cz)
    s.ap = 50
    s.command_zone.hp = 3  # Soma L1 max HP 3
    with pytest.raises(IllegalAction, match="max HP"):
        s.hp_charge(cz)
    assert s.ap == 50


# ---- T3: Draw Phase -----------------------------------------------------------------------

def test_t3_draws_up_to_5(basic):
    s = position(basic, hand=["S2", "O1"], stronghold=["B1", "B2", "O2", "O3"], phase=CHARGE)
    s.end_charge_phase()
    assert len(s.hand) == 5 and len(s.stronghold) == 1


def test_t3_reshuffles_the_standby_zone_when_the_stronghold_runs_out(basic):
    s = position(basic, hand=["S2"], stronghold=["B1"], standby=["O1", "O2", "O3", "B2", "S3"], phase=CHARGE)
    s.end_charge_phase()
    assert len(s.hand) == 5
    assert s.standby == []  # the Standby Zone became the Stronghold
    assert len(s.stronghold) == 2
    assert sorted(basic.card_id[c] for c in s.hand + s.stronghold) == ["B1", "B2", "O1", "O2", "O3", "S2", "S3"]


def test_t3_stops_when_stronghold_and_standby_are_empty(basic):
    s = position(basic, hand=["S2"], stronghold=["B1"], standby=["O1"], phase=CHARGE)
    s.end_charge_phase()
    assert len(s.hand) == 3 and s.stronghold == [] and s.standby == []


def test_t6_ap_carries_over_between_turns(basic):
    s = position(basic, ap=7)
    s.end_turn()
    s.begin_turn()
    assert s.ap == 17


def test_t3_draws_come_from_the_top_of_the_stronghold(basic):
    # The Stronghold is kept in its shuffled order, its top last (G7): a draw takes the top.
    s = position(basic, hand=["S2", "S2", "S2"], stronghold=["B1", "B2", "O2", "O3"], phase=CHARGE)
    s.end_charge_phase()
    assert [basic.card_id[c] for c in s.hand[3:]] == ["O3", "O2"]
    assert [basic.card_id[c] for c in s.stronghold] == ["B1", "B2"]


def test_t3_the_reshuffled_standby_zone_is_uniform(basic):
    # T3: the Standby Zone shuffled into the Stronghold: each of 4 distinct cards is drawn first
    # about 1/4 of the time (and comes out whole).
    counts = {c: 0 for c in ("B1", "B2", "O2", "O3")}
    n = 4000
    for seed in range(n):
        s = position(basic, hand=["S2", "S2", "S2", "S2"], stronghold=[], standby=list(counts),
                     phase=CHARGE, seed=seed)
        s.end_charge_phase()
        counts[basic.card_id[s.hand[-1]]] += 1
        assert sorted(basic.card_id[c] for c in s.hand[4:] + s.stronghold) == sorted(counts)
    se = (n * 0.25 * 0.75) ** 0.5
    assert all(abs(v - n / 4) < 4 * se for v in counts.values()), counts


def test_s3_every_card_is_equally_likely_at_every_place_of_the_stronghold(basic):
    # S3: over many seeds, each card copy lands at each place about equally often (chi-square
    # over copies x places, 1% level), and the 5-card hand is the top five.
    from sengoku.engine.chance import Chance

    chance = Chance(random.Random(5))
    s = GameState(basic, chance)
    copies = len(s.stronghold) + len(s.hand)
    cells: dict[tuple[int, int], int] = {}
    n = 3000
    for _ in range(n):
        s.setup()
        order = s.hand + s.stronghold[::-1]  # drawn first to drawn last
        seen: dict[int, int] = {}
        for place, c in enumerate(order):
            k = seen.get(c, 0)
            seen[c] = k + 1
            cells[(c, place)] = cells.get((c, place), 0) + 1
        assert len(order) == copies
    # copies of one card are alike: a card with m copies is expected m * n / copies times at a place
    count = {c: s.hand.count(c) + s.stronghold.count(c) for c in set(s.hand + s.stronghold)}
    chi2 = sum((cells.get((c, p), 0) - m * n / copies) ** 2 / (m * n / copies)
               for c, m in count.items() for p in range(copies))
    dof = (len(count) - 1) * (copies - 1)
    assert chi2 < dof + 2.33 * (2 * dof) ** 0.5, (chi2, dof)  # the normal approximation of the 99th percentile


def test_spaces_come_from_the_board_file(basic):
    s = position(basic)
    assert basic.board.perimeter == tuple(space(s, r, c) for r, c in ((0, 1), (0, 3), (1, 1), (1, 2), (1, 3)))
