"""Issue 20, item 6: one run decides nothing, and every JSON output is standard JSON.

With fewer than two runs, or runs with no spread at all, a t interval is undefined: the row says
so (`ci95` null, `no_interval` the reason), its verdict is "no verdict", and no NaN or Infinity
reaches a JSON output. Every JSON output is parsed here with NaN and Infinity refused.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sengoku.goldfish.statistics.differences import KILL_TURN_MEAN, NO_VERDICT, UNDECIDED, WON_BY_TURN
from sengoku.goldfish.statistics.paired import FEWER_THAN_TWO, NO_SPREAD
from sengoku.paths import data_dir

DECKS = data_dir("decklists")
DEFAULT = str(DECKS / "default.toml")
NO_LEVEL4 = str(DECKS / "compare" / "no-level4.toml")
SENJUTSU = sorted((DECKS / "senjutsu" / "valid").glob("*.toml"))
assert SENJUTSU, "a bundled Senjutsu deck: another game's opening-hand JSON"


def strict(text: str) -> Any:
    """Parse JSON as a standard parser must: NaN, Infinity and -Infinity are not JSON."""

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in JSON output")

    return json.loads(text, parse_constant=refuse)


def walk(value: Any) -> list[Any]:
    """Every number in a JSON document (to check there is no float that is not finite)."""
    if isinstance(value, dict):
        return [x for v in value.values() for x in walk(v)]
    if isinstance(value, list):
        return [x for v in value for x in walk(v)]
    return [value] if isinstance(value, (int, float)) and not isinstance(value, bool) else []


def test_compare_one_run_gives_no_interval_and_no_verdict(cli) -> None:  # type: ignore[no-untyped-def]
    r = cli("compare", DEFAULT, NO_LEVEL4, "--runs", "1", "--json", "-j", "1")
    assert r.code == 0, r.err
    data = strict(r.out)
    kill = next(row for row in data["differences"] if row["measure"] == KILL_TURN_MEAN)
    assert kill["ci95"] is None and kill["unpaired_ci95"] is None
    assert kill["no_interval"] == FEWER_THAN_TWO and kill["verdict"] == NO_VERDICT
    for row in data["differences"]:
        assert row["ci95"] is None and row["no_interval"] == FEWER_THAN_TWO, row
        if not row["measure"].startswith("opening_hand:"):  # those follow the exact difference
            assert row["verdict"] == NO_VERDICT, row
    assert data["verdicts"] == [{"deck": NO_LEVEL4, "kill_turn": NO_VERDICT, "won_by_last_turn": NO_VERDICT}]
    # the opening-hand check still runs (one hand per deck: nothing strays) over both decks' events
    check = data["opening_hand_check"]
    assert check["events"] == 6 and check["threshold"] == pytest.approx(1e-6 / 6) and check["failed"] == []
    for deck in data["decks"]:
        every = deck["kill_turn"]["mean_all_games"]
        assert every["ci95"] is None and every["no_interval"] == FEWER_THAN_TWO


def test_compare_one_run_text_and_page_say_why(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page = tmp_path / "c.html"
    r = cli("compare", DEFAULT, NO_LEVEL4, "--runs", "1", "-j", "1", "--html", str(page))
    assert r.code == 0, r.err
    assert f"mean kill turn: {NO_VERDICT} ({FEWER_THAN_TWO})" in r.out
    assert "worse" not in r.out and "better" not in r.out and not re.search(r"[+-]?inf\b|nan\b", r.out)
    html = page.read_text(encoding="utf-8")
    assert f"{NO_VERDICT} ({FEWER_THAN_TWO})" in html and not re.search(r"[+-]?inf\b|nan\b", html)


def test_a_deck_against_itself_is_exactly_zero_even_with_one_run(cli) -> None:  # type: ignore[no-untyped-def]
    data = strict(cli("compare", DEFAULT, DEFAULT, "--runs", "1", "--json", "-j", "1").out)
    for row in data["differences"]:
        assert row["diff"] == 0 and row["ci95"] == [0, 0] and row["no_interval"] is None, row


def test_no_spread_gives_no_interval(cli) -> None:  # type: ignore[no-untyped-def]
    """In one turn going first no game is won (no attack on turn 1, S8): every kill turn is 2, no spread."""
    data = strict(cli("compare", DEFAULT, NO_LEVEL4, "--runs", "50", "--turns", "1", "--json", "-j", "1").out)
    kill = next(row for row in data["differences"] if row["measure"] == KILL_TURN_MEAN)
    assert kill["diff"] == 0 and kill["ci95"] is None and kill["no_interval"] == NO_SPREAD
    assert kill["verdict"] == NO_VERDICT
    # a proportion's score interval stays defined when every run agrees: it just cannot tell
    won = next(row for row in data["differences"] if row["measure"] == WON_BY_TURN)
    assert won["ci95"][0] < 0 < won["ci95"][1] and won["verdict"] == UNDECIDED
    every = data["decks"][0]["kill_turn"]["mean_all_games"]
    assert every["mean"] == 2 and every["ci95"] is None and every["no_interval"] == NO_SPREAD


@pytest.mark.parametrize("args", [
    ("goldfish", "--runs", "1"),
    ("goldfish", "--runs", "1", "--precision", "0.1"),
    ("goldfish", "--runs", "3", "--turns", "1", "--precision", "0.1"),
    ("compare", DEFAULT, NO_LEVEL4, "--runs", "1", "--precision", "0.1"),
    ("compare", DEFAULT, NO_LEVEL4, "--runs", "2", "--turns", "1", "--precision", "0.5"),
    ("compare", DEFAULT, DEFAULT, "--runs", "1"),
    ("goldfish", *(str(p) for p in SENJUTSU[:1]), "--runs", "1"),
])
def test_every_json_output_is_standard_json(cli, args: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    r = cli(*args, "--json", *(("-j", "1") if "senjutsu" not in " ".join(args) else ()))
    assert r.code == 0, r.err
    data = strict(r.out)
    assert all(x == x and abs(x) != float("inf") for x in walk(data))
    if "--precision" in args:
        p = data["precision"]
        assert p["reached"] is False and p["half_width"] is None  # no interval yet: not reached
        assert all(r["half_width"] is None for r in p["rounds"])
