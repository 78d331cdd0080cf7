"""The answer first: the few lines the goldfish text report and HTML page start with.

The kill turn (mean and p50 over the games won, and the share won by the end of each of the
first turns that saw a win), the opponent model (G4), and the opening-hand check. Plain text,
no markup: each reporter dresses it its own way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sengoku.goldfish.player_check import NOT_WITHIN
from sengoku.goldfish.statistics.kill_turn import MIRROR

if TYPE_CHECKING:  # pragma: no cover
    from sengoku.goldfish.result import GoldfishResult

SUMMARY_TURNS = 8  # the summary lists "won by the end of turn t" for at most this many turns


def percent(p: float, digits: int = 1) -> str:
    """Return the fraction `p` as a percentage to `digits` decimals that never claims all or none untruly.

    Rounded as usual, except that a fraction above 0 that would show as 0.0% shows as "<0.1%",
    and one below 1 that would show as 100.0% as ">99.9%" (at one decimal): "100.0%" means every
    game. Every report shows its shares of games this way.
    """
    text = f"{100 * p:.{digits}f}"
    if 0 < p < 1 and float(text) in (0, 100):
        step = 10 ** -digits
        return f"<{step:.{digits}f}%" if float(text) == 0 else f">{100 - step:.{digits}f}%"
    return text + "%"



def _turns(n: int) -> str:
    return f"{n} turn" if n == 1 else f"{n} turns"


def opponent_words(opponent: dict[str, Any], baseline: str | None = None) -> str:
    """Return who a deck played against (G4), in words: every report's "Opponent" says it so.

    `opponent` is a result's `kill_turn["opponent"]`. In a comparison, `baseline` names the
    baseline deck, whose own opponent is a mirror unless one was given: then every deck met it.
    """
    if opponent["deck"] != MIRROR:
        against = str(opponent["deck"]) + (" for every deck" if baseline is not None else "")
    elif baseline is None:
        against = "a mirror of the deck"
    else:
        against = f"the baseline {baseline} for every deck (the baseline meets its mirror)"
    return against + (", defending" if opponent["defends"] else ", not defending")


def opponent_model(r: GoldfishResult) -> str:
    """Return who the deck played against (G4), in words."""
    return opponent_words(r.kill_turn["opponent"])


def summary_lines(r: GoldfishResult) -> list[str]:
    """Return the answer in four lines: the kill turn, the win curve's first turns, the opponent, the check
    (and a fifth with `check_player`: how far the player is from a search).

    Plain text (no markup): the goldfish text report and the HTML page start with them.
    """
    k = r.kill_turn
    if k["won"]["games"]:
        kill = (f"Kill turn: mean {k['mean']:.2f}, p50 {k['p50']} over the games won "
                f"({percent(k['won']['fraction'])} won within {_turns(r.turns)})")
        # from the first turn a game was won, until every game is won, at most SUMMARY_TURNS turns
        shown = []
        for row in k["by_turn"]:
            if row["cumulative"]["games"]:
                shown.append(row)
                if row["cumulative"]["games"] == r.runs or len(shown) == SUMMARY_TURNS:
                    break
        won_by = "Won by the end of turn " + " · ".join(
            f"{row['turn']}: {percent(row['cumulative']['fraction'])}" for row in shown)
        lines = [kill, won_by]
    else:
        lines = [f"Kill turn: no game won within {_turns(r.turns)}"]
    lines.append(f"Opponent: {opponent_model(r)}")
    lines.append(opening_hand_check(r))
    if r.check_player is not None:  # G6: how far the player is from a search on these deals
        warning = "WARNING: " if r.check_player.verdict == NOT_WITHIN else ""
        lines.append(f"Player check: {warning}{r.check_player.words()}")
    return lines


def opening_hand_check(r: GoldfishResult) -> str:
    """Return the opening-hand check in one line: ok, or which events failed and how far."""
    check = r.opening_hand["check"]
    events = len(r.opening_hand["probabilities"])
    if r.ok:
        return (f"Opening-hand check: ok ({events} events, every exact binomial tail at or above "
                f"{check['threshold']:.3g})")
    failed = ", ".join(f"{p['event']} tail {p['tail']:.3g}" for p in r.errors)
    return (f"Opening-hand check: ALARM ({failed}; threshold {check['threshold']:.3g}): a bug in the "
            "simulation, please report it")
