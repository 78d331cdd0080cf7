"""The `search` policy: every distinct Charge Phase plan, two stages, its own random stream (G3, G6)."""

from __future__ import annotations

import random

import pytest

import sengoku
from sengoku.engine import GameRunner, compile_deck
from sengoku.engine.constants import CHARGE
from sengoku.engine.policies import SearchPolicy
from sengoku.goldfish.play.seeds import Chance, seed_run
from sengoku.goldfish.options import PlayOptions
from sengoku.goldfish.play.simulate import Plan, play_chunk

from .conftest import bundled_sections, position


@pytest.fixture(scope="module")
def standard():
    db = sengoku.load_card_db()
    sections, mode = bundled_sections(db, "default.toml")
    return compile_deck(db, sections, mode)


class Quick(SearchPolicy):
    rollouts, finalists, confirm, max_steps, horizon = 2, 2, 3, 3, 8


def test_charge_plans_are_the_distinct_multisets_of_cards_within_the_hand_limit(standard):
    t = standard
    k1 = [c for c in t.deck_indices if t.level[c] == 1][0]
    k2 = [c for c in t.deck_indices if t.level[c] == 2][0]
    s = position(t, hand=(), phase=CHARGE, turn=1, ap=10)
    s.hand = [k1, k1, k2]
    for a in s.allies:
        a.hp = t.cost[a.top]  # nobody to HP-charge
    plans = SearchPolicy().charge_plans(s)
    # the default's own plan, then {}, {k1}, {k2}, {k1, k1}, {k1, k2}, {k1, k1, k2}
    assert plans[0] == ((), -2) and len(plans) == 7
    assert sorted(tuple(sorted(s.hand[p] for p in send)) for send, _ in plans[1:]) == sorted(
        [(), (k1,), (k2,), (k1, k1), tuple(sorted((k1, k2))), tuple(sorted((k1, k1, k2)))])
    # T2a: seven cards in hand: every plan sends at least two.
    s.hand = [k1, k1, k1, k2, k2, k2, k1]
    assert all(len(send) >= 2 for send, _ in SearchPolicy().charge_plans(s)[1:])
    # T2b: each hurt ally whose HP Charge the AP pays adds a plan per way of sending.
    s.hand = [k1]
    s.allies[0].hp = 1  # the Commander (Level 1, max HP 2 or more), hurt; the Nameless stay full
    assert t.cost[s.allies[0].top] > 1 and t.hp_charge_price[s.allies[0].top] <= 10
    assert len(SearchPolicy().charge_plans(s)) == 1 + 2 * 2  # ({} or {k1}) x (no HP Charge, the Commander)


def streams(s):
    ch = s.chance
    return ch.shuffle, ch.opponent, ch.dice, ch.rounds, ch.rolls


def test_search_draws_its_rollouts_from_the_policy_stream_never_the_games(standard):
    s = position(standard, hand=(), phase=CHARGE, turn=1, ap=10)
    s.hand = list(standard.deck_indices[:5])
    s.chance.set_seeds(1, 2, 3, 7)
    game, stronghold = streams(s), list(s.stronghold)
    policy = random.Random(7).getstate()
    p = Quick()
    p._prepare_for(s)
    p._choose(s, p.charge_plans(s), True)
    assert streams(s) == game and s.stronghold == stronghold  # the game's streams did not move
    assert s.policy_rng.getstate() != policy  # the rollouts' seeds came from the policy's own


def games(t, seed, n=3):
    chance = Chance()
    runner = GameRunner(t, Quick(), chance, 6, True)
    out = []
    for i in range(n):
        seed_run(chance, seed, i)
        g = runner.play()
        out.append((g.opening_hand, g.won_turn, tuple(g.turns)))
    return out


def test_search_is_deterministic_and_plays_the_same_deals(standard):
    a, b = games(standard, 100), games(standard, 100)
    assert a == b
    chance = Chance()
    greedy = GameRunner(standard, "greedy", chance, 6, True)
    for i, g in enumerate(a):
        seed_run(chance, 100, i)
        assert greedy.play().opening_hand == g[0]  # the same deal: the search drew nothing from it


def test_search_gives_the_same_games_however_runs_are_split(standard):
    # --jobs splits runs into chunks; run i always plays from its own streams (G3).
    plan = Plan(standard, standard.deck_indices[0], PlayOptions(turns=5, seed=3, policy="search"), [0] * standard.n,
                ("ap_main",))
    import sengoku.engine.policies as pols
    old = pols.POLICIES["search"]
    pols.POLICIES["search"] = Quick
    try:
        plan.commander = [c for c in standard.deck_indices if standard.level[c] == 1][0]
        whole = play_chunk(plan, 0, 4)
        parts = play_chunk(plan, 0, 1)
        parts.merge(play_chunk(plan, 1, 4))
    finally:
        pols.POLICIES["search"] = old
    assert whole.kill_turn == parts.kill_turn and whole.hands == parts.hands
