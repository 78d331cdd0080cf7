"""benchmarks/search_choices.py records where `search` parts from greedy without changing its games."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def tool():
    sys.path.insert(0, str(BENCH))
    try:
        import search_choices
        yield search_choices
    finally:
        sys.path.remove(str(BENCH))


def test_the_recording_search_plays_the_search_s_games_and_logs_only_better_choices(tool):
    from sengoku.engine import GameRunner
    from sengoku.engine.policies.search import SearchPolicy
    from sengoku.goldfish.play.seeds import Chance, seed_run

    deck, setting, log, games = tool.play(("low-curve", "second-defends", 0, 2, 6, 0))
    assert games == 2
    tables = tool.load_deck(tool.SUITE / "low-curve.toml")
    chance = Chance()
    runner = GameRunner(tables, SearchPolicy(), chance, 6, False, opponent_defends=True)
    recorder = tool.make_recorder()()
    again = GameRunner(tables, recorder, Chance(), 6, False, opponent_defends=True)
    for i in range(2):
        seed_run(chance, 0, i)
        seed_run(again.chance, 0, i)
        assert again.play().won_turn == runner.play().won_turn  # the same draws from policy_rng
    assert log, "the search parts from greedy somewhere in two games"
    for e in log:
        assert e["gain"] > 0  # a choice other than greedy's is taken only when its rollouts win sooner
        assert 1 <= e["turn"] <= 6 and e["deck"] == "low-curve" and e["setting"] == "second-defends"
        assert e["what"]
