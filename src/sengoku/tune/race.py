"""The race's statistics: how much a candidate improves on the incumbent, and when to keep, accept or drop it.

Every candidate plays the same runs as the incumbent (common random numbers, `goldfish.pairs`),
so each run gives one paired improvement: for the kill-turn objective the incumbent's kill turn
minus the candidate's (a run not won counting as turns + 1), for won-by:T the candidate's
"won by the end of turn T" minus the incumbent's (-1, 0 or 1). Their integer sums
(`goldfish.paired.Sums`) merge exactly, so every decision below is the same for any --jobs or
number of cluster workers.

A step races in two stages, each on its own fresh run indices (`tune.tuner`):
- **screening** (`screen_cut`) ranks every candidate on shared runs and keeps the best few (the
  finalists). It accepts nothing, so it needs no correction however many candidates it ranks;
- **confirmation** races only the finalists on runs the screening never saw. At look j of the
  confirmation of attempt a (the looks come after 100, 200, 400, ... runs), among m finalists,
  a finalist is **accepted** when the one-sided lower confidence bound of its mean improvement at
  level a_j = α · 6/(π² a²) / m · 6/(π² j²) is above 0 (Student's t). Given the finalists, their
  confirmation runs are independent of the screening that chose them, so Bonferroni over the m
  finalists and two spending sequences (over looks and over attempts, each adding up to 1) keep
  the chance that a step accepts a change that is no improvement at most α.

In both stages a candidate is **dropped** as soon as the upper end of its paired 95% interval
(compare's interval, `Sums.interval`) is below the smallest gain worth having (`min_gain`): it
cannot improve by that much; or below the lower end of the leader's (the candidate with the
highest lower end): it is not the best (the rule of Hoeffding races, Maron & Moore 1994).
Dropping and screening never accept anything, so they need no correction: a wrong drop costs a
better deck, never the error rate.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from operator import add
from statistics import NormalDist
from typing import Any

from sengoku.goldfish.statistics.kill_turn import kill_turn_value
from sengoku.goldfish.statistics.paired import Sums, t975

KILL_TURN = "kill-turn"
WON_BY = "won-by"


@dataclass(frozen=True)
class Objective:
    """What `tune` improves: the mean kill turn (lower is better) or P(won by the end of turn T) (higher is better)."""

    name: str  # KILL_TURN or WON_BY
    turn: int | None = None  # T, for WON_BY

    def __reduce__(self) -> tuple[Any, ...]:  # pickled with every task of a race: as its fields
        return Objective, (self.name, self.turn)

    @staticmethod
    def parse(text: str, turns: int) -> Objective:
        """Read `kill-turn` or `won-by:T` (1 <= T <= turns); raise ValueError saying what is expected."""
        word = text.strip().lower()
        if word == KILL_TURN:
            return Objective(KILL_TURN)
        name, _, t = word.partition(":")
        if name == WON_BY and t.strip().isdigit() and 1 <= int(t) <= turns:
            return Objective(WON_BY, int(t))
        raise ValueError(f"--objective must be 'kill-turn' or 'won-by:T' with T from 1 to --turns ({turns}), "
                         f"not {text!r}")

    def __str__(self) -> str:
        return self.name if self.turn is None else f"{self.name}:{self.turn}"

    @property
    def lower_is_better(self) -> bool:
        return self.name == KILL_TURN

    def describe(self) -> str:
        if self.name == KILL_TURN:
            return "mean kill turn (a run not won counts as turns + 1; lower is better)"
        return f"share of runs won by the end of turn {self.turn} (higher is better)"

    def value(self, kill: int, turns: int) -> int:
        """Return one run's value: its kill turn (turns + 1 when not won), or 1/0 for won by turn T."""
        if self.name == KILL_TURN:
            return kill
        return 1 if kill <= (self.turn or 0) else 0

    def improvement(self, pairs: Counter[tuple[int, int]], turns: int) -> Sums:
        """Return the sums of the per-run improvements from the joint counts (incumbent's, candidate's kill turn)."""
        sums = Sums()
        sign = -1 if self.lower_is_better else 1
        for (base, deck), runs in pairs.items():
            d = sign * (self.value(deck, turns) - self.value(base, turns))
            sums.n += runs
            sums.total += runs * d
            sums.squares += runs * d * d
        return sums

    def mean_value(self, kills: Counter[int | None], turns: int) -> float:
        """Return the objective's mean over runs tallied by kill turn (None: not won)."""
        n = sum(kills.values())
        total = sum(self.value(kill_turn_value(k, turns), turns) * c for k, c in kills.items())
        return total / n if n else math.nan


def t_quantile(p: float, df: float) -> float:
    """Return Student's t quantile at probability `p` (> 0.5) for `df` degrees of freedom.

    The Cornish-Fisher expansion around the normal quantile (Abramowitz & Stegun 26.7.5), as
    `goldfish.paired.t975`: a race's first look has 50 runs, where its error is far below
    what the decisions can feel.
    """
    if df < 1:
        return math.inf
    z = NormalDist().inv_cdf(p)
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


def spend(look: int) -> float:
    """Return the share of a level spent at look (or attempt) `look` = 1, 2, ...: 6 / (pi^2 j^2), summing to 1."""
    return 6 / (math.pi ** 2 * look * look)


def look_level(alpha: float, finalists: int, look: int, attempt: int = 1) -> float:
    """Return the one-sided level of confirmation look `look` of attempt `attempt` among `finalists` finalists."""
    return alpha * spend(attempt) / max(1, finalists) * spend(look)


def screen_cut(means: dict[int, float], keep: int) -> list[int]:
    """Return the `keep` candidates (index -> mean improvement) with the highest means, best first; ties by index.

    Screening's only decision: it depends on the screening runs alone, which the confirmation
    never plays again, so choosing by the largest means (the luckiest, too) costs no error rate.
    """
    return sorted(means, key=lambda k: (-means[k], k))[:max(0, keep)]


def lower_bound(sums: Sums, level: float) -> float:
    """Return the one-sided lower confidence bound of the mean improvement at `level`."""
    if sums.no_interval() is not None:
        # One run, or every run alike: no interval, so no evidence either way (compare's rule)
        return -math.inf
    return sums.mean - t_quantile(1 - level, sums.n - 1) * math.sqrt(sums.variance() / sums.n)


def interval95(sums: Sums) -> tuple[float, float] | None:
    """Return compare's paired 95% interval of the mean: None without one (fewer than two runs, or no
    spread; `Sums.no_interval` says which), the one rule compare and tune report by."""
    return sums.interval()


def drop_range(sums: Sums, ci: tuple[float, float] | None = None) -> tuple[float, float]:
    """Return the range the drop rules compare: the 95% interval (`ci`, when worked out already); without
    one, the mean itself when every run gave the same improvement (a candidate that played alike so far is
    judged by that value, which drops it at worst: never an acceptance), unbounded below two runs."""
    ci = interval95(sums) if ci is None else ci
    if ci is not None:
        return ci
    if sums.n >= 2:
        return (sums.mean, sums.mean)
    return (-math.inf, math.inf)


class Gains:
    """Per racing candidate, the sums of its per-run improvements: three lists of integers (runs, sum, sum of
    squares), in the order the candidates race, merged a task's slice at a time.

    A screening look of a large pool judges tens of thousands of candidates: lists of integers merge
    and judge in a few microseconds a candidate where a `Sums` object each cost tens.
    """

    __slots__ = ("n", "total", "squares")

    def __init__(self, count: int) -> None:
        self.n, self.total, self.squares = [0] * count, [0] * count, [0] * count

    def __len__(self) -> int:
        return len(self.n)

    def merge(self, at: int, n: Sequence[int], total: Sequence[int], squares: Sequence[int]) -> None:
        """Add a task's sums of the candidates at positions at, at + 1, ..."""
        end = at + len(n)
        self.n[at:end] = map(add, self.n[at:end], n)
        self.total[at:end] = map(add, self.total[at:end], total)
        self.squares[at:end] = map(add, self.squares[at:end], squares)

    def sums(self, k: int) -> Sums:
        return Sums(self.n[k], self.total[k], self.squares[k])

    def means(self) -> list[float]:
        return [t / n if n else math.nan for t, n in zip(self.total, self.n)]

    def kept(self, positions: Sequence[int]) -> Gains:
        """Return the sums of the candidates at `positions` (in that order), the others dropped."""
        out = Gains(0)
        out.n, out.total, out.squares = ([v[k] for k in positions] for v in (self.n, self.total, self.squares))
        return out

    @staticmethod
    def of(sums: Sequence[Sums]) -> tuple[list[int], list[int], list[int]]:
        """Return `Sums` records as the three lists a task sends."""
        return [s.n for s in sums], [s.total for s in sums], [s.squares for s in sums]


def screen_survivors(gains: Gains, min_gain: float) -> list[int]:
    """Return the positions of the candidates a screening look keeps racing: those `judge` (level None) does not drop.

    The same arithmetic as `judge` on each candidate's `Sums` (compare's interval, `drop_range`, the
    leader), so the same floats and the same verdicts, without a `Sums` or a `Verdict` per candidate.
    """
    inf = math.inf
    los: list[float] = []
    his: list[float] = []
    for n, total, squares in zip(gains.n, gains.total, gains.squares):
        if n < 2:  # no interval, fewer than two runs: unbounded
            los.append(-inf)
            his.append(inf)
            continue
        spread = n * squares - total * total
        mean = total / n
        if spread == 0:  # no interval, no spread: the mean itself
            los.append(mean)
            his.append(mean)
            continue
        half = t975(n - 1) * math.sqrt(spread / (n * (n - 1)) / n)
        los.append(mean - half)
        his.append(mean + half)
    leader = max((lo for lo in los if not math.isnan(lo)), default=-inf)
    floor = max(leader, min_gain)
    return [k for k, hi in enumerate(his) if not hi < floor]


@dataclass(frozen=True)
class Verdict:
    """What a look says of one candidate."""

    accept: bool
    drop: bool
    mean: float  # mean improvement per run (objective units; > 0 is better)
    bound: float  # the lower confidence bound at the look's level
    ci95: tuple[float, float] | None  # 95% interval of the mean improvement (None: none, `Sums.no_interval`)


def judge(racing: list[Sums], level: float | None, min_gain: float) -> list[Verdict]:
    """Accept, drop or keep racing each candidate, given the sums of its per-run improvements.

    `level` None (screening) accepts nothing: its bound is -inf and only the drop rules apply.
    """
    intervals = [interval95(s) for s in racing]
    ranges = [drop_range(s, ci) for s, ci in zip(racing, intervals)]
    leader = max((lo for lo, _ in ranges if not math.isnan(lo)), default=-math.inf)
    verdicts = []
    for sums, (lo, hi), ci in zip(racing, ranges, intervals):
        bound = -math.inf if level is None else lower_bound(sums, level)
        accept = bound > 0
        drop = not accept and (hi < min_gain or hi < leader)
        verdicts.append(Verdict(accept=accept, drop=drop, mean=sums.mean, bound=bound, ci95=ci))
    return verdicts
