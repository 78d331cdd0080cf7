"""The text report of `impact`: the answer in words first, then the table with the association columns beside it."""

from __future__ import annotations

import math
from typing import Any

from sengoku.display import printable
from sengoku.goldfish.statistics.kill_turn import MIRROR
from sengoku.impact.result import DEAD, PULLS, STOPS, UNMEASURED, UNTOLD, WORDS, ImpactResult


def _scale(result: ImpactResult) -> tuple[float, int, str]:
    """Kill turns print as turns; won-by shares as percentage points."""
    return (1.0, 2, " turns") if result.objective.lower_is_better else (100.0, 1, " points")


def _s(x: float | None, scale: float, digits: int) -> str:
    return "–" if x is None or not math.isfinite(x) else f"{scale * x:+z.{digits}f}"  # z: never "-0.00"


def _v(x: float | None, scale: float, digits: int) -> str:
    return "–" if x is None or not math.isfinite(x) else f"{scale * x:.{digits}f}"


def _ci(ci: Any, scale: float, digits: int) -> str:
    return "–" if ci is None else f"[{_s(ci[0], scale, digits)}, {_s(ci[1], scale, digits)}]"


def opponent_words(opponent: dict[str, Any]) -> str:
    """Who every deck met (G4): the full deck's mirror, or the --opponent deck."""
    against = "a mirror of the full deck, for every card's deck" if opponent.get("deck") == MIRROR \
        else f"{printable(str(opponent.get('deck')))} for every deck"
    return against + (", defending" if opponent.get("defends") else ", not defending")


def options_words(result: ImpactResult) -> str:
    """Every option the games were played with, in one line."""
    o = result.options
    c = result.commander
    return (f"turns {o.turns}, seed {o.seed}, going {o.going}, policy {o.policy}, {o.mode} mode, Commander "
            f"{printable(str(c.get('name')))} ({'named' if c.get('chosen') == 'named' else 'S1'})"
            + (", play on after a win" if o.play_on else ""))


def heading_words(result: ImpactResult) -> dict[str, str]:
    """The report's heading lines, by name (the HTML page shows the same)."""
    scale, digits, unit = _scale(result)
    stopped = {"done": "every card stopped", "budget": "the budget ran out while cards raced",
               "interrupted": "interrupted"}.get(result.stopped, result.stopped)
    name = f" ({printable(result.deck_name)})" if result.deck_name else ""
    return {
        "title": f"Impact of each card of {printable(result.path)}{name}",
        "method": "each card's effect: its deck (one copy fewer, or one replaced by a filler) minus the full deck, "
                  "run by run on the same deals (common random numbers, G9)",
        "objective": f"{result.objective.describe()}; the full deck: {_v(result.full_value, scale, digits)}"
                     f"{'' if result.objective.lower_is_better else '%'} over {result.runs:,} runs",
        "options": options_words(result),
        "opponent": opponent_words(result.opponent),
        "precision": f"each card races until its paired 95% interval is within ±{scale * result.precision:g}{unit}, "
                     f"or its words are decided; budget {result.budget:,} games, {result.games:,} played ({stopped})",
        "correction": f"the words are corrected for the cards measured: {result.correction()}; all of them are "
                      f"right together with probability at least {1 - result.error_rate:g}",
    }


def direction(result: ImpactResult, word: str) -> str:
    """Say what a word means for this objective."""
    slower = "is slower" if result.objective.lower_is_better else "wins less often"
    faster = "is faster" if result.objective.lower_is_better else "wins more often"
    return {PULLS: f"the deck {slower} with one copy fewer", DEAD: f"the deck {faster} with one copy fewer",
            UNTOLD: "its corrected interval holds 0", UNMEASURED: "no legal deck to measure it with"}[word]


def answer_lines(result: ImpactResult) -> list[str]:
    """The answer: each word with its cards, best first."""
    scale, digits, unit = _scale(result)
    lines = []
    ranked = result.ranked()
    for word in WORDS:
        cards = [c for c in ranked if c.verdict(result.objective) == word]
        if not cards:
            continue
        lines.append(f"{word[0].upper()}{word[1:]} ({direction(result, word)}):")
        for c in cards:
            s = c.subject
            if word == UNMEASURED:
                lines.append(f"  {printable(s.label)}: {printable(s.reason or '')}")
            else:
                extra = "" if s.how != "one copy replaced" else f" ({printable(s.change_words(result.names))})"
                lines.append(f"  {printable(s.label)}{extra}: {_s(c.effect, scale, digits)}{unit} "
                             f"{_ci(c.ci95, scale, digits)}")
    return lines


def table_rows(result: ImpactResult) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The table's header and rows, ranked (the HTML page shows the same)."""
    scale, digits, _ = _scale(result)
    t = result.drawn_by
    header = ("rank", "card", "copies", "effect", "95% interval", "runs", "stopped",
              "opening hand", f"drawn by turn {t}", "not drawn", "drawn − not drawn")
    rows = []
    for rank, c in enumerate(result.ranked(), start=1):
        a = c.association
        assoc = ("–",) * 4 if a is None else (
            _assoc(a["opening_hand"], scale, digits), _assoc(a["drawn"], scale, digits),
            _assoc(a["not_drawn"], scale, digits),
            _s(a["drawn_minus_not_drawn"], scale, digits) + " " + _ci(a["ci95"], scale, digits))
        rows.append((str(rank), printable(c.subject.label), str(c.subject.copies), _s(c.effect, scale, digits),
                     _ci(c.ci95, scale, digits), f"{c.sums.n:,}" if c.sums is not None else "–",
                     STOPS.get(c.stop or "", "–"), *assoc))
    return header, rows


def _assoc(column: dict[str, Any], scale: float, digits: int) -> str:
    return "–" if column["value"] is None else f"{_v(column['value'], scale, digits)} ({column['runs']:,})"


def association_note(result: ImpactResult) -> str:
    what = "mean kill turn" if result.objective.lower_is_better else "share won by turn " + str(result.objective.turn)
    return (f"Associations, not effects: the full deck's {what} over its own games (runs in brackets) where a "
            f"copy of the card was in the opening hand, was drawn by the end of turn {result.drawn_by}, or was "
            "not; a game that lasts longer draws more cards, so a card reads worse when drawn whatever it does "
            "(G9). Only the effect column says what the card is worth.")


def render_text(result: ImpactResult) -> str:
    """Return the report: the heading, the answer in words, the table with the associations beside it."""
    h = heading_words(result)
    lines = [h["title"] + ": " + h["method"] + ".",
             f"Objective: {h['objective']}.",
             f"Options: {h['options']}.",
             f"Opponent: {h['opponent']}.",
             f"Precision: {h['precision']}.",
             f"Correction: {h['correction']}.",
             ""]
    lines += answer_lines(result)
    lines.append("")
    header, rows = table_rows(result)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, tuple("-" * w for w in widths), *rows]:
        lines.append("  ".join(c.ljust(w) if i == 1 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    lines += ["", association_note(result)]
    return "\n".join(lines) + "\n"

