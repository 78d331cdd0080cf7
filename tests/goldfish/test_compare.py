"""`sengoku compare` on the real engine: a deck against itself, a known-worse deck, --jobs, --precision, refusals."""

from __future__ import annotations

import copy
import json
from html import escape
from pathlib import Path

import pytest

import sengoku
from sengoku.goldfish.play import simulate
from sengoku.goldfish.api import goldfish
from sengoku.goldfish.compare import CompareError, compare
from sengoku.goldfish.statistics.differences import BETTER, KILL_TURN_MEAN, WON_BY_TURN, WORSE
from sengoku.paths import data_dir

DECKS = data_dir("decklists")
DEFAULT = DECKS / "default.toml"
NO_LEVEL4 = DECKS / "compare" / "no-level4.toml"  # the Level 4 cards replaced by Level 2 ones
ONE_CARD = DECKS / "compare" / "one-card.toml"  # one Level 4 replaced by a Level 2
RUNS, TURNS = 150, 8
# Until the play-to-win policy lands the default one never attacks; the random one wins games.
POLICY = "random"


@pytest.fixture(scope="module")
def itself():
    return compare([DEFAULT, DEFAULT], runs=RUNS, turns=TURNS, seed=4, policy=POLICY, jobs=1)


def test_a_deck_against_itself_differs_by_exactly_zero(itself) -> None:
    assert itself.differences
    for row in itself.differences:
        assert row["diff"] == 0 and row["ci95"] == [0, 0], row
        if row["measure"] == KILL_TURN_MEAN:
            assert row["unpaired_ci95"] == [0, 0]
    base, deck = copy.deepcopy(itself.decks[0].to_dict()), copy.deepcopy(itself.decks[1].to_dict())
    # The baseline meets its mirror, the other deck the baseline: here the same deck, so the same games.
    assert base["kill_turn"].pop("opponent")["deck"] == "mirror"
    assert deck["kill_turn"].pop("opponent")["deck"] == str(DEFAULT)
    assert base == deck  # the same runs, game for game


def test_each_deck_gets_the_result_goldfish_gives(itself) -> None:
    alone = goldfish(DEFAULT, runs=RUNS, turns=TURNS, seed=4, policy=POLICY, jobs=1)
    assert itself.baseline.to_dict() == alone.to_dict()
    kill = alone.kill_turn
    never = kill["never"]["games"]
    total = sum(r["turn"] * r["games"] for r in kill["by_turn"]) + (TURNS + 1) * never
    assert kill["mean_all_games"]["mean"] == pytest.approx(total / RUNS, abs=1e-4)
    assert kill["mean_all_games"]["never_counts_as"] == TURNS + 1


@pytest.fixture(scope="module")
def worse():
    return compare([DEFAULT, NO_LEVEL4], runs=300, turns=TURNS, seed=1, policy=POLICY, jobs=1)


def test_a_known_worse_deck_is_reported_worse(worse) -> None:
    kill = worse.rows(KILL_TURN_MEAN)[0]
    assert kill["deck"] == str(NO_LEVEL4) and kill["baseline"] == str(DEFAULT)
    assert kill["ci95"][0] > 0 and kill["verdict"] == WORSE  # later kills, interval excluding 0
    assert kill["diff"] == pytest.approx(kill["value"] - kill["base_value"], abs=1e-5)
    last = [r for r in worse.rows(WON_BY_TURN) if r["turn"] == TURNS][0]
    assert last["ci95"][1] < 0 and last["verdict"] == WORSE
    assert worse.verdicts() == [{"deck": str(NO_LEVEL4), "kill_turn": WORSE, "won_by_last_turn": WORSE}]
    # Swapping the decks (against the same opponent) swaps the verdicts.
    back = compare([NO_LEVEL4, DEFAULT], runs=300, turns=TURNS, seed=1, policy=POLICY, jobs=1, opponent=DEFAULT)
    assert back.verdicts()[0]["kill_turn"] == BETTER
    assert back.rows(KILL_TURN_MEAN)[0]["diff"] == pytest.approx(-kill["diff"], abs=1e-5)


def test_win_curve_rows_agree_with_each_decks_own_result(worse) -> None:
    for deck, result in ((worse.paths[1], worse.decks[1]),):
        for row in worse.rows(WON_BY_TURN, deck):
            own = result.kill_turn["by_turn"][row["turn"] - 1]["cumulative"]["fraction"]
            base = worse.baseline.kill_turn["by_turn"][row["turn"] - 1]["cumulative"]["fraction"]
            assert row["value"] == pytest.approx(own) and row["base_value"] == pytest.approx(base)
            assert row["ci95"][0] <= row["diff"] <= row["ci95"][1]


def test_opening_hand_rows_hold_the_exact_difference(worse) -> None:
    rows = [r for r in worse.differences if r["measure"].startswith("opening_hand:")]
    assert [r["measure"] for r in rows] == ["opening_hand:commander_growth_focus", "opening_hand:level1",
                                            "opening_hand:turn1_deployable"]
    for row in rows:
        event = row["measure"].split(":", 1)[1]
        exact = {p["event"]: p["exact"] for p in worse.decks[1].opening_hand["probabilities"]}[event]
        base = {p["event"]: p["exact"] for p in worse.baseline.opening_hand["probabilities"]}[event]
        assert row["exact"] == {"value": exact, "base_value": base, "diff": pytest.approx(exact - base, abs=1e-6)}
    # Fewer cards that grow the Commander: the exact probability drops.
    assert rows[0]["exact"]["diff"] < 0 and rows[0]["verdict"] == "lower"


def test_pairing_narrows_the_interval_of_a_one_card_change() -> None:
    r = compare([DEFAULT, ONE_CARD], runs=RUNS, turns=TURNS, seed=2, policy=POLICY, jobs=1)
    kill = r.rows(KILL_TURN_MEAN)[0]
    paired = kill["ci95"][1] - kill["ci95"][0]
    unpaired = kill["unpaired_ci95"][1] - kill["unpaired_ci95"][0]
    assert paired < 0.75 * unpaired


def test_same_json_for_one_and_two_jobs(cli, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(simulate, "MIN_RUNS_PER_JOB", 20)  # let 2 jobs fork on a short test run
    args = ["compare", str(DEFAULT), str(ONE_CARD), "--runs", "400", "--precision", "0.12", "--policy", POLICY,
            "--json", "--seed", "9"]
    one = cli(*args, "--jobs", "1")
    two = cli(*args, "--jobs", "2")
    assert one.code == 0, one.err
    assert two.code == 0, two.err
    assert one.out == two.out
    data = json.loads(one.out)
    assert set(data["decks"][0]) >= {"deck", "runs", "kill_turn", "curve"}
    assert data["decks"][1]["deck"] == str(ONE_CARD)
    assert {"measure", "turn", "deck", "baseline", "value", "diff", "ci95", "verdict"} <= set(data["differences"][0])
    assert [r for r in data["differences"] if "kill_turn" in r["measure"] and "mean" in r["measure"]]
    assert len(data["precision"]["rounds"]) >= 2  # --precision played more than one round on either


def test_precision_stops_at_the_target() -> None:
    target = 0.12
    r = compare([DEFAULT, ONE_CARD], runs=5000, turns=TURNS, seed=3, policy=POLICY, jobs=1, precision=target)
    kill = r.rows(KILL_TURN_MEAN)[0]
    assert r.precision["reached"] and (kill["ci95"][1] - kill["ci95"][0]) / 2 <= target
    rounds = r.precision["rounds"]
    assert r.runs == rounds[-1]["runs"] < 5000 and len(rounds) >= 2
    assert rounds[-1]["half_width"] == pytest.approx((kill["ci95"][1] - kill["ci95"][0]) / 2, abs=1e-5)
    assert all(earlier["half_width"] > target for earlier in rounds[:-1])  # no round before had reached it
    before = compare([DEFAULT, ONE_CARD], runs=rounds[0]["runs"], turns=TURNS, seed=3, policy=POLICY, jobs=1)
    first = before.rows(KILL_TURN_MEAN)[0]  # a round's half-width is the interval of the runs so far
    assert (first["ci95"][1] - first["ci95"][0]) / 2 == pytest.approx(rounds[0]["half_width"], abs=1e-5)


def test_goldfish_precision_stops_at_the_target(cli) -> None:
    r = goldfish(DEFAULT, runs=5000, turns=TURNS, seed=3, policy=POLICY, jobs=1, precision=0.15)
    lo, hi = r.kill_turn["mean_all_games"]["ci95"]
    rounds = r.precision["rounds"]
    assert r.precision["reached"] and (hi - lo) / 2 <= 0.15 and r.runs == rounds[-1]["runs"] < 5000
    assert len(rounds) >= 2 and all(earlier["half_width"] > 0.15 for earlier in rounds[:-1])
    out = cli("goldfish", "--runs", "400", "--precision", "0.01", "--policy", POLICY, "--json", "-j", "1")
    data = json.loads(out.out)
    assert data["runs"] == 400 and data["precision"]["reached"] is False  # --runs used up first


def test_different_modes_and_games_are_usage_errors(cli) -> None:
    r = cli("compare", str(DEFAULT), str(DECKS / "ultimate.toml"), "--runs", "10")
    assert r.code == 2 and "mode" in r.err and "ultimate.toml" in r.err
    senjutsu = sorted((DECKS / "senjutsu" / "valid").glob("*.toml"))[0]
    r = cli("compare", str(DEFAULT), str(senjutsu), "--runs", "10")
    assert r.code == 2 and "one game" in r.err
    r = cli("compare", str(DEFAULT), "--runs", "10")
    assert r.code == 2 and "two decks" in r.err
    with pytest.raises(CompareError):
        compare([DEFAULT, DECKS / "ultimate.toml"], runs=10)


def test_an_invalid_deck_gets_the_validators_report(cli) -> None:
    bad = DECKS / "invalid" / "copy-limit.toml"
    r = cli("compare", str(DEFAULT), str(bad), "--runs", "10")
    assert r.code == 1
    assert "copy-limit.toml" in r.err and "4 copies of Soma Level 1" in r.err


def test_text_report_shows_the_table_and_verdicts(cli) -> None:
    r = cli("compare", str(DEFAULT), str(NO_LEVEL4), "--runs", "200", "--policy", POLICY, "-j", "1", "--seed", "1")
    assert r.code == 0, r.err
    assert "[1] deck: " + str(NO_LEVEL4) in r.out
    assert f"counting as {TURNS + 1}" in r.out  # a run never won is said to count as turns + 1
    # the answer first (issue 25): the report opens with the verdicts, then the opening-hand check
    lines = r.out.splitlines()
    assert lines[0].startswith(f"Verdicts against the baseline [0] {DEFAULT}, on the same 200 runs")
    assert lines[1] == f"  [1] {NO_LEVEL4}"
    assert lines[2].startswith("      mean kill turn: worse; +") and "95% CI [+" in lines[2]
    assert lines[3].startswith(f"      won by turn {TURNS}: worse; -")
    assert lines[4] == f"Opponent: the baseline [0] {DEFAULT} for every deck (the baseline meets its mirror), " \
        "not defending"
    assert lines[5].startswith("Opening-hand check: ok (6 events")


def test_every_output_names_the_opponent_as_goldfish_does(cli, tmp_path: Path) -> None:
    # compare's opponent is not goldfish's default (a mirror): the baseline's, or the one given, for every deck
    args = ["--runs", "30", "--policy", POLICY, "-j", "1", "--opponent", str(ONE_CARD), "--opponent-defends"]
    alone = cli("goldfish", str(NO_LEVEL4), *args)
    assert alone.code == 0, alone.err
    assert f"Opponent: {ONE_CARD}, defending" in alone.out.splitlines()
    page = tmp_path / "c.html"
    r = cli("compare", str(DEFAULT), str(NO_LEVEL4), *args, "--html", str(page))
    assert r.code == 0, r.err
    line = f"Opponent: {ONE_CARD} for every deck, defending"
    assert line in r.out.splitlines()
    assert f'<th scope="row">Opponent</th><td>{escape(line.split(": ", 1)[1])}</td>' in page.read_text(encoding="utf-8")
    data = json.loads(cli("compare", str(DEFAULT), str(NO_LEVEL4), *args, "--json").out)
    assert data["opponent"] == {"deck": str(ONE_CARD), "name": data["opponent"]["name"], "defends": True,
                                "baseline": False}
    assert all(d["kill_turn"]["opponent"]["deck"] == str(ONE_CARD) for d in data["decks"])
    # without --opponent: the baseline, which meets its mirror, and every other deck meets the baseline
    data = json.loads(cli("compare", str(DEFAULT), str(NO_LEVEL4), "--runs", "10", "--policy", POLICY, "--json").out)
    assert data["opponent"] == {"deck": str(DEFAULT), "name": "Sample Standard: Four Banners", "defends": False,
                                "baseline": True}
    assert [d["kill_turn"]["opponent"]["deck"] for d in data["decks"]] == ["mirror", str(DEFAULT)]


def test_plot_is_checked_before_simulating(cli, tmp_path: Path) -> None:
    r = cli("compare", str(DEFAULT), str(ONE_CARD), "--plot", str(tmp_path / "x.pdf"))
    assert r.code == 2 and ".png or .svg" in r.err


def test_compare_is_in_the_public_api() -> None:
    assert sengoku.compare is compare
    assert "compare" in sengoku.__all__
