"""benchmarks/policy_bench.py --set: a deck set's decks, each with its own card database, on the same deals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import benchmark_script

TEST_SET = Path(__file__).resolve().parents[2] / "benchmarks" / "decksets" / "test.toml"


@pytest.fixture(scope="module")
def bench():
    with benchmark_script("policy_bench") as script:
        yield script


def test_a_generated_database_deck_of_the_test_set_is_played(bench, tmp_path, capsys):
    stored = tmp_path / "run.json"
    assert bench.main(["--set", str(TEST_SET), "--deck", "gen-1001/low-curve-1", "--deck", "bundled/sixty-1",
                       "--setting", "first", "--deals", "3", "--against", "develop", "--json", str(stored)]) == 0
    out = capsys.readouterr().out
    kills = json.loads(stored.read_text(encoding="utf-8"))["kill_turns"]
    greedy = kills["gen-1001/low-curve-1|first|greedy"]
    assert len(greedy) == 3 and all(2 <= k <= 12 for k in greedy)  # won, and never on turn 1 (S8)
    assert kills["gen-1001/low-curve-1|first|develop"] == [13, 13, 13]  # develop never attacks: turns + 1
    mean = sum(greedy) / 3
    assert f"| gen-1001/low-curve-1 | first | {mean:.2f} | 13.00 | {mean - 13:+.2f}" in out
    assert "| bundled/sixty-1 | first |" in out


def test_a_deck_the_set_does_not_hold_is_named(bench):
    with pytest.raises(SystemExit, match="no deck gen-1001/nothing-1 in .*test.toml"):
        bench.main(["--set", str(TEST_SET), "--deck", "gen-1001/nothing-1", "--deals", "1"])
