"""benchmarks/step_potential.py: one step of look-ahead against the default policy, scored twice."""

from __future__ import annotations


import pytest

from .conftest import benchmark_script

# The Main Phase's own choices (M1-M5, C5, K4, U3-U5, A4, T5), as `Kind` names them.
KINDS = {"deploy", "stack", "grow", "focus", "move", "swap", "use_ability", "use_hand_ability", "attack",
         "contract", "evolve", "release", "end_turn", "use_familiar_ability"}


@pytest.fixture(scope="module")
def tool():
    with benchmark_script("step_potential") as script:
        yield script


def test_each_deal_gets_a_bounded_honest_gain_or_none(tool):
    found = tool.potential(("ultimate-beasts", "first", 0, 6, 11, 1, 3, 0.1))
    assert len(found) == 6  # turn 1 is reached in every deal: one decision each
    for gain, kind in found:
        if kind:
            assert kind in KINDS
            assert -12 <= gain <= 12  # a difference of two mean kill turns, each 1..13
        else:
            assert gain == 0.0
    assert any(kind for _, kind in found), "in six Ultimate deals some first step beats greedy's turn by 0.1 turns"


def test_no_action_is_chosen_when_none_can_win_by_the_margin(tool):
    # A game lasts at most 12 turns: no action can win 13 turns sooner on the first stage.
    found = tool.potential(("low-curve", "second", 0, 4, 11, 1, 2, 13.0))
    assert found == [(0.0, "")] * 4


def test_a_turn_after_every_game_ends_has_nothing_to_gain(tool, capsys: pytest.CaptureFixture[str]):
    # mat-heavy wins by turn 6 on these deals: turn 12's Main Phase is never reached.
    assert tool.potential(("mat-heavy", "second", 0, 3, 11, 12, 2, 0.1)) == []
    args = ["--turn", "12", "--deals", "3", "--rollouts", "2", "--deck", "mat-heavy", "--setting", "second"]
    assert tool.main(args) == 0
    assert "mat-heavy            second         +0.000 ± 0.000 turns a deal; chosen: none" in capsys.readouterr().out


def test_the_figures_do_not_depend_on_jobs(tool, capsys: pytest.CaptureFixture[str]):
    args = ["--deals", "30", "--rollouts", "2", "--deck", "ultimate-eggs", "--setting", "first"]
    assert tool.main(args) == 0
    one = capsys.readouterr().out
    assert tool.main(args + ["--jobs", "2"]) == 0
    assert capsys.readouterr().out == one
