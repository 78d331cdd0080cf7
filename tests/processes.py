"""Real `sengoku` processes for the tests on signals and workers: start one, find its workers (Linux /proc)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Any


def start_sengoku(*args: str, **popen: Any) -> subprocess.Popen[Any]:
    """Start `python -m sengoku ARGS` in a session of its own (so its whole group can be signalled).

    Ctrl-C is set back to its default first, as a terminal starts a command: a test run started in
    the background by a non-interactive shell (`pytest ... &`) inherits SIGINT ignored, and Python
    then keeps ignoring it, so the Ctrl-C tests would wait for a process that cannot hear them.
    """
    restore = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
               "os.execv(sys.executable, [sys.executable, '-m', 'sengoku', *sys.argv[1:]])")
    return subprocess.Popen([sys.executable, "-c", restore, *args], start_new_session=True, **popen)


def children(pid: int) -> list[int]:
    """The pids of the processes `pid` started (its workers)."""
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return found


def wait_for_workers(p: subprocess.Popen[Any], count: int, seconds: float) -> list[int]:
    """Wait up to `seconds` for `p` to have `count` workers (or to end); return its workers then."""
    deadline = time.monotonic() + seconds
    while len(children(p.pid)) < count and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return children(p.pid)


def running(pid: int) -> bool:
    """Whether `pid` is a live process (not ended, not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def gone_within(pids: list[int], seconds: float) -> list[int]:
    """Wait up to `seconds` for every pid to end; return those still running (then killed)."""
    deadline = time.monotonic() + seconds
    while any(running(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [p for p in pids if running(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)
    return left
