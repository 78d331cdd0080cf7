"""`tune --html FILE`: the tune as one self-contained HTML page (the goldfish page's head, style and charts).

The path of accepted changes as a chart (the objective after each change, with each change's
paired 95% interval as a band) and as a table, the races, the checks, the options and the
command that reproduces it, and the final decklist. The same tune gives the same bytes.
"""

from __future__ import annotations

import math
from html import escape
from pathlib import Path

from sengoku.goldfish.reports.command import policy_args, shell_command
from sengoku.goldfish.reports.html_report import document, facts_table, table
from sengoku.goldfish.reports.svg import Band, Line, chart
from sengoku.tune.report import start_words, tuned_for
from sengoku.tune.result import METHOD, STOPS, TuneResult


def reproduce_command(result: TuneResult, *, db: Path | str | None = None, output: Path | str | None = None,
                      html: Path | str | None = None) -> str:
    """Return the `sengoku tune` command that makes the same tune (every option spelled out)."""
    args = ["--objective", str(result.objective), "--budget", str(result.budget),
            "--seed", str(result.seed), "--turns", str(result.turns), "--going", result.going,
            *policy_args(result.options.policy), "--mode", result.mode, "--error-rate", str(result.error_rate),
            "--min-gain", str(result.min_gain)]
    if result.max_changes is not None:
        args += ["--max-changes", str(result.max_changes)]
    if result.pool_source != "card database":
        args += ["--pool", result.pool_source]
    if result.opponent.get("deck") != result.path:
        args += ["--opponent", str(result.opponent.get("deck"))]
    if result.opponent.get("defends"):
        args.append("--opponent-defends")
    if result.play_on:
        args.append("--play-on")
    args += ["--check", str(result.check.runs if result.check else 0)]
    if result.verify is not None:
        args += ["--verify", str(result.verify.runs)]
    if db is not None:
        args += ["--db", str(db)]
    if output is not None:
        args += ["-o", str(output)]
    if html is not None:
        args += ["--html", str(html)]
    return shell_command(["sengoku", "tune"], [result.path], args)


def _fmt(x: float, scale: float, digits: int, sign: bool = False) -> str:
    return f"{scale * x:+z.{digits}f}" if sign else f"{scale * x:z.{digits}f}"  # z: never "-0.00"


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None  # an unbounded end is left out of the band


def render_tune_html(result: TuneResult, command: str, output: str | None = None) -> str:
    """Return the tune as one HTML page; `command` reproduces it."""
    better = result.objective.lower_is_better
    scale, digits, unit = (1.0, 2, "turns") if better else (100.0, 1, "%")
    steps = result.steps
    start = result.start_value if result.start_value is not None else (steps[0].before if steps else 0.0)
    xs = list(range(len(steps) + 1))
    values = [scale * start] + [scale * s.after for s in steps]
    lows = [None] + [_finite(scale * (s.before + s.ci95[0])) for s in steps]
    highs = [None] + [_finite(scale * (s.before + s.ci95[1])) for s in steps]
    desc = (f"{result.objective.describe()} after each accepted change: "
            + ", ".join(f"{x}: {v:.{digits}f}" for x, v in zip(xs, values)) + ".")
    svg = chart("t-path", "The path of accepted changes", desc, xs=xs, x_label="changes accepted",
                y_label=f"{result.objective.name} ({unit})", lines=[Line("deck after the change", values)],
                band=Band("paired 95% interval of the change", lows, highs))
    rows = [(k, s.label, _fmt(s.before, scale, digits), _fmt(s.after, scale, digits), _fmt(s.diff, scale, digits, True),
             f"{_fmt(s.ci95[0], scale, digits, True)} to {_fmt(s.ci95[1], scale, digits, True)}",
             f"{s.level:.1e}", f"{s.runs:,}", f"{s.candidates:,}", f"{s.games:,}")
            for k, s in enumerate(steps, start=1)]
    path = ('<section id="t-path"><h2>Accepted changes</h2>\n'
            f"<p>Each change: the new deck − the one before, on the fresh runs that confirmed it. Start: "
            f"{escape(start_words(result))}.</p>\n"
            f'<div class="columns"><figure>{svg}</figure></div>\n'
            + table(("step", "change", "before", "after", "diff", "95% interval (paired)", "level", "runs", "candidates",
                     "games"), rows, numeric=(True, False) + (True,) * 8, table_id="t-path-table",
                    caption=f"{result.objective.describe()}; level: the one-sided level the change was accepted at")
            + "</section>")
    races = [(k, f"{r.candidates:,}", f"{r.refused:,}", ", ".join(f"{stage} {a}: {n:,}:{left}" for stage, a, n, left in r.looks),
              f"{r.games:,}", r.outcome) for k, r in enumerate(result.races, start=1)]
    race_section = ('<section id="t-races"><h2>Races</h2>\n'
                    + table(("race", "legal candidates", "refused by the validator", "looks (stage attempt: runs:still racing)",
                             "games", "outcome"), races, numeric=(True, True, True, False, True, False),
                            table_id="t-race-table") + "</section>")
    checks = []
    for title, p in (("Check", result.check), ("Verify", result.verify)):
        if p is not None:
            checks.append((title, f"policy {p.policy}, {p.runs:,} fresh runs: start {_fmt(p.start, scale, digits)}, final "
                                  f"{_fmt(p.final, scale, digits)}, diff {_fmt(p.diff, scale, digits, True)} "
                                  + (f"({_fmt(p.ci95[0], scale, digits, True)} to {_fmt(p.ci95[1], scale, digits, True)})"
                                     if p.ci95 is not None else f"(no interval: {p.no_interval})")))
    facts = [("Start deck", result.path), ("Tuned for", tuned_for(result)),
             ("Objective", result.objective.describe()), ("Seed", str(result.seed)),
             ("Budget", f"{result.budget:,} games; {result.games:,} played"),
             ("Stopped", STOPS[result.stopped]), ("Method", METHOD),
             ("Pool", f"{result.pool} cards from the {result.pool_source}"), *checks]
    if output is not None:
        facts.append(("Final deck file", output))
    run = ('<section id="t-run"><h2>How this was made</h2>\n<p>This command makes the same tune (same sengoku '
           f"version, deck and card database):</p>\n<pre><code>{escape(command)}</code></pre>\n{facts_table(facts)}"
           "</section>")
    deck = ('<section id="t-deck"><h2>Final deck</h2>\n<p>In canonical form, as <code>sengoku fmt</code> writes it.</p>\n'
            f"<pre><code>{escape(result.decklist_text())}</code></pre></section>")
    lead = (f"{len(steps)} change(s) accepted from {result.path}, {result.games:,} games; "
            f"tuned for {tuned_for(result)}.")
    return document(f"Tune: {result.like.name or result.path}", lead, (path, race_section, run, deck))
