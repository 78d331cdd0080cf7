"""A share of games is shown truthfully: "100.0%" means every game, "0.0%" none (issue 34)."""

from __future__ import annotations

import json

import pytest

from sengoku.goldfish.reports.summary import percent
from sengoku.paths import data_dir

LOW_CURVE = data_dir("decklists") / "suite" / "low-curve.toml"
# seed 0, 2,200 runs: one game is won on turn 5, every other one by turn 4 (the JSON below says so)
ARGS = [str(LOW_CURVE), "--runs", "2200", "--seed", "0", "-j", "1"]


@pytest.mark.parametrize(("share", "digits", "shown"), [
    (1, 1, "100.0%"), (0, 1, "0.0%"), (0.5, 1, "50.0%"), (0.123456, 1, "12.3%"),
    (2199 / 2200, 1, ">99.9%"), (1 / 2200, 1, "<0.1%"),  # would round to 100.0% and 0.0%
    (0.999, 1, "99.9%"), (0.9994, 1, "99.9%"), (0.0006, 1, "0.1%"),  # round as usual otherwise
    (2199 / 2200, 2, "99.95%"), (99_999 / 100_000, 2, ">99.99%"), (1e-9, 2, "<0.01%"),
])
def test_percent_never_claims_all_or_none_untruly(share: float, digits: int, shown: str) -> None:
    assert percent(share, digits) == shown


def test_the_summary_and_the_table_of_a_game_won_late(cli) -> None:
    data = json.loads(cli("goldfish", *ARGS, "--json").out)
    by_turn = {row["turn"]: row for row in data["kill_turn"]["by_turn"]}
    assert by_turn[4]["cumulative"]["games"] == 2199 and by_turn[5]["games"] == 1  # the premise
    r = cli("goldfish", *ARGS)
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    won_by = next(line for line in lines if line.startswith("Won by the end of turn "))
    assert won_by.endswith(" · 4: >99.9% · 5: 100.0%")  # 100.0% only once every game is won
    table = lines[next(k for k, line in enumerate(lines) if line.startswith("Kill turn (G5)")):]
    table = table[:next(k for k, line in enumerate(table) if line.startswith("└"))]
    rows = {cells[0]: cells[1:] for cells in ([c.strip() for c in line.strip("│").split("│")]
                                              for line in table if line.startswith("│"))}
    assert rows["4"][:2] == ["10.1%", ">99.9%"] and rows["5"] == ["<0.1%", "100.0%"]
