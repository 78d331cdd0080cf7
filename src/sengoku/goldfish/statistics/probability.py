"""Exact opening-hand probabilities, the intervals we put around simulated ones, and the check between them.

Everything exact is counted with integers (`math.comb`) and divided once at the end, so the
values are exact rationals rounded to a float — no scipy (importing `scipy.stats` alone costs
about a second, more than a whole `sengoku goldfish` run).

The check (`binomial_two_sided`, `alarm_threshold`): a simulated count of hits is compared
with the exact probability by the exact binomial tail, not by a normal approximation, which
fails near 0 and 1 (3 misses in 2,000 hands of an event of probability 0.999893 are "6
standard errors" off, yet a correct simulation shows as many in about one run in 700). The threshold is split over every
event checked in one run (Bonferroni), so a correct simulation raises an alarm in fewer than
`FALSE_ALARM` of its runs, however many events it checks. docs/simulation-checks.md has the
method.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

Z95 = 1.959963984540054  # two-sided 95% normal quantile
FALSE_ALARM = 1e-6  # the chance that a correct simulation is flagged, all events of the run together


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


def alarm_threshold(events: int) -> float:
    """Return the two-sided tail below which one of `events` checks of a run raises an alarm.

    Bonferroni: if each check alarms with chance at most FALSE_ALARM / events when the
    simulation is right, the run alarms with chance at most FALSE_ALARM, whatever the
    dependence between the events.
    """
    return FALSE_ALARM / max(1, events)


def binomial_two_sided(hits: int, n: int, p: float) -> float:
    """Return the exact two-sided binomial tail of `hits` in `n` draws of probability `p`.

    That is min(1, 2 · min(P(X ≤ hits), P(X ≥ hits))) for X ~ Binomial(n, p): the chance
    that a correct simulation strays at least this far on the side it strayed, doubled. It
    never falls below a level `a` with chance above `a` (each one-sided tail is a valid
    p-value), at any p and any n.
    """
    if not 0 <= hits <= n:
        raise ValueError(f"{hits} hits in {n} draws")
    if n == 0:
        return 1.0
    if p <= 0.0:
        return 1.0 if hits == 0 else 0.0
    if p >= 1.0:
        return 1.0 if hits == n else 0.0
    at = math.exp(_log_pmf(hits, n, p))
    if hits <= n * p:  # on the low side: sum down from `hits`, the other tail is the rest
        low = _sum_away(hits, n, p, at, -1)
        high = 1.0 - low + at
    else:
        high = _sum_away(hits, n, p, at, 1)
        low = 1.0 - high + at
    return min(1.0, 2.0 * min(low, high))


def round_tail(tail: float) -> float:
    """Return a tail probability to three significant digits, as reports give (and judge) it."""
    return float(f"{tail:.3g}")


def _log_pmf(k: int, n: int, p: float) -> float:
    """Return log P(X = k) for X ~ Binomial(n, p), 0 < p < 1 (log-space: n may be 10 million)."""
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def _sum_away(k: int, n: int, p: float, at: float, step: int) -> float:
    """Return the sum of P(X = j) from j = k outwards (`step` -1: down to 0, +1: up to n).

    `k` lies on the side of the mean the sum moves away from, so the terms only fall. The
    ratio of neighbouring terms falls too (the binomial is log-concave): once the term times
    r / (1 - r), r the current ratio, bounds the rest below 1e-15 of the sum, the sum is
    complete to double precision. That takes a few standard deviations' worth of terms:
    about 15,000 steps at 10 million draws and p = 1/2, milliseconds.
    """
    odds = p / (1.0 - p)
    total = term = at
    j = k
    while 0 < j if step < 0 else j < n:
        ratio = j / ((n - j + 1) * odds) if step < 0 else (n - j) * odds / (j + 1)
        term *= ratio
        j += step
        total += term
        if ratio < 1.0 and term * ratio <= (1.0 - ratio) * total * 1e-15:
            break
    return total


def mean_of(distribution: Iterable[tuple[int, float]]) -> float:
    """Return the mean of a distribution given as (value, probability) pairs."""
    return sum(v * p for v, p in distribution)
