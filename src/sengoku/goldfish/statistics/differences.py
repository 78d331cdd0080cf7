"""`compare`'s differences: each measure of a deck against the baseline, with a 95% interval and a verdict.

Rows (dicts, JSON-ready) hold `measure`, `turn` (None where it does not apply), `deck`,
`baseline`, `value` (the deck's), `base_value` (the baseline's), `diff` (deck - baseline),
`ci95` and `verdict`:

- `kill_turn_mean`: the mean kill turn over every run, a run never won counting as turns + 1;
  paired t interval on the per-run differences (and, to show what pairing saves,
  `unpaired_ci95`: Welch's interval as if the decks had been simulated independently).
  Lower is better.
- `won_by_turn`: P(won by the end of turn t), per turn; Newcombe's paired interval. Higher is better.
- `ap_main`, `allies`: the per-turn mean over the runs both decks still played that turn
  (`games`); paired t interval. Only "higher" or "lower": more is not always better.
- `opening_hand:<event>`: the simulated probabilities with Newcombe's paired interval, and
  `exact` (the hypergeometric values and their difference). The verdict follows the exact
  difference.

A deck identical to the baseline plays exactly the baseline's games (same streams): every
difference is 0 and every interval [0, 0], known exactly rather than estimated.

An interval that cannot be computed (fewer than two runs; for a mean, no spread between the
runs) is None, `no_interval` says why, and the verdict is `NO_VERDICT`: one run decides
nothing, and a spread of 0 in a sample says nothing about the next run.
"""

from __future__ import annotations

import math
from typing import Any

from sengoku.goldfish.statistics.kill_turn import kill_turn_sums
from sengoku.goldfish.play.pairs import COMPARED, Pairing
from sengoku.goldfish.statistics.paired import FEWER_THAN_TWO, Sums, newcombe_paired, welch_interval
from sengoku.goldfish.result import GoldfishResult

BETTER, WORSE, UNDECIDED = "better", "worse", "no difference detectable at this precision"
NO_VERDICT = "no verdict"  # the interval is undefined: `no_interval` says why
HIGHER, LOWER, SAME = "higher", "lower", "same"
KILL_TURN_MEAN = "kill_turn_mean"
WON_BY_TURN = "won_by_turn"
DIGITS = 6


def verdict(ci: tuple[float, float] | None, lower_is_better: bool | None) -> str:
    """Return better/worse (or higher/lower when neither is better) when the interval excludes 0.

    No interval, no verdict (`NO_VERDICT`).
    """
    if ci is None:
        return NO_VERDICT
    lo, hi = ci
    if lo > 0:
        return (WORSE if lower_is_better else BETTER) if lower_is_better is not None else HIGHER
    if hi < 0:
        return (BETTER if lower_is_better else WORSE) if lower_is_better is not None else LOWER
    return UNDECIDED


def _r(x: float | None) -> float | None:
    return None if x is None or math.isnan(x) else round(x, DIGITS)


def _ci(ci: tuple[float, float] | None) -> list[float | None] | None:
    return None if ci is None else [_r(ci[0]), _r(ci[1])]


def _row(measure: str, turn: int | None, deck: str, baseline: str, value: float, base_value: float,
         diff: float, ci: tuple[float, float] | None, lower_is_better: bool | None, no_interval: str | None,
         **extra: Any) -> dict[str, Any]:
    return {"measure": measure, "turn": turn, "deck": deck, "baseline": baseline, "value": _r(value),
            "base_value": _r(base_value), "diff": _r(diff), "ci95": _ci(ci),
            "no_interval": None if ci is not None else no_interval,
            "verdict": verdict(ci, lower_is_better), **extra}


def _proportions(table: tuple[int, int, int, int] | list[int]) -> tuple[float, tuple[float, float] | None]:
    """Return the paired difference of a 2x2 table and its Newcombe interval (None under two runs)."""
    diff, lo, hi = newcombe_paired(*table)
    return diff, ((lo, hi) if sum(table) >= 2 else None)


def differences(paths: list[str], results: list[GoldfishResult], pairings: list[Pairing],
                identical: list[bool]) -> list[dict[str, Any]]:
    """Return the rows of every deck after the first against the first (the baseline)."""
    base, base_path = results[0], paths[0]
    turns = base.turns
    base_kill = kill_turn_sums(_kill_counts(base), turns)
    rows = []
    for path, result, pairing, same in zip(paths[1:], results[1:], pairings, identical[1:]):
        # a deck against itself: every difference is 0 by construction, its interval exactly [0, 0]
        fixed = (lambda ci, d: (d, d)) if same else (lambda ci, d: ci)  # noqa: E731
        kill = pairing.kill_sums()
        deck_kill = kill_turn_sums(_kill_counts(result), turns)
        rows.append(_row(KILL_TURN_MEAN, None, path, base_path, deck_kill.mean, base_kill.mean, kill.mean,
                         fixed(kill.interval(), kill.mean), True, kill.no_interval(), never_counts_as=turns + 1,
                         unpaired_ci95=_ci(fixed(welch_interval(base_kill, deck_kill), kill.mean)),
                         games=kill.n))
        for t in range(1, turns + 1):
            table = pairing.won_by(t)
            n = sum(table)
            diff, ci = _proportions(table)
            rows.append(_row(WON_BY_TURN, t, path, base_path, (table[0] + table[2]) / n,
                             (table[0] + table[1]) / n, diff, fixed(ci, diff), False, FEWER_THAN_TWO))
        for m in COMPARED:
            for t in range(turns):
                d: Sums = pairing.diff[m][t]
                if not d.n:
                    continue
                b = pairing.base_total[m][t] / d.n
                rows.append(_row(m, t + 1, path, base_path, b + d.mean, b, d.mean, fixed(d.interval(), d.mean), None,
                                 d.no_interval(), games=d.n))
        rows += _opening_rows(path, base_path, result, base, pairing, fixed)
    return rows


def _opening_rows(path: str, base_path: str, result: GoldfishResult, base: GoldfishResult, pairing: Pairing,
                  fixed: Any) -> list[dict[str, Any]]:
    rows = []
    deck_events = {p["event"]: p for p in result.opening_hand["probabilities"]}
    base_events = [p for p in base.opening_hand["probabilities"] if p["event"] in deck_events]
    for event, table in zip(base_events, pairing.events):
        mine = deck_events[event["event"]]
        n = sum(table)
        diff, ci = _proportions(table)
        exact_diff = mine["exact"] - event["exact"]
        row = _row(f"opening_hand:{event['event']}", None, path, base_path, (table[0] + table[2]) / n,
                   (table[0] + table[1]) / n, diff, fixed(ci, diff), None, FEWER_THAN_TWO,
                   exact={"value": mine["exact"], "base_value": event["exact"], "diff": _r(exact_diff)})
        row["verdict"] = HIGHER if exact_diff > 0 else LOWER if exact_diff < 0 else SAME
        rows.append(row)
    return rows


def _kill_counts(result: GoldfishResult) -> dict[int | None, int]:
    """Return a result's kill-turn counts (turn -> games; None: never won) from its summary."""
    counts: dict[int | None, int] = {row["turn"]: row["games"] for row in result.kill_turn["by_turn"]}
    counts[None] = result.kill_turn["never"]["games"]
    return counts

