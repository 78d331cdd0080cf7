"""benchmarks/search_convergence.py: rows of the test set played by two searches on the same deals, written
as they go and resumed from the file; the verdict on 0.02 turns worked by hand."""

from __future__ import annotations

import json
import re

import pytest

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
    assert row == (f"| bundled/low-curve-1 | second | {mean:.3f} | {mean:.3f} | +0.000 (+0.000 to +0.000) "
                   "| open (3 deals; a verdict needs 30) |")


def test_a_stronger_search_plays_the_same_deals(bench, tmp_path, capsys):
    results = tmp_path / "conv.jsonl"
    assert bench.main(ROW + CHEAP + ["--strong", "rollouts=2", "--strong", "confirm=4", "--strong", "horizon=6",
                                     "--deals", "2", "--results", str(results)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"search with rollouts=1, confirm=2, horizon=6 against search with rollouts=2, confirm=4, "
                     r"max_steps=0, horizon=6", out)
    stored = lines(results)
    assert {r["deck_hash"] for r in stored} == {stored[0]["deck_hash"]} and len(stored) == 4
    assert "CPU s a game" in out and "a whole run (24 decks x 4 settings x 2 deals" in out


def test_a_setting_that_is_not_searchs_is_refused(bench, capsys):
    with pytest.raises(SystemExit) as info:
        bench.main(ROW + ["--strong", "depth=3"])
    assert info.value.code == 2 and "'depth=3'" in capsys.readouterr().err
