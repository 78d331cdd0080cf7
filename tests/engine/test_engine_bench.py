"""benchmarks/engine_bench.py --set: time the default policy with one of its settings changed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "engine_bench.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    # A process of its own, as the benchmark is run.
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=120)


def test_a_setting_is_set_before_the_games_and_named_in_the_header():
    done = _run("--policy", "greedy", "--games", "200", "--repeat", "1", "--set", "fitted_focus=False",
                "--set", "fitted_margin=0.05")
    assert done.returncode == 0, done.stderr
    header = done.stdout.splitlines()[1]
    assert header.endswith("games per CPU second of one core; fitted_focus=False; fitted_margin=0.05")
    assert "greedy:" in done.stdout and "of the minimal loop" in done.stdout


def test_an_unknown_setting_or_a_bad_value_is_refused():
    done = _run("--set", "no_such_rule=1")
    assert done.returncode == 2 and "greedy has no setting 'no_such_rule'" in done.stderr
    done = _run("--set", "fitted_margin=abc")
    assert done.returncode == 2 and "'abc' is not a Python literal" in done.stderr


def test_a_removed_setting_is_named_as_removed():
    done = _run("--set", "min_hit=0.05")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--set min_hit=0.05: greedy's setting min_hit was removed" in done.stderr
