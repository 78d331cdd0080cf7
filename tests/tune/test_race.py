"""The race's statistics: exact sums, known quantiles, the spending sequence, and its error rate simulated."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from sengoku.goldfish.statistics.paired import Sums, t975
from sengoku.tune.race import KILL_TURN, WON_BY, Objective, judge, look_level, lower_bound, t_quantile


def test_objective_words() -> None:
    assert Objective.parse("kill-turn", 8) == Objective(KILL_TURN)
    assert Objective.parse(" Won-By:4 ", 8) == Objective(WON_BY, 4)
    for bad in ("won-by:0", "won-by:9", "won-by:x", "speed"):
        with pytest.raises(ValueError, match="kill-turn"):
            Objective.parse(bad, 8)


def test_improvements_are_exact_integer_sums() -> None:
    # (incumbent's kill turn, candidate's) -> runs; 9 = not won within 8 turns
    pairs = Counter({(4, 3): 5, (3, 3): 10, (3, 5): 2, (9, 4): 1})
    kill = Objective(KILL_TURN).improvement(pairs, 8)  # incumbent - candidate: 1, 0, -2, 5
    assert (kill.n, kill.total, kill.squares) == (18, 5 - 4 + 5, 5 + 8 + 25)
    won = Objective(WON_BY, 3).improvement(pairs, 8)  # won by turn 3: candidate - incumbent: 1, 0, -1, 0
    assert (won.n, won.total, won.squares) == (18, 5 - 2, 5 + 2)
    assert Objective(WON_BY, 3).mean_value(Counter({3: 2, 5: 1, None: 1}), 8) == 0.5
    assert Objective(KILL_TURN).mean_value(Counter({3: 2, None: 2}), 8) == (3 + 3 + 9 + 9) / 4


def test_t_quantiles_against_tables() -> None:
    # Student's t from standard tables (one-sided upper probabilities)
    assert t_quantile(0.995, 100) == pytest.approx(2.6259, abs=5e-4)
    assert t_quantile(0.999, 60) == pytest.approx(3.2317, abs=2e-3)
    assert t_quantile(0.9995, 120) == pytest.approx(3.3735, abs=2e-3)
    for df in (31, 99, 1000):  # the same expansion as compare's 95% intervals
        assert t_quantile(0.975, df) == pytest.approx(t975(df), abs=1e-9)


def test_the_looks_spend_at_most_alpha_over_the_candidates() -> None:
    total = sum(look_level(0.05, 40, j) for j in range(1, 100_000))
    assert total < 0.05 / 40
    assert total == pytest.approx(0.05 / 40, rel=1e-4)
    assert look_level(0.05, 40, 2) == pytest.approx(look_level(0.05, 40, 1) / 4)


def _sums(values: list[int]) -> Sums:
    s = Sums()
    for v in values:
        s.add(v)
    return s


def test_judge_accepts_drops_and_keeps_racing() -> None:
    clear = _sums([1] * 60 + [0] * 40)  # +0.6 on every run but 40: far above 0
    worse = _sums([-1] * 30 + [0] * 70)  # -0.3: cannot gain anything
    unsure = _sums([1, -1] * 50)  # 0 ± 1: cannot tell yet
    v_clear, v_worse, v_unsure = judge([clear, worse, unsure], look_level(0.05, 3, 1), 0.05)
    assert v_clear.accept and not v_clear.drop
    assert v_worse.drop and not v_worse.accept
    assert not v_unsure.accept
    assert v_unsure.drop  # its interval (about ±0.2) lies below the leader's lower end (about +0.5)
    alone = judge([unsure], look_level(0.05, 1, 1), 0.05)[0]
    assert not alone.accept and not alone.drop  # with no leader, ±0.2 still covers a gain of 0.05
    assert lower_bound(_sums([2, 2, 2]), 1e-6) == 2  # no spread: every run gained 2


def _race(rng: random.Random, gains: list[float], alpha: float, looks: int) -> int | None:
    """Race candidates whose per-run improvement is -1/0/+1; return the accepted one's index."""
    sums = [Sums() for _ in gains]
    alive = list(range(len(gains)))
    done = 0
    for j in range(1, looks + 1):
        stop = 100 * 2 ** (j - 1)
        for k in alive:
            up, down = 0.3 + gains[k] / 2, 0.3 - gains[k] / 2  # P(+1), P(-1): mean = gain
            for _ in range(stop - done):
                u = rng.random()
                sums[k].add(1 if u < up else -1 if u < up + down else 0)
        done = stop
        verdicts = dict(zip(alive, judge([sums[k] for k in alive], look_level(alpha, len(gains), j), 0.02)))
        winners = [k for k in alive if verdicts[k].accept]
        if winners:
            return max(winners, key=lambda k: verdicts[k].mean)
        alive = [k for k in alive if not verdicts[k].drop]
        if not alive:
            return None
    return None


def test_a_race_of_equals_rarely_accepts_and_a_clear_gain_wins() -> None:
    """Under no gain at all, acceptances stay within the error rate; a real gain of 0.25 is found."""
    rng = random.Random(24)
    alpha, races = 0.2, 150
    wrong = sum(_race(rng, [0.0] * 8, alpha, 4) is not None for _ in range(races))
    assert wrong <= alpha * races  # Bonferroni and the spending sequence are conservative: far fewer
    found = [_race(rng, [0.0] * 7 + [0.25], 0.05, 5) for _ in range(20)]
    assert found.count(7) >= 18
