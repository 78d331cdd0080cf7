"""Common random numbers (G7): a card copy's place, one stream per purpose, the seeds of run i."""

from __future__ import annotations

import random

import pytest

import sengoku
from sengoku.engine import GameState, Policy, compile_deck
from sengoku.engine.chance import (
    M32,
    Chance,
    Lanes,
    Unordered,
    _keyed_order_lanes,
    _keyed_order_native,
    copy_code,
    copy_codes,
    keyed_order,
    keyed_part,
    mix32,
    run_seeds,
    seed_run,
    unordered_cards,
)
from sengoku.engine.clone import clone_state
from sengoku.paths import data_dir

from .conftest import position


def sections_of(path):
    return sengoku.validate_deck(sengoku.load_decklist(path)).sections


@pytest.fixture(scope="module")
def db():
    return sengoku.load_card_db()


def swapped(sections, out_id: str, in_id: str) -> dict:
    """The same deck with one copy of `out_id` replaced by one of `in_id` (a one-card change)."""
    main = dict(sections["main"])
    main[out_id] -= 1
    if not main[out_id]:
        del main[out_id]
    main[in_id] = main.get(in_id, 0) + 1
    return {**sections, "main": main}


@pytest.fixture(scope="module")
def one_card(db):
    """The bundled default deck (A) and A with one Yukimura Level 4 out, one Hanzo Level 1 (a new name) in (B)."""
    base = sections_of(data_dir("decklists") / "default.toml")
    a = compile_deck(db, base)
    b = compile_deck(db, swapped(base, "SY1-016", "SY1-017"))
    return a, b


def test_mix32_is_a_bijection_that_spreads_neighbours():
    values = [mix32(x) for x in range(1 << 16)]
    assert len(set(values)) == 1 << 16 and all(0 <= v <= M32 for v in values)
    assert mix32(0) == 0
    # neighbouring inputs differ in about half of the 32 output bits (avalanche)
    flips = sum(bin(mix32(x) ^ mix32(x + 1)).count("1") for x in range(1000)) / 1000
    assert 14 < flips < 18


def test_keyed_order_sorts_by_the_top_bits_of_mix32_both_ways():
    # Each copy's key is the top bits of mix32(code ^ seed), its position breaking ties: the
    # native loop (what the compiled engine runs) and the lanes of one big integer (what the
    # interpreted one runs) give the order that sorting the keys one by one gives.
    rng = random.Random(2)
    for n in (0, 1, 2, 49, 59, 64, 65, 300, 20000):
        codes = [rng.getrandbits(32) for _ in range(n)]
        cards = [rng.randrange(100) for _ in range(n)]
        lanes = Lanes(codes)
        assert lanes.index_bits + lanes.key_bits == max(30, lanes.index_bits + 16) and (1 << lanes.index_bits) >= n
        for seed in (0, 1, M32, rng.getrandbits(32)):
            keys = [(mix32(c ^ seed) >> (32 - lanes.key_bits), j) for j, c in enumerate(codes)]
            expected = [cards[j] for _, j in sorted(keys)]
            assert _keyed_order_native(cards, lanes, seed) == expected
            assert _keyed_order_lanes(cards, lanes, seed) == expected
            assert keyed_order(cards, lanes, seed) == expected


def test_keyed_order_by_card_gives_the_order_by_position():
    # A Stronghold's lanes made with its sorted cards key each copy by its card (the compiled
    # engine's shortcut): copies tied on the top bits come in card order, their order in the list.
    rng = random.Random(3)
    for n in (1, 2, 49, 64, 65):
        cards = tuple(sorted(rng.randrange(min(n, 20)) for _ in range(n)))
        # few distinct codes: many ties on the top bits, which the card or the position breaks
        codes = [rng.choice((5, 6, 1 << 31)) + (rng.getrandbits(4) << 20) for _ in range(n)]
        by_card, by_position = Lanes(codes, cards), Lanes(codes)
        assert by_card.cards == cards and by_position.cards == ()
        for seed in (0, 1, M32, rng.getrandbits(32)):
            expected = _keyed_order_native(list(cards), by_position, seed)
            assert _keyed_order_native(cards, by_card, seed) == expected
            assert keyed_order(cards, by_card, seed) == expected
    # unsorted cards, or a card too big for the index bits: keyed by position
    assert Lanes([1, 2, 3], (2, 1, 3)).cards == () and Lanes([1, 2], (0, 64)).cards == ()


def test_the_opponent_s_stronghold_ordered_part_by_part_is_keyed_order(db):
    # The compiled engine orders the opponent's Stronghold a part at a time (keyed_part): parts of
    # any size, taken one after another, are keyed_order's order from the top; the cards left,
    # ordered at once (what a look-ahead copy reshuffles), are the rest of it.
    t = compile_deck(db, sections_of(data_dir("decklists") / "default.toml"))
    rng = random.Random(4)
    for top, cards in t.commander_stronghold.items():
        for lanes in (t.stronghold_lanes[top], Lanes(t.stronghold_lanes[top].codes)):  # by card, by position
            for _ in range(40):
                seed = rng.getrandbits(32)
                whole = keyed_order(cards, lanes, seed)
                u = Unordered(cards, lanes, seed)
                taken: list[int] = []  # top first
                while u.left:
                    left = unordered_cards(u)
                    assert left + taken[::-1] == whole
                    part = keyed_part(u, rng.choice((1, 1, 6, 30)))
                    assert part and len(part) + u.left == len(left)
                    taken += part[::-1]
                assert taken[::-1] == whole and keyed_part(u, 1) == []


def test_parts_of_cards_tied_on_their_top_bits_are_keyed_order():
    # keyed_part puts the cards of a part in order with buckets of keys (no sort): cards whose
    # keys share a bucket, or their top bits (few distinct codes), still come in keyed_order's
    # order, the card (by card) or the position (by position) breaking ties.
    rng = random.Random(9)
    for n in (1, 2, 7, 49, 64):
        cards = tuple(sorted(rng.randrange(min(n, 20)) for _ in range(n)))
        codes = [rng.choice((5, 6, 1 << 31)) + (rng.getrandbits(4) << 20) for _ in range(n)]
        for lanes in (Lanes(codes, cards), Lanes(codes)):
            for seed in (0, 1, M32, rng.getrandbits(32)):
                whole = keyed_order(cards, lanes, seed)
                u = Unordered(cards, lanes, seed)
                taken: list[int] = []
                while u.left:
                    taken += keyed_part(u, rng.choice((1, 3, 30)), rng.choice((1, 4, 16)))[::-1]
                assert taken[::-1] == whole


def test_our_stronghold_drawn_past_its_ordered_part_is_keyed_order(db):
    # The compiled engine orders our own Stronghold a part at a time as well (`sh_top` above
    # `sh_unordered`): drawing it card by card gives keyed_order's order from the top, whether the
    # setup ordered a part (after a game that drew little) or all of it (the state's first game),
    # and `stronghold` is the whole pile at any point. (Interpreted, every setup orders it whole.)
    t = compile_deck(db, sections_of(data_dir("decklists") / "default.toml"))
    rng = random.Random(8)
    chance = Chance()
    s = GameState(t, chance)
    cmd = s.commander
    cards, lanes = t.commander_stronghold[cmd], t.stronghold_lanes[cmd]
    for game in range(30):
        chance.set_seeds(rng.getrandbits(32), 1, 2, 3)
        s.setup()  # the last game drew 5 to 50 cards (see below): a part, or the whole
        whole = keyed_order(cards, lanes, chance.shuffle)
        assert s.opening_hand == tuple(whole[:-6:-1])
        assert s.stronghold_count() == len(cards) - 5
        if game % 3 == 0:
            assert s.stronghold == whole[:-5]  # looked at whole midway: the same cards, same order
        drawn = list(s.hand)
        for _ in range(rng.choice((3, 20, 45))):  # stop anywhere: the next setup sees what was drawn
            before = len(s.hand)
            if not s._draw(1):
                break
            drawn += s.hand[before:]
        assert drawn == whole[::-1][:len(drawn)]
        assert s.stronghold_count() == len(cards) - len(drawn) and s.stronghold == whole[:len(cards) - len(drawn)]


def test_copy_codes_depend_on_the_card_id_and_copy_only():
    assert copy_code("SY1-016", 0) == copy_code("SY1-016", 0) != copy_code("SY1-016", 1)
    assert copy_code("SY1-016", 0) != copy_code("SY1-017", 0)
    own = {3: (11, 12, 13), 5: (21,)}
    assert copy_codes([3, 5, 3, 3], own) == [11, 21, 12, 13]


def test_the_stronghold_of_two_decks_differs_only_by_the_changed_card(one_card):
    # G7: run i of two decks sharing 50 of 51 Stronghold cards: their Stronghold orders, with the
    # card that differs taken out of each, are the same list of card ids, in every run.
    a, b = one_card
    sa, sb = GameState(a, Chance()), GameState(b, Chance())
    for i in range(300):
        ids = []
        for s in (sa, sb):
            seed_run(s.chance, 7, i)
            s.setup()
            # drawn first to drawn last: the opening hand, then the Stronghold from its top
            ids.append([s.t.card_id[c] for c in s.hand + s.stronghold[::-1]])
        assert changed_places(*ids, "SY1-016", "SY1-017") is not None, i


def changed_places(order_a: list[str], order_b: list[str], out_card: str, in_card: str) -> tuple[int, int] | None:
    """Where the card A lacks stands in B's order and a copy of `out_card` that B lacks stands in A's,
    such that the rest of both orders is the same list; None if there is no such copy."""
    pb = order_b.index(in_card)
    rest_b = order_b[:pb] + order_b[pb + 1:]
    for pa, c in enumerate(order_a):
        if c == out_card and order_a[:pa] + order_a[pa + 1:] == rest_b:
            return pa, pb
    return None


class ChargeAll(Policy):
    """Send every card in hand each turn and never act: every turn draws five cards, whatever they are."""

    name = "charge-all"

    def charge_phase(self, state: GameState) -> None:
        state.charge_cards(list(range(len(state.hand))))


def draw_turns(state: GameState, turns: int) -> dict[tuple[str, int], int]:
    """Play `turns` turns of ChargeAll; return (card id, copy drawn k-th) -> the turn it was drawn on (0: opening hand)."""
    ids = state.t.card_id
    seen: dict[str, int] = {}
    drawn: dict[tuple[str, int], int] = {}

    def note(cards, turn):
        for c in cards:
            k = seen.get(ids[c], 0)
            seen[ids[c]] = k + 1
            drawn[(ids[c], k)] = turn

    note(state.hand, 0)
    policy = ChargeAll()
    for turn in range(1, turns + 1):
        state.begin_turn()
        policy.charge_phase(state)
        state.end_charge_phase()
        note(state.hand, turn)
        state.end_turn()
    return drawn


def test_a_shared_card_is_drawn_on_the_same_turn_unless_the_changed_card_comes_between(one_card):
    # Every turn draws five cards in both decks, so a shared card is drawn on the same turn unless
    # the card that differs comes before it in one deck's Stronghold and after it in the other's.
    a, b = one_card
    out_card, in_card = "SY1-016", "SY1-017"
    sa, sb = GameState(a, Chance()), GameState(b, Chance())
    runs, same, checked = 400, 0, 0
    for i in range(runs):
        orders, turns = [], []
        for s in (sa, sb):
            seed_run(s.chance, 3, i)
            s.setup()
            orders.append([s.t.card_id[c] for c in s.hand + s.stronghold[::-1]])
            turns.append(draw_turns(s, 8))
        changed = changed_places(*orders, out_card, in_card)  # the Yukimura 4 B lacks, the Hanzo 1 A lacks
        assert changed is not None
        for card in (("SY1-001", 1), ("SY1-010", 0)):  # a Soma Level 1 (copy 1), an Oichi Level 2
            place = [_place(o, *card) for o in orders]
            if max(place) >= 5 * 9:  # drawn in neither game's 8 turns
                continue
            checked += 1
            between = (changed[0] < place[0]) != (changed[1] < place[1])
            agree = turns[0].get(card) == turns[1].get(card)
            assert agree or between, (i, card)
            same += agree
    assert checked > 1.5 * runs and same > 0.9 * checked


def _place(order: list[str], card_id: str, copy: int) -> int:
    k = -1
    for _ in range(copy + 1):
        k = order.index(card_id, k + 1)
    return k


def test_one_more_die_roll_shifts_no_last_guard_and_no_draw(db):
    # One stream per purpose: rolling dice in one game and not in the other leaves its Last Guards
    # (opponent stream) and its draws (shuffle stream) as they were.
    t = compile_deck(db, sections_of(data_dir("decklists") / "ultimate.toml"), mode="ultimate")
    seen = []
    for rolls in (0, 3):
        s = GameState(t, Chance())
        seed_run(s.chance, 1, 42)
        s.setup()
        for _ in range(rolls):
            s.chance.die()
        s._draw(7)
        seen.append((list(s.hand), [s._reveal_last_guard() for _ in range(6)], list(s.opp_hand)))
    assert seen[0] == seen[1]
    # and the dice themselves: a draw or a Last Guard does not move the next roll
    s = GameState(t, Chance())
    seed_run(s.chance, 1, 42)
    s.setup()
    first = [s.chance.die() for _ in range(4)]
    seed_run(s.chance, 1, 42)
    s.setup()
    s._draw(3)
    s._reveal_last_guard()
    assert [s.chance.die() for _ in range(4)] == first


def test_the_policy_stream_is_the_policy_s_own(db):
    # A policy drawing from state.policy_rng changes no card of the game; the rules never draw from it.
    t = compile_deck(db, sections_of(data_dir("decklists") / "default.toml"))
    s = GameState(t, Chance())
    seed_run(s.chance, 5, 9)
    s.setup()
    before = (list(s.hand), list(s.stronghold))
    picks = [s.policy_rng.random() for _ in range(3)]
    seed_run(s.chance, 5, 9)
    s.setup()
    assert (list(s.hand), list(s.stronghold)) == before
    assert [s.policy_rng.random() for _ in range(3)] == picks  # seeded anew for each game
    assert s.policy_rng is s.policy_rng


def test_a_familiar_s_roll_does_not_depend_on_the_rolls_before_it():
    # G7: a familiar's roll is keyed by its card's code and the turn (A2: once a turn), so a game
    # that rolled other dice before (another familiar's, on another deck's game) rolls it alike.
    c = Chance()
    seed_run(c, 3, 11)
    c.new_game()
    alone = [c.die(copy_code("SY1-F01", 0), turn) for turn in (1, 2, 3)]
    c.new_game()
    for _ in range(5):
        c.die(copy_code("SY1-F02", 0), 1)
        c.die()
    assert [c.die(copy_code("SY1-F01", 0), turn) for turn in (1, 2, 3)] == alone
    seed_run(c, 3, 12)  # another run: other rolls (3 rolls all alike in 1/216 of runs; not this one)
    assert [c.die(copy_code("SY1-F01", 0), turn) for turn in (1, 2, 3)] != alone


def test_keyed_die_rolls_are_uniform():
    c = Chance()
    counts = [0] * 7
    n = 60000
    for i in range(n // 60):
        seed_run(c, 0, i)
        c.new_game()
        for code in range(6):
            for turn in range(1, 11):
                counts[c.die(copy_code(f"F{code}", 0), turn)] += 1
    assert counts[0] == 0
    se = (n * (1 / 6) * (5 / 6)) ** 0.5
    assert all(abs(k - n / 6) < 4 * se for k in counts[1:]), counts


def test_die_rolls_are_uniform():
    c = Chance()
    counts = [0] * 7
    n = 60000
    for i in range(n // 60):
        seed_run(c, 0, i)
        c.new_game()
        for _ in range(60):
            counts[c.die()] += 1
    assert counts[0] == 0
    se = (n * (1 / 6) * (5 / 6)) ** 0.5
    assert all(abs(k - n / 6) < 4 * se for k in counts[1:]), counts


def test_run_seeds_are_the_digest_of_the_master_seed_and_run():
    from hashlib import blake2b

    d = blake2b(b"sengoku-goldfish:7:12", digest_size=20).digest()
    assert run_seeds(7, 12) == (int.from_bytes(d[0:4], "little"), int.from_bytes(d[4:8], "little"),
                                int.from_bytes(d[8:12], "little"), int.from_bytes(d[12:20], "little"))
    assert run_seeds(7, 12) != run_seeds(7, 13) != run_seeds(8, 12)


def test_a_copy_of_the_state_does_not_know_the_order_of_the_stronghold(basic):
    # A look-ahead copy shuffles the hidden zones anew: it cannot peek at the coming draws.
    s = position(basic, stronghold=["S1", "S2", "S3", "S4", "O1", "O2", "O3", "B1", "B2"])
    s.opp_stronghold = list(s.stronghold)
    tops = set()
    for seed in range(40):
        c = clone_state(s, random.Random(seed))
        assert sorted(c.stronghold) == sorted(s.stronghold) and sorted(c.opp_stronghold) == sorted(s.stronghold)
        tops.add(c.stronghold[-1])
    assert len(tops) >= 6
