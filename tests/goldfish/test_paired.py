"""The intervals `compare` and `--precision` use (goldfish.paired) and the rounds of `--precision` (goldfish.rounds)."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from sengoku.goldfish.statistics.paired import FEWER_THAN_TWO, NO_SPREAD, Sums, newcombe_paired, t975, welch_interval
from sengoku.goldfish.play.rounds import FIRST_ROUND, MIN_ROUND, next_total, play_rounds

# t(0.975, df) from standard tables, beyond the exact table the module holds (df <= 30).
T_TABLE = {31: 2.0395, 40: 2.0211, 50: 2.0086, 60: 2.0003, 80: 1.9901, 120: 1.9799, 1000: 1.9623}


@pytest.mark.parametrize("df, expected", sorted(T_TABLE.items()))
def test_t_quantile_matches_the_tables(df: int, expected: float) -> None:
    assert t975(df) == pytest.approx(expected, abs=1e-4)


def test_t_quantile_falls_to_the_normal_one() -> None:
    assert t975(10) == pytest.approx(2.2281, abs=1e-4)
    assert t975(10**7) == pytest.approx(statistics.NormalDist().inv_cdf(0.975), abs=1e-6)
    assert all(t975(df) > t975(df + 1) for df in range(1, 200))


def test_sums_give_the_t_interval_of_the_values() -> None:
    rng = random.Random(5)
    values = [rng.randint(-3, 4) for _ in range(57)]
    sums = Sums()
    for v in values:
        sums.add(v)
    half = t975(56) * statistics.stdev(values) / math.sqrt(57)
    lo, hi = sums.interval()
    assert sums.mean == pytest.approx(statistics.fmean(values))
    assert (lo, hi) == pytest.approx((statistics.fmean(values) - half, statistics.fmean(values) + half))
    halves = Sums(), Sums()
    for k, v in enumerate(values):
        halves[k % 2].add(v)
    halves[0].merge(halves[1])
    assert halves[0] == sums  # merging chunks is exact


def test_no_spread_gives_no_interval() -> None:
    # issue 20: ten equal values say nothing about the next one; a [0, 0] interval would claim certainty
    sums = Sums()
    for _ in range(10):
        sums.add(1)
    assert sums.interval() is None and sums.half_width() is None
    assert sums.no_interval() == NO_SPREAD and sums.mean == 1.0


def test_one_value_gives_no_interval() -> None:
    # issue 20: `compare --runs 1` gave [+1, +1] and the verdict "worse"
    sums = Sums()
    sums.add(1)
    assert sums.interval() is None and sums.no_interval() == FEWER_THAN_TWO
    assert Sums().no_interval() == FEWER_THAN_TWO
    sums.add(2)
    assert sums.no_interval() is None and sums.interval() is not None


def test_welch_needs_two_values_and_some_spread() -> None:
    one, two, flat = Sums(), Sums(), Sums()
    one.add(3)
    for v in (3, 5):
        two.add(v)
    for v in (4, 4, 4):
        flat.add(v)
    assert welch_interval(one, two) is None and welch_interval(two, one) is None
    assert welch_interval(flat, flat) is None
    lo, hi = welch_interval(flat, two)  # one sample's spread is enough
    assert lo < 0 < hi


def test_welch_is_wider_than_paired_for_correlated_samples() -> None:
    rng = random.Random(1)
    base, deck, diff = Sums(), Sums(), Sums()
    for _ in range(400):
        x = rng.randint(4, 9)
        y = x + (1 if rng.random() < 0.2 else 0)
        base.add(x), deck.add(y), diff.add(y - x)
    p_lo, p_hi = diff.interval()
    u_lo, u_hi = welch_interval(base, deck)
    assert (p_hi - p_lo) * 3 < u_hi - u_lo
    assert (u_lo + u_hi) / 2 == pytest.approx(diff.mean)


def test_newcombe_is_antisymmetric_and_holds_its_difference() -> None:
    diff, lo, hi = newcombe_paired(12, 9, 2, 21)
    assert diff == pytest.approx(-7 / 44)
    assert lo < diff < hi
    back = newcombe_paired(12, 2, 9, 21)
    assert back == pytest.approx((-diff, -hi, -lo))


def test_newcombe_covers_about_95_percent() -> None:
    # Paired events with P(base) = 0.5, P(deck) = 0.6, correlated (half the runs share one uniform).
    rng = random.Random(7)
    truth, covered, trials = 0.1, 0, 1500
    for _ in range(trials):
        table = [0, 0, 0, 0]
        for _ in range(80):
            u = rng.random()
            v = u if rng.random() < 0.5 else rng.random()
            in_base, in_deck = u < 0.5, v < 0.6
            table[(0 if in_deck else 1) if in_base else (2 if in_deck else 3)] += 1
        _, lo, hi = newcombe_paired(*table)
        covered += lo <= truth <= hi
    assert 0.93 <= covered / trials <= 0.99


def test_rounds_stop_at_the_target_and_at_the_runs() -> None:
    played: list[tuple[int, int]] = []
    widths = {FIRST_ROUND: 0.5}

    def width() -> float:  # as a real interval: half-width ~ 1/sqrt(n)
        n = played[-1][1]
        return widths.get(n, 0.5 * math.sqrt(FIRST_ROUND / n))

    rounds = play_rounds(100_000, 0.2, lambda a, b: played.append((a, b)), width)
    assert played[0] == (0, FIRST_ROUND)
    assert all(a == prev_b for (a, _), (_, prev_b) in zip(played[1:], played))  # contiguous run indices
    assert rounds.reached and rounds.half_width <= 0.2 and rounds.runs[-1] == played[-1][1]
    assert width_at(played[-2][1]) > 0.2  # it did not stop before reaching the target
    assert rounds.widths == tuple(width_at(b) for _, b in played)
    capped = play_rounds(300, 0.01, lambda a, b: played.append((a, b)), lambda: 1.0)
    assert capped.runs[-1] == 300 and not capped.reached


def width_at(n: int) -> float:
    return 0.5 * math.sqrt(FIRST_ROUND / n)


def test_next_round_is_bounded() -> None:
    assert next_total(200, 10.0, 0.1, 10**6) == 800  # at most 4 times the runs so far
    assert next_total(200, 0.1001, 0.1, 10**6) == 200 + MIN_ROUND  # at least MIN_ROUND more
    assert next_total(200, 1.0, 0.1, 500) == 500  # never past --runs
