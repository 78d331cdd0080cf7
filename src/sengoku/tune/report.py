"""The text report of a tune: what was tuned for, the path of accepted changes, why it stopped, the checks."""

from __future__ import annotations

import math

from sengoku.display import printable
from sengoku.tune.result import STOPS, Pairwise, TuneResult


def _v(x: float | None, digits: int) -> str:
    return "–" if x is None or not math.isfinite(x) else f"{x:.{digits}f}"


def _s(x: float | None, digits: int) -> str:
    return "–" if x is None or not math.isfinite(x) else f"{x:+z.{digits}f}"  # z: never "-0.00"


def _scale(result: TuneResult) -> tuple[float, int, str]:
    """Kill turns print as turns; won-by shares as percentage points."""
    return (1.0, 2, " turns") if result.objective.lower_is_better else (100.0, 1, " points")


def tuned_for(result: TuneResult) -> str:
    """Say which player, seat and opponent the result is optimal for."""
    opp = result.opponent
    return (f"policy {result.policy}, going {result.going}, {result.turns} turns, {result.mode} mode, against "
            f"{printable(str(opp.get('deck')))} ({'defending' if opp.get('defends') else 'making no optional choice'})")


def start_words(result: TuneResult) -> str:
    """The start deck's value and the runs it was measured on, which no other figure of the report shares.

    Each change's "before" and the check's "start" are the same deck on other, fresh runs: they differ by chance.
    """
    scale, digits, _ = _scale(result)
    looks = result.races[0].looks if result.races else ()
    if result.start_value is None or not looks:
        return "– (no race was played)"
    value = f"{scale * result.start_value:.{digits}f}{' turns' if result.objective.lower_is_better else '%'}"
    return (f"{value} on the first screening look's {looks[0][2]:,} runs; each change and check below plays fresh "
            "runs of its own, so its \"before\" or \"start\" differs from this by chance")


def _pairwise_line(title: str, p: Pairwise, scale: float, digits: int, unit: str) -> str:
    return (f"{title} (policy {p.policy}, {p.runs:,} fresh runs from run {p.run_start:,}): start {_v(scale * p.start, digits)}, "
            f"final {_v(scale * p.final, digits)}, final − start {_s(scale * p.diff, digits)}{unit} "
            + (f"[{_s(scale * p.ci95[0], digits)}, {_s(scale * p.ci95[1], digits)}] (paired 95% interval)"
               if p.ci95 is not None else f"(no interval: {p.no_interval})"))


def render_text(result: TuneResult, output: str | None = None) -> str:
    """Return the report; `output` is where the final deck was written (None: it is printed here)."""
    scale, digits, unit = _scale(result)
    lines = [f"Tuned {printable(result.path)} for {tuned_for(result)}.",
             f"Objective: {result.objective.describe()}. Seed {result.seed}; one-sided error rate "
             f"{result.error_rate} per accepted change; smallest gain worth racing for {scale * result.min_gain:g}{unit}.",
             f"Start: {start_words(result)}.",
             ""]
    if result.steps:
        lines.append("Accepted changes (each: the new deck − the one before, on the fresh runs that confirmed it):")
        header = ("step", "change", "before", "after", "diff", "95% interval", "bound", "level", "runs", "games")
        rows = [(str(k), printable(s.label), _v(scale * s.before, digits), _v(scale * s.after, digits),
                 _s(scale * s.diff, digits), f"[{_s(scale * s.ci95[0], digits)}, {_s(scale * s.ci95[1], digits)}]",
                 _s(scale * s.bound, digits + 1), f"{s.level:.1e}", f"{s.runs:,}", f"{s.games:,}")
                for k, s in enumerate(result.steps, start=1)]
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        for r in [header, tuple("-" * w for w in widths), *rows]:
            lines.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip())
        lines.append("(bound: the one-sided lower confidence bound of the gain that accepted the change, at the "
                     "level shown: Bonferroni over the finalists the screening kept, spending sequences over the "
                     "confirmation's looks and the attempts; runs: the confirmation's; games: the whole race's)")
    else:
        lines.append("No change accepted: the start deck stays.")
        if result.notice:
            lines.append(f"Notice: {result.notice}.")
    lines.append("")
    races = len(result.races)
    lines.append(f"Stopped: {STOPS[result.stopped]}. {result.games:,} games of a budget of {result.budget:,} "
                 f"in {races} race(s) of {sum(r.candidates for r in result.races):,} legal candidates in all.")
    if result.check is not None:
        lines.append(_pairwise_line("Check, final deck against the start", result.check, scale, digits, unit))
    if result.verify is not None:
        lines.append(_pairwise_line("Verify, final deck against the start", result.verify, scale, digits, unit))
    lines.append(f"The result is the best deck found for {tuned_for(result)}; another policy or opponent may "
                 "rank decks differently (--verify N plays it with the search policy).")
    lines.append("")
    if output is not None:
        lines.append(f"Final deck written to {printable(output)} (canonical form).")
    else:
        lines.append("Final deck (canonical form; -o FILE writes it):")
        lines.append(result.decklist_text().rstrip("\n"))
    return "\n".join(lines) + "\n"
