"""Exact opening-hand probabilities and Wilson intervals against hand-computed values."""

import math
import random
from fractions import Fraction
from itertools import combinations

import pytest

from sengoku.goldfish.statistics import probability as prob


def test_at_least_one_of_three_in_five_from_49() -> None:
    # The classic: P(≥1 of 3 copies in 5 cards from 49) = 1 − C(46,5)/C(49,5).
    expected = 1 - math.comb(46, 5) / math.comb(49, 5)
    assert prob.hypergeom_at_least(49, 3, 5) == pytest.approx(expected, abs=1e-15)
    # by hand: C(46,5) = 1370754, C(49,5) = 1906884, so 536130/1906884 = 0.281155…
    assert prob.hypergeom_at_least(49, 3, 5) == pytest.approx(536130 / 1906884, abs=1e-15)
    assert expected == pytest.approx(0.281155, abs=1e-6)


def test_at_least_two_by_complement() -> None:
    # P(≥2) = 1 − P(0) − P(1), P(1) = 3·C(46,4)/C(49,5)
    p0 = math.comb(46, 5) / math.comb(49, 5)
    p1 = 3 * math.comb(46, 4) / math.comb(49, 5)
    assert prob.hypergeom_at_least(49, 3, 5, 2) == pytest.approx(1 - p0 - p1, abs=1e-15)


def test_multivariate_matches_enumeration_of_every_hand() -> None:
    # A 12-card deck: A A A B B C C C C D D D; hands of 4; want ≥1 A and ≥2 C.
    deck = list("AAABBCCCCDDD")
    hands = list(combinations(range(len(deck)), 4))
    good = sum(1 for h in hands if sum(deck[i] == "A" for i in h) >= 1 and sum(deck[i] == "C" for i in h) >= 2)
    assert prob.multivariate_at_least(12, [(3, 1), (4, 2)], 4) == pytest.approx(good / len(hands), abs=1e-15)


def test_count_distribution_sums_to_one_and_mean_is_n_k_over_N() -> None:
    dist = prob.count_distribution(51, 11, 5)
    assert sum(dist) == pytest.approx(1.0, abs=1e-12)
    assert sum(k * p for k, p in enumerate(dist)) == pytest.approx(5 * 11 / 51, abs=1e-12)


def test_sum_distribution_matches_enumeration() -> None:
    values = {1: 3, 2: 4, 3: 2}  # three cards of value 1, four of 2, two of 3
    deck = [1] * 3 + [2] * 4 + [3] * 2
    hands = list(combinations(range(len(deck)), 5))
    exact = {}
    for h in hands:
        s = sum(deck[i] for i in h)
        exact[s] = exact.get(s, 0) + 1
    got = prob.sum_distribution(values, 5)
    assert set(got) == set(exact)
    for s, n in exact.items():
        assert got[s] == pytest.approx(Fraction(n, len(hands)), abs=1e-15)


def test_wilson_interval_known_value() -> None:
    # Wilson 95% for 81 successes in 263 trials, by the closed form:
    lo, hi = prob.wilson_interval(81, 263)
    p, n, z = 81 / 263, 263, 1.959963984540054
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert (lo, hi) == pytest.approx((centre - half, centre + half), abs=1e-12)
    # Newcombe (1998), Table I, example: 81/263 -> Wilson 0.2553 to 0.3662
    assert lo == pytest.approx(0.2553, abs=5e-5)
    assert hi == pytest.approx(0.3662, abs=5e-5)


def test_wilson_interval_edges() -> None:
    lo, hi = prob.wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)  # 0/10: upper bound z²/(n+z²)
    assert prob.wilson_interval(10, 10)[1] == 1.0


def _two_sided_by_enumeration(n: int, p: Fraction) -> list[Fraction]:
    """For every hits = 0..n, the doubled smaller tail, every term an exact rational: the oracle for
    small n (the pmf and its running sums computed once, then read for each count)."""
    pmf = [math.comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(n + 1)]
    below = [Fraction(0)]  # below[k] = P(X < k)
    for term in pmf:
        below.append(below[-1] + term)
    total = below[-1]
    return [min(Fraction(1), 2 * min(below[k + 1], total - below[k])) for k in range(n + 1)]


@pytest.mark.parametrize(("n", "p"), [(1, Fraction(1, 2)), (10, Fraction(3, 10)), (60, Fraction(999, 1000)),
                                      (200, Fraction(1, 1000)), (301, Fraction(1, 2)), (1000, Fraction(719885, 10**6))])
def test_binomial_two_sided_against_exact_rationals(n: int, p: Fraction) -> None:
    tails = _two_sided_by_enumeration(n, p)
    for hits in sorted({0, 1, 2, n // 3, n // 2, n - 2, n - 1, n, *range(0, n + 1, max(1, n // 29))} & set(range(n + 1))):
        want = float(tails[hits])
        assert prob.binomial_two_sided(hits, n, float(p)) == pytest.approx(want, rel=1e-9, abs=1e-300), hits


def test_binomial_two_sided_known_values() -> None:
    # R: binom.test(7, 20, 0.5)$p.value = 0.2632 (symmetric p: R's method and the doubled tail agree)
    assert prob.binomial_two_sided(7, 20, 0.5) == pytest.approx(0.263176, abs=1e-6)
    # issue 21's case: a few of 2,000 hands miss an event of probability 0.999893. The lower tail
    # is P(that many misses or more), misses ~ Binomial(2000, m): 1 - q^2000 - 2000 m q^1999 - ...
    q, m = 0.999893, 1 - 0.999893
    two_or_more = 1 - q ** 2000 - 2000 * m * q ** 1999
    three_or_more = two_or_more - math.comb(2000, 2) * m ** 2 * q ** 1998
    assert prob.binomial_two_sided(1998, 2000, 0.999893) == pytest.approx(2 * two_or_more, rel=1e-6)
    assert prob.binomial_two_sided(1997, 2000, 0.999893) == pytest.approx(2 * three_or_more, rel=1e-6)
    # 3 misses (goldfish --runs 2000 --seed 5 --turns 12): "6.0 standard errors" for the normal
    # approximation, which exited 1; a tail of 0.0029, one correct run in 350 strays as far
    assert (1997 / 2000 - q) / prob.standard_error(q, 2000) == pytest.approx(-6.02, abs=0.01)
    assert 0.0025 < 2 * three_or_more < 0.0032


def test_binomial_two_sided_at_certain_events() -> None:
    assert prob.binomial_two_sided(0, 50, 0.0) == 1.0 and prob.binomial_two_sided(1, 50, 0.0) == 0.0
    assert prob.binomial_two_sided(50, 50, 1.0) == 1.0 and prob.binomial_two_sided(49, 50, 1.0) == 0.0
    assert prob.binomial_two_sided(0, 0, 0.3) == 1.0
    with pytest.raises(ValueError):
        prob.binomial_two_sided(51, 50, 0.5)


@pytest.mark.parametrize(("n", "p"), [(20, 0.5), (200, 0.999893), (500, 0.0005), (2000, 0.719885), (3, 0.9)])
def test_false_alarm_rate_is_at_most_the_level(n: int, p: float) -> None:
    """The chance, summed exactly over every outcome, that a correct count's tail falls below a level a."""
    pmf = [math.comb(n, k) * Fraction(p) ** k * (1 - Fraction(p)) ** (n - k) for k in range(n + 1)] if n <= 500 else None
    tails = [prob.binomial_two_sided(k, n, p) for k in range(n + 1)]
    for level in (0.05, 1e-3, prob.alarm_threshold(3)):
        if pmf is not None:
            alarm = float(sum(w for w, t in zip(pmf, tails) if t < level))
        else:  # floats are plenty for the sum when n is large
            alarm = sum(math.exp(prob._log_pmf(k, n, p)) for k, t in enumerate(tails) if t < level)
        assert alarm <= level * (1 + 1e-9), (level, alarm)


def test_alarm_threshold_splits_one_in_a_million_over_the_events() -> None:
    assert prob.FALSE_ALARM == 1e-6
    assert prob.alarm_threshold(4) == pytest.approx(2.5e-7)
    assert prob.alarm_threshold(0) == prob.FALSE_ALARM


def test_binomial_two_sided_is_fast_at_ten_million_runs() -> None:
    import time

    started = time.perf_counter()
    for hits in (5_000_000, 5_003_000, 4_990_000):  # the slowest case: p = 1/2, at and near the mean
        assert 0.0 <= prob.binomial_two_sided(hits, 10_000_000, 0.5) <= 1.0
    assert prob.binomial_two_sided(9_998_930, 10_000_000, 0.999893) > 0.9  # the expected count itself
    assert time.perf_counter() - started < 2.0  # milliseconds alone; generous under a loaded machine
    # far out: 0.5% too many hits at 10 million draws is about 31 standard deviations
    assert prob.binomial_two_sided(5_050_000, 10_000_000, 0.5) < 1e-200
