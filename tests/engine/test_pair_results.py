"""benchmarks/pair_results.py pairs two versions' chunks of a policy_bench.py results file, deal by deal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import benchmark_script


@pytest.fixture(scope="module")
def tool():
    with benchmark_script("pair_results") as script:
        yield script


def _line(version: str, kills: list[int], *, seed: int = 0, policy: str = "greedy", setting: str = "second",
          deck: str = "d") -> str:
    return json.dumps({"deck": deck, "deck_hash": "h" + deck, "setting": setting, "policy": policy, "version": version,
                       "turns": 12, "seed": seed, "start": 0, "stop": len(kills), "kill_turns": kills, "cpu": 0.1})


def test_the_same_deals_of_two_versions_are_paired_and_nothing_else(tool, tmp_path: Path, capsys) -> None:
    results = tmp_path / "results.jsonl"
    results.write_text("\n".join([
        _line("1.0", [3, 4, 5]), _line("1.1", [3, 3, 4]),      # paired: after - before = 0, -1, -1
        _line("1.0", [9, 9, 9], seed=5),                       # other deals, with no later chunk: not paired
        _line("1.1", [2, 2, 2], seed=6),                       # other deals, with no earlier chunk: not paired
        _line("1.0", [3], policy="search"),                    # a policy only one version played
        '{"cut short',                                         # a line a stopped run left: skipped
    ]) + "\n", encoding="utf-8")
    assert tool.main([str(results), "--before", "1.0", "--after", "1.1"]) == 0
    out = capsys.readouterr().out.splitlines()
    # mean -2/3; the sample SD is sqrt(1/3), so the half-width is t(0.975, 2 df) 4.303 x sqrt(1/3) / sqrt(3)
    assert out[0] == "greedy second: 1.1 - 1.0 -0.6667 ± 1.4342 (3 deals)"
    assert out[1] == "greedy every setting: 1.1 - 1.0 -0.6667 ± 1.4342 (3 deals)"
    assert out[2] == "search: no deal played by both 1.0 and 1.1"
    assert tool.main([str(results), "--before", "1.0", "--after", "2.0"]) == 1  # nothing to pair
    assert tool.main([str(tmp_path / "missing.jsonl"), "--before", "1.0", "--after", "1.1"]) == 2


def test_deck_keeps_the_named_decks_chunks_alone(tool, tmp_path: Path, capsys) -> None:
    results = tmp_path / "results.jsonl"
    results.write_text("\n".join([
        _line("1.0", [3, 4], deck="a/x-1"), _line("1.1", [2, 3], deck="a/x-1"),  # -1, -1
        _line("1.0", [3, 3], deck="b/y-1"), _line("1.1", [5, 5], deck="b/y-1"),  # +2, +2
    ]) + "\n", encoding="utf-8")
    assert tool.main([str(results), "--before", "1.0", "--after", "1.1", "--deck", "a/x-1"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "greedy second: 1.1 - 1.0 -1.0000 ± 0.0000 (2 deals)"
    assert tool.main([str(results), "--before", "1.0", "--after", "1.1", "--deck", "b/y-1"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "greedy second: 1.1 - 1.0 +2.0000 ± 0.0000 (2 deals)"
    assert tool.main([str(results), "--before", "1.0", "--after", "1.1", "--deck", "a/x-1", "--deck", "b/y-1"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("+0.5000 ± 2.7560 (4 deals)")  # -1,-1,2,2: SD sqrt(3); t(0.975, 3 df) 3.182 x sqrt(3) / 2
    assert tool.main([str(results), "--before", "1.0", "--after", "1.1", "--deck", "c/z-1"]) == 2
    assert "no deck c/z-1 (the file has: a/x-1, b/y-1)" in capsys.readouterr().err
