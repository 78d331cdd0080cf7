"""A simulation's options are one record, checked where it is made; a policy is a name and its settings."""

from __future__ import annotations

import pickle

import pytest

import sengoku
from sengoku.engine import GameRunner
from sengoku.engine.chance import Chance, seed_run
from sengoku.engine.policies import GreedyPolicy, GreedySettings, make_policy
from sengoku.goldfish.errors import GoldfishError
from sengoku.goldfish.options import DEFAULT_POLICY, PlayOptions, PolicySpec
from sengoku.paths import data_dir
from sengoku.trace import Trace, trace_run

DECK = data_dir("decklists") / "default.toml"


@pytest.mark.parametrize("values, message", [
    ({"turns": 0}, "turns must be between 1 and 200, not 0"),
    ({"turns": 201}, "turns must be between 1 and 200, not 201"),
    ({"turns": True}, "turns must be between 1 and 200, not True"),
    ({"going": "third"}, "going must be 'first' or 'second', not 'third'"),
    ({"mode": "casual"}, "mode must be 'standard' or 'ultimate', not 'casual'"),
    ({"jobs": 0}, "jobs must be at least 1, not 0"),
    ({"seed": 1.5}, "seed must be an integer, not 1.5"),
    ({"policy": "best"}, "unknown policy 'best' (known: greedy, develop, charge, search, random, idle)"),
    ({"play_on": 1}, "play_on must be True or False, not 1"),
])
def test_an_unusable_option_is_refused_where_the_record_is_made(values: dict, message: str) -> None:
    with pytest.raises(GoldfishError) as caught:
        PlayOptions(**values)
    assert str(caught.value) == message


def test_the_job_count_is_the_records_at_most_one_process_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    from sengoku.goldfish import options

    monkeypatch.setattr(options, "usable_cores", lambda: 4)
    assert PlayOptions().workers == 4 and PlayOptions().jobs_note() is None  # None: every core
    assert PlayOptions(jobs=3).workers == 3 and PlayOptions(jobs=3).jobs_note("--jobs") is None
    many = PlayOptions(jobs=9)
    assert many.jobs == 9 and many.workers == 4  # what was asked stays in the record; more only queue
    assert many.jobs_note("--jobs") == "--jobs 9 is more than the 4 core(s) this process may use; using 4"
    assert many.jobs_note() == "jobs 9 is more than the 4 core(s) this process may use; using 4"
    assert many.to_dict() == PlayOptions(jobs=1).to_dict() == PlayOptions().to_dict()  # no result depends on it


def test_a_policys_settings_are_checked_by_the_policy() -> None:
    with pytest.raises(GoldfishError, match="greedy has no setting 'min_hits'"):
        PolicySpec("greedy", {"min_hits": 0.3})
    with pytest.raises(GoldfishError, match="greedy's setting hp_charge takes a bool, not 1$"):
        PolicySpec("greedy", {"hp_charge": 1})
    with pytest.raises(GoldfishError, match="greedy's setting extra_charge_turns takes an int, not 1.5$"):
        PolicySpec("greedy", {"extra_charge_turns": 1.5})
    # a setting removed (it did not earn its cost on the test set) is named as removed, with what greedy does now
    with pytest.raises(GoldfishError, match="^greedy's setting min_hit was removed .*: greedy now always attacks"):
        PolicySpec("greedy", {"min_hit": 0.3})
    with pytest.raises(GoldfishError, match="develop has no settings"):
        PolicySpec("develop", {"hp_charge": True})
    spec = PolicySpec("greedy", {"fitted_margin": 1, "hp_charge": True})  # an int is taken for a float setting
    assert spec.settings == (("fitted_margin", 1.0), ("hp_charge", True))
    assert spec.to_json() == {"name": "greedy", "settings": {"fitted_margin": 1.0, "hp_charge": True}}
    assert str(spec) == "greedy(fitted_margin=1.0, hp_charge=True)"
    assert PolicySpec().to_json() == DEFAULT_POLICY == str(PolicySpec.of(None))


def test_the_record_travels_whole_and_prints_as_json() -> None:
    options = PlayOptions.given(turns=5, policy=PolicySpec("greedy", {"hp_charge": True}), going="second",
                                opponent_defends=True, jobs=None)
    assert pickle.loads(pickle.dumps(options)) == options  # to worker processes and Dask workers
    assert options.to_dict() == {"turns": 5, "seed": 0, "going": "second",
                                 "policy": {"name": "greedy", "settings": {"hp_charge": True}},
                                 "commander": None, "mode": None, "opponent": None, "opponent_defends": True,
                                 "play_on": False}
    with pytest.raises(TypeError, match="unexpected keyword argument.*: turn$"):
        PlayOptions.given(turn=5)


def test_the_record_and_the_keyword_options_play_the_same_games() -> None:
    by_record = sengoku.goldfish(DECK, runs=80, options=PlayOptions(turns=6, seed=4, going="second", jobs=1))
    by_keywords = sengoku.goldfish(DECK, runs=80, turns=6, seed=4, going="second", jobs=1)
    assert by_record.to_json() == by_keywords.to_json()
    assert by_record.options == PlayOptions(turns=6, seed=4, going="second", jobs=1, mode="standard")


def test_a_policy_setting_plays_the_games_of_the_policy_with_that_setting() -> None:
    # An oracle outside the options: the engine's own loop with a subclass holding the setting.
    result = sengoku.goldfish(DECK, runs=300, turns=8, jobs=1, kill_turns=True,
                              policy=PolicySpec("greedy", {"hp_charge": True, "fitted_margin": 0.5}))
    changed = lambda: GreedyPolicy(GreedySettings(hp_charge=True, fitted_margin=0.5))  # noqa: E731
    valid = sengoku.validate_deck(sengoku.load_decklist(DECK))
    from sengoku.engine import compile_deck

    tables = compile_deck(sengoku.load_card_db(), valid.sections, valid.mode)
    runner = GameRunner(tables, changed(), chance := Chance(), 8, True)
    kills = []
    for i in range(300):
        seed_run(chance, 0, i)
        kills.append(runner.play().won_turn or 0)
    assert list(result.run_kill_turns) == kills
    plain = sengoku.goldfish(DECK, runs=300, turns=8, jobs=1, kill_turns=True)
    assert list(plain.run_kill_turns) != kills  # the settings did change the games
    assert make_policy("greedy", {"hp_charge": True}).settings.hp_charge is True


def test_goldfish_traces_the_runs_a_report_asks_for_as_trace_run_does() -> None:
    result = sengoku.goldfish(DECK, runs=60, turns=6, jobs=1, opponent_defends=True, traces=("median", 7))
    median, seventh = (Trace.of(t) for t in result.traced)
    alone = trace_run(DECK, run="median", runs=60, turns=6, jobs=1, opponent_defends=True)
    assert median.events == alone.events and median.chosen == "median"
    assert seventh.events == trace_run(DECK, run=7, runs=60, turns=6, jobs=1, opponent_defends=True).events
    assert result.run_kill_turns is None  # asked for traces, not for every run's kill turn
