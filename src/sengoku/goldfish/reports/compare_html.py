"""`compare --html FILE`: a comparison of decks as one self-contained HTML page.

Built from the goldfish page's parts (`goldfish.html_report`): the same head, style and
Content-Security-Policy (the page loads nothing), each deck's cards and kill turn through the
same section functions, under their own id prefix. The verdicts come first, with the
opening-hand check; then every difference against the baseline with its 95% interval as tables
(each verdict in words), the win curves of all the decks on one chart, told apart by dash
pattern and marker as well as colour, each deck's kill turn and cards; and last the
comparison's options and the one `sengoku compare` command that reproduces the page.
The same comparison gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path

from sengoku.goldfish.reports.command import shell_command
from sengoku.goldfish.reports.compare_report import compare_opponent, opening_hand_check
from sengoku.goldfish.compare_result import CompareResult
from sengoku.goldfish.statistics.differences import KILL_TURN_MEAN, WON_BY_TURN
from sengoku.goldfish.reports.summary import percent
from sengoku.goldfish.reports.html_report import (deck_section, deck_title, document, facts_table, kill_turn_section,
                                          option_args, table)
from sengoku.goldfish.reports.svg import Line, chart
from sengoku.version import __version__

OPENING_HAND = "opening_hand"
PER_TURN = (("ap_main", "AP at the start of the Main Phase"), ("allies", "Allies in play"))


def label(k: int) -> str:
    """A deck's short name on the page: [0] is the baseline."""
    return f"[{k}]"


def _signed(x: float | None, digits: int = 2, scale: float = 1.0) -> str:
    return "–" if x is None else f"{scale * x:+.{digits}f}"


def _plain(x: float | None, digits: int = 2, scale: float = 1.0) -> str:
    return "–" if x is None else f"{scale * x:.{digits}f}"


def _interval(ci: Sequence[float | None] | None, digits: int = 2, scale: float = 1.0) -> str:
    if ci is None:  # fewer than two runs, or no spread: no interval (the row's `no_interval` says why)
        return "none"
    return f"{_signed(ci[0], digits, scale)} to {_signed(ci[1], digits, scale)}"


def _verdict(row: dict[str, object]) -> str:
    return f"{row['verdict']} ({row['no_interval']})" if row.get("no_interval") else str(row["verdict"])


def reproduce_command(result: CompareResult, *, db: Path | str | None = None,
                      html: Path | str | None = None) -> str:
    """Return the one `sengoku compare` command that plays the same runs (every option spelled out)."""
    args = option_args(result.baseline, commander=False)
    if result.precision is not None:  # --runs is the runs played: the rounds end where they ended
        args += ["--precision", str(result.precision["target"])]
    if db is not None:
        args += ["--db", str(db)]
    if html is not None:
        args += ["--html", str(html)]
    return shell_command(["sengoku", "compare"], result.paths, args)


def run_section(result: CompareResult, command: str) -> str:
    """The comparison's options, seed, versions and card database, and the command that reproduces it."""
    base = result.baseline
    facts = [
        ("Decks", f"{len(result.decks)}; {label(0)} is the baseline"),
        ("Runs × turns", f"{result.runs:,} runs of every deck × {result.turns} turns, run i of every deck "
                         "from the same seeds"),
    ]
    if result.precision is not None:
        p = result.precision
        width = "no interval yet" if p["half_width"] is None else f"±{p['half_width']:.3f}"
        facts.append(("Precision", f"±{p['target']} turns: {'reached' if p['reached'] else 'NOT reached'} "
                                   f"({width}) after rounds ending at "
                                   + ", ".join(f"{r['runs']:,}" for r in p["rounds"]) + " runs"))
    db = base.card_db
    facts += [
        ("Seed", str(base.seed)), ("Going", base.going), ("Policy", base.policy), ("Mode", base.mode),
        ("Commander", "each deck's own (S1)"),
        ("Opponent", compare_opponent(result)),
        ("After a win", "plays on to the last turn" if base.play_on else "the game stops"),
        ("Card database", f"{db['name']} {db['version']}" + (" (sample set)" if db.get("sample") else "")),
        ("Card database SHA-256", db["sha256"]),
        ("sengoku version", __version__),
    ]
    return ('<section id="c-run"><h2>How this was made</h2>\n'
            "<p>This command plays the same runs again and writes this page (same sengoku version, "
            "decks and card database):</p>\n"
            f"<pre><code>{escape(command)}</code></pre>\n{facts_table(facts)}</section>")


def verdicts_section(result: CompareResult) -> str:
    """The answer first: each deck's verdicts against the baseline, in words, and the opening-hand check."""
    rows = [(f"{label(k)} {v['deck']}", v["kill_turn"], v["won_by_last_turn"])
            for k, v in enumerate(result.verdicts(), start=1)]
    return ('<section id="c-verdicts"><h2>Verdicts against the baseline</h2>\n'
            f"<p>Baseline: {label(0)} {escape(result.paths[0])}. A deck is better or worse only when the 95% "
            "interval of its difference leaves out 0; without an interval (fewer than two runs, or no spread) "
            "there is no verdict.</p>\n"
            + table(("deck", "mean kill turn (lower is better)",
                     f"won by the end of turn {result.turns} (higher is better)"), rows, table_id="c-verdict-table")
            + f"\n<p>{escape('Opponent: ' + compare_opponent(result))}</p>"
            + f"\n<p>{escape(opening_hand_check(result))}</p></section>")


def differences_section(result: CompareResult) -> str:
    """Every difference row (deck − baseline) with its 95% interval and verdict, one table per measure."""
    labels = {path: label(k) for k, path in enumerate(result.paths)}  # the verdicts table names them
    parts = []
    kill = [(labels[r["deck"]], _plain(r["base_value"]), _plain(r["value"]), _signed(r["diff"]),
             _interval(r["ci95"]), _interval(r["unpaired_ci95"]), _verdict(r))
            for r in result.rows(KILL_TURN_MEAN)]
    parts.append(table(("deck", "baseline mean", "deck mean", "diff", "95% interval (paired)",
                        "95% interval (unpaired)", "verdict"), kill, numeric=(False,) + (True,) * 5,
                       caption=f"Mean kill turn over every run, a run not won counting as {result.turns + 1} "
                               "(turns; lower is better)", table_id="c-diff-kill_turn_mean"))
    won = [(labels[r["deck"]], r["turn"], _plain(r["base_value"], 1, 100), _plain(r["value"], 1, 100),
            _signed(r["diff"], 1, 100), _interval(r["ci95"], 1, 100), _verdict(r)) for r in result.rows(WON_BY_TURN)]
    parts.append(table(("deck", "turn", "baseline %", "deck %", "diff (points)", "95% interval", "verdict"), won,
                       numeric=(False,) + (True,) * 5, caption="Won by the end of the turn (% of runs; higher is "
                       "better)", table_id=f"c-diff-{WON_BY_TURN}"))
    for measure, title in PER_TURN:
        rows = [(labels[r["deck"]], r["turn"], f"{r['games']:,}", _plain(r["base_value"]), _plain(r["value"]),
                 _signed(r["diff"]), _interval(r["ci95"]), _verdict(r)) for r in result.rows(measure)]
        parts.append(table(("deck", "turn", "runs", "baseline mean", "deck mean", "diff", "95% interval", "verdict"),
                           rows, numeric=(False,) + (True,) * 6, table_id=f"c-diff-{measure}",
                           caption=f"{title}: mean over the runs both decks still played that turn"))
    events = {p["event"]: p["label"] for p in result.baseline.opening_hand["probabilities"]}
    hand = []
    for r in result.differences:
        if r["measure"].startswith(OPENING_HAND + ":"):
            event = r["measure"].split(":", 1)[1]
            exact = r["exact"]
            hand.append((labels[r["deck"]], events.get(event, event), _plain(exact["base_value"], 2, 100),
                         _plain(exact["value"], 2, 100), _signed(exact["diff"], 2, 100),
                         _signed(r["diff"], 2, 100), _interval(r["ci95"], 2, 100), _verdict(r)))
    parts.append(table(("deck", "event", "exact baseline %", "exact deck %", "exact diff (points)",
                        "simulated diff (points)", "95% interval", "verdict"), hand,
                       numeric=(False, False) + (True,) * 5, table_id=f"c-diff-{OPENING_HAND}",
                       caption="Opening hand: exact and simulated differences (the verdict follows the exact one)"))
    return ('<section id="c-differences"><h2>Differences against the baseline</h2>\n'
            "<p>Each value is deck − baseline on the same runs, with its paired 95% interval. The kill turn and "
            "the win curve say better or worse; the per-turn means and the opening hand only higher or "
            "lower, since more is not always better there.</p>\n" + "\n".join(parts) + "</section>")


def win_curves_section(result: CompareResult) -> str:
    """Every deck's win curve (% of runs won by the end of each turn) on one chart, and as a table."""
    turns = [row["turn"] for row in result.baseline.kill_turn["by_turn"]]
    shares = [[row["cumulative"]["fraction"] for row in d.kill_turn["by_turn"]] for d in result.decks]
    curves = [[100 * f for f in fractions] for fractions in shares]
    names = [f"{label(k)} baseline" if k == 0 else label(k) for k in range(len(result.decks))]
    desc = "% of runs won by the end of each turn. " + "; ".join(
        f"{name} {path}: " + ", ".join(f"turn {t} {percent(f)}" for t, f in zip(turns, fs))
        for name, path, fs in zip(names, result.paths, shares)) + "."
    svg = chart("c-win-curve", f"Win curves on the same {result.runs:,} runs", desc, xs=turns, x_label="turn",
                y_label="% of runs won by the turn's end", y_max=100, y_suffix="%",
                lines=[Line(name, ys, style=k) for k, (name, ys) in enumerate(zip(names, curves))])
    rows = [(t, *(percent(fs[i]) for fs in shares)) for i, t in enumerate(turns)]
    return ('<section id="c-win-curves"><h2>Win curves</h2>\n'
            "<p>" + "; ".join(f"{escape(label(k))}: {escape(path)}" for k, path in enumerate(result.paths)) + ".</p>\n"
            f'<div class="columns"><figure>{svg}</figure>\n'
            + table(("turn", *(f"{label(k)} %" for k in range(len(result.decks)))), rows,
                    numeric=(True,) * (1 + len(result.decks)), caption="Won by the end of the turn",
                    table_id="c-win-table")
            + "</div></section>")


def decks_section(result: CompareResult) -> str:
    """The decks side by side: each one's cards by section with counts, and its Commander."""
    columns = []
    for k, (path, d) in enumerate(zip(result.paths, result.decks)):
        role = "baseline" if k == 0 else "deck"
        c = d.commander
        columns.append(f'<div class="deck-column">'
                       + deck_section(d, f"d{k}", heading=f"{label(k)} {role}: {deck_title(d)}", level=3)
                       + f"<p>File: <code>{escape(path)}</code>. Commander (S1): {escape(c['name'])} "
                       f"({escape(c['epithet'])}, {escape(c['id'])}).</p></div>")
    return ('<section id="c-decks"><h2>Decks side by side</h2>\n'
            f'<div class="columns">{"".join(columns)}</div></section>')


def kill_turns_section(result: CompareResult) -> str:
    """Each deck's kill-turn chart and table."""
    parts = [kill_turn_section(d, f"d{k}", heading=f"{label(k)} {path}", level=3)
             for k, (path, d) in enumerate(zip(result.paths, result.decks))]
    return '<section id="c-kill-turns"><h2>Kill turn, deck by deck</h2>\n' + "\n".join(parts) + "</section>"


def render_compare_html(result: CompareResult, command: str) -> str:
    """Return the comparison as one HTML page; `command` reproduces it."""
    base = result.baseline
    lead = (f"{len(result.decks)} decks on the same {result.runs:,} runs × {result.turns} turns, going {base.going}, "
            f"policy {base.policy}, {base.mode} mode, seed {base.seed}; {label(0)} is the baseline.")
    if not result.ok:
        lead += " A simulated opening-hand probability is far from its exact value: a bug in the simulation."
    title = "Compare: " + " vs ".join(deck_title(d) for d in result.decks)
    # the answer first (the verdicts), then the details, then how the page was made
    return document(title, lead, (verdicts_section(result), differences_section(result), win_curves_section(result),
                                  kill_turns_section(result), decks_section(result), run_section(result, command)))

