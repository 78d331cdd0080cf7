"""Tune reports its intervals by compare's rule (issue 33, class 7): runs with no spread between them
give no interval, and say why, as compare does; and no JSON report holds -0.0.

Two check runs of a deck against itself differ by 0 each: compare says "no spread" and gives no
interval; tune gave [-0.0, -0.0].
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from jsonschema import Draft202012Validator

from sengoku.display import json_ready
from sengoku.goldfish.compare import compare
from sengoku.goldfish.statistics.differences import KILL_TURN_MEAN
from sengoku.goldfish.statistics.paired import FEWER_THAN_TWO, NO_SPREAD, Sums
from sengoku.tune.race import judge
from sengoku.tune.report import render_text
from sengoku.tune.tuner import Tuner

ROOT = Path(__file__).resolve().parents[2]
WEAKENED = ROOT / "decklists" / "tune" / "no-level4.toml"
SCHEMA = Draft202012Validator(json.loads((ROOT / "schemas" / "tune.schema.json").read_text(encoding="utf-8")))


def _alike_check(runs: int, objective: str = "kill-turn"):  # type: ignore[no-untyped-def]
    """A tune whose final deck is one legal change from the start that played its `runs` check runs with
    the same difference on each (no spread); the first such change, in the candidates' fixed order."""
    from sengoku.tune.candidates import legal_candidates

    tuner = Tuner(WEAKENED, budget=10, objective=objective, check_runs=runs)
    candidates, _ = legal_candidates(tuner.start, tuner.setup.like, tuner.pool, tuner.setup.card_db, tuner.validator)
    for candidate in candidates[:200]:
        tuner.incumbent = candidate.deck
        tuner.offset = 0
        tuner.check = tuner._pairwise(tuner.setup.options.policy, runs)
        ci = tuner.check.ci95
        if runs < 2 or ci is None or ci[0] == ci[1]:  # (before the fix: [d, d] for runs alike)
            return tuner
    raise AssertionError("no change of the first 200 played its check runs alike")


def test_check_runs_alike_give_no_interval_as_compare_says(tmp_path: Path) -> None:
    tuner = _alike_check(2)
    check = tuner.check
    assert check.ci95 is None and check.no_interval == NO_SPREAD
    # compare, on the same two decks and the same two runs, says the same words for its mean
    final = tmp_path / "final.toml"
    final.write_text(tuner.result().decklist_text(), encoding="utf-8")
    compared = compare([WEAKENED, final], runs=2, seed=tuner.setup.options.seed, jobs=1)
    row = next(r for r in compared.to_dict()["differences"] if r["measure"] == KILL_TURN_MEAN)
    assert (row["ci95"], row["no_interval"]) == (None, check.no_interval)
    assert row["diff"] == -check.diff or row["diff"] == check.diff == 0  # deck - baseline, turns


def test_the_json_says_why_and_holds_no_negative_zero() -> None:
    for objective in ("kill-turn", "won-by:6"):
        result = _alike_check(2, objective).result()
        text = result.to_json()
        assert "-0.0" not in text
        data = json.loads(text)
        assert data["check"]["ci95"] is None and data["check"]["no_interval"] == NO_SPREAD
        assert not list(SCHEMA.iter_errors(data))
        assert f"(no interval: {NO_SPREAD})" in render_text(result) and "-0.00" not in render_text(result)


def test_one_check_run_has_fewer_than_two() -> None:
    check = _alike_check(1).check
    assert check is not None and check.ci95 is None and check.no_interval == FEWER_THAN_TWO


def test_a_racing_candidate_without_spread_reports_no_interval_and_is_judged_by_its_value() -> None:
    alike = Sums(n=50, total=0, squares=0)  # played exactly as the incumbent on 50 runs
    spread = Sums(n=50, total=10, squares=30)
    (v_alike, v_spread) = judge([alike, spread], 0.01, min_gain=0.02)
    assert v_alike.ci95 is None and not v_alike.accept
    assert v_alike.drop  # its value, 0 on every run, is below the smallest gain worth having
    assert v_spread.ci95 is not None and v_spread.ci95 == spread.interval()


def test_json_ready_turns_every_negative_zero_into_zero() -> None:
    value = {"a": -0.0, "b": [0.0, -0.0, {"c": -0.0}], "d": (-0.0, 1.5), "e": -2.0, "f": None, "g": "-0.0"}
    text = json.dumps(json_ready(value))
    assert text == '{"a": 0.0, "b": [0.0, 0.0, {"c": 0.0}], "d": [0.0, 1.5], "e": -2.0, "f": null, "g": "-0.0"}'
