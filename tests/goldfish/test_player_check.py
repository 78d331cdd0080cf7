"""`goldfish(check_player=N)` / `--check-player N` (SPEC G6, issue 36 point 5): how far the player is from a search.

The gap is checked against the same deals played through the library by each policy on its own
(`goldfish(policy=..., kill_turns=True)`), and its interval against Python's own `statistics`
and a t table; the verdict rule on hand-worked intervals; the warning on a planted weak policy
(`develop` never attacks, so it never wins: it is many turns behind any search).
"""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import pytest
from rich.console import Console

import sengoku
from sengoku.goldfish.errors import EngineOptionError, GoldfishError
from sengoku.goldfish.options import PolicySpec
from sengoku.goldfish.player_check import CANNOT_TELL, NOT_WITHIN, THRESHOLD, WITHIN, PlayerCheck
from sengoku.goldfish.reports.report import render
from sengoku.goldfish.statistics.paired import Sums

ROOT = Path(__file__).resolve().parents[2]
DEALS = 20
TURNS = 8
T975_19 = 2.0930  # Student's t, 0.975 quantile, 19 degrees of freedom (standard tables)


def _check(diffs: list[int], policy_total: int = 0) -> PlayerCheck:
    gap = Sums()
    for d in diffs:
        gap.add(d)
    return PlayerCheck(len(diffs), PolicySpec("greedy"), PolicySpec("search"), TURNS, gap, policy_total,
                       policy_total - sum(diffs))


def test_verdict_within_on_a_hand_worked_interval() -> None:
    # 100 deals, two a turn slower than the search: mean 0.02, s^2 = (100*2 - 2^2)/(100*99) = 196/9900,
    # half-width t(0.975, 99) * s / 10 = 1.9842 * 0.140705 / 10 = 0.02792: [-0.0079, +0.0479]
    check = _check([1, 1] + [0] * 98, policy_total=302)
    lo, hi = check.interval
    assert lo == pytest.approx(0.02 - 0.027919, abs=2e-5) and hi == pytest.approx(0.02 + 0.027919, abs=2e-5)
    assert check.verdict == WITHIN and check.far_end == 0.05
    assert check.words().startswith("the player is within 0.05 turns of a search on this deck (mean gap +0.02")
    data = check.to_dict()
    assert data["verdict"] == WITHIN and data["gap"] == 0.02 and data["threshold"] == THRESHOLD
    assert data["mean_kill_turn"] == {"policy": 3.02, "search": 3.0} and data["no_interval"] is None


def test_verdict_not_within_and_cannot_tell() -> None:
    # every deal 1 or 2 turns slower: the whole interval is far beyond +0.1
    slower = _check([1, 2] * 10)
    assert slower.verdict == NOT_WITHIN and slower.interval[0] > THRESHOLD
    assert "not within 0.1 turns" in slower.words() and "1.50 turns later" in slower.words()
    # 10 deals, one a turn slower: mean 0.1, the interval [-0.13, +0.33] reaches across +0.1
    unsure = _check([1] + [0] * 9)
    assert unsure.verdict == CANNOT_TELL and unsure.words().startswith("cannot tell at 10 deals")
    # a search clearly slower than the player is a gap too (the search is then no yardstick)
    faster = _check([-1, -2] * 10)
    assert faster.verdict == NOT_WITHIN and "1.50 turns sooner" in faster.words()
    # no spread: every deal the same gap, no interval, no verdict (the rule of `compare`)
    same = _check([0] * 30)
    assert same.interval is None and same.verdict == CANNOT_TELL
    assert "no interval: no spread" in same.words() and same.to_dict()["ci95"] is None


@pytest.fixture(scope="module")
def alone() -> tuple[list[int], list[int]]:
    """The first DEALS deals of the default deck played by greedy, and by the search, each on its own."""
    greedy = sengoku.goldfish(runs=DEALS, jobs=1, kill_turns=True)
    search = sengoku.goldfish(runs=DEALS, policy="search", jobs=1, kill_turns=True)
    return [t or TURNS + 1 for t in greedy.run_kill_turns], [t or TURNS + 1 for t in search.run_kill_turns]


def test_gap_is_the_same_deals_played_by_each_policy(alone: tuple[list[int], list[int]]) -> None:
    greedy, search = alone
    diffs = [a - b for a, b in zip(greedy, search)]
    assert any(diffs) and len(set(diffs)) > 1  # a gap with spread: an interval to check
    # 50 runs, the first 20 checked, in two processes: the same deals, whatever process plays them
    result = sengoku.goldfish(runs=50, jobs=2, check_player=DEALS)
    check = result.check_player
    assert check.deals == DEALS and str(check.search) == "search"
    mean = statistics.mean(diffs)
    half = T975_19 * statistics.stdev(diffs) / math.sqrt(DEALS)
    assert check.mean_gap == pytest.approx(mean)
    assert check.interval == pytest.approx((mean - half, mean + half), abs=1e-4)
    data = result.to_dict()["check_player"]
    assert data["mean_kill_turn"] == {"policy": round(statistics.mean(greedy), 4),
                                      "search": round(statistics.mean(search), 4)}
    assert data["deals"] == DEALS and data["policy"] == "greedy" and data["search"] == "search"
    assert result.to_dict()["schema_version"] == 4
    # the report says it in its summary
    console = Console(record=True, width=400)
    render(result, console)
    assert f"Player check: {check.words()}" in console.export_text()


def test_a_weak_policy_gets_the_warning(alone: tuple[list[int], list[int]], tmp_path: Path, cli) -> None:
    # develop never attacks: never won, each of its games counts as turns + 1 = 9
    _, search = alone
    html = tmp_path / "report.html"
    proc = cli("goldfish", "--policy", "develop", "--runs", str(DEALS), "--check-player", str(DEALS), "-j", "1",
               "--json", "--html", str(html))
    assert proc.code == 0, proc.err
    data = json.loads(proc.out)["check_player"]
    diffs = [TURNS + 1 - s for s in search]
    assert data["gap"] == round(statistics.mean(diffs), 4) and data["verdict"] == NOT_WITHIN
    assert data["mean_kill_turn"]["policy"] == TURNS + 1 and data["search"] == "search"
    assert "the player is not within 0.1 turns of a search on this deck" in data["message"]
    assert f"warning: {data['message']}" in proc.err
    page = html.read_text(encoding="utf-8")
    assert '<li class="bad">Player check: WARNING: the player is not within 0.1 turns' in page
    assert f"--check-player {DEALS}" in page  # the command that reproduces the page checks again


@pytest.mark.parametrize(("args", "message"), [
    (("--runs", "10", "--check-player", "11"), "plays 11 of the run's deals again, but the run has 10"),
    (("--runs", "10", "--check-player", "0"), "a number of deals from 1 to the runs (10), not 0"),
    (("--runs", "10", "--policy", "search", "--check-player", "5"), "the policy played is the search"),
    (("--runs", "10", "--trace", "0", "--check-player", "5"), "--check-player cannot go with it"),
])
def test_unusable_check_is_refused(args: tuple[str, ...], message: str, cli) -> None:
    proc = cli("goldfish", *args)
    assert proc.code == 2 and message in proc.err and "Traceback" not in proc.err


def test_check_is_refused_before_any_game_and_for_another_game() -> None:
    with pytest.raises(GoldfishError, match="check at most 3 deals"):
        sengoku.goldfish(runs=3, check_player=4)
    with pytest.raises(GoldfishError, match="not True"):
        sengoku.goldfish(runs=3, check_player=True)
    with pytest.raises(EngineOptionError):
        sengoku.goldfish(ROOT / "decklists" / "senjutsu" / "valid" / "ronin-forty.toml", runs=3, check_player=2)
