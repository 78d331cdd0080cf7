"""`--jobs`'s help says how many processes a run starts; the code starts that many (issue 33, class 10).

The figure is read from the help text itself (what docs/cli.md shows), so a help that drifts from
the code fails here: tune's help said runs under 1,000 a process stay in one process while a
300-game tune with --jobs 2 started two.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer.main

from sengoku.goldfish.options import usable_cores
from sengoku.goldfish.play import simulate
from sengoku.goldfish.play.simulate import MIN_RUNS_PER_JOB, processes_for
from sengoku.paths import data_dir

DECK = data_dir("decklists") / "tune" / "no-level4.toml"


def _help(command: str) -> str:
    import importlib

    from sengoku.cli import COMMAND_MODULES

    importlib.import_module(f"sengoku.cli.{COMMAND_MODULES[command]}")
    from sengoku.cli.root import app

    group = typer.main.get_command(app)
    (param,) = [p for p in group.commands[command].params if "--jobs" in p.opts]  # type: ignore[attr-defined]
    return param.help


def _per_process(help_text: str, unit: str) -> int:
    found = re.search(rf"at most one process per ([\d,]+) {unit}", help_text)
    assert found, help_text
    return int(found.group(1).replace(",", ""))


@pytest.mark.parametrize("command", ["goldfish", "compare"])
def test_goldfish_and_compare_start_what_their_help_says(command: str) -> None:
    per = _per_process(_help(command), "runs")
    assert per == MIN_RUNS_PER_JOB
    for runs, jobs, processes in ((1, 8, 1), (per - 1, 2, 1), (2 * per - 1, 2, 1), (2 * per, 2, 2),
                                  (10 * per, 4, 4), (3 * per, 8, 3)):
        assert processes_for(jobs, runs) == processes, (runs, jobs)


def _tune_processes(budget: int, *extra: str) -> str:
    done = subprocess.run([sys.executable, "-m", "sengoku", "tune", str(DECK), "--budget", str(budget),
                           "--jobs", "2", *extra], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    found = re.search(r"games/s on (1 process|\d+ local processes)\)", done.stderr)
    assert found, done.stderr
    return found.group(1)


def test_a_small_tune_stays_in_one_process_as_its_help_says(tmp_path: Path) -> None:
    per = _per_process(_help("tune"), "games the tune may play")
    assert per == MIN_RUNS_PER_JOB
    # A 300-game tune with --jobs 2 started two processes. A budget that small is now refused
    # before any game (the first look needs more), so a one-card pool keeps the tune small: its
    # 37 candidates' first look takes 1,950 games. The checks' games count too (two a run).
    pool = tmp_path / "pool.txt"
    pool.write_text("Kagetora Lv4\n", encoding="utf-8")
    least = 1_950
    assert least + 2 * 24 < 2 * per
    assert _tune_processes(least, "--pool", str(pool), "--check", "0") == "1 process"
    assert _tune_processes(2 * per - 1, "--pool", str(pool), "--check", "0") == "1 process"
    assert _tune_processes(least, "--pool", str(pool), "--check", "24") == "1 process"
    if usable_cores() >= 2:  # two games over the line start the second process
        assert _tune_processes(2 * per - 1, "--pool", str(pool), "--check", "1") == "2 local processes"


@pytest.mark.skipif(usable_cores() < 2, reason="needs two cores for two processes")
def test_a_tune_of_a_thousand_games_a_process_starts_them() -> None:
    per = _per_process(_help("tune"), "games the tune may play")
    assert _tune_processes(per, "--check", str(per // 2), "--max-changes", "0") == "2 local processes"


class _Pids:
    """A tally of `map_chunks`'s kind: its runs, in order, and the processes that played them."""

    def __init__(self, start: int = 0, stop: int = 0) -> None:
        self.order, self.runs, self.pids = list(range(start, stop)), stop - start, {os.getpid()} if stop > start else set()

    def merge(self, other: "_Pids") -> None:
        self.order += other.order
        self.runs += other.runs
        self.pids |= other.pids


def _sleepy(seconds_a_run: float, start: int, stop: int) -> _Pids:
    time.sleep(seconds_a_run * (stop - start))
    return _Pids(start, stop)


@pytest.mark.parametrize("seconds_a_run, processes", [(0.0, None), (0.05, 2)])
def test_slow_games_get_the_processes_the_help_promises(monkeypatch, seconds_a_run: float, processes) -> None:
    """Under 1,000 runs a process, fast games stay in this one; games slow enough that the first 8 runs
    foretell over a second of play for the other 32 start both processes asked for (help: one per half second)."""
    started: list[int] = []
    pool = simulate.ProcessPool

    def recording(jobs: int, shared=None):
        started.append(jobs)
        return pool(jobs, shared)

    monkeypatch.setattr(simulate, "ProcessPool", recording)
    help_text = _help("goldfish")
    assert "first 8 runs" in help_text and "one per half second of play" in help_text
    assert simulate.PROBE_RUNS == 8 and simulate.SECONDS_PER_JOB == 0.5
    total = simulate.map_chunks(seconds_a_run, _sleepy, _Pids(), 0, 40, jobs=2)
    assert total.order == list(range(40))  # every run once, merged in run order
    if processes is None:
        assert started == [] and total.pids == {os.getpid()}
    else:  # 8 runs timed here at >= 0.05 s: >= 1.6 s foretold for the 32 left, three half seconds: both processes
        assert started == [processes] and len(total.pids - {os.getpid()}) >= 1
