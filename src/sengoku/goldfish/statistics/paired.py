"""95% intervals for `compare` and `--precision`: means from integer sums, and paired proportions.

Every interval here is computed from integer sums (games, sum of values, sum of squares) or
integer 2x2 counts, which chunks merge exactly, so results are the same for any `--jobs`.

- A mean (or a mean of per-game paired differences): the t interval,
  mean ± t(0.975, n - 1) · s / √n.
- Two independent means (only to show what pairing saves): Welch's interval.
- A difference of paired proportions: Newcombe's hybrid score interval without continuity
  correction (Newcombe 1998, "Improved confidence intervals for the difference between
  binomial proportions based on paired data", Statistics in Medicine 17:2635-2650, method 10),
  built from the two Wilson intervals and the phi coefficient of the 2x2 table.

An interval needs at least two games and some spread between them: with one game, or with
every game giving the same value, the t and Welch intervals are undefined (a standard error of
0 says nothing about the next game), so they are None, `no_interval` says why, and no verdict
is drawn from them. The score intervals of proportions (Wilson, Newcombe) are built to stay
meaningful when every game agrees, and need two games too.

The t quantile is exact (tabulated) up to 30 degrees of freedom and above that the
Cornish-Fisher expansion of Student's t around the normal quantile (Abramowitz & Stegun
26.7.5), whose error there is below 1e-6: no scipy needed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from sengoku.goldfish.statistics.probability import Z95, wilson_interval

# t(0.975, df) for df = 1..30 (standard tables, 4 decimals are more than the output shows).
_T975 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
         2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
         2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423)


@lru_cache(maxsize=1024)  # a race asks it for the same few run counts of thousands of candidates
def t975(df: float) -> float:
    """Return Student's t 0.975 quantile for `df` degrees of freedom (two-sided 95%)."""
    if df < 1:
        return math.inf
    if df <= len(_T975) and float(df).is_integer():
        return _T975[int(df) - 1]
    z = Z95
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


# Why an interval is undefined (`no_interval` in the JSON rows).
FEWER_THAN_TWO = "fewer than two runs"
NO_SPREAD = "no spread: every run gave the same value"


@dataclass
class Sums:
    """Games, sum and sum of squares of one integer per game: mergeable exactly."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, value: int) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value

    def merge(self, other: Sums) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else math.nan

    def variance(self) -> float:
        """Return the sample variance (n - 1), from an exact integer numerator."""
        n = self.n
        return (n * self.squares - self.total * self.total) / (n * (n - 1)) if n > 1 else math.nan

    def interval(self) -> tuple[float, float] | None:
        """Return the t interval of the mean; None when undefined (see `no_interval`)."""
        if self.no_interval() is not None:
            return None
        half = t975(self.n - 1) * math.sqrt(self.variance() / self.n)
        return (self.mean - half, self.mean + half)

    def no_interval(self) -> str | None:
        """Return why the mean has no interval (fewer than two games, or no spread), or None."""
        if self.n < 2:
            return FEWER_THAN_TWO
        if self.n * self.squares == self.total * self.total:
            return NO_SPREAD
        return None

    def half_width(self) -> float | None:
        """Return the half-width of the t interval; None when it is undefined."""
        ci = self.interval()
        return None if ci is None else (ci[1] - ci[0]) / 2


def welch_interval(a: Sums, b: Sums) -> tuple[float, float] | None:
    """Return Welch's interval for mean(b) - mean(a), treating the two samples as independent.

    None when undefined: either sample has fewer than two games, or neither has any spread.
    """
    if a.n < 2 or b.n < 2:
        return None
    va, vb = a.variance() / a.n, b.variance() / b.n
    diff = b.mean - a.mean
    se2 = va + vb
    if se2 == 0:
        return None
    df = se2 * se2 / ((va * va / (a.n - 1)) + (vb * vb / (b.n - 1)))
    half = t975(df) * math.sqrt(se2)
    return (diff - half, diff + half)


def newcombe_paired(both: int, base_only: int, deck_only: int, neither: int) -> tuple[float, float, float]:
    """Return (diff, low, high) for P(deck) - P(baseline) from a paired 2x2 table (Newcombe method 10).

    `both`: games where the event happened for both decks; `base_only` / `deck_only`: for one
    of them only (the discordant pairs); `neither`. With no discordant pair and identical
    margins the difference is 0 but the interval is not [0, 0] (it reflects the uncertainty of
    each proportion); `compare` reports [0, 0] only for a deck against itself.
    """
    n = both + base_only + deck_only + neither
    if n == 0:
        return (math.nan, math.nan, math.nan)
    p_base = (both + base_only) / n
    p_deck = (both + deck_only) / n
    diff = (deck_only - base_only) / n
    l1, u1 = wilson_interval(both + base_only, n)
    l2, u2 = wilson_interval(both + deck_only, n)
    denominator = (both + base_only) * (deck_only + neither) * (both + deck_only) * (base_only + neither)
    phi = (both * neither - base_only * deck_only) / math.sqrt(denominator) if denominator else 0.0
    # Difference deck - baseline: its lower end pairs the deck's lower with the baseline's upper error.
    dl, du = p_deck - l2, u2 - p_deck
    bl, bu = p_base - l1, u1 - p_base
    delta = math.sqrt(max(0.0, dl * dl - 2 * phi * dl * bu + bu * bu))
    eps = math.sqrt(max(0.0, du * du - 2 * phi * du * bl + bl * bl))
    return (diff, max(-1.0, diff - delta), min(1.0, diff + eps))
