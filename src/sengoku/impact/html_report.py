"""`impact --html FILE`: the report as one self-contained HTML page (the goldfish page's head, style and charts).

The answer in words first, then a chart of every measured card's effect, ranked, with its paired
95% interval as a band and 0 (no effect) as a line; the table with the association columns
beside it, labelled as associations; the options, the opponent and the command that reproduces
it. The same race gives the same bytes.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from sengoku.goldfish.reports.command import policy_args, shell_command
from sengoku.goldfish.reports.html_report import document, facts_table, table
from sengoku.goldfish.reports.svg import Band, Line, chart
from sengoku.impact.report import _scale, answer_lines, association_note, heading_words, table_rows
from sengoku.impact.result import ImpactResult


def reproduce_command(result: ImpactResult, *, db: Path | str | None = None, html: Path | str | None = None) -> str:
    """Return the `sengoku impact` command that makes the same report (every option spelled out)."""
    o = result.options
    args = ["--objective", str(result.objective), "--precision", f"{result.precision:g}", "--budget",
            str(result.budget), "--error-rate", f"{result.error_rate:g}", "--drawn-by", str(result.drawn_by),
            "--seed", str(o.seed), "--turns", str(o.turns), "--going", o.going, *policy_args(o.policy),
            "--mode", str(o.mode)]
    for filler in result.fillers:
        args += ["--filler", filler]
    for cid in result.only:
        args += ["--card", cid]
    if o.commander is not None:
        args += ["--commander", o.commander]
    if o.opponent is not None:
        args += ["--opponent", str(result.opponent.get("deck"))]
    if o.opponent_defends:
        args.append("--opponent-defends")
    if o.play_on:
        args.append("--play-on")
    if db is not None:
        args += ["--db", str(db)]
    if html is not None:
        args += ["--html", str(html)]
    return shell_command(["sengoku", "impact"], [result.path], args)


def effects_chart(result: ImpactResult) -> str:
    """The measured cards' effects, best first, with their paired 95% intervals as a band and 0 as a line."""
    scale, digits, unit = _scale(result)
    measured = [c for c in result.ranked() if c.sums is not None]
    xs = list(range(1, len(measured) + 1))
    effects = [scale * c.sums.mean for c in measured]  # type: ignore[union-attr]
    lows = [None if c.ci95 is None else scale * c.ci95[0] for c in measured]
    highs = [None if c.ci95 is None else scale * c.ci95[1] for c in measured]
    desc = ("The effect of one copy fewer, card by card in the order of the answer: "
            + ", ".join(f"{x} {c.subject.label}: {e:+.{digits}f}" for x, c, e in zip(xs, measured, effects)) + ".")
    return chart("i-effects", "Each card's effect, one copy fewer", desc, xs=xs, x_label="rank (see the table)",
                 y_label=f"effect ({unit.strip()})",
                 lines=[Line("effect of one copy fewer", effects), Line("no effect", [0.0] * len(xs), style=1)],
                 band=Band("paired 95% interval", lows, highs))


def render_impact_html(result: ImpactResult, command: str) -> str:
    """Return the report as one HTML page; `command` reproduces it."""
    h = heading_words(result)
    words = "\n".join(f"<li>{escape(line.strip())}</li>" if line.startswith("  ") else
                      f"</ul><h3>{escape(line.rstrip(':'))}</h3><ul>" for line in answer_lines(result))
    answer = (f'<section id="i-answer"><h2>The answer</h2>\n<p>{escape(h["method"])}. {escape(h["correction"])}.</p>'
              f"<ul>{words}</ul></section>").replace("<ul></ul>", "")
    figure = ""
    if result.measured:
        figure = (f'<section id="i-chart"><h2>Effects and their intervals</h2>\n<div class="columns"><figure>'
                  f"{effects_chart(result)}</figure></div></section>")
    header, rows = table_rows(result)
    numeric = (True, False) + (True,) * (len(header) - 2)
    cards = ('<section id="i-cards"><h2>Every card</h2>\n'
             + table(header, rows, numeric=numeric, table_id="i-table",
                     caption="effect: the card's deck − the full deck, run by run; the last four columns are "
                             "associations, not effects")
             + f"<p>{escape(association_note(result))}</p></section>")
    facts = [("Deck", result.path), ("Objective", h["objective"]), ("Options", h["options"]),
             ("Opponent", h["opponent"]), ("Precision", h["precision"]), ("Correction", h["correction"])]
    run = ('<section id="i-run"><h2>How this was made</h2>\n<p>This command makes the same report (same sengoku '
           f"version, deck and card database):</p>\n<pre><code>{escape(command)}</code></pre>\n{facts_table(facts)}"
           "</section>")
    lead = f"{h['title']}. Opponent: {h['opponent']}. Options: {h['options']}."
    return document(f"Impact: {result.deck_name or result.path}", lead, (answer, figure, cards, run))
