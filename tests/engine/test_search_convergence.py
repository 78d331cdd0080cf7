"""benchmarks/search_convergence.py: rows of the test set played by two searches on the same deals, written
as they go and resumed from the file; the verdict on 0.02 turns worked by hand."""

from __future__ import annotations

import json
import re

import pytest

import sengoku

from .conftest import benchmark_script

CHEAP = ["--base", "rollouts=1", "--base", "confirm=2", "--base", "horizon=6"]
ROW = ["--deck", "bundled/low-curve-1", "--setting", "second", "--turns", "6", "--chunk", "1"]


@pytest.fixture(scope="module")
def bench():
    with benchmark_script("search_convergence") as script:
        yield script


def lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_the_verdict_on_002_turns(bench):
    assert bench.verdict(0.005, 0.01, 100) == "yes"  # -0.005 .. 0.015: inside ±0.02
    assert bench.verdict(-0.05, 0.02, 100) == "no"  # -0.07 .. -0.03: wholly beyond
    assert bench.verdict(0.01, 0.02, 100) == "open (about 100 deals for a ±0.02 interval)"
    assert bench.verdict(0.01, 0.04, 100) == "open (about 400 deals for a ±0.02 interval)"  # (0.04/0.02)² × 100
    assert bench.verdict(0.0, 0.0, 29).startswith("open (29 deals")  # too few deals for any verdict


def test_a_row_is_judged_at_doubling_looks_each_at_a_bonferroni_level(bench):
    assert bench.looks_of(2000, 10) == [30, 60, 120, 240, 480, 960, 1920, 2000]
    assert bench.looks_of(100, 25) == [50, 75, 100]  # 30 and 60 rounded up to whole chunks
    assert bench.looks_of(3, 1) == [3]
    # 31 differences: 30 zeros and one 1: mean 1/31 = 0.0323, sd = sqrt((1 - 1/31) / 30) = 0.1796
    diffs = [0] * 30 + [1]
    mean, half, sd = bench.half_width(diffs, 0.05)
    assert mean == pytest.approx(1 / 31) and sd == pytest.approx(0.1796, abs=1e-4)
    assert half == pytest.approx(2.0423 * 0.1796 / 31 ** 0.5, abs=1e-4)  # t(0.975, 30) = 2.0423
    _, narrow, _ = bench.half_width(diffs, 0.05 / 8)  # eight looks: t(1 - 0.003125, 30) = 2.94092 (scipy)
    assert narrow == pytest.approx(2.94092 * 0.1796 / 31 ** 0.5, abs=1e-4)


def store(path, deck_hash, bench, kills, chunk):
    """Write stored chunks of `chunk` deals: kills maps (setting, policy) to its kill turns, deal by deal."""
    with path.open("w", encoding="utf-8") as out:
        for (setting, which), k in kills.items():
            for start in range(0, len(k), chunk):
                out.write(json.dumps({"deck": "bundled/low-curve-1", "deck_hash": deck_hash, "setting": setting,
                                      "policy": which,
                                      "settings": bench.resolved({} if which == "search" else bench.STRONG),
                                      "version": sengoku.__version__,
                                      "turns": 12, "seed": 0, "start": start, "stop": start + chunk,
                                      "kill_turns": k[start:start + chunk], "cpu": 1.0}) + "\n")


@pytest.fixture(scope="module")
def low_curve_hash(bench, tmp_path_factory):
    from sengoku.generate.deckset import build_deckset, load_deckset

    built = build_deckset(load_deckset(bench.TEST_SET), tmp_path_factory.mktemp("set"))
    return next(d.deck_hash for d in built.decks if d.name == "bundled/low-curve-1")


def test_a_sequential_run_stops_a_row_at_its_first_verdict(bench, tmp_path, low_curve_hash, capsys):
    # deals 0-29 three times 1 turn sooner, then 30-59 every one: open at 30, "no" at 60 (nothing more played)
    sooner = [3] * 27 + [2] * 3 + [2] * 30
    kills = {("second", "search"): [3] * 60, ("second", "stronger"): sooner}
    results = tmp_path / "stored.jsonl"
    store(results, low_curve_hash, bench, kills, 15)
    before = results.read_text(encoding="utf-8")
    assert bench.main(["--deck", "bundled/low-curve-1", "--setting", "second",
                       "--deals", "120", "--chunk", "15", "--results", str(results)]) == 0
    assert results.read_text(encoding="utf-8") == before  # the row stopped on what was held: nothing played
    out = capsys.readouterr().out
    assert "judged after 30, 60, 120 deals" in out and "at the 98.33% level (0.05 / 3 looks" in out
    # 60 deals: 33 of -1 and 27 of 0: mean -0.55, sd 0.5017; t(1 - 0.05/6, 59) = 2.4642 (scipy): half 0.1596
    assert "| bundled/low-curve-1 | second | 60 | 3.000 | 2.450 | -0.550 (-0.710 to -0.390) | no |" in out


def test_deals_all_alike_give_no_verdict(bench, tmp_path, low_curve_hash, capsys):
    # 30 deals alike: no spread, so no interval (compare's rule), not "yes"
    kills = {("first", "search"): [3] * 30, ("first", "stronger"): [3] * 30}
    results = tmp_path / "stored.jsonl"
    store(results, low_curve_hash, bench, kills, 30)
    assert bench.main(["--deck", "bundled/low-curve-1", "--setting", "first", "--deals", "30", "--chunk", "30",
                       "--results", str(results)]) == 0
    assert ("| bundled/low-curve-1 | first | 30 | 3.000 | 3.000 | +0.000 (+0.000 to +0.000) "
            "| open (all 30 deals alike: no interval yet) |") in capsys.readouterr().out


def test_rows_are_written_as_they_go_and_a_second_run_plays_only_what_is_missing(bench, tmp_path, capsys):
    results = tmp_path / "conv.jsonl"
    same = CHEAP + ["--strong", "rollouts=1", "--strong", "confirm=2", "--strong", "horizon=6", "--strong",
                    "max_steps=12"]  # the stronger search set to the first one's settings: the same games
    assert bench.main(ROW + same + ["--deals", "2", "--results", str(results)]) == 0
    first = lines(results)
    assert [(r["policy"], r["start"]) for r in first] == [("search", 0), ("stronger", 0), ("search", 1),
                                                          ("stronger", 1)]
    assert bench.main(ROW + same + ["--deals", "3", "--results", str(results)]) == 0
    again = lines(results)
    assert again[:4] == first and [(r["policy"], r["start"]) for r in again[4:]] == [("search", 2), ("stronger", 2)]
    out = capsys.readouterr().out
    kills = {p: [k for r in again if r["policy"] == p for k in r["kill_turns"]] for p in ("search", "stronger")}
    assert kills["search"] == kills["stronger"]  # same deals, same settings: the same games, deal by deal
    mean = sum(kills["search"]) / 3
    row = [line for line in out.splitlines() if line.startswith("| bundled/low-curve-1 | second |")][-1]
    assert row == (f"| bundled/low-curve-1 | second | 3 | {mean:.3f} | {mean:.3f} | +0.000 (+0.000 to +0.000) "
                   "| open (3 deals; a verdict needs 30) |")


def test_the_stronger_search_of_one_check_is_the_first_of_the_next_with_no_game_played_again(bench, tmp_path, capsys):
    results = tmp_path / "conv.jsonl"
    stronger = ["rollouts=2", "confirm=4", "horizon=6", "max_steps=0"]
    assert bench.main(ROW + CHEAP + [a for x in stronger for a in ("--strong", x)] + ["--deals", "2", "--results",
                                                                                   str(results)]) == 0
    first = lines(results)
    assert [(r["policy"], r["start"]) for r in first] == [("search", 0), ("stronger", 0), ("search", 1),
                                                          ("stronger", 1)]
    # the next check: that stronger search (the same settings) against one stronger still
    assert bench.main(ROW + [a for x in stronger for a in ("--base", x)] + [
        "--strong", "rollouts=3", "--strong", "confirm=5", "--strong", "horizon=6",
        "--deals", "2", "--results", str(results)]) == 0
    added = lines(results)[4:]
    assert [(r["policy"], r["settings"]["rollouts"]) for r in added] == [("stronger", 3), ("stronger", 3)]
    out = capsys.readouterr().out.split("command:")[-1]
    mean = sum(k for r in first if r["policy"] == "stronger" for k in r["kill_turns"]) / 2
    row = [line for line in out.splitlines() if line.startswith("| bundled/low-curve-1 | second |")][-1]
    assert row.startswith(f"| bundled/low-curve-1 | second | 2 | {mean:.3f} |")  # its games, taken from the file


def test_a_stronger_search_plays_the_same_deals(bench, tmp_path, capsys):
    results = tmp_path / "conv.jsonl"
    assert bench.main(ROW + CHEAP + ["--strong", "rollouts=2", "--strong", "confirm=4", "--strong", "horizon=6",
                                     "--deals", "2", "--results", str(results)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"search with rollouts=1, confirm=2, horizon=6 against search with rollouts=2, confirm=4, "
                     r"max_steps=0, horizon=6", out)
    stored = lines(results)
    assert {r["deck_hash"] for r in stored} == {stored[0]["deck_hash"]} and len(stored) == 4
    assert "CPU s a game over the 2 games of these rows" in out and "the whole set (24 decks x 4 settings)" in out


def test_a_stored_run_is_summarised_without_playing(bench, tmp_path, capsys):
    from sengoku.generate.deckset import build_deckset, load_deckset

    built = build_deckset(load_deckset(bench.TEST_SET), tmp_path / "set")
    deck_hash = next(d.deck_hash for d in built.decks if d.name == "bundled/low-curve-1")
    kills = {"search": [[3, 3], [4, 3]], "stronger": [[3, 3], [3, 4]]}  # deal by deal: 0, 0, -1, +1
    seconds = {"search": 1.0, "stronger": 2.0}  # a chunk of 2 games: 0.5 and 1.0 CPU s a game
    results = tmp_path / "stored.jsonl"
    with results.open("w", encoding="utf-8") as out:
        for which, settings in (("search", bench.resolved({})), ("stronger", bench.resolved(bench.STRONG))):
            for start, chunk in zip((0, 2), kills[which]):
                out.write(json.dumps({"deck": "bundled/low-curve-1", "deck_hash": deck_hash, "setting": "first",
                                      "policy": which, "settings": settings, "version": sengoku.__version__,
                                      "turns": 12, "seed": 0,
                                      "start": start, "stop": start + 2, "kill_turns": chunk,
                                      "cpu": seconds[which]}) + "\n")
    before = results.read_text(encoding="utf-8")
    assert bench.main(["--deck", "bundled/low-curve-1", "--setting", "first", "--deals", "4", "--chunk", "2",
                       "--results", str(results)]) == 0
    assert results.read_text(encoding="utf-8") == before  # everything was held: nothing played
    out = capsys.readouterr().out
    # mean difference 0; standard deviation sqrt(2/3) = 0.816; t(3) = 3.182: half-width 3.182 x 0.816 / 2 = 1.299
    assert "| bundled/low-curve-1 | first | 4 | 3.250 | 3.250 | +0.000 (-1.299 to +1.299) | open (4 deals" in out
    # (1.96 x 0.816 / 0.02)^2 = 6402.7 deals; 24 decks x 4 settings x 6403 deals x 1.5 CPU s = 256.1 hours
    assert "standard deviation of 0.82 to 0.82 turns here: a +-0.02 interval needs about 6403 deals a row" in out
    assert "about 256 CPU hours" in out


def test_a_setting_that_is_not_searchs_is_refused(bench, capsys):
    with pytest.raises(SystemExit) as info:
        bench.main(ROW + ["--strong", "depth=3"])
    assert info.value.code == 2 and "'depth=3'" in capsys.readouterr().err


def test_the_rows_are_also_pooled_deal_by_deal(bench, tmp_path, low_curve_hash, capsys):
    # deal by deal: first 0, 0, -1, +1; second 0, 0, 0, -1
    kills = {("first", "search"): [3, 3, 4, 3], ("first", "stronger"): [3, 3, 3, 4],
             ("second", "search"): [3, 3, 3, 3], ("second", "stronger"): [3, 3, 3, 2]}
    results = tmp_path / "stored.jsonl"
    store(results, low_curve_hash, bench, kills, 4)
    assert bench.main(["--deck", "bundled/low-curve-1", "--setting", "first", "--setting", "second", "--deals", "4",
                       "--chunk", "4", "--results", str(results)]) == 0
    out = capsys.readouterr().out
    # 8 differences: mean -1/8; sd sqrt(2.875 / 7) = 0.6409; t(7) = 2.3646: half-width 2.3646 x 0.6409 / sqrt(8) = 0.536
    assert "stronger - search -0.125 (-0.661 to +0.411, 95%)" in out


def test_games_of_another_budget_or_version_are_not_mixed_in(bench, tmp_path, low_curve_hash):
    kills = {("second", "search"): [3] * 30, ("second", "stronger"): [2] * 30}
    results = tmp_path / "stored.jsonl"
    store(results, low_curve_hash, bench, kills, 30)
    held = bench.read_results(results)
    assert len(held) == 2
    # the 0.10.0 search's games (4 + 12 rollouts, a cap of 12 steps) are keyed apart from today's search's
    assert bench.resolved({})["rollouts"] == 16 and bench.resolved({"rollouts": 4})["rollouts"] == 4
    assert bench.resolved({}) != bench.resolved({"rollouts": 4, "confirm": 12, "max_steps": 12})
    older = results.read_text(encoding="utf-8").replace(f'"version": "{sengoku.__version__}"', '"version": "0.0.1"')
    results.write_text(older, encoding="utf-8")
    assert set(bench.read_results(results)) & set(held) == set()  # another version's lines: none of today's games


def test_searchs_games_are_taken_from_a_policy_table_and_are_the_games_it_plays(bench, tmp_path, capsys):
    # the policy table plays `search` as it ships on deal 0; the stronger search set to the same
    # settings but a cap of 1,000 steps a turn (none binds: another key, the same games) plays the same
    # games from the same seeds, so the taken game must equal the stronger's
    with benchmark_script("policy_bench") as table:
        assert table.main(["--set", str(bench.TEST_SET), "--deck", "bundled/low-curve-1", "--setting", "second",
                           "--deals", "1", "--turns", "6", "--chunk", "1",
                           "--results", str(tmp_path / "table.jsonl")]) == 0
    played = {r["start"]: r["kill_turns"][0] for r in lines(tmp_path / "table.jsonl") if r["policy"] == "search"}
    results = tmp_path / "conv.jsonl"
    same = ["--strong", f"rollouts={bench.resolved({})['rollouts']}", "--strong",
            f"confirm={bench.resolved({})['confirm']}", "--strong", "max_steps=1000"]
    assert bench.main(ROW + same + ["--deals", "2", "--results", str(results),
                                    "--base-from", str(tmp_path / "table.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "search's games taken from" in out and ": 1\n" in out  # deal 0; deal 1 is not in the table
    stored = lines(results)
    assert sorted((r["policy"], r["start"]) for r in stored) == [("search", 1), ("stronger", 0), ("stronger", 1)]
    stronger = {r["start"]: r["kill_turns"][0] for r in stored if r["policy"] == "stronger"}
    assert stronger[0] == played[0]


def test_base_from_stands_only_for_search_as_it_ships(bench, tmp_path, capsys):
    (tmp_path / "table.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        bench.main(ROW + CHEAP + ["--base-from", str(tmp_path / "table.jsonl")])
    assert info.value.code == 2 and "--base-from" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        bench.main(ROW + ["--base-from", str(tmp_path / "missing.jsonl")])
    assert info.value.code == 2 and "missing.jsonl: no such file" in capsys.readouterr().err


def test_a_settings_mean_beyond_002_proves_a_row_beyond(bench):
    # rows: (search mean, stronger mean, difference, half-width, deals, spread, verdict, setting)
    rows = [(3.0, 2.96, -0.04, 0.05, 100, 0.25, "open", "second-defends"),
            (3.0, 2.97, -0.03, 0.05, 100, 0.25, "open", "second-defends"),
            (3.0, 3.0, 0.0, 0.05, 100, 0.25, "open", "first"), (3.0, 3.01, 0.01, 0.05, 100, 0.25, "open", "first"),
            (3.0, 3.0, 0.0, 0.05, 100, 0.25, "open", "second")]  # one row of second: no mean
    # second-defends: mean -0.035, half 1.96 x sqrt(2 x 0.0625 / 100) / 2 = 0.03465: -0.0697 to -0.0004, open
    # first: mean +0.005, the same half-width: open
    out = bench.setting_means(rows)
    assert out == ["  first, the mean of its 2 rows' differences: +0.005 (-0.030 to +0.040, 95%): open",
                   "  second-defends, the mean of its 2 rows' differences: -0.035 (-0.070 to -0.000, 95%): open"]
    far = [(3.0, 2.9, -0.1, 0.02, 400, 0.2, "no", "first")] * 2  # mean -0.1, half 1.96 x sqrt(2 x 0.0001) / 2
    assert bench.setting_means(far) == ["  first, the mean of its 2 rows' differences: -0.100 (-0.114 to -0.086, "
                                        "95%): wholly beyond 0.02: some row of it is beyond 0.02, search has not "
                                        "converged there"]
    near = [(3.0, 3.0, 0.001, 0.002, 10000, 0.05, "yes", "first")] * 2
    assert bench.setting_means(near)[0].endswith("wholly within 0.02 (each row still needs its own verdict)")
