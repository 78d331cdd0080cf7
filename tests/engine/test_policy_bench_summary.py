"""benchmarks/policy_bench.py --summarise: the summary of a stored run, worked by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import benchmark_script


@pytest.fixture(scope="module")
def bench():
    with benchmark_script("policy_bench") as script:
        yield script


def test_a_stored_run_is_summarised_without_playing(bench, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    # Two decks, two settings, four deals. Gaps (greedy minus search), deal by deal:
    # low-curve first 1,0,0,0 (mean 0.25); low-curve second 0,0,0,0 (0);
    # mat-heavy first 1,1,0,0 (0.5); mat-heavy second 1,1,1,0 (0.75).
    kills = {
        "low-curve|first|greedy": [4, 3, 3, 3], "low-curve|first|search": [3, 3, 3, 3],
        "low-curve|second|greedy": [3, 3, 3, 3], "low-curve|second|search": [3, 3, 3, 3],
        "mat-heavy|first|greedy": [4, 4, 3, 3], "mat-heavy|first|search": [3, 3, 3, 3],
        "mat-heavy|second|greedy": [4, 4, 4, 3], "mat-heavy|second|search": [3, 3, 3, 3],
    }
    stored = tmp_path / "run.json"
    stored.write_text(json.dumps({"args": {}, "kill_turns": kills}), encoding="utf-8")
    args = ["--deals", "4", "--deck", "low-curve", "--deck", "mat-heavy", "--setting", "first", "--setting", "second",
            "--summarise", str(stored)]
    assert bench.main(args) == 0
    out = capsys.readouterr().out
    assert "| low-curve | first | 3.25 | 3.00 | +0.25" in out
    assert "| mat-heavy | second | 3.75 | 3.00 | +0.75" in out
    assert "mean +0.375, largest +0.75, smallest +0.00; largest minus smallest 0.75" in out
    assert "rows whose gap is within 0.1 turns: 1 of 4" in out
    # per deck: low-curve (0.25 + 0) / 2 = 0.125, mat-heavy (0.5 + 0.75) / 2 = 0.625
    assert "from +0.125 (low-curve) to +0.625 (mat-heavy); largest minus smallest 0.500" in out
    assert "CPU s" not in out  # nothing was played
    with pytest.raises(SystemExit, match="holds no 5 kill turns for low-curve, first, greedy"):
        bench.main(["--deals", "5"] + args[2:])


def test_the_goals_name_what_misses_and_by_how_much(bench):
    rows = {("a", "first"): (3.2, 3.0, 0.2, 0.05), ("a", "second"): (3.0, 3.0, 0.0, 0.01),
            ("b", "first"): (3.1, 3.0, 0.12, 0.04), ("b", "second"): (3.0, 3.0, -0.05, 0.02)}
    per_deck = {"a": 0.1, "b": 0.035, "c": -0.02}  # spread 0.12: a is more than 0.1 above c
    met, spread, pairs = bench.goals(rows, per_deck, bench.Ranking(10, ["first: b minus a ..."], 1, 0.4))
    # a first: 0.2 - 0.05 > 0.1, the whole interval beyond; b first: 0.12 - 0.04 = 0.08, within reach of 0.1
    assert met == ("every row within 0.1 turns: not met, 2 of 4 rows; beyond: a first +0.200 ± 0.050 "
                   "(over by 0.100; its whole interval beyond), b first +0.120 ± 0.040 (over by 0.020)")
    assert spread == ("per deck, largest gap minus smallest at most 0.1: not met, 0.120 (over by 0.020); "
                      "more than 0.1 above the smallest (c -0.020): a +0.100")
    assert pairs == ("every pair the yardstick separates ordered the same way: not met, 9 of 10 (1 the other way, "
                     "1 of them beyond chance); by chance alone about 0.4 the other way")
    met, spread, pairs = bench.goals({("a", "first"): (3.0, 3.0, 0.1, 0.01)}, {"a": 0.0, "b": 0.1},
                                     bench.Ranking(3, [], 0, 0.05))
    assert met.startswith("every row within 0.1 turns: met, 1 of 1 rows")  # 0.1 itself is within
    assert spread == "per deck, largest gap minus smallest at most 0.1: met, 0.100"
    assert pairs.endswith("met, 3 of 3; by chance alone about 0.1 the other way")


def test_a_pair_ordered_the_other_way_says_whether_it_is_beyond_chance(bench):
    from statistics import NormalDist

    # eight deals; search finds b later than a in both settings: 1,1,1,1,1,1,1,0 (mean 0.875, half-width
    # t(7) 2.3646 x 0.3536 / sqrt 8 = 0.2956: separated)
    results = {("a", s, "search"): [3] * 8 for s in ("first", "second")}
    results.update({("b", s, "search"): [4] * 7 + [3] for s in ("first", "second")})
    # first: greedy finds b sooner, -1 x 7 and 0; its gap on b minus on a: -2 x 7 and 0 (mean -1.75,
    # half-width 2.3646 x 0.7071 / sqrt 8 = 0.591): the other way, beyond chance
    results[("a", "first", "greedy")] = [4] * 7 + [3]
    results[("b", "first", "greedy")] = [3] * 8
    # second: greedy's difference 2,-2,2,-2,2,-2,2,0: mean +0.25 (the same way), standard error
    # sqrt(27.5 / 7) / sqrt 8 = 0.70076; by chance the other way with P = Phi(-0.875 / 0.70076) = 0.1059
    results[("a", "second", "greedy")] = [3] * 8
    results[("b", "second", "greedy")] = [5, 1, 5, 1, 5, 1, 5, 3]
    found = bench.ranking_check(results, ["a", "b"], ["first", "second"], "greedy", "search")
    assert found.separated == 2 and found.beyond == 1 and len(found.wrong) == 1
    assert found.wrong[0] == ("first: b minus a is +0.88 (±0.30) under search, -0.88 under greedy; "
                              "greedy's gap on b minus on a -1.75 (±0.59, beyond chance)")
    first = NormalDist().cdf(-0.875 / (0.3536 / 8 ** 0.5))  # the first setting's share: about 1e-12
    assert found.by_chance == pytest.approx(0.1059 + first, abs=2e-4)


def test_results_are_written_as_they_go_and_a_second_run_plays_only_what_is_missing(bench, tmp_path, capsys):
    results = tmp_path / "run.jsonl"
    args = ["--deck", "mat-heavy", "--setting", "second", "--turns", "6", "--against", "develop", "--chunk", "2",
            "--results", str(results)]
    assert bench.main(args + ["--deals", "3"]) == 0
    first = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    assert [(r["policy"], r["start"], r["stop"]) for r in first] == [("greedy", 0, 2), ("develop", 0, 2),
                                                                     ("greedy", 2, 3), ("develop", 2, 3)]
    assert all(r["kill_turns"] == [7] * (r["stop"] - r["start"]) for r in first if r["policy"] == "develop")
    whole = [k for r in first if r["policy"] == "greedy" for k in r["kill_turns"]]
    capsys.readouterr()
    # four deals in chunks of 2: deals 0-1 are held; 2-3 are a chunk of their own (not the held 2-2), so played
    assert bench.main(args + ["--deals", "4"]) == 0
    again = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    assert again[:4] == first and [(r["policy"], r["start"], r["stop"]) for r in again[4:]] == [
        ("greedy", 2, 4), ("develop", 2, 4)]
    assert again[4]["kill_turns"][0] == whole[2]  # deal 2 is the same deal, played again
    out = capsys.readouterr().out
    mean = (sum(whole[:2]) + sum(again[4]["kill_turns"])) / 4
    assert f"| mat-heavy | second | {mean:.2f} | 7.00 | {mean - 7:+.2f}" in out
    before = results.read_text(encoding="utf-8")
    assert bench.main(args + ["--deals", "4"]) == 0
    assert results.read_text(encoding="utf-8") == before  # everything held: nothing played
    assert "every row within 0.1 turns: not met, 0 of 1 rows" in capsys.readouterr().out
