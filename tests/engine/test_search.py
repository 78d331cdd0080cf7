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


class Recording(SearchPolicy):
    """A search that records the seeds of every stage it scores (and scores every option alike)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[list[int]] = []

    def _values(self, state, option, seeds, charge):
        if not self.seen or self.seen[-1] is not seeds:
            self.seen.append(seeds)
        return [0.0] * len(seeds)


def budget(rollouts, confirm, stream_seeds=1):
    return type("Budget", (Recording,), {"rollouts": rollouts, "confirm": confirm, "stream_seeds": stream_seeds})()


def choose_at(standard, policy, step):
    s = position(standard, hand=(), phase=CHARGE, turn=2, ap=10)
    s.hand = list(standard.deck_indices[:5])
    s.chance.set_seeds(1, 2, 3, 7)
    policy._step = step
    policy._choose(s, policy.charge_plans(s), True)
    return policy.seen, s.policy_rng.getrandbits(64)  # (the stream's next draw: where the search left it)


def test_a_larger_search_plays_searchs_own_copies_and_more(standard):
    from sengoku.engine.policies.search import keyed_seed

    r, c = SearchPolicy.rollouts, SearchPolicy.confirm
    assert (r, c) == (16, 48)  # twice 0.15.0's 8 + 24, itself twice the 0.10.0 search's 4 + 12 (issue 36)
    (one_first, one_second), after = choose_at(standard, budget(r, c), 0)
    (two_first, two_second), after_two = choose_at(standard, budget(2 * r, 2 * c), 0)
    assert len(one_first) == 16 and len(one_second) == 48 and len(two_first) == 32 and len(two_second) == 96
    assert two_first[:16] == one_first and two_second[:48] == one_second  # search's copies, then its own
    assert not set(two_first[16:]) & set(one_first + one_second)
    assert after_two == after  # the stream is left where search leaves it, for the next decision
    (old_first, old_second), after_old = choose_at(standard, budget(4, 12), 0)
    assert old_first == one_first[:4] and old_second == one_second[:12] and after_old == after
    (mid_first, mid_second), _ = choose_at(standard, budget(8, 24), 0)  # 0.11.0-0.15.0's search
    assert mid_first == one_first[:8] and mid_second == one_second[:24]
    # the 0.10.0 budget's copies are 4 then 12 draws of the policy's stream, as before the seeds were nested;
    # search's others are keyed by the decision's place (turn 2, the Charge Phase, stage, copy)
    rng = random.Random(7)
    assert old_first + old_second == [rng.getrandbits(64) for _ in range(16)]
    assert one_first[4:] == [keyed_seed(7, 2, 0, 1, k) for k in range(4, 16)]
    assert one_second[12:] == [keyed_seed(7, 2, 0, 2, k) for k in range(12, 48)]


class Racing(Recording):
    """A search whose every option after the default's scores `noise` around the default's 3.0 on its
    copies (a close second stage when the noise averages 3.0, a clear one when it is constant)."""

    rollouts, confirm, confirm_max = 16, 48, 192

    def __init__(self, noise) -> None:
        super().__init__()
        self.noise = noise

    def _values(self, state, option, seeds, charge):
        super()._values(state, option, seeds, charge)
        if option == ((), -2):
            return [3.0] * len(seeds)
        return [self.noise(j) for j in range(len(seeds))]


def race_at(standard, policy):
    s = position(standard, hand=(), phase=CHARGE, turn=2, ap=10)
    s.hand = list(standard.deck_indices[:5])
    s.chance.set_seeds(1, 2, 3, 7)
    policy._step = 0
    best = policy._choose(s, policy.charge_plans(s), True)
    return best, policy.seen, s.policy_rng.getrandbits(64)


def test_a_close_second_stage_plays_the_copies_of_a_larger_search_and_a_clear_one_stops(standard):
    # close: every finalist averages the default's 3.0 with a spread, so no batch settles it; the stage
    # doubles (48, then 48 more, then 96 more) up to confirm_max, on the copies of a 16 + 192 search
    best, seen, after = race_at(standard, Racing(lambda j: 2.0 if j % 2 else 4.0))
    (wide_first, wide_second), wide_after = choose_at(standard, budget(16, 192), 0)
    assert [len(x) for x in seen] == [16, 48, 48, 96]
    assert seen[0] == wide_first and seen[1] + seen[2] + seen[3] == wide_second
    assert after == wide_after and best == 0  # no finalist beat the default's mean: its choice stays
    # clear: a constant difference on every copy (no spread) is settled by the first batch, which is
    # search's own 16 + 48 copies
    (one_first, one_second), _ = choose_at(standard, budget(16, 48), 0)
    for noise, chosen in ((4.0, 0), (2.0, 1)):
        best, seen, _ = race_at(standard, Racing(lambda j: noise))
        assert seen == [one_first, one_second] and best == chosen


def test_close_calls_a_stage_close_while_a_finalist_trails_the_leader_by_under_two_standard_errors():
    from sengoku.engine.policies.search import close

    lead = [3.0] * 8
    # differences 1, -1, ... with one more +1 than -1: mean 0.25, standard error about 0.37: close
    assert close([lead, [4.0, 2.0, 4.0, 2.0, 4.0, 2.0, 4.0, 4.0]])
    # differences of 1 and 0, mean 0.75, standard error about 0.16: 4.6 standard errors behind, clear
    assert not close([lead, [4.0, 4.0, 4.0, 3.0, 4.0, 4.0, 4.0, 3.0]])
    assert not close([lead, [5.0] * 8]) and not close([lead, list(lead)])  # no spread: never close
    assert close([[4.0, 4.0, 4.0, 3.0, 4.0, 4.0, 4.0, 3.0], lead, [3.0, 4.0, 2.0, 3.0, 3.0, 4.0, 2.0, 3.0]])


def test_past_the_searched_steps_every_seed_is_keyed_by_the_decision_place(standard):
    from sengoku.engine.policies.search import STREAM_STEPS, keyed_seed

    (first, second), after = choose_at(standard, budget(8, 24), STREAM_STEPS + 1)
    assert first == [keyed_seed(7, 2, STREAM_STEPS + 1, 1, k) for k in range(8)]
    assert second == [keyed_seed(7, 2, STREAM_STEPS + 1, 2, k) for k in range(24)]
    assert after == random.Random(7).getrandbits(64)  # the stream did not move
    (one_first, _), _ = choose_at(standard, budget(4, 12), STREAM_STEPS + 1)
    assert one_first == first[:4]
    # stream_seeds=0: every seed keyed, at any step
    (keyed_first, _), after_keyed = choose_at(standard, budget(4, 12, 0), 3)
    assert keyed_first == [keyed_seed(7, 2, 3, 1, k) for k in range(4)] and after_keyed == after


def test_a_search_of_its_first_turns_searches_only_those_and_plays_greedy_after(standard):
    # `turns`: the turns searched, from the first; on the later ones the search plays greedy's own
    # phases (its rules, no copies), so where a game goes past turn 1 the later decisions are greedy's.
    def decisions(turns):
        seen = []

        class Counted(Quick):
            def _choose(self, state, options, charge):
                seen.append(state.turn)
                return super()._choose(state, options, charge)

        Counted.turns = turns
        chance = Chance()
        runner = GameRunner(standard, Counted(), chance, 6, False)  # going second: turn 1 has attacks to choose
        for i in range(4):
            seed_run(chance, 7, i)
            runner.play()
        return seen

    every, first = decisions(0), decisions(1)
    assert max(every) >= 2  # the whole search chooses on later turns too (else this test would prove nothing)
    assert first and set(first) == {1}
    assert first == [t for t in every if t == 1]  # turn 1 searched exactly as the whole search searches it
