"""The text report of a goldfish simulation: rich tables, the AP chart and the win curve, for a terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape
from rich.table import Table
from rich.text import Span, Text

from sengoku.display import printable
from sengoku.goldfish.reports.chart import band_chart, win_chart
from sengoku.goldfish.reports.summary import percent, summary_lines

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from sengoku.goldfish.result import GoldfishResult

# What each engine measure means, for table rows (names are the engine's MEASURES).
MEASURE_LABELS = {
    "ap_main": "AP at Main Phase start",
    "ap_charge_base": "AP from AP Charge (base)",
    "ap_charge_cards": "AP from charged cards",
    "ap_growth_focus": "AP from Growth/Focus",
    "ap_spent": "AP spent",
    "ap_end": "AP left at end",
    "allies": "allies in play",
    "highest_level": "highest level in play",
    "hp_total": "total HP in play",
    "hand": "cards in hand",
    "stronghold": "Stronghold cards left",
    "opp_stronghold_hp": "opponent's Stronghold HP",
    "attacks": "attacks declared",
    "stronghold_hits": "Stronghold hits",
    "allies_lost": "allies lost",
}


_pct = percent  # a share of games: never "100.0%" unless every game


def _bound(p: float) -> str:
    """An interval's end, rounded as usual."""
    return f"{100 * p:.1f}%"


def _cell(s: str) -> Text:
    """A table cell shown as is: rich parses a `str` cell for markup and emoji codes, which costs
    start-up time and changes nothing in cells of numbers and fixed words."""
    return Text(s)


def _pct_cell(p: float) -> Text:
    return Text(_pct(p))


def _lines(console: Console, lines: list[str]) -> None:
    """Print a chart's lines, in one call (each call costs rich its own layout pass)."""
    if lines:
        console.print("\n".join(lines), markup=False, highlight=False)


def render(result: GoldfishResult, console: Console) -> None:
    """Print the whole report to `console`: a short summary first, then the details."""
    r = result
    console.print(
        f"[bold]Goldfish[/bold] {escape(printable(r.deck.get('name') or r.deck.get('path') or 'deck'))} — {r.runs} runs × {r.turns} turns, "
        f"going {r.going}, policy {r.policy}, {r.mode} mode, seed {r.seed}"
        + (", playing on after a win" if r.play_on else "")
    )
    cmd = r.commander
    console.print(f"Commander: {escape(cmd['name'])} ({escape(cmd['epithet'])}, {escape(cmd['id'])})"
                  f"{'' if cmd['chosen'] == 'named' else ' — chosen by S1'}; "
                  f"card DB {escape(r.card_db['name'])} {escape(r.card_db['version'])}")
    for line in summary_lines(r):  # an opponent's path or a want's name is shown, never obeyed
        # the player check's sentence stays one line (a terminal wraps it; a file or a search keeps it whole)
        console.print(printable(line), markup=False, highlight=False, soft_wrap=line.startswith("Player check"))
    console.print()
    _kill_turn(r, console)

    oh = r.opening_hand
    t = Table(title=f"Opening hand: {oh['hand_size']} cards from a {oh['deck_size']}-card Stronghold "
                    f"(turn-1 AP {oh['turn1_ap']})", title_justify="left",
              caption=f"check: the exact two-sided binomial tail of each simulated count; an alarm below "
                      f"{oh['check']['threshold']:.3g} each: one correct run in a million for all "
                      f"{oh['check']['events']}", caption_justify="left")
    for col, justify in (("event", "left"), ("exact", "right"), ("simulated", "right"),
                         ("95% interval", "right"), ("check", "left")):
        t.add_column(col, justify=justify)  # type: ignore[arg-type]
    for p in oh["probabilities"]:
        lo, hi = p["ci95"]
        check = "ok" if p["ok"] else f"[bold red]ALARM: tail {p['tail']:.3g}[/bold red]"
        t.add_row(escape(p["label"]), _pct_cell(p["exact"]), _pct_cell(p["simulated"]),
                  _cell(f"{_bound(lo)}–{_bound(hi)}"), check)
    console.print(t)

    cv = oh["charge_value"]
    t = Table(title="Hand's total charge value", title_justify="left",
              caption=f"mean {cv['mean']['exact']} exact, {cv['mean']['simulated']} simulated",
              caption_justify="left")
    t.add_column("total", justify="right")
    rows = [row for row in cv["distribution"] if row["exact"] >= 0.0005 or row["simulated"] > 0]
    t.add_column("exact", justify="right")
    t.add_column("simulated", justify="right")
    for row in rows:
        t.add_row(_cell(str(row["total"])), _pct_cell(row["exact"]), _pct_cell(row["simulated"]))
    console.print(t)

    t = Table(title="Cards of each level in the hand (exact / simulated)", title_justify="left")
    t.add_column("level")
    t.add_column("in deck", justify="right")
    sizes = range(oh["hand_size"] + 1)
    for k in sizes:
        t.add_column(f"{k} cards", justify="right")
    for lv in oh["levels"]:
        cells = [_cell(f"{_pct(d['exact'])} / {_pct(d['simulated'])}") for d in lv["distribution"]]
        t.add_row(_cell(f"Level {lv['level']}"), _cell(str(lv["in_deck"])), *cells)
    console.print(t)

    _curve_table(r, console)

    console.print("AP at the start of the Main Phase (ap_main):")
    _lines(console, band_chart(r.curve, "ap_main"))

    t = Table(title="First Level 3 / 4 ally", title_justify="left",
              caption="turn on which an ally of that level is first in play", caption_justify="left")
    t.add_column("turn", justify="right")
    t.add_column("Level 3", justify="right")
    t.add_column("Level 4", justify="right")
    for a, b in zip(r.first_level3["by_turn"], r.first_level4["by_turn"]):
        t.add_row(_cell(str(a["turn"])), _pct_cell(a["fraction"]), _pct_cell(b["fraction"]))
    t.add_row(_cell(f"never in {r.turns}"), _pct_cell(r.first_level3["never"]["fraction"]),
              _pct_cell(r.first_level4["never"]["fraction"]))
    if r.first_level3["won_before"]["games"] or r.first_level4["won_before"]["games"]:
        t.add_row(_cell("won before"), _pct_cell(r.first_level3["won_before"]["fraction"]),
                  _pct_cell(r.first_level4["won_before"]["fraction"]))
    console.print(t)

    s = r.skipped_abilities
    console.print(f"Abilities without a structured effect, not simulated (C5): {s['total']} "
                  f"({s['per_game']} per game).")
    for message in r.to_dict()["errors"]:
        console.print(f"[bold red]error:[/bold red] {escape(printable(message))} — this is a bug, please report it")


def _kill_turn(r: GoldfishResult, console: Console) -> None:
    """The kill turn (G5): a table of games won on / by each turn, then the cumulative win chart."""
    k = r.kill_turn
    t = Table(title="Kill turn (G5)", title_justify="left")
    for col in ("turn", "won on", "won by"):
        t.add_column(col, justify="right")
    for row in k["by_turn"]:
        t.add_row(_cell(str(row["turn"])), _pct_cell(row["fraction"]), _pct_cell(row["cumulative"]["fraction"]))
    t.add_row(_cell(f"never in {r.turns}"), _pct_cell(k["never"]["fraction"]), "")
    console.print(t)
    if k["won"]["games"]:
        console.print(f"Over the games won: mean turn {k['mean']:.2f}, p10 · p50 · p90 = "
                      f"{k['p10']} · {k['p50']} · {k['p90']}.")
    every = k["mean_all_games"]
    if every["mean"] is not None:
        ci = every["ci95"]
        interval = (f"95% interval {ci[0]:.2f}–{ci[1]:.2f}" if ci is not None
                    else f"no interval: {every['no_interval']}")
        console.print(f"Over every game, a game not won counting as {every['never_counts_as']}: mean turn "
                      f"{every['mean']:.2f} ({interval}).")
    if k["won"]["games"]:
        console.print("Games won by the end of each turn:")
        _lines(console, win_chart(k["by_turn"]))


def _curve_table(r: GoldfishResult, console: Console) -> None:
    stopped = not r.play_on and any(row["games"] < r.runs for row in r.curve)
    t = Table(title="Per turn: mean, then p10 · p50 · p90", title_justify="left",
              caption="over the games still being played that turn (a won game stops at its win)"
              if stopped else None, caption_justify="left")
    t.add_column("measure")
    for row in r.curve:
        t.add_column(f"T{row['turn']}", justify="right")
    if stopped:
        t.add_row(_cell("games played"), *(_cell(str(row["games"])) for row in r.curve))
    for m in r.measures:
        cells = []
        for row in r.curve:
            s: dict[str, Any] | None = row[m]
            cells.append(_cell("—") if s is None else _mean_and_percentiles(s))
        t.add_row(_cell(MEASURE_LABELS.get(m, m)), *cells)
    console.print(t)


def _mean_and_percentiles(s: dict[str, Any]) -> Text:
    """The mean, then p10·p50·p90 dimmed on the line below."""
    mean = f"{s['mean']:.1f}\n"
    percentiles = f"{s['p10']}·{s['p50']}·{s['p90']}"
    return Text(mean + percentiles, spans=[Span(len(mean), len(mean) + len(percentiles), "dim")])


def validation_report(validation: object) -> str:
    """Return the validator's own text report of a deck refused for simulation."""
    # deferred: the validator's reporters are start-up time of every report of a valid deck
    from sengoku.validate.api import ValidationRun
    from sengoku.validate.reporters import render as render_validation

    return render_validation("text", ValidationRun([validation]))  # type: ignore[list-item]
