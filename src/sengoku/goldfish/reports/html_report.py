"""`--html FILE`: a goldfish result as one self-contained HTML page people can pass around.

The page loads nothing: no script, no web font, no image file; its charts are inline SVG
(`goldfish.svg`) and its Content-Security-Policy forbids any fetch, so it opens offline and
shows the same thing everywhere. It starts with the answer (a summary: the kill turn, the
opponent model, the opening-hand check), then the kill turn, the opening-hand table and the
per-turn curves, each chart beside a table of its figures, then the deck played, and last the
card database (name, version, hash), the options, seed and sengoku version with the one
command that reproduces it. The same result gives the same bytes (no date, no random ids).

The page is built from parts (`document`, `deck_section`, `run_section`, ...) that take one
result each and a `prefix` that keeps their element ids unique, so a comparison of several
decks can set them side by side on one page.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sengoku.goldfish.api import default_decklist
from sengoku.goldfish.player_check import NOT_WITHIN
from sengoku.goldfish.reports.command import policy_args, shell_command
from sengoku.goldfish.reports.summary import opponent_model, percent, summary_lines
from sengoku.goldfish.reports.svg import Band, Bars, Line, chart
from sengoku.version import __version__

if TYPE_CHECKING:  # pragma: no cover
    from sengoku.goldfish.result import GoldfishResult

# Forbid every fetch: a page that tried one would show it as an error, and show nothing fetched.
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

CSS = """
:root { color-scheme: light; }
body { font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial,
       sans-serif; color: #1a1a1a; background: #fff; margin: 0 auto; padding: 1.5rem; max-width: 70rem; }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 .6rem; border-bottom: 2px solid #ccc; padding-bottom: .2rem; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
p.lead { margin: 0 0 1rem; color: #333; }
table { border-collapse: collapse; margin: .4rem 0 1rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: .2rem 0; }
th, td { border: 1px solid #bbb; padding: .25rem .55rem; text-align: left; vertical-align: top; }
th { background: #eef1f5; }
td.num, th.num { text-align: right; white-space: nowrap; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; }
pre { background: #f4f4f4; border: 1px solid #ccc; padding: .6rem .8rem; white-space: pre-wrap;
      word-break: break-all; font-size: .95rem; }
.charts, .columns { display: flex; flex-wrap: wrap; gap: 1rem 1.5rem; align-items: flex-start; }
figure { margin: 0; flex: 1 1 28rem; max-width: 35rem; }
.deck-column { flex: 1 1 22rem; min-width: 0; }
svg.chart { width: 100%; height: auto; border: 1px solid #ddd; }
.bad { font-weight: 700; }
footer { margin-top: 2rem; font-size: .9rem; color: #444; }
@page { margin: 14mm; }
@media print {
  body { font-size: 10.5pt; padding: 0; max-width: none; }
  h2 { break-after: avoid; }
  figure, table, pre { break-inside: avoid; }
  details > pre { break-inside: auto; }
  figure { flex-basis: 100%; max-width: 13cm; }
  svg.chart { border: none; }
}
""".strip()

CURVES = (  # (measure, chart title, y label)
    ("ap_main", "AP at the start of the Main Phase", "AP"),
    ("allies", "Allies in play", "allies"),
    ("highest_level", "Highest level in play", "level"),
    ("opp_stronghold_hp", "Opponent's Stronghold HP (end of turn)", "Stronghold HP"),
)


_pct = percent  # a share of games: never "100.0%" unless every game


def _bound(p: float) -> str:
    """An interval's end, rounded as usual."""
    return f"{100 * p:.1f}%"


def _num(v: float | None) -> str:
    return "–" if v is None else f"{v:g}"


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], *, caption: str = "",
          numeric: Sequence[bool] = (), table_id: str = "") -> str:
    """Return a `<table>` with a header row (`scope="col"`); cells are escaped text."""
    num = ' class="num"'
    right = [num if r else "" for r in numeric] + [""] * (len(headers) - len(numeric))
    head = "".join(f'<th scope="col"{r}>{escape(h)}</th>' for h, r in zip(headers, right))
    body = "\n".join("<tr>" + "".join(f"<td{r}>{escape(str(c))}</td>" for c, r in zip(row, right)) + "</tr>"
                     for row in rows)
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    ident = f' id="{table_id}"' if table_id else ""
    return f"<table{ident}>{cap}<thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>"


def facts_table(pairs: Iterable[tuple[str, str]]) -> str:
    """A two-column table of facts, each row headed by its name (`scope="row"`)."""
    rows = "\n".join(f'<tr><th scope="row">{escape(k)}</th><td>{escape(v)}</td></tr>' for k, v in pairs)
    return f"<table><tbody>\n{rows}\n</tbody></table>"


def deck_title(result: GoldfishResult) -> str:
    return str(result.deck.get("name") or result.deck.get("path") or "deck")


def reproduce_command(result: GoldfishResult, *, db: Path | str | None = None,
                      html: Path | str | None = None) -> str:
    """Return the one `sengoku goldfish` command that plays the same games (every option spelled out).

    `db` is the card database path given (None: the default one); `html` the report's path.
    """
    decks = []
    if result.deck.get("path") and Path(result.deck["path"]).resolve() != default_decklist().resolve():
        decks.append(str(result.deck["path"]))
    args = option_args(result, commander=True)
    if db is not None:
        args += ["--db", str(db)]
    if result.check_player is not None:
        args += ["--check-player", str(result.check_player.deals)]
    if html is not None:
        args += ["--html", str(html)]
    return shell_command(["sengoku", "goldfish"], decks, args)


def option_args(result: GoldfishResult, *, commander: bool) -> list[str]:
    """Return the engine's options that played `result`, spelled out (`commander`: a named one too)."""
    args = ["--runs", str(result.runs), "--turns", str(result.turns), "--seed", str(result.seed),
            "--going", result.going, *policy_args(getattr(result.options, "policy", None), result.policy),
            "--mode", result.mode]
    if commander and result.commander.get("chosen") == "named":
        args += ["--commander", result.commander["name"]]
    opponent = result.kill_turn.get("opponent", {})
    if opponent.get("deck") not in (None, "mirror"):
        args += ["--opponent", str(opponent["deck"])]
    if opponent.get("defends"):
        args.append("--opponent-defends")
    if result.play_on:
        args.append("--play-on")
    for p in result.opening_hand["probabilities"]:
        if p["event"].startswith("want:"):
            name, copies = p["event"][len("want:"):].rsplit(":", 1)
            args += ["--want", name if copies == "1" else f"{name}:{copies}"]
    return args


def run_section(result: GoldfishResult, command: str, prefix: str = "g") -> str:
    """The options, seed, versions and card database, and the command that reproduces the run."""
    r = result
    cmd = r.commander
    db = r.card_db
    facts = [
        ("Runs × turns", f"{r.runs:,} games × {r.turns} turns"),
        ("Seed", str(r.seed)),
        ("Going", r.going),
        ("Policy", r.policy),
        ("Mode", r.mode),
        ("Commander", f"{cmd['name']} ({cmd['epithet']}, {cmd['id']})"
                      + (", named" if cmd.get("chosen") == "named" else ", chosen by S1")),
        ("Opponent", opponent_model(r)),
        ("After a win", "plays on to the last turn" if r.play_on else "the game stops"),
        *([("Player check", f"the first {r.check_player.deals:,} deals played again with {r.check_player.search}")]
          if r.check_player is not None else []),
        ("Card database", f"{db['name']} {db['version']}" + (" (sample set)" if db.get("sample") else "")),
        ("Card database SHA-256", db["sha256"]),
        ("sengoku version", __version__),
    ]
    return (f"<section id=\"{prefix}-run\"><h2>How this was made</h2>\n"
            "<p>This command plays the same games again and writes this page (same sengoku version, "
            "deck and card database):</p>\n"
            f"<pre><code>{escape(command)}</code></pre>\n{facts_table(facts)}</section>")


def deck_section(result: GoldfishResult, prefix: str = "g", *, heading: str = "Deck", level: int = 2) -> str:
    """The cards played, by section, with counts, under an `<h{level}>` `heading`."""
    d = result.deck
    titles = {"main": "Main deck", "nameless": "Nameless", "familiars": "Familiars"}
    parts = []
    for section, cards in d.get("sections", {}).items():
        total = sum(c["count"] for c in cards)
        parts.append(table(("count", "card", "level", "id"),
                           ((c["count"], c["name"], c["level"], c["id"]) for c in cards),
                           caption=f"{titles.get(section, section)}: {total} cards", numeric=(True, False, True)))
    intro = (f"<p>{d['main_cards']} Main cards, {d['nameless_cards']} Nameless, {d['familiar_cards']} Familiars; "
             f"{d['stronghold_cards']} cards in the Stronghold after the Commander leaves it.</p>")
    return (f'<section id="{prefix}-deck"><h{level}>{escape(heading)}</h{level}>\n{intro}'
            f'\n<div class="columns">{"".join(parts)}</div></section>')


def opening_hand_section(result: GoldfishResult, prefix: str = "g") -> str:
    """Each opening-hand event: exact and simulated probability, the 95% interval, the check."""
    oh = result.opening_hand
    rows = []
    for p in oh["probabilities"]:
        lo, hi = p["ci95"]
        check = "ok" if p["ok"] else f"ALARM: tail {p['tail']:.3g}"
        rows.append((p["label"], _pct(p["exact"]), _pct(p["simulated"]), f"{_bound(lo)} – {_bound(hi)}", check))
    return (f'<section id="{prefix}-opening-hand"><h2>Opening hand</h2>\n'
            f"<p>{oh['hand_size']} cards from a {oh['deck_size']}-card Stronghold; turn-1 AP {oh['turn1_ap']}. "
            "Exact: hypergeometric. Simulated: share of the games, with its Wilson 95% interval. Check: the exact "
            "two-sided binomial tail of each simulated count; an alarm below "
            f"{oh['check']['threshold']:.3g} each, so that a correct run alarms in fewer than one run in a "
            f"million over all {oh['check']['events']} events.</p>\n"
            + table(("event", "exact", "simulated", "95% interval", "check"), rows,
                    numeric=(False, True, True, True, False)) + "</section>")


def summary_section(result: GoldfishResult, prefix: str = "g") -> str:
    """The answer first: the kill turn, the opponent model and the opening-hand check, in a few lines."""
    # a warning that the kill turn measures the player (G6) stands out
    warn = result.check_player is not None and result.check_player.verdict == NOT_WITHIN
    bad = ' class="bad"'
    lines = "\n".join(f"<li{bad if warn and line.startswith('Player check') else ''}>{escape(line)}</li>"
                      for line in summary_lines(result))
    return f'<section id="{prefix}-summary"><h2>Summary</h2>\n<ul>\n{lines}\n</ul></section>'


def kill_turn_section(result: GoldfishResult, prefix: str = "g", *, heading: str = "Kill turn",
                      level: int = 2) -> str:
    """On which turn the games were won: a chart (bars: on the turn; line: by its end) and a table."""
    k = result.kill_turn
    by_turn = k["by_turn"]
    turns = [row["turn"] for row in by_turn]
    on = [100 * row["fraction"] for row in by_turn]
    by = [100 * row["cumulative"]["fraction"] for row in by_turn]
    won = k["won"]
    summary = (f"Won within {result.turns} turns: {won['games']:,} games ({_pct(won['fraction'])}); "
               f"never: {k['never']['games']:,} ({_pct(k['never']['fraction'])}).")
    if won["games"]:
        summary += f" Kill turn over the games won: mean {k['mean']:.2f}, p10 {k['p10']}, median {k['p50']}, p90 {k['p90']}."
    desc = summary + " By the end of each turn: " + ", ".join(f"turn {row['turn']} {_pct(row['cumulative']['fraction'])}" for row in by_turn) + "."
    svg = chart(f"{prefix}-kill-turn", "Kill turn: games won", desc, xs=turns, x_label="turn",
                y_label="% of games", bars=Bars("won on the turn", on),
                lines=[Line("won by the end of the turn", by, style=1)], y_max=100, y_suffix="%")
    rows = [(row["turn"], f"{row['games']:,}", _pct(row["fraction"]), f"{row['cumulative']['games']:,}",
             _pct(row["cumulative"]["fraction"])) for row in by_turn]
    rows.append(("never", f"{k['never']['games']:,}", _pct(k["never"]["fraction"]), "", ""))
    return (f'<section id="{prefix}-kill-turn-section"><h{level}>{escape(heading)}</h{level}>\n'
            f"<p>{escape(summary)}</p>\n<div class=\"columns\"><figure>{svg}</figure>\n"
            + table(("turn", "won on the turn", "%", "won by its end", "%"), rows, numeric=(True,) * 5)
            + "</div></section>")


def curves_section(result: GoldfishResult, prefix: str = "g") -> str:
    """The per-turn curves: mean, median and the p10–p90 band of each, as charts and one table."""
    curve = result.curve
    turns = [row["turn"] for row in curve]
    figures = []
    for measure, title, y_label in CURVES:
        stats = [row.get(measure) for row in curve]
        mean = [s["mean"] if s else None for s in stats]
        median = [s["p50"] if s else None for s in stats]
        lows = [s["p10"] if s else None for s in stats]
        highs = [s["p90"] if s else None for s in stats]
        desc = f"{title} per turn, over the games still being played. " + "; ".join(
            f"turn {t}: mean {_num(m)}, p10 {_num(lo)}, p90 {_num(hi)}" if m is not None else f"turn {t}: no game"
            for t, m, lo, hi in zip(turns, mean, lows, highs)) + "."
        figures.append("<figure>" + chart(f"{prefix}-{measure}", title, desc, xs=turns, x_label="turn",
                                          y_label=y_label, band=Band("p10–p90", lows, highs),
                                          lines=[Line("mean", mean, 0), Line("median", median, 1)]) + "</figure>")

    def cell(row: dict[str, Any], measure: str, key: str) -> str:
        s = row.get(measure)
        return "–" if s is None else _num(s[key])

    rows = [(row["turn"], f"{row['games']:,}", cell(row, "ap_main", "mean"), cell(row, "ap_main", "p10"),
             cell(row, "ap_main", "p50"), cell(row, "ap_main", "p90"), cell(row, "allies", "mean"),
             cell(row, "highest_level", "mean"), cell(row, "opp_stronghold_hp", "mean")) for row in curve]
    note = ("Every game plays every turn (--play-on)." if result.play_on else
            "A won game stops at the end of that turn: each turn counts the games still being played.")
    return (f'<section id="{prefix}-curves"><h2>Turn by turn</h2>\n'
            f"<p>{note} Mean and median (p50) over those games; the band runs from p10 to p90. "
            "A turn no game reached (all were won before it) has no point, and a dash in the table.</p>\n"
            f'<div class="charts">{"".join(figures)}</div>\n'
            + table(("turn", "games", "AP mean", "AP p10", "AP p50", "AP p90", "allies mean",
                     "highest level mean", "opponent's Stronghold HP mean"), rows, numeric=(True,) * 9)
            + "</section>")


def document(title: str, lead: str, sections: Iterable[str]) -> str:
    """Return the whole page: head (charset, CSP, style), a heading, `sections` and a footer."""
    body = "\n".join(sections)
    return ("<!DOCTYPE html>\n"
            '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="generator" content="sengoku {__version__}">\n'
            f"<title>{escape(title)}</title>\n<style>\n{CSS}\n</style>\n</head>\n<body>\n"
            f"<header><h1>{escape(title)}</h1>\n<p class=\"lead\">{escape(lead)}</p></header>\n<main>\n{body}\n</main>\n"
            f"<footer>Written by sengoku {__version__}. This file is self-contained: it loads nothing and "
            "opens offline.</footer>\n</body>\n</html>\n")


def traces_section(traces: Sequence[tuple[str, str]], prefix: str = "g") -> str:
    """Whole games turn by turn (`sengoku.trace`'s text), each folded away in a `<details>`."""
    folded = "\n".join(f"<details><summary>{escape(title)}</summary>\n<pre>{escape(text)}</pre></details>"
                       for title, text in traces)
    return (f'<section id="{prefix}-traces"><h2>Games turn by turn</h2>\n'
            "<p>Single games of this simulation played again step by step (<code>sengoku goldfish --trace RUN</code> "
            "prints any of them): each action with its AP, each attack with both sides' numbers, and the board at "
            "the end of every turn. Rule ids in parentheses point to the rules they follow.</p>\n"
            f"{folded}</section>")


def render_html(result: GoldfishResult, command: str, traces: Sequence[tuple[str, str]] = ()) -> str:
    """Return the goldfish report of `result` as one HTML page; `command` reproduces it.

    `traces` are (title, text) pairs of whole games (`sengoku.trace`), shown folded at the end.
    """
    r = result
    lead = (f"{r.runs:,} solitaire games × {r.turns} turns, going {r.going}, policy {r.policy}, {r.mode} mode, "
            f"seed {r.seed}; Commander {r.commander['name']}.")
    if not r.ok:
        lead += f" {len(r.errors)} simulated probability(ies) far from exact: a bug in the simulation."
    # the answer first (the summary and the kill turn), then the details, then how the page was made
    return document(f"Goldfish: {deck_title(r)}", lead,
                    (summary_section(r), kill_turn_section(r), opening_hand_section(r), curves_section(r),
                     deck_section(r), run_section(r, command))
                    + ((traces_section(traces),) if traces else ()))
