"""Exact opening-hand probabilities and the intervals we put around simulated ones.

Everything exact is counted with integers (`math.comb`) and divided once at the end, so the
values are exact rationals rounded to a float — no scipy (importing `scipy.stats` alone costs
about a second, more than a whole `sengoku goldfish` run).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

Z95 = 1.959963984540054  # two-sided 95% normal quantile
FLAG_SE = 4.0  # a simulated value this many standard errors from exact means a bug


def hypergeom_pmf(total: int, successes: int, draws: int, k: int) -> float:
    """Return P(exactly k successes) drawing `draws` cards from `total` holding `successes`."""
    return math.comb(successes, k) * math.comb(total - successes, draws - k) / math.comb(total, draws)


def hypergeom_at_least(total: int, successes: int, draws: int, k: int = 1) -> float:
    """Return P(at least k successes) drawing `draws` from `total` cards holding `successes`."""
    return multivariate_at_least(total, [(successes, k)], draws)


def multivariate_at_least(total: int, groups: Sequence[tuple[int, int]], draws: int) -> float:
    """Return P(every group i shows at least need_i cards) in a hand of `draws` from `total`.

    `groups` are (size, need) of disjoint sets of cards; the rest of the deck is neutral.
    Counts the hands of the multivariate hypergeometric exactly, then divides once.
    """
    sizes = [s for s, _ in groups]
    if sum(sizes) > total or draws > total or draws < 0:
        raise ValueError("groups larger than the deck, or a hand larger than the deck")
    rest = total - sum(sizes)
    # ways[j] = number of ways to pick j cards from the groups seen so far, each meeting its need
    ways = {0: 1}
    for size, need in groups:
        nxt: dict[int, int] = {}
        for used, w in ways.items():
            for k in range(max(need, 0), min(size, draws - used) + 1):
                nxt[used + k] = nxt.get(used + k, 0) + w * math.comb(size, k)
        ways = nxt
    good = sum(w * math.comb(rest, draws - used) for used, w in ways.items())
    return good / math.comb(total, draws)


def count_distribution(total: int, successes: int, draws: int) -> list[float]:
    """Return [P(K = 0), …, P(K = draws)] for the number of successes in the hand."""
    return [hypergeom_pmf(total, successes, draws, k) for k in range(draws + 1)]


def sum_distribution(values: Mapping[int, int], draws: int) -> dict[int, float]:
    """Return the exact distribution of the summed value of a hand of `draws` cards.

    `values` maps a card value (e.g. charge value) to how many cards in the deck carry it.
    Counts hands by (cards taken, running sum) group by group with binomial weights.
    """
    total = sum(values.values())
    # ways[(cards, value sum)] -> number of hands
    ways: dict[tuple[int, int], int] = {(0, 0): 1}
    for value, count in sorted(values.items()):
        nxt: dict[tuple[int, int], int] = {}
        for (used, s), w in ways.items():
            for k in range(0, min(count, draws - used) + 1):
                key = (used + k, s + k * value)
                nxt[key] = nxt.get(key, 0) + w * math.comb(count, k)
        ways = nxt
    hands = math.comb(total, draws)
    return {s: w / hands for (used, s), w in sorted(ways.items(), key=lambda kv: kv[0][1]) if used == draws}


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval for a binomial proportion (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # at 0 or n successes the bound is exactly 0 or 1; say so rather than 1 − 1e-16
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def standard_error(p: float, n: int) -> float:
    """Return the standard error of a proportion estimated from n draws when its truth is p."""
    return math.sqrt(p * (1 - p) / n) if n > 0 else math.inf


def z_score(simulated: float, exact: float, n: int) -> float:
    """Return how many standard errors (under the exact p) the simulated value lies from it."""
    se = standard_error(exact, n)
    if se == 0:
        return 0.0 if simulated == exact else math.inf
    return (simulated - exact) / se


def mean_of(distribution: Iterable[tuple[int, float]]) -> float:
    """Return the mean of a distribution given as (value, probability) pairs."""
    return sum(v * p for v, p in distribution)
