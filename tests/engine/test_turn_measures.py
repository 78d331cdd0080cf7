"""benchmarks/turn_measures.py: per-turn means of greedy and search on the same deals, worked by hand."""

from __future__ import annotations

import pytest

from sengoku.engine.game import MEASURES

from .conftest import benchmark_script


@pytest.fixture(scope="module")
def tool():
    with benchmark_script("turn_measures") as script:
        yield script


def turn(**values: int) -> tuple[int, ...]:
    return tuple(values.get(name, 0) for name in MEASURES)


def test_the_summary_pairs_the_deals_and_counts_a_won_game_s_hits_after_it_ended(tool):
    games = {
        # deal 0: greedy wins on turn 3, search on turn 2; deal 1: both on turn 2
        "greedy": [(3, [turn(attacks=2, stronghold_hits=1), turn(attacks=4, stronghold_hits=3),
                        turn(attacks=3, stronghold_hits=3)]),
                   (2, [turn(attacks=3, stronghold_hits=3, allies_lost=1), turn(attacks=4, stronghold_hits=4)])],
        "search": [(2, [turn(attacks=3, stronghold_hits=3), turn(attacks=5, stronghold_hits=4)]),
                   (2, [turn(attacks=3, stronghold_hits=2), turn(attacks=5, stronghold_hits=5)])],
    }
    lines = tool.summary(games, 3)
    assert lines[0] == "2 deals: greedy 2.500, search 2.000, gap +0.500 turns"
    assert lines[1].startswith("  turn 1 (2 deals), greedy/search: attacks 2.50/3.00, stronghold_hits 2.00/2.50, "
                               "allies_lost 0.50/0.00,")
    assert lines[2].startswith("  turn 2 (2 deals), greedy/search: attacks 4.00/5.00, stronghold_hits 3.50/4.50,")
    # turn 3: no deal where both games reached it, so no line; the hits to its end still count every deal
    assert lines[3:] == ["  Stronghold hits by the end of turn 1: greedy 2.00, search 2.50",
                         "  Stronghold hits by the end of turn 2: greedy 5.50, search 7.00",
                         "  Stronghold hits by the end of turn 3: greedy 7.00, search 7.00"]


def test_a_deck_set_s_deck_is_played_and_one_not_in_it_refused(tool, capsys):
    fit = str(tool.policy_bench.SUITE.parents[1] / "benchmarks" / "decksets" / "fit.toml")
    assert tool.main(["--set", fit, "--deck", "gen-2001/low-curve-101", "--setting", "second", "--deals", "1",
                      "--turns", "2", "--upto", "1"]) == 0
    assert "second, 1 decks: 1 deals: greedy" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        tool.main(["--set", fit, "--deck", "gen-2001/nope", "--deals", "1"])
    assert "no deck gen-2001/nope" in str(exc.value)
