"""The kill turn on the real engine (G5): against every game replayed one by one, its rule bounds, and the CLI."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

import sengoku
from sengoku.engine import GameRunner, MEASURES, choose_commander, compile_deck
from sengoku.goldfish.api import goldfish
from sengoku.goldfish.play.seeds import Chance, seed_run
from sengoku.paths import data_dir

RUNS, TURNS, SEED = 120, 12, 3
HITS_TO_WIN = {"standard": 7, "ultimate": 9}  # G5: Stronghold HP 6 / 8 (S5), then the winning hit
ATTACKS, HITS, ALLIES, OPP_HP = (MEASURES.index(m) for m in ("attacks", "stronghold_hits", "allies",
                                                                "opp_stronghold_hp"))


def replay(policy: str, runs: int, turns: int, seed: int, going_first: bool = True, play_on: bool = False) -> list:
    """Every run of `goldfish(...)` on the default deck, one GameRecord each, as the simulation plays it."""
    deck = sengoku.load_decklist(data_dir("decklists") / "default.toml")
    valid = sengoku.validate_deck(deck)
    tables = compile_deck(sengoku.load_card_db(), valid.sections, mode=valid.mode)
    chance = Chance()
    runner = GameRunner(tables, policy, chance, turns, going_first, choose_commander(tables), play_on=play_on)
    games = []
    for i in range(runs):
        seed_run(chance, seed, i)
        games.append(runner.play())
    return games


def nearest_rank(values: list[int], p: int) -> int:
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p * len(ordered) / 100)) - 1]


@pytest.fixture(scope="module")
def random_games():
    result = goldfish(runs=RUNS, turns=TURNS, seed=SEED, policy="random", jobs=1)
    return result, replay("random", RUNS, TURNS, SEED)


def test_kill_turn_equals_a_count_over_every_game(random_games) -> None:
    result, games = random_games
    k = result.kill_turn
    kills = [g.won_turn for g in games]
    won = [t for t in kills if t is not None]
    assert won, "the random policy wins some games within 12 turns (the test needs wins to check)"
    assert [row["games"] for row in k["by_turn"]] == [kills.count(t) for t in range(1, TURNS + 1)]
    assert [row["cumulative"]["games"] for row in k["by_turn"]] == \
        [sum(1 for t in won if t <= turn) for turn in range(1, TURNS + 1)]
    assert k["never"] == {"games": kills.count(None), "fraction": round(kills.count(None) / RUNS, 6)}
    assert sum(row["games"] for row in k["by_turn"]) + k["never"]["games"] == RUNS
    assert k["mean"] == round(sum(won) / len(won), 4)
    assert (k["p10"], k["p50"], k["p90"]) == tuple(nearest_rank(won, p) for p in (10, 50, 90))
    assert k["opponent"] == {"deck": "mirror", "name": "Sample Standard: Four Banners", "defends": False}


def test_curve_counts_the_games_still_being_played(random_games) -> None:
    result, games = random_games
    for t, row in enumerate(result.curve):
        playing = [g.turns[t] for g in games if len(g.turns) > t]
        assert row["games"] == len(playing)
        for m in ("ap_main", "attacks", "opp_stronghold_hp"):
            values = [r[MEASURES.index(m)] for r in playing]
            assert row[m] is None if not values else row[m]["mean"] == round(sum(values) / len(values), 4)
    # without --play-on a won game stops at the end of its winning turn
    assert all(len(g.turns) == (TURNS if g.won_turn is None else g.won_turn) for g in games)


def test_no_game_wins_before_the_rules_allow(random_games) -> None:
    # G5: a Standard win takes 7 Stronghold hits (6 HP, then the winning one). On a turn, each
    # ally attacks at most once and an ally deployed that turn may not target the Stronghold
    # (K4), so a turn's hits are at most the allies in play when it began (3 at setup: the
    # Commander and two Nameless, S1-S2); going first, turn 1 has no attack at all (S8). The
    # earliest turn a game could have won is where those bounds first add up to 7.
    _, games = random_games
    assert any(g.won_turn for g in games)
    for g in games:
        allies_at_start = [3] + [row[ALLIES] for row in g.turns]
        assert g.turns[0][ATTACKS] == 0  # S8
        possible, earliest = 0, None
        for t, row in enumerate(g.turns, start=1):
            assert row[HITS] <= row[ATTACKS] <= allies_at_start[t - 1]
            possible += 0 if t == 1 else allies_at_start[t - 1]
            if earliest is None and possible >= HITS_TO_WIN["standard"]:
                earliest = t
        # before the win, each hit took one Stronghold HP (S5: 6); the winning turn's hits finish it
        hp, hits = HITS_TO_WIN["standard"] - 1, 0
        for t, row in enumerate(g.turns, start=1):
            if t == g.won_turn:
                assert row[HITS] >= hp + 1 and row[OPP_HP] == 0
                assert hits + row[HITS] >= HITS_TO_WIN["standard"]
                break
            hits += row[HITS]
            hp = row[OPP_HP]
            assert hp == HITS_TO_WIN["standard"] - 1 - hits
        if g.won_turn is not None:
            assert earliest is not None and g.won_turn >= earliest


def test_idle_never_wins() -> None:
    r = goldfish(runs=150, turns=10, policy="idle", jobs=1, opponent_defends=True)
    assert r.kill_turn["never"] == {"games": 150, "fraction": 1.0}
    assert r.kill_turn["opponent"] == {"deck": "mirror", "name": "Sample Standard: Four Banners", "defends": True}
    assert r.kill_turn["won"]["games"] == 0 and r.kill_turn["mean"] is None
    for row in r.curve:
        assert row["games"] == 150
        assert row["attacks"] == {"mean": 0, "p10": 0, "p50": 0, "p90": 0}
        assert row["opp_stronghold_hp"] == {"mean": 6, "p10": 6, "p50": 6, "p90": 6}  # S5


def test_play_on_keeps_every_game_and_the_same_kill_turns(random_games) -> None:
    stopped, _ = random_games
    on = goldfish(runs=RUNS, turns=TURNS, seed=SEED, policy="random", jobs=1, play_on=True)
    assert on.play_on and not stopped.play_on
    assert on.kill_turn == stopped.kill_turn  # a game is the same up to its win, whether it goes on or not
    assert all(row["games"] == RUNS for row in on.curve)
    first_win = next(row["turn"] for row in stopped.kill_turn["by_turn"] if row["games"])
    assert on.curve[:first_win] == stopped.curve[:first_win]
    assert on.to_dict()["play_on"] is True


def test_jobs_do_not_change_the_kill_turn(cli, monkeypatch) -> None:
    from sengoku.goldfish.play import simulate

    monkeypatch.setattr(simulate, "MIN_RUNS_PER_JOB", 1)  # let a small run really use 2 processes
    args = ("goldfish", "--runs", "60", "--turns", "10", "--policy", "random", "--seed", "9", "--json",
            "--opponent", str(data_dir("decklists") / "ultimate.toml"))
    one, two = cli(*args, "--jobs", "1"), cli(*args, "--jobs", "2")
    assert one.code == two.code == 0, (one.err, two.err)
    assert one.out == two.out
    data = json.loads(one.out)
    assert data["kill_turn"]["won"]["games"] > 0
    assert data["kill_turn"]["opponent"]["defends"] is False
    assert data["kill_turn"]["opponent"]["deck"].endswith("ultimate.toml")  # played under the deck's mode
    assert data["schema_version"] == 4 and data["sengoku_version"] == sengoku.__version__


def test_an_invalid_opponent_is_exit_1_with_the_validators_report(cli) -> None:
    bad = data_dir("decklists") / "invalid" / "deck-size.toml"
    r = cli("goldfish", "--runs", "5", "--opponent", str(bad))
    assert r.code == 1
    assert "opponent deck is not valid" in r.err and "deck-size.toml" in r.err
    assert "deck-size" in r.err.split("fix it before goldfishing", 1)[1]  # the validator's report follows
    assert r.out == "" and "Traceback" not in r.err


def test_an_unreadable_opponent_is_exit_2(cli, tmp_path: Path) -> None:
    r = cli("goldfish", "--runs", "5", "--opponent", str(tmp_path / "nope.toml"))
    assert r.code == 2 and "nope.toml" in r.err and "Traceback" not in r.err
    senjutsu = next((data_dir("decklists") / "senjutsu" / "valid").glob("*.toml"))
    r = cli("goldfish", "--runs", "5", "--opponent", str(senjutsu))
    assert r.code == 2 and "SENGOKU YUGI" in r.err


def test_engine_only_options_are_refused_for_another_games_deck(cli) -> None:
    senjutsu = next((data_dir("decklists") / "senjutsu" / "valid").glob("*.toml"))
    for option in (("--play-on",), ("--opponent-defends",), ("--opponent", str(senjutsu))):
        r = cli("goldfish", str(senjutsu), "--runs", "5", *option)
        assert r.code == 2, option
        assert f"error: {option[0]} drives" in r.err


def test_text_report_has_the_kill_turn_table_and_win_chart(cli) -> None:
    r = cli("goldfish", "--runs", "40", "--turns", "10", "--policy", "random", "--jobs", "1")
    assert r.code == 0, r.err
    assert "Kill turn (G5)" in r.out and "won on" in r.out and "won by" in r.out
    assert "never in 10" in r.out
    assert "Opponent: a mirror of the deck, not defending" in r.out
    assert "█ games won by the end of the turn" in r.out


def test_plot_draws_the_win_curve(cli, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "curve.svg"
    r = cli("goldfish", "--runs", "30", "--turns", "10", "--policy", "random", "--jobs", "1", "--json",
            "--plot", str(out))
    assert r.code == 0, r.err
    svg = out.read_text(encoding="utf-8")
    assert "Kill turn: games won" in svg and "won by the end of the turn" in svg
