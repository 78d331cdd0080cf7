"""`sengoku compare`'s text report: the decks side by side, each difference with its interval, the verdicts."""

from __future__ import annotations

from typing import Any

from sengoku.display import printable_lines
from sengoku.goldfish.compare_result import CompareResult
from sengoku.goldfish.statistics.differences import KILL_TURN_MEAN, WON_BY_TURN
from sengoku.goldfish.play.pairs import COMPARED
from sengoku.goldfish.reports.summary import opponent_words, percent


def _num(x: float | None, digits: int = 2, sign: bool = False) -> str:
    if x is None:
        return "-"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def _ci(row: dict[str, Any], digits: int = 2, key: str = "ci95", scale: float = 1.0) -> str:
    """The interval as [lo, hi]; "none" when it is undefined (fewer than two runs, or no spread)."""
    if row[key] is None:
        return "none"
    lo, hi = row[key]
    return f"[{_num(scale * lo, digits, True)}, {_num(scale * hi, digits, True)}]"


def _with_ci(row: dict[str, Any], digits: int = 2, scale: float = 1.0) -> str:
    return "" if row["ci95"] is None else f", 95% CI {_ci(row, digits, scale=scale)}"


def _verdict(row: dict[str, Any]) -> str:
    return f"{row['verdict']} ({row['no_interval']})" if row.get("no_interval") else row["verdict"]


def verdict_lines(result: CompareResult) -> list[str]:
    """The answer first: each deck's verdicts against the baseline with their figures, and the opening-hand check."""
    out = [f"Verdicts against the baseline [0] {result.paths[0]}, on the same {result.runs} runs:"]
    for k, path in enumerate(result.paths[1:], start=1):
        kill = result.rows(KILL_TURN_MEAN, path)[0]
        last = [r for r in result.rows(WON_BY_TURN, path) if r["turn"] == result.turns][0]
        out += [f"  [{k}] {path}",
                f"      mean kill turn: {_verdict(kill)}; {_num(kill['diff'], 2, True)} turns{_with_ci(kill)}",
                f"      won by turn {result.turns}: {_verdict(last)}; {_num(100 * last['diff'], 1, True)} points"
                + _with_ci(last, 1, 100)]
    out.append(f"Opponent: {compare_opponent(result)}")
    out.append(opening_hand_check(result))
    return out


def compare_opponent(result: CompareResult) -> str:
    """Who every deck played against (G4), in goldfish's words: the baseline unless an opponent was given."""
    return opponent_words(result.baseline.kill_turn["opponent"], baseline=f"[0] {result.paths[0]}")


def opening_hand_check(result: CompareResult) -> str:
    """The opening-hand check of every deck, in one line."""
    failed = result.failures()
    events, threshold = result.check["events"], result.check["threshold"]
    if not failed:
        return f"Opening-hand check: ok ({events} events, every exact binomial tail at or above {threshold:.3g})"
    return ("Opening-hand check: ALARM (" + ", ".join(f"{path} {p['event']} tail {p['tail']:.3g}" for path, p in failed)
            + f"; threshold {threshold:.3g}): a bug in the simulation, please report it")


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[k]) for r in [header, *rows]) for k in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(cells, widths)))

    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def render_text(result: CompareResult) -> str:
    """Return the report: the verdicts first, then settings, kill turn, win curve, ap_main and allies, opening hand."""
    base = result.baseline
    labels = [f"[{k}]" for k in range(len(result.paths))]
    out = verdict_lines(result) + [""]
    out += [f"Compared on the same {result.runs} runs: seed {base.seed}, policy {base.policy}, going {base.going}, "
           f"{result.turns} turns, {base.mode} mode; differences are deck - baseline with paired 95% intervals."]
    if result.precision is not None:
        p = result.precision
        ends = ", ".join(str(r["runs"]) for r in p["rounds"])
        width = "no interval yet" if p["half_width"] is None else f"±{p['half_width']:.3f} turns"
        out.append(f"--precision {p['target']}: {'reached' if p['reached'] else 'NOT reached'} "
                   f"({width}) after rounds ending at {ends} runs.")
    for label, path, deck in zip(labels, result.paths, result.decks):
        role = "baseline" if label == "[0]" else "deck"
        out.append(f"  {label} {role}: {path} (Commander {deck.commander['name']})")
    others = list(zip(labels[1:], result.paths[1:]))

    out += ["", f"Kill turn: mean over every run, a run not won within {result.turns} turns counting as "
            f"{result.turns + 1}"]
    rows = [[labels[0], _num(_kill(base)), "", "", "", "baseline"]]
    for label, path in others:
        r = result.rows(KILL_TURN_MEAN, path)[0]
        rows.append([label, _num(r["value"]), _num(r["diff"], 2, True), _ci(r), _ci(r, key="unpaired_ci95"),
                     _verdict(r)])
    out += _table(["deck", "mean", "diff", "95% CI (paired)", "95% CI (unpaired)", "verdict"], rows)

    out += ["", "Won by the end of turn t (% of runs)"]
    header = ["turn", f"{labels[0]} %"] + [c for label, _ in others for c in (f"{label} %", "diff", "95% CI")]
    by_deck = {path: {r["turn"]: r for r in result.rows(WON_BY_TURN, path)} for _, path in others}
    rows = []
    for row in base.kill_turn["by_turn"]:
        t = row["turn"]
        cells = [str(t), percent(row["cumulative"]["fraction"])[:-1]]
        for _, path in others:
            r = by_deck[path][t]
            cells += [percent(r["value"])[:-1], _num(100 * r["diff"], 1, True), _ci(r, 1, scale=100)]
        rows.append(cells)
    out += _table(header, rows)

    for measure in COMPARED:
        out += ["", f"{measure} per turn: mean over the runs both decks still played that turn"]
        header = ["turn"] + [c for label, _ in others for c in (f"{labels[0]}", f"{label}", "diff", "95% CI")]
        by_deck = {path: {r["turn"]: r for r in result.rows(measure, path)} for _, path in others}
        rows = []
        for t in range(1, result.turns + 1):
            cells = [str(t)]
            for _, path in others:
                r = by_deck[path].get(t)
                cells += ([_num(r["base_value"]), _num(r["value"]), _num(r["diff"], 2, True), _ci(r)] if r
                          else ["-"] * 4)
            rows.append(cells)
        out += _table(header, rows)

    out += ["", "Opening hand: exact and simulated differences"]
    rows = []
    for label, path in others:
        for r in (r for r in result.differences if r["deck"] == path and r["measure"].startswith("opening_hand:")):
            rows.append([label, r["measure"].split(":", 1)[1], _num(r["exact"]["base_value"], 4),
                         _num(r["exact"]["value"], 4), _num(r["exact"]["diff"], 4, True),
                         _num(r["diff"], 4, True), _ci(r, 4)])
    out += _table(["deck", "event", "exact base", "exact deck", "exact diff", "sim. diff", "95% CI"], rows)

    return printable_lines("\n".join(out)) + "\n"


def _kill(result: Any) -> float | None:
    return result.kill_turn["mean_all_games"]["mean"]
