"""The kill turn's summary and the tally of games that stop at their win, on hand-made game records (G5)."""

from __future__ import annotations

import math
import random
from collections import Counter

from sengoku.engine import GameRecord
from sengoku.goldfish.reports.chart import BAR, win_chart
from sengoku.goldfish.statistics.kill_turn import MIRROR, kill_turn_summary
from sengoku.goldfish.play.simulate import Tally
from sengoku.goldfish.statistics.stats import WON_BEFORE, CurveTally, first_turn_distribution

OPP = {"deck": MIRROR, "name": "x", "defends": False}


def brute_percentile(values: list[int], p: float) -> int:
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p * len(ordered) / 100)) - 1]


def test_kill_turn_summary_against_the_list_of_every_games_kill_turn() -> None:
    rng = random.Random(5)
    for runs in (1, 7, 100, 999):
        turns = 8
        kills = [rng.choice([None, None, *range(2, turns + 1)]) for _ in range(runs)]
        k = kill_turn_summary(Counter(kills), turns, runs, OPP)
        won = [t for t in kills if t is not None]
        assert [row["turn"] for row in k["by_turn"]] == list(range(1, turns + 1))
        assert [row["games"] for row in k["by_turn"]] == [kills.count(t) for t in range(1, turns + 1)]
        assert sum(row["games"] for row in k["by_turn"]) + k["never"]["games"] == runs
        assert k["won"]["games"] == len(won) and k["never"]["games"] == kills.count(None)
        running = 0
        for row in k["by_turn"]:
            running += row["games"]
            assert row["cumulative"]["games"] == running  # won by the end of the turn: the running sum
            assert row["cumulative"]["fraction"] == round(running / runs, 6)
            assert row["fraction"] == round(row["games"] / runs, 6)
        cumulative = [row["cumulative"]["games"] for row in k["by_turn"]]
        assert cumulative == sorted(cumulative)  # monotone
        assert cumulative[-1] + k["never"]["games"] == runs
        assert math.isclose(cumulative[-1] / runs + k["never"]["fraction"], 1.0, abs_tol=1e-6)
        if won:
            assert k["mean"] == round(sum(won) / len(won), 4)
            for p in (10, 50, 90):
                assert k[f"p{p}"] == brute_percentile(won, p)
        else:
            assert k["mean"] is None and k["p50"] is None
        assert k["opponent"] == OPP


def test_no_game_won_gives_no_mean_and_never_is_everything() -> None:
    k = kill_turn_summary(Counter({None: 40}), 5, 40, OPP)
    assert k["never"] == {"games": 40, "fraction": 1.0}
    assert (k["mean"], k["p10"], k["p50"], k["p90"]) == (None, None, None, None)
    assert all(row["cumulative"]["games"] == 0 for row in k["by_turn"])


def game(rows: list[tuple[int, int]], won: int | None = None, first3: int | None = None) -> GameRecord:
    return GameRecord(commander=0, opening_hand=(0, 1), turns=list(rows), first_level3=first3,
                      first_level4=None, skipped_abilities=1, won_turn=won)


def test_a_game_won_early_counts_only_for_the_turns_it_played() -> None:
    # Three 4-turn games: one played through, one won (and stopped) on turn 2, one won on turn 4.
    measures = ("x", "y")
    games = [game([(1, 10), (2, 20), (3, 30), (4, 40)], None, first3=3),
             game([(5, 50), (6, 60)], won=2),
             game([(0, 0), (1, 1), (2, 2), (9, 90)], won=4)]
    tally = Tally(measures, 4)
    tally.add_games(games, lambda card: card)
    curve = tally.curve.curve()
    assert [row["games"] for row in curve] == [3, 3, 2, 2]
    assert curve[1]["x"]["mean"] == round((2 + 6 + 1) / 3, 4)
    assert curve[2]["x"] == {"mean": 2.5, "p10": 2, "p50": 2, "p90": 3}  # the won game is not a zero
    assert curve[3]["y"]["mean"] == (40 + 90) / 2
    assert tally.kill_turn == Counter({None: 1, 2: 1, 4: 1})
    # a Level 3 ally never seen: "never" for the games that played every turn, "won before" for the stopped one
    assert tally.first_level3 == Counter({3: 1, WON_BEFORE: 1, None: 1})
    d = first_turn_distribution(tally.first_level3, 4, 3)
    assert d["never"]["games"] == 1 and d["won_before"]["games"] == 1
    assert d["mean_when_reached"] == 3.0
    assert (tally.runs, tally.skipped_abilities, tally.hands) == (3, 3, Counter({1: 3}))


def test_a_turn_no_game_played_has_no_statistics() -> None:
    tally = CurveTally(("x",), 3)
    tally.add_rows([(1,), (2,), (3,), (4,)], 2)  # two games, both won on turn 2
    curve = tally.curve()
    assert [row["games"] for row in curve] == [2, 2, 0]
    assert curve[2]["x"] is None
    assert curve[0]["x"]["mean"] == 2.0  # rows (1,) and (3,) are both turn 1


def test_merging_split_tallies_gives_the_whole_tally() -> None:
    # what --jobs does: chunks of runs tallied apart, then merged in order
    rng = random.Random(11)
    games = []
    for _ in range(200):
        won = rng.choice([None, 2, 3, 4, 5])
        length = 5 if won is None else won
        games.append(game([(rng.randint(0, 9), rng.randint(0, 3)) for _ in range(length)], won,
                          first3=rng.choice([None, 1, 2, 3])))
    whole = Tally(("x", "y"), 5)
    whole.add_games(games, lambda card: card)
    parts = Tally(("x", "y"), 5)
    for a, b in ((0, 37), (37, 150), (150, 200)):
        part = Tally(("x", "y"), 5)
        part.add_games(games[a:b], lambda card: card)
        parts.merge(part)
    assert parts.curve.curve() == whole.curve.curve()
    assert parts.kill_turn == whole.kill_turn and parts.first_level3 == whole.first_level3
    assert parts.runs == whole.runs == 200


def test_win_chart_fills_rows_up_to_the_cumulative_share() -> None:
    by_turn = kill_turn_summary(Counter({None: 50, 2: 25, 3: 25}), 3, 100, OPP)["by_turn"]
    lines = win_chart(by_turn, height=4, width=3)
    bars = [[line.split("┤", 1)[1][3 * x: 3 * x + 3].strip() == BAR for x in range(3)]
            for line in lines[:4]]
    # turn 1: nothing won; turn 2: 25% (the bottom row of 4); turn 3: 50% (two rows)
    assert [column for column in zip(*bars)] == [(False,) * 4, (False, False, False, True),
                                                 (False, False, True, True)]
    assert lines[0].lstrip().startswith("100%")
    assert win_chart(kill_turn_summary(Counter({None: 3}), 2, 3, OPP)["by_turn"], height=3)[0].strip() == "100% ┤"
