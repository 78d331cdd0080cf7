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
