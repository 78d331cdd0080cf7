"""Time commands as whole processes: the CPU seconds (user + system) and wall seconds of each run.

Used by startup_bench.py and big_db_bench.py. CPU time is read from the operating system's
accounting of the finished child (`resource.getrusage(RUSAGE_CHILDREN)`), which a busy machine
disturbs less than wall time; commands are run in turn, A B A B ..., so drift hits all alike.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import time
from collections.abc import Mapping, Sequence


def run_once(cmd: Sequence[str], env: Mapping[str, str] | None = None) -> tuple[float, float]:
    """Run `cmd` (stdout and stderr thrown away); return (cpu seconds, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(list(cmd), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={**os.environ, **(env or {})}, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def medians(commands: Mapping[str, Sequence[str]], runs: int, env: Mapping[str, Mapping[str, str]] | None = None,
            warmup: int = 1) -> dict[str, tuple[float, float]]:
    """Run every command `warmup` + `runs` times, in turn; return name -> (median cpu s, median wall s)."""
    env = env or {}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    wall: dict[str, list[float]] = {name: [] for name in commands}
    for i in range(warmup + runs):
        for name, cmd in commands.items():
            c, w = run_once(cmd, env.get(name))
            if i >= warmup:
                cpu[name].append(c)
                wall[name].append(w)
    return {name: (statistics.median(cpu[name]), statistics.median(wall[name])) for name in commands}


def peak_rss(cmd: Sequence[str], env: Mapping[str, str] | None = None) -> tuple[int, int]:
    """Run `cmd` (stdout and stderr thrown away); return (its peak resident set size in bytes, exit code).

    Read from the operating system's accounting of that one child (`os.wait4`), not of every
    child so far (`RUSAGE_CHILDREN` keeps the largest child's peak).
    """
    proc = subprocess.Popen(list(cmd), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, **(env or {})})
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss * 1024, proc.returncode  # Linux reports kilobytes
