"""The race's statistics: exact sums, known quantiles, the spending sequences, screening, and the error rate of
screen-then-confirm simulated."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from sengoku.goldfish.statistics.paired import Sums, t975
from sengoku.tune.race import (KILL_TURN, WON_BY, Gains, Objective, judge, look_level, lower_bound, screen_cut,
                               screen_survivors, t_quantile)


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


def test_the_looks_and_attempts_spend_at_most_alpha_over_the_finalists() -> None:
    total = sum(look_level(0.05, 4, j) for j in range(1, 100_000))
    assert total < 0.05 / 4 * 6 / math.pi ** 2  # attempt 1 spends 6/pi^2 of alpha, over 4 finalists
    assert total == pytest.approx(0.05 / 4 * 6 / math.pi ** 2, rel=1e-4)
    every = sum(look_level(0.05, 4, j, a) for a in range(1, 400) for j in range(1, 400))
    assert every < 0.05 / 4 and every == pytest.approx(0.05 / 4, rel=1e-2)
    assert look_level(0.05, 4, 2) == pytest.approx(look_level(0.05, 4, 1) / 4)
    assert look_level(0.05, 4, 1, 3) == pytest.approx(look_level(0.05, 4, 1) / 9)
    # by hand: 0.05 * (6/pi^2) / 4 * (6/pi^2) / 9, at look 3 of the first attempt
    assert look_level(0.05, 4, 3) == pytest.approx(0.05 * 0.607927 / 4 * 0.607927 / 9, rel=1e-5)


def test_screening_keeps_the_highest_means_ties_by_index() -> None:
    means = {0: 0.01, 1: 0.03, 2: -0.2, 3: 0.03, 4: 0.02}
    assert screen_cut(means, 3) == [1, 3, 4]
    assert screen_cut(means, 10) == [1, 3, 4, 0, 2]
    assert screen_cut(means, 0) == []


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
    screened = judge([clear, worse, unsure], None, 0.05)  # screening: the same drops, never an acceptance
    assert [v.accept for v in screened] == [False, False, False]
    assert [v.drop for v in screened] == [v_clear.drop, v_worse.drop, v_unsure.drop]
    assert v_clear.accept and not v_clear.drop
    assert v_worse.drop and not v_worse.accept
    assert not v_unsure.accept
    assert v_unsure.drop  # its interval (about ±0.2) lies below the leader's lower end (about +0.5)
    alone = judge([unsure], look_level(0.05, 1, 1), 0.05)[0]
    assert not alone.accept and not alone.drop  # with no leader, ±0.2 still covers a gain of 0.05
    # One run decides nothing, and neither do runs without spread: no interval, so no bound above
    # -inf and no acceptance (as compare gives no verdict). A budget cut a look to one run, whose
    # +1 was once taken as a bound of +1.
    assert lower_bound(_sums([2, 2, 2]), 1e-6) == -math.inf
    assert lower_bound(_sums([1]), 0.05) == -math.inf
    assert not judge([_sums([1])], look_level(0.05, 58, 1), 0.02)[0].accept


def test_a_screening_look_on_integer_lists_drops_what_judge_drops() -> None:
    """`screen_survivors` (a look's lists of sums, no record per candidate) keeps exactly the candidates `judge`
    keeps at a screening look: random sums with the edge cases among them (one run, no spread, a spread of one
    run in thousands, the leader's own interval), over several smallest gains."""
    rng = random.Random(38)
    dropped = kept_some = 0
    for trial in range(200):
        count = rng.randint(1, 60)
        racing = []
        for _ in range(count):
            n = rng.choice((0, 1, 2, 3, 50, 400, 6400))
            values = [rng.choice((-2, -1, 0, 0, 1, 1, 3)) for _ in range(n)]
            if rng.random() < 0.15:  # every run alike: no interval, judged by its mean
                values = [values[0] if values else 0] * n
            elif rng.random() < 0.1 and n > 1:  # one run in many differs
                values = [0] * (n - 1) + [1]
            sums = Sums()
            for v in values:
                sums.add(v)
            racing.append(sums)
        gains = Gains(count)
        for k, sums in enumerate(racing):
            gains.merge(k, [sums.n], [sums.total], [sums.squares])
        for min_gain in (0.0, 0.02, 0.5, -1.0):
            kept = [k for k, v in enumerate(judge(racing, None, min_gain)) if not v.drop]
            assert screen_survivors(gains, min_gain) == kept, (trial, min_gain)
            dropped += count - len(kept)
            kept_some += len(kept)
    assert dropped > 1000 and kept_some > 1000  # both verdicts were checked, many times
    assert screen_survivors(Gains(0), 0.02) == []


def test_gains_merge_slices_and_keep_positions() -> None:
    gains = Gains(5)
    gains.merge(0, [2, 2], [1, -1], [1, 1])
    gains.merge(3, [4, 4], [2, 0], [2, 2])
    gains.merge(1, [1], [1], [1])
    assert [gains.sums(k) for k in range(5)] == [Sums(2, 1, 1), Sums(3, 0, 2), Sums(0, 0, 0), Sums(4, 2, 2),
                                                Sums(4, 0, 2)]
    assert gains.means()[:2] == [0.5, 0.0] and math.isnan(gains.means()[2])
    kept = gains.kept([4, 1])
    assert [kept.sums(k) for k in range(len(kept))] == [Sums(4, 0, 2), Sums(3, 0, 2)]
    assert Gains.of([Sums(3, 1, 5), Sums(1, -1, 1)]) == ([3, 1], [1, -1], [5, 1])


def _draw(rng: random.Random, gain: float, runs: int, sums: Sums) -> None:
    up, down = 0.3 + gain / 2, 0.3 - gain / 2  # P(+1), P(-1): mean = gain
    for _ in range(runs):
        u = rng.random()
        sums.add(1 if u < up else -1 if u < up + down else 0)


def _looks(rng: random.Random, gains: list[float], sums: dict[int, Sums], stops: list[int], level, margin: float
           ) -> int | None:
    """Race the candidates `sums` holds, whose per-run improvement is -1/0/+1 (mean `gains[k]`): after each
    look (total runs `stops[j - 1]`) judge them at `level(j)`; return the accepted one's index, or None."""
    alive = list(sums)
    done = 0
    for j, stop in enumerate(stops, start=1):
        for k in alive:
            _draw(rng, gains[k], stop - done, sums[k])
        done = stop
        verdicts = dict(zip(alive, judge([sums[k] for k in alive], level(j), margin)))
        winners = [k for k in alive if verdicts[k].accept]
        if winners:
            return max(winners, key=lambda k: verdicts[k].mean)
        alive = [k for k in alive if not verdicts[k].drop]
        if not alive:
            return None
    return None


def _race(rng: random.Random, gains: list[float], alpha: float, looks: int) -> int | None:
    """Race candidates from the start, looks after 100, 200, 400 ... runs; return the accepted one's index."""
    return _looks(rng, gains, {k: Sums() for k in range(len(gains))}, [100 * 2 ** (j - 1) for j in range(1, looks + 1)],
                  lambda j: look_level(alpha, len(gains), j), 0.02)


def test_a_race_of_equals_rarely_accepts_and_a_clear_gain_wins() -> None:
    """Under no gain at all, acceptances stay within the error rate; a real gain of 0.25 is found."""
    rng = random.Random(24)
    alpha, races = 0.2, 150
    wrong = sum(_race(rng, [0.0] * 8, alpha, 4) is not None for _ in range(races))
    assert wrong <= alpha * races  # Bonferroni and the spending sequence are conservative: far fewer
    found = [_race(rng, [0.0] * 7 + [0.25], 0.05, 5) for _ in range(20)]
    assert found.count(7) >= 18


def _screen_and_confirm(rng: random.Random, gains: list[float], alpha: float, finalists: int = 4) -> int | None:
    """The tuner's step in small: screen every candidate on 50 shared runs, keep the best `finalists` by mean,
    confirm them on fresh runs (looks after 100, 200, 400) at the corrected level; return the accepted one."""
    screen = [Sums() for _ in gains]
    for k, gain in enumerate(gains):
        _draw(rng, gain, 50, screen[k])
    alive = screen_cut({k: s.mean for k, s in enumerate(screen)}, finalists)
    return _looks(rng, gains, {k: Sums() for k in alive}, [100, 200, 400], lambda j: look_level(alpha, len(alive), j),
                  0.0)


def test_selection_on_screening_runs_keeps_the_error_rate_on_fresh_runs() -> None:
    """Screening picks the luckiest of 30 equal candidates; judged again on the screening's own runs they would
    look like gains, but the confirmation plays fresh runs, so acceptances stay within the error rate. A real
    gain of 0.4 among 29 equals is found."""
    rng = random.Random(7)
    alpha, steps = 0.2, 300
    wrong = sum(_screen_and_confirm(rng, [0.0] * 30, alpha) is not None for _ in range(steps))
    assert wrong <= alpha * steps * 6 / math.pi ** 2
    lucky = [max(_screen_sums(rng, 30)) for _ in range(50)]
    assert sum(lucky) / len(lucky) > 0.1  # the screening's best of 30 equals looks about +0.14 on its own runs
    found = [_screen_and_confirm(rng, [0.0] * 29 + [0.4], 0.05) for _ in range(20)]
    assert found.count(29) >= 18


def _screen_sums(rng: random.Random, count: int) -> list[float]:
    out = []
    for _ in range(count):
        s = Sums()
        _draw(rng, 0.0, 50, s)
        out.append(s.mean)
    return out
