"""`goldfish(check_player=N)`: how far the policy played is from a search, on this deck (SPEC G6).

The kill turn measures the deck only while the policy that plays it is about as good as a
search would be. This check plays the first N of the run's deals again with the `search` policy
(the same seeds: run i is the same deal, G7) and pairs each deal's two kill turns (a game not won
counting as turns + 1). The gap is the mean of the per-deal differences, policy minus search
(positive: the policy wins later), with the paired t interval `compare` uses
(`statistics.paired.Sums`: no interval under two deals or without spread).

The verdict reads the interval against `THRESHOLD`, G6's goal of 0.1 turns:
- `WITHIN`: the whole interval lies within ±0.1 turns, and the words give its far end
  ("the player is within 0.05 turns of a search on this deck");
- `NOT_WITHIN`: the whole interval lies beyond +0.1 (or below -0.1) turns: a warning that the
  kill turn measures the player as well as the deck;
- `CANNOT_TELL`: the interval reaches across ±0.1 turns, or there is none: more deals narrow it.

The search plays with the policy's own settings when it is `greedy` (its rollouts play greedy),
with its defaults otherwise.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sengoku.goldfish.errors import GoldfishError
from sengoku.goldfish.options import PolicySpec
from sengoku.goldfish.statistics.kill_turn import kill_turn_value
from sengoku.goldfish.statistics.paired import Sums

if TYPE_CHECKING:  # pragma: no cover
    from sengoku.goldfish.play.simulate import Plan

THRESHOLD = 0.1  # turns: G6's goal, the gap a kill turn may owe the player
SEARCH = "search"
DEALS_PER_JOB = 4  # a search game costs a good part of a second: a process is worth a few deals
WITHIN, NOT_WITHIN, CANNOT_TELL = "within", "not within", "cannot tell"
DIGITS = 4


def search_spec(policy: PolicySpec) -> PolicySpec:
    """The search the policy is checked against: with greedy's settings when the policy is greedy."""
    return PolicySpec(SEARCH, policy.settings if policy.name == "greedy" else ())


def check_deals(deals: Any, runs: int, policy: PolicySpec) -> int:
    """Refuse a deal count the check cannot play (GoldfishError, exit 2); return it."""
    if not isinstance(deals, int) or isinstance(deals, bool) or deals < 1:
        raise GoldfishError(f"the player check needs a number of deals from 1 to the runs ({runs}), not {deals!r}")
    if deals > runs:
        raise GoldfishError(f"the player check plays {deals} of the run's deals again, but the run has {runs}: "
                            f"check at most {runs} deals (or play more runs)")
    if policy.name == SEARCH:
        raise GoldfishError("the player check measures the policy played against a search, and the policy "
                            "played is the search: check another policy")
    return deals


@dataclass(frozen=True)
class PlayerCheck:
    """The paired kill-turn gap, policy minus search, on the first `deals` deals of a run, and its verdict."""

    deals: int
    policy: PolicySpec
    search: PolicySpec
    turns: int
    gap: Sums  # per-deal differences of the kill turn, policy - search
    policy_total: int  # the policy's kill turns summed over the deals (a game not won: turns + 1)
    search_total: int  # the search's

    @property
    def mean_gap(self) -> float:
        return self.gap.mean

    @property
    def interval(self) -> tuple[float, float] | None:
        return self.gap.interval()

    @property
    def verdict(self) -> str:
        ci = self.interval
        if ci is None:
            return CANNOT_TELL
        lo, hi = ci
        if -THRESHOLD <= lo and hi <= THRESHOLD:
            return WITHIN
        if lo > THRESHOLD or hi < -THRESHOLD:
            return NOT_WITHIN
        return CANNOT_TELL

    @property
    def far_end(self) -> float | None:
        """The interval's end farthest from 0, rounded up to the hundredth the words show."""
        ci = self.interval
        return None if ci is None else math.ceil(round(max(abs(ci[0]), abs(ci[1])) * 100, 6)) / 100

    def words(self) -> str:
        """The verdict in one sentence, with the gap and its interval."""
        n, ci = self.deals, self.interval
        gap = f"mean gap {self.mean_gap:+.2f} turns, policy minus search"
        if ci is None:
            return (f"cannot tell at {n} deals how far the player is from a search on this deck "
                    f"({gap}; no interval: {self.gap.no_interval()})")
        interval = f"{gap}, 95% interval {ci[0]:+.2f} to {ci[1]:+.2f}"
        verdict = self.verdict
        if verdict == WITHIN:
            return f"the player is within {self.far_end:.2f} turns of a search on this deck ({interval}, {n} deals)"
        if verdict == NOT_WITHIN:
            later = "later" if self.mean_gap > 0 else "sooner"
            return (f"the player is not within {THRESHOLD} turns of a search on this deck: it wins "
                    f"{abs(self.mean_gap):.2f} turns {later} ({interval}, {n} deals), so the kill turn measures "
                    "the player as well as the deck")
        return (f"cannot tell at {n} deals whether the player is within {THRESHOLD} turns of a search on this "
                f"deck ({interval}); more deals narrow the interval")

    def to_dict(self) -> dict[str, Any]:
        """The check as the JSON prints it (`check_player`)."""
        ci = self.interval
        return {
            "deals": self.deals,
            "policy": self.policy.to_json(),
            "search": self.search.to_json(),
            "threshold": THRESHOLD,
            "never_counts_as": self.turns + 1,
            "mean_kill_turn": {"policy": round(self.policy_total / self.deals, DIGITS),
                               "search": round(self.search_total / self.deals, DIGITS)},
            "gap": round(self.mean_gap, DIGITS),
            "ci95": None if ci is None else [round(ci[0], DIGITS), round(ci[1], DIGITS)],
            "no_interval": self.gap.no_interval(),
            "verdict": self.verdict,
            "message": self.words(),
        }


def check_player(plan: Plan, run_kill_turns: Sequence[int], deals: int, jobs: int,
                 progress: Callable[[int], None] | None = None) -> PlayerCheck:
    """Play runs 0..deals-1 of `plan` again with the search and pair them with `run_kill_turns` (0: not won).

    `run_kill_turns` are the run's own kill turns in run order (`Tally.per_run`). The search's
    games go through the run path and pool every simulation uses (`play.simulate.play_all`);
    `progress(done)` counts its deals.
    """
    # deferred: the engine, which the reports that read a check's verdict do not need
    from sengoku.goldfish.play.simulate import play_all

    spec = search_spec(plan.options.policy)
    search_plan = dataclasses.replace(plan.with_options(policy=spec), kill_turns=True)
    searched = play_all(search_plan, deals, jobs, progress, per_job=DEALS_PER_JOB).per_run
    assert searched is not None  # kill_turns=True keeps them
    turns = plan.options.turns
    gap, mine, theirs = Sums(), 0, 0
    for played, search in zip(run_kill_turns[:deals], searched):
        a, b = kill_turn_value(played or None, turns), kill_turn_value(search or None, turns)
        mine, theirs = mine + a, theirs + b
        gap.add(a - b)
    return PlayerCheck(deals, plan.options.policy, spec, turns, gap, mine, theirs)
