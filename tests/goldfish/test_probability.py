"""Exact opening-hand probabilities and Wilson intervals against hand-computed values."""

import math
import random
from fractions import Fraction
from itertools import combinations

import pytest

from sengoku.goldfish import probability as prob


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


def test_z_score_flags_a_biased_sample() -> None:
    rng = random.Random(1)
    exact = prob.hypergeom_at_least(49, 3, 5)
    n = 20000
    deck = [1, 1, 1] + [0] * 46
    hits = sum(1 for _ in range(n) if sum(rng.sample(deck, 5)) >= 1)
    assert abs(prob.z_score(hits / n, exact, n)) <= prob.FLAG_SE
    assert abs(prob.z_score(exact + 0.02, exact, n)) > prob.FLAG_SE  # 2 points off at n=20000 is ~6 SE
