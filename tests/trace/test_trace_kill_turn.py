"""A trace is the game the simulation counted (G8): run i traced ends on run i's kill turn.

For 1,000 runs of the bundled Standard deck going first against a passive opponent, and 100 going
second, against a defending opponent or in Ultimate mode (where greedy's look-ahead plays its first
turns):
the simulation's per-run kill turns (`Tally.per_run`, as `goldfish` keeps them) are
compared with the same runs played again through a recording runner, the path `trace_run` takes
(`make_runner(plan, record)` and `play_run`), and with the events that recording produced.
"""

from __future__ import annotations

import dataclasses

import pytest

import sengoku
from sengoku.goldfish.api import prepare_engine, read_deck
from sengoku.goldfish.options import PlayOptions
from sengoku.goldfish.play.simulate import make_runner, play_all, play_run
from sengoku.paths import data_dir
from sengoku.trace import pick_run, trace_run

RUNS = 1000
LOOKING_RUNS = 100  # the runs where greedy looks ahead (going second, against a defender, or in Ultimate mode)
DECKS = {"standard": "default.toml", "ultimate": "ultimate.toml"}


@pytest.fixture(scope="module")
def card_db():
    return sengoku.load_card_db()


def _plan(card_db, deck: str, going: str, defends: bool):
    decklist, syntax = read_deck(data_dir("decklists") / DECKS[deck])
    setup = prepare_engine(decklist, syntax, card_db, PlayOptions(turns=8, going=going, opponent_defends=defends),
                           kill_turns=True)
    return setup.plan


@pytest.mark.parametrize("defends", [False, True], ids=["idle-opponent", "opponent-defends"])
@pytest.mark.parametrize("going", ["first", "second"])
@pytest.mark.parametrize("deck", list(DECKS))
def test_every_traced_run_ends_on_the_simulations_kill_turn(card_db, deck: str, going: str, defends: bool) -> None:
    plan = _plan(card_db, deck, going, defends)
    looks = going == "second" or defends or deck == "ultimate"  # (in Ultimate mode it looks ahead going first too)
    runs = LOOKING_RUNS if looks else RUNS
    simulated = play_all(plan, runs, jobs=1).per_run
    assert simulated is not None and len(simulated) == runs
    record: list[dict] = []
    runner = make_runner(dataclasses.replace(plan, kill_turns=False), record)
    won = 0
    for i in range(runs):
        record.clear()
        game = play_run(runner, plan.options.seed, i)
        kill = game.won_turn or 0
        assert kill == simulated[i], f"run {i}: traced kill turn {kill}, simulated {simulated[i]}"
        # The events say the same: the last turn recorded is the kill turn, and its winning attack is there.
        ends = [e for e in record if e["event"] == "end_turn"]
        wins = [e for e in record if e["event"] == "attack" and e["won"]]
        assert record[0]["event"] == "setup" and tuple(record[0]["hand"]) == game.opening_hand
        if kill:
            won += 1
            assert ends[-1]["turn"] == kill and ends[-1]["won_turn"] == kill, i
            assert [w["turn"] for w in wins] == [kill], i
        else:
            assert len(ends) == 8 and not wins and ends[-1]["won_turn"] is None, i
    assert won > runs // 2  # (the bundled decks win most games within 8 turns)


def test_trace_run_picks_and_replays_the_simulations_runs(card_db) -> None:
    """`trace_run` itself, on the picked runs: each ends on the kill turn the simulation gave that run."""
    plan = _plan(card_db, "standard", "first", False)
    simulated = list(play_all(plan, 300, jobs=1).per_run)
    for which in ("fastest", "median", "slowest", 7):
        traced = trace_run(run=which, runs=300, db=card_db)
        index = which if isinstance(which, int) else pick_run(simulated, which, 8)
        assert traced.run == index
        assert (traced.won_turn or 0) == simulated[index]
        assert traced.events[-1] == {"event": "end", "turn": traced.events[-2]["turn"], "won_turn": traced.won_turn,
                                     "turns": 8, "played_on": False}


def test_pick_run_takes_the_lowest_index_among_ties() -> None:
    kills = [4, 3, 0, 3, 5, 4, 0]  # 0: not won, counts as turns + 1 = 9
    assert pick_run(kills, "fastest", 8) == 1
    assert pick_run(kills, "slowest", 8) == 2
    # sorted: 3 3 4 4 5 9 9 -> lower median (index 3) is 4: its lowest run index is 0
    assert pick_run(kills, "median", 8) == 0
    assert pick_run([5, 3], "median", 8) == 1  # two runs: the lower of the two


def test_kill_turns_are_the_same_for_any_jobs(card_db) -> None:
    plan = _plan(card_db, "standard", "first", False)
    one = play_all(plan, 2400, jobs=1).per_run
    two = play_all(plan, 2400, jobs=2).per_run
    assert one == two and len(one) == 2400
